"""Answering "who calls X" / "what does X call" from the call graph.

:func:`symfuse.ranking.search.search` recognises such a query (its response
carries an ``intent``) and searches for X; :func:`call_graph_answer` then
turns the best matches for X into the callers or callees the question asks
for, as a typed :class:`CallGraphAnswer`. The query layer's ``search`` does
both steps, so every front end (CLI, MCP, LSP) gets the routed answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking import hierarchy
from symfuse.ranking.response import CallQuery, SearchResponse

MAX_ROUTED_TARGETS = 5


@dataclass(frozen=True, slots=True)
class RoutedCall:
    """A calling (or called) symbol, its best edge confidence and its call sites."""

    symbol: Symbol
    score: float
    via: str  # the target's symbol id it was reached from
    sites: str  # "file:line:col file:line:col ..."

    def to_dict(self) -> dict[str, Any]:
        s = self.symbol
        return {
            "symbol_id": s.symbol_id,
            "name": s.name,
            "kind": s.kind.value,
            "fqn": s.fqn,
            "signature": s.signature,
            "file": s.file,
            "line": s.line,
            "score": self.score,
            "via": self.via,
            "sites": self.sites,
        }


@dataclass(frozen=True, slots=True)
class CallGraphAnswer:
    """The answer to a call-graph question: a page of callers or callees of the targets."""

    query: str
    intent: CallQuery
    targets: tuple[str, ...]
    items: tuple[RoutedCall, ...]
    total: int

    @property
    def search_mode(self) -> str:
        return self.intent.direction

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "intent": self.intent.to_dict(),
            "targets": list(self.targets),
            "items": [item.to_dict() for item in self.items],
            "total": self.total,
            "search_mode": self.search_mode,
        }


def routed_targets(response: SearchResponse) -> list[Symbol]:
    """The symbols X names: exact qualified matches first, then exact names."""
    intent = response.intent
    if intent is None:
        return []
    wanted = intent.target.replace("::", ".").replace("#", ".")
    last = wanted.rsplit(".", 1)[-1]
    symbols = [item.symbol for item in response.items]
    exact = [
        s for s in symbols if s.name == last and (s.fqn == wanted or s.fqn.endswith("." + wanted))
    ] or [s for s in symbols if s.name == last]
    return exact[:MAX_ROUTED_TARGETS]


def call_graph_answer(
    index: Index, response: SearchResponse, limit: int, offset: int
) -> CallGraphAnswer | None:
    """Callers or callees of the symbols a call-graph question names (None: no such symbol).

    Rows are merged per calling (or called) symbol, best edge confidence first,
    each with its call sites as ``file:line:col``.
    """
    intent = response.intent
    targets = routed_targets(response)
    if intent is None or not targets:
        return None
    walk = hierarchy.callers if intent.direction == "callers" else hierarchy.callees
    rows: dict[str, RoutedCall] = {}
    for target in targets:
        result = walk(index, target.symbol_id, depth=1, limit=1000)
        for edge in result.items:
            sites = " ".join(f"{c.file}:{c.line}:{c.column}" for c in edge.sites)
            score = round(edge.confidence, 3)
            seen = rows.get(edge.symbol.symbol_id)
            if seen is not None:
                sites = f"{seen.sites} {sites}".strip()
                rows[seen.symbol.symbol_id] = RoutedCall(
                    seen.symbol, max(seen.score, score), seen.via, sites
                )
                continue
            rows[edge.symbol.symbol_id] = RoutedCall(edge.symbol, score, target.symbol_id, sites)
    ordered = sorted(rows.values(), key=lambda r: (-r.score, r.symbol.file, r.symbol.line))
    return CallGraphAnswer(
        query=response.query,
        intent=intent,
        targets=tuple(t.symbol_id for t in targets),
        items=tuple(ordered[offset : offset + limit]),
        total=len(ordered),
    )
