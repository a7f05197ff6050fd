"""One shard's part of a search fused across shards: its channels' raw rankings.

A shard runs the ordinary channels (:func:`symfuse.ranking.search.pipeline.ranked_run`) with
its structures re-weighed by the global statistics (:mod:`.global_stats`), and
answers with each channel's first candidates, as deep as one index would rank them,
with the channel's raw score and its order key, plus what fusion's later steps read
of each candidate (guard level, test or document flags, PageRank). The coordinator
(:mod:`.shard_fusion`) orders every channel over all shards by those keys and fuses
once, as one index does: no fusion of fusions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels import fuzzy, neural
from symfuse.ranking.channels.identity import MatchTier, name_distance
from symfuse.ranking.channels.tokens import is_identifier_shaped
from symfuse.ranking.channels.topk import Ranking
from symfuse.ranking.channels.translation import query_ids
from symfuse.ranking.fusion.guards import guard_levels
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.query.parse import parse
from symfuse.ranking.query.search_request import (
    Channel,
    FusionWeights,
    SearchMode,
    SearchRequest,
    SemanticMode,
)
from symfuse.ranking.search import lookup
from symfuse.ranking.search.channel_run import near_typos
from symfuse.ranking.search.file_text import TextRows, text_rows
from symfuse.ranking.search.pipeline import (
    NEAR_TYPO_LENGTH,
    ChannelRun,
    channel_depth,
    ranked_run,
    search_mask,
)
from symfuse.ranking.search.plans import PLANS, Shape
from symfuse.ranking.search.qualified import Fits
from symfuse.ranking.shards.listing import Listing, is_listed, shard_listing
from symfuse.ranking.shards.qualified import Offer, offered, shard_fits, shard_offer


@dataclass(frozen=True, slots=True)
class ChannelPart:
    """One channel's candidates in this shard, best first: ``at`` indexes the part's
    candidates; ``keys`` (one row per candidate, most significant column first,
    ascending) order them among every shard's as the channel orders one index."""

    at: npt.NDArray[np.int64]
    scores: npt.NDArray[np.float64]
    keys: npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class ShardPart:
    """A shard's channels for one search, and what fusion reads of their candidates."""

    symbols: Sequence[Symbol]  # a tuple, or Packed between processes (:mod:`.packed`)
    pagerank: npt.NDArray[np.float64]
    tiers: npt.NDArray[np.int8]
    levels: npt.NDArray[np.int8]  # guard levels, fuzzy as this shard decided it
    plain: npt.NDArray[np.int8]  # guard levels had fuzzy not run
    side: npt.NDArray[np.bool_]
    documents: npt.NDArray[np.bool_]
    channels: dict[Channel, ChannelPart]
    weights: FusionWeights
    matched: int
    fuzzy_auto: bool
    near_typo: bool
    nothing_matched: bool  # no name and no all-terms match: fuzzy runs on its own
    exact: bool  # some name matches exactly or but for case
    translated: npt.NDArray[np.float64] | None = None  # prose: the re-ranking's evidence
    scoped: bool = True  # drill: the scope is in this shard
    listing: Listing | None = None  # get, flat, an empty drill: hits listed (.listing)
    spelled: bool = False  # the query's words spell names of this shard (the guard's)
    # nothing matched here, so fuzzy ran on its own: its look one edit away, should the
    # corpus look so (other shards matched, none exactly), and the guard levels then
    near: ChannelPart | None = None
    near_levels: npt.NDArray[np.int8] | None = None
    qualified: Offer | None = None  # the query's qualified names (:mod:`.qualified`)
    text: TextRows | None = None  # a question: this shard's pieces of text voting for files

    @property
    def found(self) -> bool:
        """Whether a lookup's or a drill's target is in this shard (always, for others)."""
        return self.scoped and (self.listing is None or self.listing.found)

    def keyed(self, symbols: Sequence[Symbol], alias: str | None = None) -> ShardPart:
        """This part with ``symbols`` for its own (and its text's files behind
        ``alias/``, when its symbols were keyed so)."""
        text = self.text if self.text is None or alias is None else self.text.under(alias)
        return dataclasses.replace(self, symbols=symbols, text=text)


