"""The names a C macro's body uses, read from its text.

The C grammars leave a ``#define``'s value as one token of text (``preproc_arg``), so
``#define FFC_VERSION ((FFC_VERSION_YEAR << 16) | FFC_VERSION_MONTH)`` used neither
year nor month: a macro used only by another macro read as dead, and ``find_usages``
of a function called only from macros missed those calls. Each identifier in the body
becomes a reference (kind ``reference``: a macro's text may call or merely mention),
but for the function-like macro's own parameters, C's keywords, and words inside
string and character literals or comments.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
from tree_sitter import Node

from symfuse.indexer.extract.arguments import UNKNOWN
from symfuse.indexer.model import RefKind

# A literal or a comment (skipped whole), or a name (group 1).
_TOKEN = re.compile(
    rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|/\*.*?\*/|//[^\n]*|([A-Za-z_]\w*)', re.S
)
_NAME = re.compile(rb"[A-Za-z_]\w*")
_KEYWORDS = frozenset(
    b"""auto break case char const continue default defined do double else enum extern
    float for goto if inline int long register restrict return short signed sizeof static
    struct switch typedef union unsigned void volatile while bool true false NULL nullptr
    __VA_ARGS__ __FILE__ __LINE__ __func__ __attribute__ __declspec __typeof__ typeof
    class constexpr consteval const_cast decltype delete dynamic_cast explicit final friend
    mutable namespace new noexcept operator override private protected public
    reinterpret_cast static_assert static_cast template this throw try catch typename
    using virtual""".split()
)

# start and end byte, row, byte column, name, kind, qualifier, alias, arguments
Word = tuple[int, int, int, int, bytes, RefKind, str, str, int]


def macro_words(body: Node, source: bytes, parameters: list[Node] | None) -> Iterator[Word]:
    """A reference for each name in the macro body ``body`` (its ``@name`` node), but
    for the names of ``parameters`` (a function-like macro's ``preproc_params``)."""
    own = {w for p in parameters or () for w in _NAME.findall(source[p.start_byte : p.end_byte])}
    start = body.start_byte
    text = source[start : body.end_byte]
    row, column = body.start_point
    line_start = start - column  # the byte where the current line starts
    counted = 0  # the body's newlines before this offset are in ``row``
    for match in _TOKEN.finditer(text):
        word = match.group(1)
        if word is None or word in _KEYWORDS or word in own:
            continue
        offset = match.start(1)
        newlines = text.count(b"\n", counted, offset)
        if newlines:  # a body continued over lines with backslashes
            row += newlines
            line_start = start + text.rindex(b"\n", counted, offset) + 1
        counted = offset
        at = start + offset
        yield (at, at + len(word), row, at - line_start, word, RefKind.REFERENCE, "", "", UNKNOWN)


def blanked_words(source: bytes, text: bytes) -> list[Word]:
    """A reference for each name of ``source`` that ``text`` (``source`` rewritten by
    :mod:`.prepass`, byte for byte) blanks: ``SPDLOG_API`` in ``class SPDLOG_API
    logger``, ``FMT_ENABLE_IF(is_integer<T>::value)`` in a template's parameters. The
    grammar never sees them, yet they are uses of the macros and of the names they pass
    (without them every export macro of a library read as dead)."""
    if text is source or len(text) != len(source):
        return []
    differs = np.flatnonzero(np.frombuffer(source, np.uint8) != np.frombuffer(text, np.uint8))
    if not differs.size:
        return []
    breaks = np.flatnonzero(np.diff(differs) > 1)
    starts = differs[np.concatenate(([0], breaks + 1))].tolist()
    ends = (differs[np.concatenate((breaks, [differs.size - 1]))] + 1).tolist()
    runs: list[list[int]] = []
    for run_start, run_end in zip(starts, ends, strict=True):
        if runs and not source[runs[-1][1] : run_start].strip():
            runs[-1][1] = run_end  # one rewrite with spaces inside: `API( "a b" )`
        else:
            runs.append([run_start, run_end])
    words: list[Word] = []
    row, counted = 0, 0  # ``row``: the newlines of ``source`` before ``counted``
    for run_start, run_end in runs:
        for match in _TOKEN.finditer(source, run_start, run_end):
            word = match.group(1)
            if word is None or word in _KEYWORDS:
                continue
            at = match.start(1)
            row += source.count(b"\n", counted, at)
            counted = at
            column = at - source.rfind(b"\n", 0, at) - 1
            words.append((at, match.end(1), row, column, word, RefKind.REFERENCE, "", "", UNKNOWN))
    return words
