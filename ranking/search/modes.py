"""The answers that are not a fused ranking: ``flat`` (BM25 alone, the cheapest),
``get`` (an exact lookup by path, symbol id or qualified name) and the source-order
listing that lookups and an empty ``drill`` query return."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.ranking.channels import lexical
from symfuse.ranking.channels.topk import Ranking
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.query.responses import ChannelHit, SearchItem, SearchResponse, Tier
from symfuse.ranking.query.search_request import Channel, SearchMode, SearchRequest
from symfuse.ranking.search import lookup

MIN_DEPTH = 100  # candidates each channel contributes, at least


def flat(
    index: Index,
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    base: SearchResponse,
    weighting: lexical.Bm25f = lexical.HEAD_FIRST,
) -> SearchResponse:
    """Raw BM25F hits (bodies weighed as the query's shape asks), no other channel,
    scores divided by the best one."""
    depth = request.offset + request.limit
    terms = lexical.QueryTerms.parse(query)
    scores = prepared.lexical.scores(terms, weighting)[0]
    matched = scores > 0 if mask is None else (scores > 0) & mask
    total = int(np.count_nonzero(matched))  # every hit, whatever the page
    reach = total if request.min_score > 0 else max(depth, MIN_DEPTH)
    ranking = lexical.rank(prepared.lexical, query, mask, reach, weighting).ranking
    best = float(ranking.scores[0]) if len(ranking) else 1.0
    if request.min_score > 0:
        kept = np.round(ranking.scores / best, 4) >= request.min_score
        ranking = Ranking(ranking.positions[kept], ranking.scores[kept])
        total = len(ranking)
    symbols = index.symbols
    items = tuple(
        SearchItem(
            symbols[int(p)],
            float(s) / best,
            None,
            {Channel.LEXICAL: ChannelHit(r + 1, float(s) / best)} if request.fusion_debug else {},
        )
        for r, (p, s) in enumerate(zip(ranking.positions, ranking.scores, strict=True))
        if request.offset <= r < depth
    )
    return replace(base, items=items, total=total, channels=(Channel.LEXICAL,))


def get(
    index: Index,
    prepared: Prepared,
    request: SearchRequest,
    mask: npt.NDArray[np.bool_] | None,
    base: SearchResponse,
) -> SearchResponse:
    positions = lookup.lookup(index, prepared, request.query)
    if mask is not None and positions.shape[0]:
        positions = positions[mask[positions]]
    if not positions.shape[0]:
        raise NotFound(f"query: no symbol id, path or qualified name {request.query!r}")
    return listing(index, request, positions, base)


def listing(
    index: Index,
    request: SearchRequest,
    positions: npt.NDArray[np.int64],
    base: SearchResponse,
) -> SearchResponse:
    """Symbols in source order, all with score 1 (lookups and empty drill queries)."""
    symbols = index.symbols
    page = positions[request.offset : request.offset + request.limit]
    tier = Tier.HIGH if base.search_mode is SearchMode.TIERED else None
    items = tuple(SearchItem(symbols[int(p)], 1.0, tier) for p in page)
    return replace(base, items=items, total=int(positions.shape[0]))
