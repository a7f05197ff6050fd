"""A search fused once over the parts of many shards, as one combined index fuses it.

Each shard sends its channels' first candidates with raw scores and order keys
(:mod:`.part`), computed with the global statistics. Here every channel's
candidates of all shards are put in one order by those keys and cut to the depth
one index ranks; the structural channel re-ranks their union by PageRank (scaled
to the whole corpus); then :func:`symfuse.ranking.search.pipeline.fused_answer`, the very
code a single index runs, fuses them by weighted reciprocal rank, applies the
demotions and the name-match guard, and cuts the page.

Whether fuzzy runs on its own depends on the whole corpus (nothing matched the name
anywhere, or nothing matched it exactly): a shard that decided otherwise than the
corpus has its fuzzy list left out and its guard levels taken as if fuzzy had not
run; a shard with no match at all, while others match the name but not exactly, ran
fuzzy with the wider bound, and sends its look one edit away as well, which is taken
instead. A query's qualified names are chosen over every shard (:mod:`.qualified`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar, cast

import numpy as np
import numpy.typing as npt

from symfuse.indexer.errors import NotFound
from symfuse.ranking.channels import structural
from symfuse.ranking.channels.tokens import is_identifier_shaped
from symfuse.ranking.channels.topk import Ranking
from symfuse.ranking.channels.translation import Translation
from symfuse.ranking.query.parse import parse
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import Channel, SearchMode, SearchRequest
from symfuse.ranking.search.file_text import merged
from symfuse.ranking.search.pipeline import (
    NEAR_TYPO_LENGTH,
    ChannelRun,
    channel_depth,
    fused_answer,
    response_base,
)
from symfuse.ranking.search.plans import Shape
from symfuse.ranking.search.ranked import Ranked
from symfuse.ranking.shards.listing import is_listed, merged_listing
from symfuse.ranking.shards.packed import joined_symbols, units_of
from symfuse.ranking.shards.part import ChannelPart, ShardPart
from symfuse.ranking.shards.qualified import lead, led_tier
from symfuse.ranking.shards.shard_order import Moved, in_shard_order

G = TypeVar("G", bound=np.generic)


class Flags:
    """The shards' test-code and document flags of every candidate (:class:`SymbolRoles`)."""

    def __init__(
        self, side: npt.NDArray[np.bool_], docs: npt.NDArray[np.bool_], units: npt.NDArray[np.bool_]
    ) -> None:
        self.side = side
        self.docs = docs
        self.unit_rows = units

    def documents(self, positions: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        return self.docs[positions]

    def side_code(self, positions: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.bool_]:
        return self.side if positions is None else self.side[positions]

    def units(self) -> npt.NDArray[np.bool_]:
        return self.unit_rows


@dataclass(frozen=True, slots=True)
class FuzzyDecision:
    """Whether fuzzy runs on its own, or one edit away, over the whole corpus."""

    auto: bool
    near: bool

    @classmethod
    def of(cls, request: SearchRequest, parts: Sequence[ShardPart]) -> FuzzyDecision:
        query = request.query.strip()
        identifier = request.fuzzy is None and is_identifier_shaped(query)
        auto = identifier and all(p.nothing_matched for p in parts)
        near = (
            identifier
            and not auto
            and len(query) >= NEAR_TYPO_LENGTH
            and not any(p.exact for p in parts)
        )
        return cls(auto, near)

    def agrees(self, request: SearchRequest, part: ShardPart) -> bool:
        """Whether ``part`` ran fuzzy (or not) as the corpus does."""
        explicit = request.fuzzy is not None
        return explicit or (part.fuzzy_auto == self.auto and part.near_typo == self.near)


def fuse_shards(
    request: SearchRequest,
    parts: Sequence[ShardPart],
    order: Sequence[str] = (),
    *,
    named: bool = False,
) -> SearchResponse:
    """One answer to ``request`` from every shard's part, in the order the shards'
    symbols have in a combined index (``parts`` come in that order; ``order``: the
    shards' aliases, when a part may hold several shards' candidates, :mod:`.shard_order`):
    fused once for a ranked search, merged for a listed one (:mod:`.listing`). ``named``:
    only what a name channel ranked, as :func:`~symfuse.ranking.search.pipeline.search`."""
    parsed = parse(request)
    query, shape = parsed.subject, parsed.shape
    base = response_base(request, parsed.mode, None, shape)
    if is_listed(parsed):
        listed = [(p.symbols, p.listing) for p in parts if p.listing is not None]
        return merged_listing(request, parsed, listed, base)
    if parsed.mode is SearchMode.DRILL and not any(p.scoped for p in parts):
        raise NotFound(f"drill_from: no symbol id or path {request.drill_from!r} in the index")
    parts, moved = in_shard_order(parts, order)
    decision = FuzzyDecision.of(request, parts)
    agree = [decision.agrees(request, p) for p in parts]
    sizes = [len(p.symbols) for p in parts]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    symbols = joined_symbols([p.symbols for p in parts], None if moved is None else moved.order)
    pagerank = _joined([p.pagerank for p in parts], np.float64, moved)
    own = [_levels(p, ok, decision) for p, ok in zip(parts, agree, strict=True)]
    levels = _joined(own, np.int8, moved)
    side = _joined([p.side for p in parts], np.bool_, moved)
    units = units_of(symbols)
    flags = Flags(side, _joined([p.documents for p in parts], np.bool_, moved), units)
    depth = channel_depth(request, len(symbols))
    rankings = _rankings(parts, agree, decision, starts, depth, moved)
    tiers = _joined([p.tiers for p in parts], np.int8, moved)
    # words that spell a name of any shard spell one of the combined index's
    spelled = any(p.spelled for p in parts)
    matched = sum(p.matched for p in parts)
    # the query's qualified names, chosen over every shard (.qualified)
    chosen = lead([p.qualified for p in parts], agree, starts)
    if chosen is not None:
        rankings[Channel.IDENTITY] = chosen.first(rankings.get(Channel.IDENTITY))
        tiers[chosen.known] = np.minimum(tiers[chosen.known], np.int8(led_tier(shape)))
        levels[chosen.known] = chosen.levels
        spelled = spelled or shape is not Shape.DOTTED
        matched += chosen.fresh
    weights = parts[0].weights if parts else request.fusion_weights
    if request.fusion and weights.structural > 0:
        found = [r.positions for r in rankings.values() if len(r)]
        if found:
            rankings[Channel.STRUCTURAL] = structural.rank(pagerank, np.concatenate(found))
    run = ChannelRun(rankings, tiers, weights, decision.auto, decision.near, spelled=spelled)
    translated = _translated(parts, moved)
    text = merged([p.text for p in parts])  # the pieces of text that vote for files
    ranked = Ranked(symbols, flags, pagerank, lambda _run, at: levels[at], translated, text=text)
    return fused_answer(ranked, request, query, shape, run, matched, base, named)


class Translated:
    """The prose re-ranking's translation scores of every candidate, each computed by its
    shard with the shard's own model (learned from its documented definitions, as the
    word vectors are: close to, not equal to, the combined index's)."""

    def __init__(self, scores: npt.NDArray[np.float64]) -> None:
        self.values = scores

    def scores(
        self, ids: Sequence[int], positions: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.float64]:
        del ids  # the shards read the query's words with their own vocabularies
        found: npt.NDArray[np.float64] = self.values[positions]
        return found


def _translated(parts: Sequence[ShardPart], moved: Moved | None) -> Translation | None:
    """The candidates' translation scores as the re-ranking reads a model (None when no
    shard re-ranks this query)."""
    if not any(p.translated is not None for p in parts):
        return None
    each = [p.translated if p.translated is not None else np.zeros(len(p.symbols)) for p in parts]
    # read through Translation.scores alone (ranking.fusion.rerank.features)
    return cast(Translation, Translated(_joined(each, np.float64, moved)))


def _joined(
    arrays: Sequence[npt.NDArray[G]], dtype: type[G], moved: Moved | None
) -> npt.NDArray[G]:
    """The parts' ``arrays`` one after another, in the shards' order (``moved``)."""
    joined: npt.NDArray[G] = (
        np.concatenate(arrays).astype(dtype) if arrays else np.zeros(0, dtype=dtype)
    )
    return joined if moved is None else joined[moved.order]


def _levels(part: ShardPart, agree: bool, decision: FuzzyDecision) -> npt.NDArray[np.int8]:
    """A part's guard levels with fuzzy run as the corpus runs it."""
    if agree:
        return part.levels
    if decision.near and part.near_levels is not None:
        return part.near_levels
    return part.plain


def _channel(
    part: ShardPart, channel: Channel, agree: bool, decision: FuzzyDecision
) -> ChannelPart | None:
    """A part's ``channel``, its fuzzy list as the corpus runs fuzzy (none when it does
    not, or ran it otherwise here with no look one edit away to offer instead)."""
    if channel is not Channel.FUZZY or agree:
        return part.channels.get(channel)
    return part.near if decision.near else None


def _rankings(
    parts: Sequence[ShardPart],
    agree: list[bool],
    decision: FuzzyDecision,
    starts: npt.NDArray[np.int64],
    depth: int,
    moved: Moved | None,
) -> dict[Channel, Ranking]:
    """Each channel's candidates of every shard in one order (its keys, then the position
    in the combined order, ``moved`` into the shards' order), cut to ``depth``."""
    channels = list(dict.fromkeys(c for p in parts for c in p.channels))
    offered = any(p.near is not None for p in parts)
    if decision.near and Channel.FUZZY not in channels and offered:
        # where one index's run puts it: after the names (pipeline.run_channels)
        names = channels.index(Channel.IDENTITY) + 1 if Channel.IDENTITY in channels else 0
        channels.insert(names, Channel.FUZZY)
    rankings: dict[Channel, Ranking] = {}
    for channel in channels:
        positions, scores, keys = [], [], []
        for part, ok, start in zip(parts, agree, starts, strict=False):
            one = _channel(part, channel, ok, decision)
            if one is None:
                continue
            positions.append(one.at + start)
            scores.append(one.scores)
            keys.append(one.keys)
        if not positions:
            continue
        at = np.concatenate(positions)
        if moved is not None:
            at = moved.to[at]
        key = np.concatenate(keys)
        order = np.lexsort((at, *[key[:, i] for i in reversed(range(key.shape[1]))]))[:depth]
        rankings[channel] = Ranking(at[order].astype(np.int64), np.concatenate(scores)[order])
    return rankings
