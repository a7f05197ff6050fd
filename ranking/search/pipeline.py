"""``search(index, request)``: the one query function every front end calls.

Steps: resolve the mode (``auto`` -> ``get`` for a path or symbol id, else
``single``); recognise call-graph questions ("who calls X": the search is for
X, and the answer says so in ``intent``); build the filter mask (and the drill
scope); run the channels; fuse them by weighted reciprocal rank; put exact
names first for identifier-shaped queries; cut the page; bucket it for
``tiered``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import numpy.typing as npt

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels import fuzzy, identity, lexical, neural, similarity, structural
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.names.namesakes import namesake_keys, sides_lower
from symfuse.ranking.channels.tokens import is_identifier_shaped
from symfuse.ranking.channels.topk import Ranking
from symfuse.ranking.channels.translation import Translation, query_ids
from symfuse.ranking.fusion.guards import BOOSTS, guard_levels
from symfuse.ranking.fusion.rerank import CANDIDATES, RERANKED, reranked
from symfuse.ranking.fusion.rrf import Fused, cascade, extended, fuse, guard_first
from symfuse.ranking.graph.call_questions import named_targets
from symfuse.ranking.prepared.build import Prepared, prepare
from symfuse.ranking.query.intent import call_query, is_path_shaped
from symfuse.ranking.query.responses import CallQuery, ChannelHit, SearchItem, SearchResponse, Tier
from symfuse.ranking.query.search_request import (
    Channel,
    FusionWeights,
    SearchMode,
    SearchRequest,
    SemanticMode,
)
from symfuse.ranking.search import lookup, modes
from symfuse.ranking.search.cancel import checkpoint
from symfuse.ranking.search.filters import SymbolRoles, linked_implementers
from symfuse.ranking.search.modes import MIN_DEPTH
from symfuse.ranking.search.plans import (
    DESCRIBED_KINDS,
    PLANS,
    Plan,
    Shape,
    classify,
    demoted,
    documents_demoted,
    documents_last,
    name_words,
    plan_weights,
)
from symfuse.ranking.search.repositories import repository_mask
from symfuse.ranking.search.snippets import with_code

NEAR_TYPO_LENGTH = 6  # identifier queries this long also look one edit away
NEAR_TYPO_TWO_EDITS = 8  # ... and this long two edits away ("update_idx" -> update_index)


def _near_typo_edits(query: str) -> int:
    """How far a look for typos reaches when something already matched as typed."""
    return 2 if len(query.strip()) >= NEAR_TYPO_TWO_EDITS else 1


HIGH_TIER = 0.85  # tiered mode: share of the best score an item needs to be "high"
MEDIUM_TIER = 0.6  # ... and to be "medium"; below that, "low"
SCORE_DIGITS = 4  # answers show scores rounded so (SearchItem.to_dict); min_score reads them so


def search(
    index: Index,
    request: SearchRequest,
    *,
    directory: Path | None = None,
    prepared: Prepared | None = None,
) -> SearchResponse:
    """Answer ``request`` over ``index``.

    ``directory`` is where precomputed ranking data is persisted (the index
    directory); ``prepared`` skips the cache lookup. Raises ``NotFound`` when a
    ``get`` target or a ``drill_from`` scope does not exist. Prose queries also rank
    by the neural channel when the ``symfuse[semantic]`` vectors cover the index.
    """
    prepared = prepared if prepared is not None else prepare(index, directory)
    mode = request.mode
    if mode is SearchMode.AUTO:
        mode = SearchMode.GET if is_path_shaped(request.query) else SearchMode.SINGLE
    intent = call_query(request.query) if mode is not SearchMode.GET else None
    query = intent.target if intent is not None else request.query
    shape = classify(query)
    base = response_base(request, mode, intent, shape)
    vectors = None
    if PLANS[shape].described and request.semantic is not SemanticMode.OFF:
        vectors = neural.embedder_for(index, directory)
    answer = _answer(index, prepared, request, query, shape, base, vectors)
    return with_code(index, answer, request)


def response_base(
    request: SearchRequest, mode: SearchMode, intent: CallQuery | None, shape: Shape
) -> SearchResponse:
    """An answer to ``request`` with no items yet."""
    return SearchResponse(
        query=request.query,
        items=(),
        total=0,
        search_mode=mode,
        channels=(),
        detail_level=request.detail_level,
        fusion_debug=request.fusion_debug,
        offset=request.offset,
        limit=request.limit,
        semantic=request.semantic,
        intent=intent,
        snippet_lines=request.snippet_lines,
        shape=shape.value,
        response_format=request.response_format,
    )


def _answer(
    index: Index,
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    shape: Shape,
    base: SearchResponse,
    vectors: similarity.Embedder | None = None,
) -> SearchResponse:
    mode = base.search_mode
    mask = search_mask(index, prepared, request)
    if base.intent is not None:
        base = replace(base, namesakes=named_targets(index, base.intent, mask))
    if mode is SearchMode.GET:
        return modes.get(index, prepared, request, mask, base)
    if mode is SearchMode.DRILL:
        assert request.drill_from is not None  # validated by SearchRequest
        drill = lookup.scope(index, prepared, request.drill_from)
        if drill is None:
            raise NotFound(f"drill_from: no symbol id or path {request.drill_from!r} in the index")
        mask = drill if mask is None else mask & drill
        if not query:
            return modes.listing(index, request, np.flatnonzero(mask).astype(np.int64), base)
    if mode is SearchMode.FLAT:
        return modes.flat(index, prepared, request, query, mask, base, PLANS[shape].bm25f)
    run, matched = ranked_run(index, prepared, request, query, shape, mask, vectors)
    view = _view(index, prepared, request, query)
    return fused_answer(view, request, query, shape, run, matched, base)


def search_mask(
    index: Index, prepared: Prepared, request: SearchRequest
) -> npt.NDArray[np.bool_] | None:
    """The symbols the request's filters and repositories leave in (None: all)."""
    implementers = linked_implementers(index, request.implements) if request.implements else None
    mask = prepared.filters.mask(request, implementers)
    filters = prepared.filters
    chosen = repository_mask(
        index.roots, filters.files, filters.file, request.repository, request.exclude_repository
    )
    if chosen is not None:
        mask = chosen if mask is None else mask & chosen
    return mask


