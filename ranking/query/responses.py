"""The search answer: typed items, and ``to_dict()`` giving the DESIGN.md JSON shape.

Every item of one answer has the same keys (``null`` when empty), so that TOON
encodes the list as one compact table. ``detail_level`` chooses the keys:

- minimal: symbol_id, name, kind, file, line
- default: symbol_id, name, kind, fqn, signature, file, line, score
- full: default plus language, end_line, parent, decorators, extends,
  implements (each joined with ", " so the table stays flat), doc and source
  (the definition's lines, up to :data:`symfuse.ranking.search.snippets.SOURCE_LINES`)

With ``snippet_lines`` every item also gets ``end_line`` and ``snippet``, its
first lines of code after the signature (``null`` when the file cannot be read).

With ``fusion_debug`` every item also gets ``<channel>_rank`` and
``<channel>_contribution`` for each channel (``null`` where the channel did not
rank it), ``boost`` naming a guard that lifted it (``exact_name``) or the learned
re-ranking that placed it (``reranked``: its score is its new place's), and
``adjustments``: every change made to its score or place after fusion, in order,
joined with "; " (``null`` when none), each as ``<change> [x<factor>] [#<from>-><to>]:
<reason>`` (:class:`Adjustment`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from symfuse.indexer.model import Symbol
from symfuse.ranking.query.search_request import (
    Channel,
    DetailLevel,
    FusionWeights,
    ResponseFormat,
    SearchMode,
    SemanticMode,
)
from symfuse.ranking.search.repositories import RepositoryError


class Tier(StrEnum):
    HIGH = "high"
    MEDIUM = "medium"
    LOW = "low"


@dataclass(frozen=True, slots=True)
class ChannelHit:
    """Where one channel ranked an item (1-based) and what that added to its fused score."""

    rank: int
    contribution: float


class Change(StrEnum):
    """What kind of step changed an item's score or place after fusion."""

    DEMOTION = "demotion"  # tests, examples, benchmarks, documents: score times a share
    RERANK = "rerank"  # the learned re-ranking of the first answers moved it
    GUARD = "guard"  # the exact-name guard's order classes placed it
    COHERENCE = "coherence"  # its file's unit, matching the query too, lifted it
    OTHER = "other"  # any other multiplier or reorder


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One change to an item's fused score or place, with its reason (``fusion_debug``).

    ``factor`` multiplied its score (``None``: not a multiple); ``moved`` is its 1-based
    place in the list before and after the step (``None``: it kept its place).
    """

    change: Change
    reason: str
    factor: float | None = None
    moved: tuple[int, int] | None = None

    def text(self) -> str:
        """``demotion x0.3 #2->#9: <reason>``, as ``to_dict`` shows it."""
        parts = [self.change.value]
        factor = None if self.factor is None else f"{self.factor:.4f}".rstrip("0").rstrip(".")
        if factor is not None and factor != "1":  # to the 4 places scores show
            parts.append(f"x{factor}")
        if self.moved is not None:
            parts.append(f"#{self.moved[0]}->#{self.moved[1]}")
        return f"{' '.join(parts)}: {self.reason}"


@dataclass(frozen=True, slots=True)
class SearchItem:
    symbol: Symbol
    score: float
    tier: Tier | None = None
    channels: dict[Channel, ChannelHit] = field(default_factory=dict)
    boost: str | None = None
    snippet: str | None = None
    source: str | None = None
    removed_in: str | None = None  # include_removed: the commit that deleted it
    adjustments: tuple[Adjustment, ...] = ()  # with fusion_debug: changes after fusion

    def to_dict(
        self, detail: DetailLevel, debug: bool = False, snippets: bool = False
    ) -> dict[str, Any]:
        s = self.symbol
        out: dict[str, Any] = {"symbol_id": s.symbol_id, "name": s.name, "kind": s.kind.value}
        if detail is DetailLevel.MINIMAL:
            out["file"] = s.file
            out["line"] = s.line
        else:
            out["fqn"] = s.fqn
            out["signature"] = s.signature
            out["file"] = s.file
            out["line"] = s.line
            out["score"] = round(self.score, 4)
        out["repository"] = s.root
        if self.removed_in is not None:
            out["is_removed"] = True
            out["removed_in"] = self.removed_in
        if detail is DetailLevel.FULL:
            out["language"] = s.language
            out["end_line"] = s.end_line
            out["parent"] = s.parent
            out["decorators"] = ", ".join(s.decorators)
            out["extends"] = ", ".join(s.extends)
            out["implements"] = ", ".join(s.implements)
            out["doc"] = s.doc
            out["source"] = self.source
        if snippets:
            out["end_line"] = s.end_line
            out["snippet"] = self.snippet
        if debug:
            for channel in Channel:
                hit = self.channels.get(channel)
                out[f"{channel.value}_rank"] = None if hit is None else hit.rank
                out[f"{channel.value}_contribution"] = (
                    None if hit is None else round(hit.contribution, 6)
                )
            out["boost"] = self.boost
            out["adjustments"] = "; ".join(a.text() for a in self.adjustments) or None
        return out


