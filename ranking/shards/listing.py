"""The searches across shards that are not fused: ``get``, ``flat`` and an empty ``drill``.

A shard lists its hits (:func:`shard_listing`) as one index would: a lookup or a drill
scope in source order (score 1), or BM25F alone (``flat``) with each hit's raw score,
which the global statistics make comparable across shards, and whether it holds every
term (BM25F's AND matches come first). The coordinator (:func:`merged_listing`) puts
them in one order as a combined index does: source order is the shards' order, then
each shard's; ``flat`` orders by every-term first, raw score, then that order, divides
by the best raw score of all, and applies ``min_score`` to those ratios.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels import lexical
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.query.parse import ParsedQuery
from symfuse.ranking.query.responses import ChannelHit, SearchItem, SearchResponse
from symfuse.ranking.query.search_request import Channel, SearchMode, SearchRequest
from symfuse.ranking.search import lookup
from symfuse.ranking.search.modes import MIN_DEPTH
from symfuse.ranking.search.pipeline import search_mask
from symfuse.ranking.search.plans import PLANS


@dataclass(frozen=True, slots=True)
class Listing:
    """A shard's hits of a listed search, best (or first) first; ``found``: whether the
    lookup or drill target is in this shard at all."""

    scores: npt.NDArray[np.float64]  # raw BM25F for flat, 1 otherwise
    every_term: npt.NDArray[np.bool_]  # flat: the hit holds every term
    total: int
    found: bool


def is_listed(parsed: ParsedQuery) -> bool:
    """Whether the search is listed rather than fused (the module docstring)."""
    mode = parsed.mode
    return mode in (SearchMode.GET, SearchMode.FLAT) or (
        mode is SearchMode.DRILL and not parsed.subject.strip()
    )


def shard_listing(
    index: Index, prepared: Prepared, request: SearchRequest, parsed: ParsedQuery
) -> tuple[npt.NDArray[np.int64], Listing]:
    """This shard's hits (positions) of a listed search, and what the merge reads."""
    mask = search_mask(index, prepared.filters, request)
    reach = request.offset + request.limit
    if parsed.mode is SearchMode.FLAT:
        weighting = PLANS[parsed.shape].bm25f
        terms = lexical.QueryTerms.parse(parsed.subject)
        scores = prepared.lexical.scores(terms, weighting)[0]
        matched = scores > 0 if mask is None else (scores > 0) & mask
        total = int(np.count_nonzero(matched))
        depth = total if request.min_score > 0 else max(reach, MIN_DEPTH)
        ranked = lexical.rank(prepared.lexical, parsed.subject, mask, depth, weighting)
        at = ranked.ranking.positions
        every = np.arange(len(at)) < ranked.and_matches if weighting.and_first else at < -1
        return at, Listing(ranked.ranking.scores.astype(np.float64), every, total, True)
    if parsed.mode is SearchMode.GET:
        positions = lookup.lookup(index, prepared, parsed.subject)
        if mask is not None and positions.shape[0]:
            positions = positions[mask[positions]]
    else:
        assert request.drill_from is not None  # validated by SearchRequest
        scope = lookup.scope(index, prepared, request.drill_from)
        if scope is not None and mask is not None:
            scope &= mask
        positions = np.zeros(0, np.int64) if scope is None else np.flatnonzero(scope)
        if scope is None:
            return positions, Listing(np.ones(0), np.zeros(0, np.bool_), 0, False)
    found = bool(positions.shape[0]) or parsed.mode is SearchMode.DRILL
    kept = positions[:reach].astype(np.int64)
    ones = np.ones(kept.shape[0])
    return kept, Listing(ones, np.zeros(kept.shape[0], np.bool_), int(positions.shape[0]), found)


def merged_listing(
    request: SearchRequest,
    parsed: ParsedQuery,
    parts: Sequence[tuple[Sequence[Symbol], Listing]],
    base: SearchResponse,
) -> SearchResponse:
    """One answer from every shard's listing (``parts`` in the shards' order); NotFound
    when no shard holds the lookup's or the drill's target."""
    if not any(listing.found for _s, listing in parts):
        what = "drill_from: no symbol id or path" if parsed.mode is SearchMode.DRILL else None
        target = request.drill_from if what else request.query
        what = what or "query: no symbol id, path or qualified name"
        raise NotFound(f"{what} {target!r} in the index")
    symbols = [s for found, _l in parts for s in found]
    scores = _floats([listing.scores for _s, listing in parts])
    total = sum(listing.total for _s, listing in parts)
    if parsed.mode is not SearchMode.FLAT:
        page = symbols[request.offset : request.offset + request.limit]
        return replace(base, items=tuple(SearchItem(s, 1.0, None) for s in page), total=total)
    every = np.concatenate([listing.every_term for _s, listing in parts] or [np.zeros(0, bool)])
    order = np.lexsort((np.arange(len(symbols)), -scores, ~every))
    best = float(scores[order[0]]) if len(order) else 1.0
    ratios = scores[order] / best
    if request.min_score > 0:
        kept = np.round(ratios, 4) >= request.min_score
        order, ratios = order[kept], ratios[kept]
        total = len(order)
    items = tuple(
        SearchItem(
            symbols[int(p)],
            float(r),
            None,
            {Channel.LEXICAL: ChannelHit(k + 1, float(r))} if request.fusion_debug else {},
        )
        for k, (p, r) in enumerate(zip(order.tolist(), ratios.tolist(), strict=True))
        if request.offset <= k < request.offset + request.limit
    )
    return replace(base, items=items, total=total, channels=(Channel.LEXICAL,))


def _floats(arrays: Sequence[npt.NDArray[np.float64]]) -> npt.NDArray[np.float64]:
    joined: npt.NDArray[np.float64] = np.concatenate([*arrays, np.zeros(0)]).astype(np.float64)
    return joined
