"""``search(index, request)``: the one query function every front end calls.

Steps: resolve the mode (``auto`` -> ``get`` for a path or symbol id, else
``single``); recognise call-graph questions ("who calls X": the search is for
X, and the answer says so in ``intent``); build the filter mask (and the drill
scope); run the channels; fuse them by weighted reciprocal rank; put exact
names first for identifier-shaped queries; cut the page; bucket it for
``tiered``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels import similarity
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.names.namesakes import (
    asked_versions,
    echoes_unguarded,
    namesake_keys,
    sides_lower,
    written_parts,
)
from symfuse.ranking.channels.tokens import is_identifier_shaped
from symfuse.ranking.channels.translation import query_ids
from symfuse.ranking.fusion.guards import BOOSTS, guard_levels, level_reasons
from symfuse.ranking.fusion.rerank import CANDIDATES, RERANKED, reranked
from symfuse.ranking.fusion.rrf import Fused, cascade, extended, fuse, guard_first
from symfuse.ranking.prepared.build import Prepared, prepare
from symfuse.ranking.query.responses import CallQuery, ChannelHit, SearchItem, SearchResponse, Tier
from symfuse.ranking.query.search_request import (
    Channel,
    FusionWeights,
    GroupBy,
    SearchMode,
    SearchRequest,
    SemanticMode,
)
from symfuse.ranking.search import lookup, modes
from symfuse.ranking.search.channel_run import (
    NEAR_TYPO_LENGTH,
    ChannelRun,
    matched_count,
    run_channels,
    truncated,
    with_import_paths,
    with_spelled_names,
)
from symfuse.ranking.search.file_names import files_placed, named_files
from symfuse.ranking.search.file_text import text_evidence, text_rows
from symfuse.ranking.search.filters import FilterTable, linked_implementers
from symfuse.ranking.search.frames import with_frames
from symfuse.ranking.search.modes import MIN_DEPTH
from symfuse.ranking.search.path_words import path_lifted
from symfuse.ranking.search.plans import (
    PLANS,
    Shape,
    demoted,
    demotes_side_code,
    documents_demoted,
    documents_last,
)
from symfuse.ranking.search.prose_names import with_named_types
from symfuse.ranking.search.qualified import qualified_parts, with_qualified_names
from symfuse.ranking.search.ranked import Ranked
from symfuse.ranking.search.repositories import repository_mask
from symfuse.ranking.search.siblings import older_copies_demoted, siblings_demoted
from symfuse.ranking.search.snippets import with_code
from symfuse.ranking.search.units import (
    LEAD,
    LIFT,
    STANDING,
    asks_for_files,
    file_page,
    files_resolved,
    head_depths,
    split_units,
)
from symfuse.ranking.search.verbatim import verbatim, verbatim_first
from symfuse.ranking.text.paths import lines_on_demand

if TYPE_CHECKING:
    from symfuse.ranking.query.parse import ParsedQuery

HIGH_TIER = 0.85  # tiered mode: share of the best score an item needs to be "high"
MEDIUM_TIER = 0.6  # ... and to be "medium"; below that, "low"
SCORE_DIGITS = 4  # answers show scores rounded so (SearchItem.to_dict); min_score reads them so


def search(
    index: Index,
    request: SearchRequest,
    *,
    directory: Path | None = None,
    prepared: Prepared | None = None,
    parsed: ParsedQuery | None = None,
    named: bool = False,
) -> SearchResponse:
    """Answer ``request`` over ``index``.

    ``directory`` is where precomputed ranking data is persisted (the index
    directory); ``prepared`` skips the cache lookup; ``parsed`` is the query door's
    reading of ``request`` when it has one; ``named``: only what a name channel found
    (the editor's name being typed, :mod:`.picker`). Raises ``NotFound`` when a ``get`` target
    or a ``drill_from`` scope does not exist. Prose queries also rank by the neural
    channel when the ``symfuse[semantic]`` vectors cover the index.
    """
    from symfuse.ranking.query.parse import parse

    prepared = prepared if prepared is not None else prepare(index, directory)
    parsed = parsed if parsed is not None else parse(request)
    mode, intent, query, shape = parsed.mode, parsed.call, parsed.subject, parsed.shape
    base = response_base(request, mode, intent, shape)
    vectors = None
    if PLANS[shape].described and request.semantic is not SemanticMode.OFF:
        from symfuse.ranking.channels import neural  # (the semantic extra's: not every search)

        vectors = neural.embedder_for(index, directory)
    answer = _answer(index, prepared, request, query, shape, base, vectors, named)
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
    named: bool = False,
) -> SearchResponse:
    mode = base.search_mode
    mask = search_mask(index, prepared.filters, request)
    if base.intent is not None:
        from symfuse.ranking.graph.call_questions import named_targets  # (a call question's)

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
    view, lexical = _view(index, prepared, request, query), run.rankings.get(Channel.LEXICAL)
    text = text_rows(prepared, index.symbols, request, query, shape, mask)
    view = view if text is None else replace(view, text=text)
    if shape is Shape.IDENTIFIER and not (named or request.kind or asks_for_files(request)):
        view = replace(view, named_files=named_files(prepared.filters, query, mask))
    if shape in (Shape.KEYWORDS, Shape.SENTENCE, Shape.MIXED, Shape.TEXT) and lexical is not None:
        read = partial(lines_on_demand, index)
        view = replace(view, verbatim=verbatim(index.symbols, lexical.positions, query, read))
    return fused_answer(view, request, query, shape, run, matched, base, named)


def search_mask(
    index: Index, filters: FilterTable, request: SearchRequest
) -> npt.NDArray[np.bool_] | None:
    """The symbols the request's filters and repositories leave in (None: all);
    ``filters``: the prepared structures' table, or the quick one (``filter_table``)."""
    implementers = linked_implementers(index, request.implements) if request.implements else None
    mask = filters.mask(request, implementers)
    chosen = repository_mask(
        index.roots, filters.files, filters.file, request.repository, request.exclude_repository
    )
    if chosen is not None:
        mask = chosen if mask is None else mask & chosen
    return mask


def ranked_depth(request: SearchRequest, size: int) -> int:
    """How many candidates each channel ranks for ``request``."""
    if request.min_score > 0:
        return size  # every score is checked against it
    return max(MIN_DEPTH, 2 * (request.offset + request.limit))


def channel_depth(request: SearchRequest, size: int) -> int:
    """How many candidates each channel ranks: :func:`ranked_depth`, twice that unless the
    request asks for file units (they take places in the lists that ``split_units`` takes
    back, and the definitions must still reach the depth)."""
    depth = ranked_depth(request, size)
    return depth if asks_for_files(request) else min(2 * depth, size)


def shared_depth(size: int) -> int:
    """How deep every page's channel lists reach (:func:`channel_depth` at
    :data:`MIN_DEPTH`, file units not asked for): what may score the head they share."""
    return min(2 * MIN_DEPTH, size)


def ranked_run(
    index: Index,
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    shape: Shape,
    mask: npt.NDArray[np.bool_] | None,
    vectors: similarity.Embedder | None = None,
    *,
    qualified: bool = True,
) -> tuple[ChannelRun, int]:
    """The channels' rankings of a ranked search, and how many symbols they matched;
    ``qualified``: the query's qualified names lead (a shard leaves them to the
    coordinator, which chooses over every shard: :mod:`symfuse.ranking.shards.qualified`)."""
    depth = channel_depth(request, prepared.size)
    run = run_channels(prepared, request, query, mask, depth, shape, vectors)
    if "." in query and is_identifier_shaped(query):
        run = with_import_paths(index, prepared, run, query.strip(), mask)
    elif shape in (Shape.KEYWORDS, Shape.SENTENCE):
        run = with_spelled_names(prepared, run, query, mask)
    if shape in (Shape.MIXED, Shape.SENTENCE, Shape.KEYWORDS):  # "the zrangespec struct"
        run = with_named_types(prepared, run, query, mask, index.symbols)
    if shape in (Shape.KEYWORDS, Shape.SENTENCE, Shape.MIXED, Shape.TEXT):
        run = with_frames(index, prepared, run, query, mask)
    if qualified and shape in (Shape.DOTTED, Shape.MIXED, Shape.SENTENCE):
        dotted = shape is Shape.DOTTED
        run = with_qualified_names(index, prepared, run, query.strip(), mask, dotted=dotted)
    return run, matched_count(run, prepared.size)


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
    named: bool = False,
) -> SearchResponse:
    """The channels of ``run`` fused, ordered by name-match level, cut to the page;
    ``named``: only the candidates a name channel (identity, fuzzy) ranked."""
    files, heads = None, None
    if not asks_for_files(request):  # file units rank apart and join afterwards
        depth = ranked_depth(request, len(ranked.symbols))
        reach, units = shared_depth(len(ranked.symbols)), ranked.roles.units()
        heads = head_depths(run, units, reach, MIN_DEPTH)
        run, files, units_matched = split_units(
            run, units, ranked.pagerank, depth, reach, ranked.symbols
        )
        if files is not None:  # a test or example file's unit ranks as its code does
            files = files.traced() if request.fusion_debug else files
            files = demoted(files, ranked.roles, request, query, shape)
        matched -= units_matched
    fused = _ordered(ranked, request, query, shape, run, heads)
    if files is not None:
        words = shape in (Shape.KEYWORDS, Shape.SENTENCE, Shape.MIXED)  # a file's words count
        lift, standing, lead = (LIFT, STANDING, LEAD) if words else (0.0, 0.0, 0.0)  # names
        fused, joined = files_resolved(
            fused, files, ranked.symbols, MIN_DEPTH, lift, standing, lead
        )
        matched += joined
    asked = asked_versions(query)  # the version folders a query names (`v3`)
    if ranked.text is not None:
        fused = text_evidence(fused, ranked.symbols, ranked.text, query)
    if shape in (Shape.KEYWORDS, Shape.SENTENCE):
        fused = path_lifted(fused, ranked.symbols, query, MIN_DEPTH)
        fused = siblings_demoted(fused, ranked.symbols, MIN_DEPTH)
        fused = older_copies_demoted(fused, ranked.symbols, MIN_DEPTH, asked)
    fused, levels, lifted = _guarded(ranked, request, query, run, fused, asked)
    fused, levels, lifted, matched = files_placed(fused, levels, lifted, ranked, matched)
    if request.min_score > 0 or named:
        keep = _kept(fused, request.min_score, named)
        fused, levels, lifted = fused.reorder(keep, fused.scores[keep]), levels[keep], lifted[keep]
        matched = len(fused)
    page = range(len(fused))[request.offset : request.offset + request.limit]
    by_file = request.group_by is GroupBy.FILE
    if by_file:
        keep, matched = file_page(fused, ranked.symbols, request.offset, request.limit)
        fused, levels, lifted = fused.reorder(keep, fused.scores[keep]), levels[keep], lifted[keep]
        page = range(len(fused))
    ran = tuple(c for c in Channel if c in run.rankings)
    return replace(
        base,
        items=_items(ranked.symbols, page, run, fused, levels, lifted, base.search_mode, request),
        total=matched,
        by_file=by_file,
        channels=ran,
        weights=FusionWeights(**{c.value: fused.weights.get(c, 0.0) for c in Channel}),
    )


