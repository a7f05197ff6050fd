"""Whether an answer to one identifier holds a definition of that name.

Asked for ``RetryTransportHandler`` where nothing is so named, the fused ranking still
answers: the names nearest it, and definitions whose words it shares, the first with a
score near 1. A reader (an agent above all) should not take the first for the name asked
for, so the front ends say when no definition has the name (:func:`named_nowhere`).
"""

from __future__ import annotations

import re

from symfuse.indexer.index import Index
from symfuse.ranking.channels.tokens import split_identifier
from symfuse.ranking.query.responses import SearchResponse

# The separators of a qualified name in the languages indexed: A.B, A::B, A\B, a->b, A#b.
_QUALIFIED = re.compile(r"::|->|[.\\#/]")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")


def one_identifier(text: str) -> bool:
    """``text`` is one identifier of several parts (``BuildReport``, ``get_object_or_404``,
    ``Client.send``), not a word ("surface") or words ("queryset filter")."""
    words = text.split()
    return len(words) == 1 and len(split_identifier(words[0])) > 1


def asks_one_name(answer: SearchResponse) -> bool:
    """``answer`` is a first page of items for one identifier (what :func:`named_nowhere`
    looks at; a front end asks this before it takes the index)."""
    return not answer.offset and bool(answer.items) and one_identifier(answer.query.strip())


def named_nowhere(index: Index, answer: SearchResponse) -> str | None:
    """The query of ``answer``'s first page, stripped, when it is one identifier and no
    definition in ``index`` bears that name (a qualified name's last part), else None.
    The page's items (where such a definition ranks) are read before the name table."""
    if not asks_one_name(answer):
        return None
    answered = [item.symbol for item in answer.items]
    text = answer.query.strip()
    name = _QUALIFIED.split(text)[-1]
    if not _IDENTIFIER.fullmatch(name):
        return None
    folded, whole = name.casefold(), text.casefold()
    for symbol in answered:  # Elixir's modules are named with their dots
        if symbol.name.casefold() in (folded, whole) or symbol.fqn.casefold() == whole:
            return None
    return None if name in index.by_name or text in index.by_name else text
