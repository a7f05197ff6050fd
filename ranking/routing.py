"""Answering "who calls X" / "what does X call" from the call graph.

:func:`symfuse.ranking.search.search` recognises such a query (its response
carries an ``intent``) and searches for X; :func:`call_graph_answer` then
turns the best matches for X into the callers or callees the question asks
for. Both front ends (the MCP ``search`` tool and ``symfuse search``) use it.
"""

from __future__ import annotations

from typing import Any

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking import hierarchy
from symfuse.ranking.response import SearchResponse

MAX_ROUTED_TARGETS = 5


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
) -> dict[str, Any] | None:
    """Callers or callees of the symbols a call-graph question names (None: no such symbol).

    Rows are merged per calling (or called) symbol, best edge confidence first,
    each with its call sites as ``file:line:col``.
    """
    intent = response.intent
    targets = routed_targets(response)
    if intent is None or not targets:
        return None
    walk = hierarchy.callers if intent.direction == "callers" else hierarchy.callees
    rows: dict[str, dict[str, Any]] = {}
    for target in targets:
        result = walk(index, target.symbol_id, depth=1, limit=1000)
        for edge in result.items:
            s = edge.symbol
            sites = " ".join(f"{c.file}:{c.line}:{c.column}" for c in edge.sites)
            row = rows.get(s.symbol_id)
            if row is not None:
                row["sites"] = f"{row['sites']} {sites}".strip()
                row["score"] = max(row["score"], round(edge.confidence, 3))
                continue
            rows[s.symbol_id] = {
                "symbol_id": s.symbol_id,
                "name": s.name,
                "kind": s.kind.value,
                "fqn": s.fqn,
                "signature": s.signature,
                "file": s.file,
                "line": s.line,
                "score": round(edge.confidence, 3),
                "via": target.symbol_id,
                "sites": sites,
            }
    ordered = sorted(rows.values(), key=lambda r: (-r["score"], r["file"], r["line"]))
    return {
        "query": response.query,
        "intent": intent.to_dict(),
        "targets": [t.symbol_id for t in targets],
        "items": ordered[offset : offset + limit],
        "total": len(ordered),
        "search_mode": intent.direction,
    }
