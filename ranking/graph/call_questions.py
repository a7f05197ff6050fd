"""Answering "who calls X" / "what does X call" from the call graph.

The query door reads the question once (:func:`symfuse.ranking.query.parse.parse`);
:func:`named_targets` finds every definition X names, and :func:`call_graph_answer`
turns them into the callers or callees the question asks for, as a typed
:class:`CallGraphAnswer`. No ranking runs for it: X is looked up by name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.graph import hierarchy
from symfuse.ranking.query.records import MAX_SHOWN_TARGETS, Record, shown, symbol_view
from symfuse.ranking.query.responses import CallQuery

_ROUTED = symbol_view("symbol_id", "name", "kind", "fqn", "signature", "file", "line")


@dataclass(frozen=True, slots=True)
class RoutedCall(Record):
    """A calling (or called) symbol, its best edge confidence and its call sites."""

    symbol: Symbol = field(metadata=shown(view=_ROUTED, flatten=True))
    score: float
    via: str  # the target's symbol id it was reached from
    sites: str  # "file:line:col file:line:col ..."


@dataclass(frozen=True, slots=True)
class CallGraphAnswer(Record):
    """The answer to a call-graph question: a page of callers or callees of the targets,
    shown with the first :data:`MAX_SHOWN_TARGETS` targets (those reached first) and how
    many there are: a common name ("who calls retry") names hundreds of definitions."""

    query: str
    intent: CallQuery = field(metadata=shown(view=CallQuery.to_dict))
    targets: tuple[str, ...] = field(
        metadata=shown(view=lambda targets: list(targets[:MAX_SHOWN_TARGETS]))
    )
    items: tuple[RoutedCall, ...]
    total: int
    target_count: int = field(init=False)  # len(targets)
    search_mode: str = field(init=False)  # the intent's direction, as search answers name it

    def __post_init__(self) -> None:
        object.__setattr__(self, "target_count", len(self.targets))
        object.__setattr__(self, "search_mode", self.intent.direction)


def named_targets(
    index: Index, intent: CallQuery, mask: npt.NDArray[np.bool_] | None
) -> tuple[Symbol, ...]:
    """Every definition the question names that passes the request's filters (``mask``):
    those whose qualified name ends with X as written, else every one named X's last part.

    Read from the whole index, not from a page of the search: "who calls X" is about all
    of them, whatever the limit.
    """
    wanted = intent.target.replace("::", ".").replace("#", ".")
    last = wanted.rsplit(".", 1)[-1]
    symbols = index.symbols
    named = [symbols[at] for at in index.by_name.get(last, ()) if mask is None or bool(mask[at])]
    exact = [s for s in named if s.fqn == wanted or s.fqn.endswith("." + wanted)]
    return tuple(sorted(exact or named, key=lambda s: (s.file, s.line, s.symbol_id)))


def call_graph_answer(
    index: Index,
    query: str,
    intent: CallQuery,
    targets: Sequence[Symbol],
    limit: int,
    offset: int,
) -> CallGraphAnswer | None:
    """Callers or callees of ``targets``, the symbols ``intent`` names (None: there are none).

    Rows are merged per calling (or called) symbol, best edge confidence first,
    each with its call sites as ``file:line:col``.
    """
    if not targets:
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
                # One call site reaching several namesakes (by name) is still one site.
                sites = " ".join(dict.fromkeys(f"{seen.sites} {sites}".split()))
                rows[seen.symbol.symbol_id] = RoutedCall(
                    seen.symbol, max(seen.score, score), seen.via, sites
                )
                continue
            rows[edge.symbol.symbol_id] = RoutedCall(edge.symbol, score, target.symbol_id, sites)
    ordered = sorted(rows.values(), key=lambda r: (-r.score, r.symbol.file, r.symbol.line))
    # the targets with rows first, as their rows come; then what may be called
    reached = {r.via: None for r in ordered}
    rest = sorted(
        (t for t in targets if t.symbol_id not in reached),
        key=lambda t: t.kind not in Kind.CALL_TARGETS,
    )
    return CallGraphAnswer(
        query=query,
        intent=intent,
        targets=(*reached, *(t.symbol_id for t in rest)),
        items=tuple(ordered[offset : offset + limit]),
        total=len(ordered),
    )
