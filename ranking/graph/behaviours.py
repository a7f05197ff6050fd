"""Elixir's ``use X``: a module that uses X takes on the behaviour X's ``__using__`` quotes.

``DBConnection`` declares ``defmacro __using__(_), do: quote(do: @behaviour DBConnection)``,
and its adapters write ``use DBConnection``: they implement the behaviour though no
``@behaviour`` line of theirs says so. The type hierarchy reads the ``use`` as that.
"""

from __future__ import annotations

import re

from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind, Kind, Symbol
from symfuse.ranking.text import paths

_IMPORTS = frozenset({EdgeKind.IMPORTS})


def users(index: Index, module: Symbol) -> list[tuple[Symbol, float]]:
    """The modules that ``use`` ``module`` when its ``__using__`` gives its behaviour,
    with the import's confidence."""
    if not _gives_behaviour(index, module):
        return []
    return [
        (other, weight)
        for other, _, weight in index.neighbours(module.symbol_id, outgoing=False, kinds=_IMPORTS)
        if other.kind is Kind.MODULE and _writes_use(index, other, module.fqn)
    ]


def used(index: Index, module: Symbol) -> list[Symbol]:
    """The modules ``module`` uses whose ``__using__`` gives their behaviour."""
    if module.language != "elixir" or module.kind is not Kind.MODULE:
        return []
    return [
        other
        for other, _, _ in index.neighbours(module.symbol_id, outgoing=True, kinds=_IMPORTS)
        if _gives_behaviour(index, other) and _writes_use(index, module, other.fqn)
    ]


def _gives_behaviour(index: Index, module: Symbol) -> bool:
    """Whether the Elixir ``module``'s ``__using__`` quotes ``@behaviour`` of itself."""
    if module.language != "elixir" or module.kind is not Kind.MODULE:
        return False
    itself = re.compile(rf"@behaviour\s+(?:__MODULE__|{re.escape(module.fqn)})\b")
    for position in index.children.get(module.symbol_id, ()):
        child = index.symbols[position]
        if child.name == "__using__" and itself.search(_text(index, child)):
            return True
    return False


def _writes_use(index: Index, module: Symbol, name: str) -> bool:
    """Whether ``module``'s own lines say ``use Name``."""
    return re.search(rf"^\s*use\s+{re.escape(name)}\b", _text(index, module), re.M) is not None


def _text(index: Index, symbol: Symbol) -> str:
    return "\n".join(paths.read_lines(index, symbol.file)[symbol.line - 1 : symbol.end_line])
