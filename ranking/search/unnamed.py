"""Whether an answer to one identifier holds a definition of that name.

Asked for ``RetryTransportHandler`` where nothing is so named, the fused ranking still
answers: the names nearest it, and definitions whose words it shares, the first with a
score near 1. A reader (an agent above all) should not take the first for the name asked
for, so the front ends say when no definition has the name (:func:`named_nowhere`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels.tokens import split_identifier

# The separators of a qualified name in the languages indexed: A.B, A::B, A\B, a->b, A#b.
_QUALIFIED = re.compile(r"::|->|[.\\#/]")
_IDENTIFIER = re.compile(r"[^\W\d]\w*")


def one_identifier(text: str) -> bool:
    """``text`` is one identifier of several parts (``BuildReport``, ``get_object_or_404``,
    ``Client.send``), not a word ("surface") or words ("queryset filter")."""
    words = text.split()
    return len(words) == 1 and len(split_identifier(words[0])) > 1


def named_nowhere(index: Index, query: str, answered: Iterable[Symbol]) -> str | None:
    """``query``, stripped, when it is one identifier and no definition in ``index`` bears
    that name (a qualified name's last part), else None. ``answered`` (the answer's first
    items, where such a definition ranks) is read before the index's name table."""
    text = query.strip()
    if not one_identifier(text):
        return None
    name = _QUALIFIED.split(text)[-1]
    if not _IDENTIFIER.fullmatch(name):
        return None
    folded, whole = name.casefold(), text.casefold()
    for symbol in answered:  # Elixir's modules are named with their dots
        if symbol.name.casefold() in (folded, whole) or symbol.fqn.casefold() == whole:
            return None
    return None if name in index.by_name or text in index.by_name else text
