"""Query understanding: questions about the call graph and path-shaped queries.

:func:`call_query` recognises "who calls X", "callers of X", "what calls X",
"where is X called", "callees of X", "what does X call" and returns the
direction and the target name; the call graph answers those, not a ranking.
:func:`is_path_shaped` says when ``mode: auto`` should do an exact lookup.
"""

from __future__ import annotations

import functools
import re

from symfuse.indexer.files import languages
from symfuse.ranking.query.responses import CallQuery

_TARGET = r"[`'\"]?(?P<target>[A-Za-z_$][\w$]*(?:(?:\.|::|#|->)[A-Za-z_$][\w$]*)*)(?:\(\))?[`'\"]?"
_END = r"\s*\??\s*$"

# Every question holds one of these (lower-cased); other queries are not matched, and the
# patterns compile on the first query that may be one (a name query never is).
_HINTS = ("call", "invok", "invoc", "use")
_CALLERS = (
    rf"^\s*(?:who|what|which\s+\w+)\s+(?:calls|invokes|uses)\s+{_TARGET}{_END}",
    rf"^\s*(?:(?:all\s+)?callers|call\s*sites|calls|invocations)\s+(?:of|to|for)\s+{_TARGET}{_END}",
    rf"^\s*where\s+(?:is|are)\s+{_TARGET}\s+(?:called|invoked|used){_END}",
    rf"^\s*find\s+(?:the\s+)?callers\s+of\s+{_TARGET}{_END}",
)
_CALLEES = (
    rf"^\s*(?:callees|calls\s+made\s+by|calls\s+from)\s+(?:of\s+)?{_TARGET}{_END}",
    rf"^\s*what\s+(?:does|do)\s+{_TARGET}\s+call{_END}",
    rf"^\s*(?:what|which\s+\w+)\s+is\s+called\s+by\s+{_TARGET}{_END}",
)


@functools.cache
def _patterns() -> tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]:
    def compiled(texts: tuple[str, ...]) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(text, re.I) for text in texts)

    return (("callees", compiled(_CALLEES)), ("callers", compiled(_CALLERS)))


def call_query(query: str) -> CallQuery | None:
    """("callers" | "callees", target) when ``query`` asks about the call graph."""
    lowered = query.lower()
    if not any(hint in lowered for hint in _HINTS):
        return None
    for direction, patterns in _patterns():
        for pattern in patterns:
            match = pattern.match(query)
            if match is not None:
                return CallQuery(direction, match.group("target").replace("->", "."))
    return None


_LINE_SUFFIX = re.compile(r":\d+(?::\d+)?$")


def is_path_shaped(query: str) -> bool:
    """A file path (``a/b.py``, ``b.py``, ``b.py:12``) or a symbol id (``a/b.py::C.f#method``)."""
    q = query.strip()
    if not q or " " in q:
        return False
    if "/" in q or "\\" in q:
        return True
    if "::" in q and languages.detect(q.split("::", 1)[0]) is not None:
        return True
    bare = _LINE_SUFFIX.sub("", q)
    return languages.detect(bare) is not None and "." in bare