@dataclass(frozen=True, slots=True)
class ChannelRun:
    rankings: dict[Channel, Ranking]
    tiers: npt.NDArray[np.int8]
    weights: FusionWeights
    fuzzy_auto: bool = False  # fuzzy ran because nothing matched the name as typed
    near_typo: bool = False  # fuzzy ran for names one edit away, though something matched
    and_matches: int = 0  # the lexical ranking's first ones hold every required term


def run_channels(
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    depth: int,
    shape: Shape | None = None,
    vectors: similarity.Embedder | None = None,
) -> ChannelRun:
    """Every channel the request asks for, each ranking at most ``depth`` candidates,
    as the plan of the query's ``shape`` says (:data:`symfuse.ranking.search.plans.PLANS`).
    ``vectors`` (the semantic extra's, when ready) rank as the neural channel."""
    rankings: dict[Channel, Ranking] = {}
    shape = shape if shape is not None else classify(query)
    plan = PLANS[shape]
    weights = _semantic_weights(request, plan)
    # A described behaviour is looked for among callables and types (unless a kind is asked).
    text_mask = mask
    if plan.described and not request.kind:
        described = SearchRequest.model_construct(query="", kind=DESCRIBED_KINDS)
        kinds = prepared.filters.mask(described)
        text_mask = kinds if mask is None or kinds is None else mask & kinds
    checkpoint()  # here and between channels: a caller that lost interest stops the search
    if request.semantic is SemanticMode.ONLY:
        rankings[Channel.SIMILARITY] = similarity.rank(prepared.similarity, query, text_mask, depth)
        if vectors is not None and plan.described:  # the extra's vectors, once they are ready
            rankings[Channel.NEURAL] = similarity.rank(vectors, query, text_mask, depth)
        return ChannelRun(rankings, np.full(prepared.size, MatchTier.NONE, np.int8), weights)
    beside = None  # its product over the vectors runs while the names and BM25 channels scan
    if request.semantic is not SemanticMode.OFF and weights.similarity > 0:
        beside = similarity.started_rank(prepared.similarity, query, text_mask, depth)
    lexical_result = lexical.rank(prepared.lexical, query, text_mask, depth, plan.bm25f)
    rankings[Channel.LEXICAL] = lexical_result.ranking
    checkpoint()
    rankings[Channel.IDENTITY], tiers = _names(prepared, query, plan, mask, depth)
    nothing_matched = not len(rankings[Channel.IDENTITY]) and not lexical_result.and_matches
    identifier = is_identifier_shaped(query)
    fuzzy_auto = request.fuzzy is None and nothing_matched and identifier
    # A typo can still match something as typed ("or_equals" is a substring of names):
    # then names one edit away join as a fuzzy ranking, unless the name exists as typed.
    near_typo = (
        request.fuzzy is None
        and not fuzzy_auto
        and identifier
        and len(query.strip()) >= NEAR_TYPO_LENGTH
        and not bool(np.any(tiers <= MatchTier.CASE_INSENSITIVE))
    )
    if request.fuzzy or fuzzy_auto or near_typo:
        checkpoint()
        typos = fuzzy.rank(
            prepared.trigrams,
            query,
            mask,
            depth,
            threshold=request.fuzzy_threshold,
            max_edit_distance=min(_near_typo_edits(query), request.max_edit_distance)
            if near_typo
            else request.max_edit_distance,
        )
        if len(typos) or not near_typo:  # a look one edit away that found nothing is no run
            rankings[Channel.FUZZY] = typos
    if beside is not None:
        rankings[Channel.SIMILARITY] = beside()
    if vectors is not None and plan.described and weights.neural > 0:  # None: semantic off
        checkpoint()
        rankings[Channel.NEURAL] = similarity.rank(vectors, query, text_mask, depth)
    checkpoint()
    if request.fusion and weights.structural > 0:
        found = [r.positions for r in rankings.values() if len(r)]
        if found:
            rankings[Channel.STRUCTURAL] = structural.rank(prepared.pagerank, np.concatenate(found))
    and_matches = lexical_result.and_matches
    return ChannelRun(rankings, tiers, weights, fuzzy_auto, near_typo, and_matches)