def shard_part(
    index: Index, prepared: Prepared, request: SearchRequest, directory: Path | None = None
) -> ShardPart:
    """This shard's part of ``request``: its channels for a ranked search, its hits for a
    listed one (:mod:`.listing`)."""
    parsed = parse(request)
    if is_listed(parsed):
        at, listing = shard_listing(index, prepared, request, parsed)
        return _listed(index, prepared, at, listing)
    query, shape = parsed.subject, parsed.shape
    mask = search_mask(index, prepared.filters, request)
    scoped = True
    if parsed.mode is SearchMode.DRILL:
        assert request.drill_from is not None  # validated by SearchRequest
        scope = lookup.scope(index, prepared, request.drill_from)
        scoped = scope is not None
        scope = scope if scope is not None else np.zeros(prepared.size, np.bool_)
        mask = scope if mask is None else mask & scope
    vectors = None
    if PLANS[shape].described and request.semantic is not SemanticMode.OFF:
        vectors = neural.embedder_for(index, directory)
    run, matched = ranked_run(
        index, prepared, request, query, shape, mask, vectors, qualified=False
    )
    fits = shard_fits(index, prepared, query, shape, mask)
    near = _near_look(prepared, request, query, mask, run)
    part = _ranked_part(index, prepared, request, query, shape, run, matched, fits, near)
    text = text_rows(prepared, index.symbols, request, query, shape, mask)
    return dataclasses.replace(part, scoped=scoped, text=text)


def _listed(
    index: Index, prepared: Prepared, at: npt.NDArray[np.int64], listing: Listing
) -> ShardPart:
    none = np.zeros(0, np.int8)
    return ShardPart(
        symbols=tuple(map(index.symbols.__getitem__, at.tolist())),
        pagerank=prepared.pagerank[at],
        tiers=none,
        levels=none,
        plain=none,
        side=np.zeros(0, np.bool_),
        documents=np.zeros(0, np.bool_),
        channels={},
        weights=FusionWeights(),
        matched=listing.total,
        fuzzy_auto=False,
        near_typo=False,
        nothing_matched=True,
        exact=False,
        listing=listing,
    )


def _ranked_part(
    index: Index,
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    shape: Shape,
    run: ChannelRun,
    matched: int,
    fits: tuple[Fits, ...],
    near: ChannelRun | None,
) -> ShardPart:
    lists = {c: r for c, r in run.rankings.items() if c is not Channel.STRUCTURAL}
    found = [r.positions for r in lists.values()]
    if near is not None:
        found.append(near.rankings[Channel.FUZZY].positions)
    candidates = np.unique(np.concatenate([*found, offered(fits)]))
    # as pipeline._guarded decides (a qualified name chosen in another shard may lead)
    named = is_identifier_shaped(query) or run.spelled or bool(fits)
    levels, plain = _levels(prepared, request, query, run, candidates, named)
    channels: dict[Channel, ChannelPart] = {
        c: ChannelPart(
            np.searchsorted(candidates, r.positions).astype(np.int64),
            r.scores,
            _keys(c, r, run, prepared, request, query, PLANS[shape].word_names),
        )
        for c, r in lists.items()
    }
    symbols = tuple(map(index.symbols.__getitem__, candidates.tolist()))
    translated = None
    if PLANS[shape].reranked and prepared.translation is not None:
        translation = prepared.translation
        ids = query_ids(query, prepared.lexical.term_ids, translation.extra)
        translated = translation.scores(ids, candidates)
    part = ShardPart(
        symbols=symbols,
        pagerank=prepared.pagerank[candidates],
        tiers=run.tiers[candidates],
        levels=levels,
        plain=plain,
        side=prepared.filters.side_code(candidates),
        documents=prepared.filters.documents(candidates),
        channels=channels,
        weights=run.weights,
        matched=matched,
        fuzzy_auto=run.fuzzy_auto,
        near_typo=run.near_typo,
        nothing_matched=not len(run.rankings.get(Channel.IDENTITY, ())) and not run.and_matches,
        exact=bool(np.any(run.tiers <= MatchTier.CASE_INSENSITIVE)),
        translated=translated,
        spelled=run.spelled,
        qualified=shard_offer(prepared, request, query, shape, run, fits, candidates)
        if fits
        else None,
    )
    return part if near is None else _with_near(part, near, prepared, request, query, candidates)