def _kept(fused: Fused, min_score: float, named: bool) -> npt.NDArray[np.int64]:
    """The places of ``fused`` scoring ``min_score`` or more (as answers show scores) and,
    ``named``, ranked by identity or fuzzy."""
    keep = np.round(fused.scores, SCORE_DIGITS) >= min_score
    if named:
        found = [fused.ranks[c] > 0 for c in (Channel.IDENTITY, Channel.FUZZY) if c in fused.ranks]
        keep &= np.logical_or.reduce(found) if found else False
    return np.flatnonzero(keep)


def _ordered(
    ranked: Ranked,
    request: SearchRequest,
    query: str,
    shape: Shape,
    run: ChannelRun,
    heads: Mapping[Channel, int] | None = None,
) -> Fused:
    """The channels of ``run`` fused, side code and documents demoted, re-ranked. The first
    MIN_DEPTH candidates of each channel order the head of every page, whatever the limit:
    it is fused, demoted and re-ranked alone (a longer list's deeper items would take the
    places demoted ones leave in the re-ranked head), and a longer answer continues with
    the deeper lists' order, demoted too (:func:`extended`). ``heads``: how many of each
    channel's definitions the head holds (:func:`units.head_depths`; else MIN_DEPTH)."""
    if ranked_depth(request, len(ranked.symbols)) <= MIN_DEPTH:
        return _reordered(ranked, request, query, shape, _merge(run, request))
    head = _merge(truncated(run, ranked.pagerank, heads or MIN_DEPTH), request)
    deep = _demoted(ranked, request, query, shape, _merge(run, request))
    return extended(_reordered(ranked, request, query, shape, head), deep)