def _names(
    prepared: Prepared,
    query: str,
    plan: Plan,
    mask: npt.NDArray[np.bool_] | None,
    depth: int,
) -> tuple[Ranking, npt.NDArray[np.int8]]:
    """The identity channel: the whole query as a name, or for prose its code tokens one
    at a time (then no symbol has a match tier: prose never lifts a name)."""
    if plan.word_names:
        words = name_words(query)
        ranking = identity.rank_words(prepared.names, words, prepared.pagerank, mask, depth)
        return ranking, np.full(prepared.size, MatchTier.NONE, dtype=np.int8)
    return identity.rank(prepared.names, query, prepared.pagerank, mask, depth)


def _semantic_weights(request: SearchRequest, plan: Plan) -> FusionWeights:
    """Apply ``semantic_weight`` s: similarity's weight times 2s, the others' times 2(1 - s).

    A request with the default weights gets its shape's (:func:`plan_weights`).
    """
    s = request.semantic_weight
    w = request.fusion_weights
    if w == FusionWeights():
        w = plan_weights(plan, request.semantic)
    if s == 0.5:
        return w
    return FusionWeights(
        lexical=w.lexical * 2 * (1 - s),
        structural=w.structural * 2 * (1 - s),
        similarity=w.similarity * 2 * s,
        identity=w.identity * 2 * (1 - s),
        fuzzy=w.fuzzy * 2 * (1 - s),
        neural=w.neural * 2 * s,
    )


def ranked_depth(request: SearchRequest, size: int) -> int:
    """How many candidates each channel ranks for ``request``."""
    if request.min_score > 0:
        return size  # every score is checked against it
    return max(MIN_DEPTH, 2 * (request.offset + request.limit))


def ranked_run(
    index: Index,
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    shape: Shape,
    mask: npt.NDArray[np.bool_] | None,
    vectors: similarity.Embedder | None = None,
) -> tuple[ChannelRun, int]:
    """The channels' rankings of a ranked search, and how many symbols they matched."""
    depth = ranked_depth(request, prepared.size)
    run = run_channels(prepared, request, query, mask, depth, shape, vectors)
    if "." in query and is_identifier_shaped(query):
        run = _with_import_paths(index, prepared, run, query.strip(), mask)
    return run, _matched(run, prepared.size)