@dataclass(frozen=True, slots=True)
class CallQuery:
    """A question about the call graph ("who calls X"), recognised in a query."""

    direction: str  # "callers" or "callees"
    target: str

    def to_dict(self) -> dict[str, str]:
        return {"direction": self.direction, "target": self.target}


@dataclass(frozen=True, slots=True)
class SearchResponse:
    """One answer. ``items`` is the page, best first; ``total`` counts every match."""

    query: str
    items: tuple[SearchItem, ...]
    total: int
    search_mode: SearchMode
    channels: tuple[Channel, ...]
    detail_level: DetailLevel = DetailLevel.DEFAULT
    fusion_debug: bool = False
    offset: int = 0
    limit: int = 20
    semantic: SemanticMode = SemanticMode.AUTO
    weights: FusionWeights | None = None  # effective, normalized; set with fusion_debug
    intent: CallQuery | None = None
    namesakes: tuple[Symbol, ...] = ()  # with an intent: every definition named its target
    snippet_lines: int = 0
    shape: str | None = (
        None  # the query shape (symfuse.ranking.search.plans), shown with fusion_debug
    )
    response_format: ResponseFormat = ResponseFormat.FLAT
    errors: tuple[RepositoryError, ...] = ()  # roots that could not answer
    at_commit: str | None = None  # the commit the definitions were read as of
    names_only: bool = False  # ranked by names alone: no ranking structures yet (names_first)
    by_file: bool = False  # group_by file: items come file by file, total counts files

    def tiers(self) -> dict[Tier, list[SearchItem]]:
        buckets: dict[Tier, list[SearchItem]] = {t: [] for t in Tier}
        for item in self.items:
            buckets[item.tier or Tier.LOW].append(item)
        return buckets

    def to_dict(self) -> dict[str, Any]:
        """The JSON shape: ``{items, total, search_mode, ...}``, one flat page; in tiered
        mode each item says its ``tier``. The front ends group it (by tier, by repository)
        in one place, after trimming it to a budget (``symfuse.server.common.present``)."""
        out: dict[str, Any] = {"query": self.query}
        tiered = self.search_mode is SearchMode.TIERED
        out["items"] = [
            i.to_dict(self.detail_level, self.fusion_debug, self.snippet_lines > 0)
            | ({"tier": (i.tier or Tier.LOW).value} if tiered else {})
            for i in self.items
        ]
        out["total"] = self.total
        out["offset"] = self.offset
        out["limit"] = self.limit
        out["search_mode"] = self.search_mode.value
        out["channels"] = [c.value for c in self.channels]
        out["semantic"] = self.semantic.value
        if self.intent is not None:
            out["intent"] = self.intent.to_dict()
        if self.errors:
            out["errors"] = [e.to_dict() for e in self.errors]
        if self.at_commit is not None:
            out["at_commit"] = self.at_commit
        if self.names_only:
            out["names_only"] = True
        if self.by_file:
            out["group_by"] = "file"
        if self.fusion_debug and self.shape is not None:
            out["shape"] = self.shape
        if self.fusion_debug and self.weights is not None:
            out["weights"] = {
                c.value: round(self.weights.of(c), 6) for c in Channel if c in self.channels
            }
        return out
