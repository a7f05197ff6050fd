"""The navigation questions the language server asks, answered by ``symfuse.ranking``.

A thin layer over :mod:`symfuse.ranking.graph.positions`, :mod:`symfuse.ranking.graph.usages`
and :mod:`symfuse.ranking.graph.hierarchy` that keeps only what the LSP answers need.
Positions are the index's (1-based lines, 1-based code-point columns, ends
exclusive); the LSP layer converts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.api import USAGES_MAX_LIMIT as MAX_LIMIT
from symfuse.ranking.api import (
    CallGraphResult,
    definition_at,
    find_usages,
)
from symfuse.ranking.api import (
    callees as graph_callees,
)
from symfuse.ranking.api import (
    callers as graph_callers,
)
from symfuse.ranking.api import (
    subtypes as graph_subtypes,
)
from symfuse.ranking.api import (
    supertypes as graph_supertypes,
)
from symfuse.ranking.api import (
    symbol_at as graph_symbol_at,
)
from symfuse.ranking.query.requests import DEFAULT_MIN_CONFIDENCE

MAX_USAGES = MAX_LIMIT
MAX_CALLS = 1000


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a file: ``line`` with columns ``col..end_col`` (end exclusive)."""

    file: str
    line: int
    col: int
    end_col: int


@dataclass(frozen=True, slots=True)
class Call:
    """A caller or callee, with the call sites (in the caller) that link the two."""

    symbol: Symbol
    sites: tuple[Span, ...]


def definitions_at(index: Index, key: str, line: int, col: int) -> list[Symbol]:
    """The definitions the name at a position refers to (itself on a definition), best first."""
    try:
        found = definition_at(index, key, line, col)
    except SymfuseError:
        return []
    return [t.symbol for t in found.targets]


def symbol_at(index: Index, key: str, line: int, col: int) -> Symbol | None:
    """The definition named or referred to at a position (the most likely one)."""
    found = definitions_at(index, key, line, col)
    return found[0] if found else None


def enclosing(index: Index, key: str, line: int, col: int) -> Symbol | None:
    """The innermost definition whose span contains the position."""
    try:
        return graph_symbol_at(index, key, line, col)
    except SymfuseError:
        return None


def usages(index: Index, target: Symbol, include_declaration: bool) -> list[Span]:
    """The uses of ``target`` linked at least as surely as the usages default (guesses
    among same-named definitions left out), and its definition when asked, in file and
    line order."""
    try:
        found = find_usages(
            index,
            symbol_id=target.symbol_id,
            limit=MAX_USAGES,
            include_declaration=include_declaration,
            min_confidence=DEFAULT_MIN_CONFIDENCE,  # an editor lists references, not guesses
        )
    except SymfuseError:
        return []
    return [Span(u.file, u.line, u.column, u.end_column) for u in found.usages]


def callers(index: Index, s: Symbol) -> list[Call]:
    return _calls(graph_callers(index, s.symbol_id, depth=1, limit=MAX_CALLS))


def callees(index: Index, s: Symbol) -> list[Call]:
    return _calls(graph_callees(index, s.symbol_id, depth=1, limit=MAX_CALLS))


def _calls(result: CallGraphResult) -> list[Call]:
    return [
        Call(e.symbol, tuple(Span(c.file, c.line, c.column, c.end_column) for c in e.sites))
        for e in result.items
    ]


def supertypes(index: Index, s: Symbol) -> list[Symbol]:
    return [t.symbol for t in graph_supertypes(index, s) if t.symbol is not None]


def subtypes(index: Index, s: Symbol) -> list[Symbol]:
    return [t.symbol for t in graph_subtypes(index, s) if t.symbol is not None]