@dataclass(frozen=True, slots=True)
class Ranked:
    """What fusion's later steps read of the ranked symbols, by position: one index's
    (:func:`_view`), or the candidates of many shards (:mod:`.shard_fusion`)."""

    symbols: Sequence[Symbol]
    roles: SymbolRoles
    pagerank: npt.NDArray[np.float64]
    levels: Callable[[ChannelRun, npt.NDArray[np.int64]], npt.NDArray[np.int8]]
    translation: Translation | None = None  # one index's: shards' candidates have none
    term_ids: Mapping[str, int] = field(default_factory=dict)


def _view(index: Index, prepared: Prepared, request: SearchRequest, query: str) -> Ranked:
    """One index's symbols as fusion's later steps read them."""

    def levels(run: ChannelRun, positions: npt.NDArray[np.int64]) -> npt.NDArray[np.int8]:
        lower = prepared.trigrams.lower
        edits = request.max_edit_distance
        return guard_levels(run, prepared.names, positions, query, edits, lower)

    return Ranked(
        index.symbols,
        prepared.filters,
        prepared.pagerank,
        levels,
        prepared.translation,
        prepared.lexical.term_ids,
    )


def fused_answer(
    ranked: Ranked,
    request: SearchRequest,
    query: str,
    shape: Shape,
    run: ChannelRun,
    matched: int,
    base: SearchResponse,
) -> SearchResponse:
    """The channels of ``run`` fused, ordered by name-match level, cut to the page."""
    fused = _merge(run, request)
    if ranked_depth(request, len(ranked.symbols)) > MIN_DEPTH:
        # The first MIN_DEPTH candidates of each channel order the head of every page,
        # whatever the limit; a longer answer continues with the deeper lists' order.
        fused = extended(_merge(_truncated(run, ranked.pagerank, MIN_DEPTH), request), fused)
    fused = demoted(fused, ranked.roles, request, query, shape)
    fused = documents_demoted(fused, ranked.roles, request, query)
    if PLANS[shape].reranked:
        ids = query_ids(query, ranked.term_ids)
        # within the head every page length shares (see extended)
        head = min(CANDIDATES, MIN_DEPTH)
        fused = reranked(fused, ranked.symbols, query, ranked.translation, ids, head)
    lifted = np.zeros(len(fused), dtype=np.bool_)
    levels = np.full(len(fused), 2 * MatchTier.NONE, dtype=np.int8)
    if is_identifier_shaped(query) and len(fused) and request.semantic is not SemanticMode.ONLY:
        levels = ranked.levels(run, fused.positions)
        sides = sides_lower(request, query)
        order = namesake_keys(ranked.symbols, fused, levels, ranked.roles, sides)
        order += documents_last(fused, ranked.roles, request, query)
        fused, lifted = guard_first(fused, levels, order)
        levels = np.sort(levels)
    if request.min_score > 0:
        keep = np.flatnonzero(np.round(fused.scores, SCORE_DIGITS) >= request.min_score)
        fused, levels, lifted = fused.reorder(keep, fused.scores[keep]), levels[keep], lifted[keep]
        matched = len(fused)
    ran = tuple(c for c in Channel if c in run.rankings)
    return replace(
        base,
        items=_items(ranked.symbols, request, run, fused, levels, lifted, base.search_mode),
        total=matched,
        channels=ran,
        weights=FusionWeights(**{c.value: fused.weights.get(c, 0.0) for c in Channel}),
    )