def _demoted(
    ranked: Ranked, request: SearchRequest, query: str, shape: Shape, fused: Fused
) -> Fused:
    """``fused`` with side code and documents demoted."""
    fused = demoted(fused, ranked.roles, request, query, shape)
    return documents_demoted(fused, ranked.roles, request, query)


def _reordered(
    ranked: Ranked, request: SearchRequest, query: str, shape: Shape, fused: Fused
) -> Fused:
    """``fused`` demoted (:func:`_demoted`), then re-ranked when the shape's plan says so."""
    fused = _demoted(ranked, request, query, shape, fused)
    if PLANS[shape].reranked:
        ids = query_ids(query, ranked.term_ids)
        head = min(CANDIDATES, MIN_DEPTH)
        demoting = demotes_side_code(request, query, shape)
        fixed = ranked.roles.side_code(fused.positions[:head]) if demoting else None
        fused = reranked(fused, ranked.symbols, query, ranked.translation, ids, head, fixed)
    return fused


def _guarded(
    ranked: Ranked,
    request: SearchRequest,
    query: str,
    run: ChannelRun,
    fused: Fused,
    asked: frozenset[int],
) -> tuple[Fused, npt.NDArray[np.int8], npt.NDArray[np.bool_]]:
    """``fused`` with the definitions that write the query first (a pasted message), then
    exact names first (the guard), each item's name-match level, and whether the guard
    lifted it (``asked``: the version folders the query names)."""
    fused = verbatim_first(fused, ranked.verbatim, ranked.roles)
    lifted = np.zeros(len(fused), dtype=np.bool_)
    levels = np.full(len(fused), 2 * MatchTier.NONE, dtype=np.int8)
    named = is_identifier_shaped(query) or run.spelled
    if named and len(fused) and request.semantic is not SemanticMode.ONLY:
        levels = ranked.levels(run, fused.positions)
        documents = documents_last(fused, ranked.roles, request, query)
        if not is_identifier_shaped(query):  # words that spell a name: only it is lifted
            spelled = levels <= 2 * MatchTier.CASE_INSENSITIVE
            spelled &= documents == 0  # not a heading a sentence's word names (README's)
            # lower-case words say no case: "to json" spells `ToJSON` as well as `ToJson`
            case = np.int8(2 * MatchTier.CASE_INSENSITIVE)
            levels = np.where(spelled, np.maximum(levels, case), np.int8(2 * MatchTier.NONE))
        elif qualified_parts(query) is not None:  # code matches a qualified name by its fqn,
            # a level below a heading written as the name (cats' doc heading `Eval.now`)
            floor = np.int8(2 * MatchTier.CASE_INSENSITIVE)
            levels = np.where(documents != 0, np.maximum(levels, floor), levels)
        sides = sides_lower(request, query)
        written = written_parts(query) if is_identifier_shaped(query) else ()
        order = namesake_keys(ranked.symbols, fused, levels, ranked.roles, sides, asked, written)
        order += documents
        levels = echoes_unguarded(ranked.symbols, fused, levels, order)
        fused, lifted = guard_first(fused, levels, order, level_reasons(levels))
        levels = np.sort(levels)
    return fused, levels, lifted