def _with_near(
    part: ShardPart,
    near: ChannelRun,
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    candidates: npt.NDArray[np.int64],
) -> ShardPart:
    """``part`` with the look one edit away of :func:`_near_look` and its guard levels."""
    edits, lower = request.max_edit_distance, prepared.trigrams.lower
    ranking = near.rankings[Channel.FUZZY]
    return dataclasses.replace(
        part,
        near=ChannelPart(
            np.searchsorted(candidates, ranking.positions).astype(np.int64),
            ranking.scores,
            _keys(Channel.FUZZY, ranking, near, prepared, request, query, False),
        ),
        near_levels=guard_levels(near, prepared.names, candidates, query, edits, lower),
    )


def _near_look(
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    run: ChannelRun,
) -> ChannelRun | None:
    """``run`` as it would be had fuzzy looked one edit away (the corpus matched the name
    elsewhere, not exactly), when fuzzy ran on its own here and such a look finds names
    (:func:`symfuse.ranking.search.channel_run.near_typos`); None otherwise."""
    if not run.fuzzy_auto or len(query.strip()) < NEAR_TYPO_LENGTH:
        return None
    depth = channel_depth(request, prepared.size)
    found = near_typos(prepared, request, query, mask, depth)
    if not len(found):
        return None  # a look one edit away that finds nothing is no run
    rankings = {**run.rankings, Channel.FUZZY: found}
    return dataclasses.replace(run, rankings=rankings, fuzzy_auto=False, near_typo=True)


def _levels(
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    run: ChannelRun,
    candidates: npt.NDArray[np.int64],
    named: bool,
) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]:
    """The candidates' guard levels with fuzzy as this shard ran it, and had it not run
    (none when the guard does not run: not ``named``, or semantic only)."""
    if not named or request.semantic is SemanticMode.ONLY:
        none = np.full(candidates.shape[0], 2 * MatchTier.NONE, dtype=np.int8)
        return none, none
    edits, lower = request.max_edit_distance, prepared.trigrams.lower
    levels = guard_levels(run, prepared.names, candidates, query, edits, lower)
    still = dataclasses.replace(run, fuzzy_auto=False, near_typo=False)
    return levels, guard_levels(still, prepared.names, candidates, query, edits, lower)


def _keys(
    channel: Channel,
    ranking: Ranking,
    run: ChannelRun,
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    words: bool,
) -> npt.NDArray[np.float64]:
    """Order keys that sort a channel's candidates of every shard as that channel sorts
    one index's: BM25 puts the symbols holding every term first, then by score; the
    identity channel sorts by tier, name distance, then PageRank (for prose, by score
    then PageRank); fuzzy by distance, distance as written, trigram overlap; the others
    by score."""
    positions, scores = ranking.positions, ranking.scores
    if channel is Channel.LEXICAL:
        every_term = np.arange(len(ranking)) < run.and_matches
        return np.column_stack([-every_term.astype(np.float64), -scores])
    if channel is Channel.IDENTITY:
        return _identity_keys(ranking, run, prepared, query, words)
    if channel is Channel.FUZZY:
        edits = request.max_edit_distance
        near, overlap = fuzzy.tie_keys(prepared.trigrams, query, positions, edits)
        return np.column_stack([-scores, near.astype(np.float64), -overlap])
    return (-scores).reshape(-1, 1)


def _identity_keys(
    ranking: Ranking, run: ChannelRun, prepared: Prepared, query: str, words: bool
) -> npt.NDArray[np.float64]:
    """The identity channel's order keys: by tier, name distance and PageRank, or for
    prose (``words``: it looked for the query's words one at a time) by score then
    PageRank; when the query's words spell names (``run.spelled``), the names put first
    (``run.known``, by names_lead) lead, by tier then PageRank as they were put there.

    A name query's names put first stay keyed as the others: a qualified name's (and an
    import path's) are the best fits among each shard's own symbols, which another shard
    may fit better (``C.__setstate__``), where words spell the same names in any shard."""
    positions, scores = ranking.positions, ranking.scores
    pagerank = prepared.pagerank[positions]
    tier = run.tiers[positions].astype(np.float64)
    if words:
        rest = [-scores, -pagerank, np.zeros(len(ranking))]
    else:
        distance = name_distance(prepared.names, query, positions, run.tiers)
        rest = [tier, distance.astype(np.float64), -pagerank]
    # (the same columns whether spelled or not: another shard's may be)
    first = np.arange(len(ranking)) < (run.known if run.spelled else 0)
    lead = [tier, -pagerank, np.zeros(len(ranking))]
    columns = [np.where(first, a, b) for a, b in zip(lead, rest, strict=True)]
    return np.column_stack([(~first).astype(np.float64), *columns])