def _items(
    symbols: Sequence[Symbol],
    request: SearchRequest,
    run: ChannelRun,
    fused: Fused,
    levels: npt.NDArray[np.int8],
    lifted: npt.NDArray[np.bool_],
    mode: SearchMode,
) -> tuple[SearchItem, ...]:
    """The requested page of ``fused`` as items (tiers, debug ranks and guard boosts)."""
    page = range(len(fused))[request.offset : request.offset + request.limit]
    top = float(fused.scores[0]) if len(fused) else 0.0
    # Python numbers for the page (a 200-item editor page read numpy scalars one by one)
    at = slice(page.start, page.stop)
    positions, scores = fused.positions[at].tolist(), fused.scores[at].tolist()
    exact = (run.tiers[fused.positions[at]] == MatchTier.EXACT).tolist()
    boosts = [BOOSTS[MatchTier(int(v) // 2)] if up else None for v, up in zip(
        levels[at].tolist(), lifted[at].tolist(), strict=True
    )]  # fmt: skip
    if fused.rescored is not None:  # placed by the learned re-ranking (ranking.rerank)
        moved = fused.rescored[at].tolist()
        boosts = [b or (RERANKED if m else None) for b, m in zip(boosts, moved, strict=True)]
    items: list[SearchItem] = []
    for j, i in enumerate(page):
        tier = None
        if mode is SearchMode.TIERED:
            tier = tier_of(scores[j], top, exact[j])
        hits = {}
        if request.fusion_debug:
            hits = {
                c: ChannelHit(int(fused.ranks[c][i]), float(fused.contributions[c][i]))
                for c in fused.ranks
                if fused.ranks[c][i] > 0
            }
        items.append(SearchItem(symbols[positions[j]], scores[j], tier, hits, boosts[j]))
    return tuple(items)


def _with_import_paths(
    index: Index,
    prepared: Prepared,
    run: ChannelRun,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
) -> ChannelRun:
    """A dotted query that names a definition as an import would (``models.CharField``
    for django.db.models.fields.CharField, re-exported by django.db.models): those
    definitions join the identity channel first, at the fqn-suffix tier, which a
    dotted query raises to the exact-name guard."""
    from symfuse.indexer.link.resolve import Resolver

    found = [index.position[s.symbol_id] for s in Resolver(index).importable(query)]
    found = [at for at in found if mask is None or mask[at]]
    if not found:
        return run
    known = np.asarray(found, dtype=np.int64)
    known = known[np.argsort(-prepared.pagerank[known], kind="stable")]
    tiers = run.tiers.copy()
    tiers[known] = np.minimum(tiers[known], np.int8(MatchTier.FQN_SUFFIX))
    identity = run.rankings.get(Channel.IDENTITY, Ranking.empty())
    rest = ~np.isin(identity.positions, known)
    top = float(identity.scores.max()) if len(identity) else 1.0
    rankings = dict(run.rankings)
    rankings[Channel.IDENTITY] = Ranking(
        np.concatenate([known, identity.positions[rest]]),
        np.concatenate([np.full(len(known), top), identity.scores[rest]]),
        np.concatenate([known, identity.matched]),
    )
    if Channel.STRUCTURAL in rankings:  # it re-ranks the other channels' candidates
        lists = [r.positions for c, r in rankings.items() if c is not Channel.STRUCTURAL]
        rankings[Channel.STRUCTURAL] = structural.rank(prepared.pagerank, np.concatenate(lists))
    return replace(run, rankings=rankings, tiers=tiers)


def _truncated(run: ChannelRun, pagerank: npt.NDArray[np.float64], depth: int) -> ChannelRun:
    """``run`` as if each channel had ranked ``depth`` candidates (their lists' prefixes;
    the structural channel re-ranks the shorter lists' candidates)."""
    rankings: dict[Channel, Ranking] = {
        c: Ranking(r.positions[:depth], r.scores[:depth])
        for c, r in run.rankings.items()
        if c is not Channel.STRUCTURAL
    }
    found = [r.positions for r in rankings.values() if len(r)]
    if Channel.STRUCTURAL in run.rankings and found:
        rankings[Channel.STRUCTURAL] = structural.rank(pagerank, np.concatenate(found))
    return replace(run, rankings=rankings)


def _matched(run: ChannelRun, size: int) -> int:
    """How many symbols any channel matched, ranked deep enough or not: the items the
    pages of the answer are drawn from, whatever the page (the structural channel only
    re-ranks the others' finds)."""
    hit = np.zeros(size, dtype=np.bool_)
    for channel, ranking in run.rankings.items():
        if channel is not Channel.STRUCTURAL:
            hit[ranking.matched] = True
    return int(np.count_nonzero(hit))


def _merge(run: ChannelRun, request: SearchRequest) -> Fused:
    if request.fusion or request.semantic is SemanticMode.ONLY:
        return fuse(run.rankings, run.weights)
    return cascade(run.rankings)


def tier_of(score: float, top: float, exact: bool) -> Tier:
    """The tiered mode's bucket of an item scoring ``score`` where the best scores ``top``."""
    if exact or score >= HIGH_TIER * top:
        return Tier.HIGH
    return Tier.MEDIUM if score >= MEDIUM_TIER * top else Tier.LOW


__all__ = ["CallQuery", "search"]