def _items(
    symbols: Sequence[Symbol],
    page: range,
    run: ChannelRun,
    fused: Fused,
    levels: npt.NDArray[np.int8],
    lifted: npt.NDArray[np.bool_],
    mode: SearchMode,
    request: SearchRequest,
) -> tuple[SearchItem, ...]:
    """The ``page`` of ``fused`` as items (tiers, guard boosts; with ``fusion_debug``
    each channel's rank and contribution, and the adjustments made after fusion)."""
    top = float(fused.scores[0]) if len(fused) else 0.0
    # Python numbers for the page (a 200-item editor page read numpy scalars one by one)
    at = slice(page.start, page.stop)
    positions, scores = fused.positions[at].tolist(), fused.scores[at].tolist()
    exact = (run.tiers[fused.positions[at]] == MatchTier.EXACT).tolist()
    notes = fused.notes[at] if fused.notes is not None else ((),) * len(page)
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
        symbol = symbols[positions[j]]
        items.append(SearchItem(symbol, scores[j], tier, hits, boosts[j], adjustments=notes[j]))
    return tuple(items)


def _merge(run: ChannelRun, request: SearchRequest) -> Fused:
    """The channels of ``run`` fused (or cascaded), traced with ``fusion_debug``: every
    later change to a score or an order is then recorded per item (:meth:`Fused.adjusted`)."""
    if request.fusion or request.semantic is SemanticMode.ONLY:
        fused = fuse(run.rankings, run.weights)
    else:
        fused = cascade(run.rankings)
    return fused.traced() if request.fusion_debug else fused


def tier_of(score: float, top: float, exact: bool) -> Tier:
    """The tiered mode's bucket of an item scoring ``score`` where the best scores ``top``."""
    if exact or score >= HIGH_TIER * top:
        return Tier.HIGH
    return Tier.MEDIUM if score >= MEDIUM_TIER * top else Tier.LOW


# ChannelRun, NEAR_TYPO_LENGTH and run_channels are read here by ranking.shards and the bench
__all__ = ["NEAR_TYPO_LENGTH", "CallQuery", "ChannelRun", "run_channels", "search"]
