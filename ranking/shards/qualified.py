"""A query's qualified names chosen over every shard, as one combined index chooses them.

``C.__setstate__`` names the ``__setstate__`` of a class ``C`` wherever there is one: a
shard without one, choosing among its own symbols alone, put its own best fit first
(``LRUCache.__setstate__``), and a shard where a single ``read`` is written as named put
that one first for ``LimitedStream.read``. So a shard runs its channels without the
qualified names' lead (:func:`symfuse.ranking.search.pipeline.ranked_run`) and offers, for
each qualified name of the query, what choosing reads of its definitions
(:class:`symfuse.ranking.search.qualified.Fits`), with the guard levels of the offered
ones as they would be led (:class:`Offer`). The coordinator joins the offers, chooses as
one index chooses, and puts the chosen first (:func:`lead`), as
:func:`symfuse.ranking.search.qualified.with_qualified_names` does in one index.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.topk import Ranking
from symfuse.ranking.fusion.guards import guard_levels
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.query.search_request import Channel, SearchRequest
from symfuse.ranking.search.channel_run import ChannelRun
from symfuse.ranking.search.plans import Shape
from symfuse.ranking.search.qualified import Fits, qualified_fits, qualified_tokens

QUALIFIED = (Shape.DOTTED, Shape.MIXED, Shape.SENTENCE)  # the shapes whose names lead


def led_tier(shape: Shape) -> MatchTier:
    """The tier the chosen are led at: a dotted query's, the fqn suffix; a sentence's
    qualified names', an exact name (as :func:`with_qualified_names`)."""
    return MatchTier.FQN_SUFFIX if shape is Shape.DOTTED else MatchTier.EXACT


def shard_fits(
    index: Index,
    prepared: Prepared,
    query: str,
    shape: Shape,
    mask: npt.NDArray[np.bool_] | None,
) -> tuple[Fits, ...]:
    """This shard's fits of each qualified name ``query`` writes (positions in the
    shard); none for a shape whose qualified names do not lead."""
    if shape not in QUALIFIED:
        return ()
    tokens = qualified_tokens(query.strip(), dotted=shape is Shape.DOTTED)
    return tuple(qualified_fits(index, prepared, t, mask) for t in tokens)


def offered(fits: Sequence[Fits]) -> npt.NDArray[np.int64]:
    """The positions ``fits`` offer, once each, ascending."""
    found = [p for f in fits for _fit, _rank, p in f.offered]
    return np.unique(np.asarray(found, dtype=np.int64))


@dataclass(frozen=True, slots=True, eq=False)  # arrays
class Offer:
    """A shard's qualified names: their fits (positions: the part's candidates), the
    offered candidates (``at``) with their guard levels were they led (fuzzy as the shard
    decided it, and as if it had not run), and whether no channel matched them."""

    fits: tuple[Fits, ...]
    at: npt.NDArray[np.int64]
    levels: npt.NDArray[np.int8]
    plain: npt.NDArray[np.int8]
    unmatched: npt.NDArray[np.bool_]


def shard_offer(
    prepared: Prepared,
    request: SearchRequest,
    query: str,
    shape: Shape,
    run: ChannelRun,
    fits: tuple[Fits, ...],
    candidates: npt.NDArray[np.int64],
) -> Offer:
    """What the shard offers of ``fits``, ``candidates`` being the part's (all offered
    positions among them), ``run`` its channels without the lead."""
    positions = offered(fits)
    tiers = run.tiers.copy()
    tiers[positions] = np.minimum(tiers[positions], np.int8(led_tier(shape)))
    led = dataclasses.replace(run, tiers=tiers)
    edits, lower = request.max_edit_distance, prepared.trigrams.lower
    levels = guard_levels(led, prepared.names, positions, query, edits, lower)
    still = dataclasses.replace(led, fuzzy_auto=False, near_typo=False)
    plain = guard_levels(still, prepared.names, positions, query, edits, lower)
    hit = np.zeros(prepared.size, dtype=np.bool_)
    for channel, ranking in run.rankings.items():
        if channel is not Channel.STRUCTURAL:
            hit[ranking.matched] = True
    at = np.searchsorted(candidates, positions).astype(np.int64)
    local = dict(zip(positions.tolist(), at.tolist(), strict=True))
    moved = tuple(f.moved(local.__getitem__) for f in fits)
    return Offer(moved, at, levels, plain, ~hit[positions])


@dataclass(frozen=True, slots=True, eq=False)  # arrays
class Lead:
    """The definitions chosen over every shard (positions among all the parts'
    candidates, in the order they lead), their guard levels led, and how many no
    channel matched (the answer's total counts them, as one index's does)."""

    known: npt.NDArray[np.int64]
    levels: npt.NDArray[np.int8]
    fresh: int

    def first(self, identity: Ranking | None) -> Ranking:
        """The identity ranking with the chosen first (:func:`identity_first`)."""
        identity = identity if identity is not None else Ranking.empty()
        rest = ~np.isin(identity.positions, self.known)
        top = float(identity.scores.max()) if len(identity) else 1.0
        return Ranking(
            np.concatenate([self.known, identity.positions[rest]]),
            np.concatenate([np.full(len(self.known), top), identity.scores[rest]]),
        )


def lead(
    offers: Sequence[Offer | None], agree: Sequence[bool], starts: npt.NDArray[np.int64]
) -> Lead | None:
    """The qualified names' lead over every shard (``offers`` in the parts' order,
    ``agree``: whether each part ran fuzzy as the corpus does, ``starts``: where each
    part's candidates begin); None when nothing is chosen."""
    present = [
        (o, ok, int(s)) for o, ok, s in zip(offers, agree, starts, strict=False) if o is not None
    ]
    if not present or not present[0][0].fits:
        return None
    chosen = []
    for t in range(len(present[0][0].fits)):
        joined = Fits.joined([o.fits[t].moved(_after(s)) for o, _ok, s in present])
        chosen.append(joined.chosen())
    known = np.concatenate(chosen)
    if not known.shape[0]:
        return None
    known = known[np.sort(np.unique(known, return_index=True)[1])]
    at = np.concatenate([o.at + s for o, _ok, s in present])
    levels = np.concatenate([o.levels if ok else o.plain for o, ok, _s in present])
    unmatched = np.concatenate([o.unmatched for o, _ok, _s in present])
    where = {int(p): i for i, p in enumerate(at.tolist())}
    rows = np.asarray([where[int(p)] for p in known.tolist()], dtype=np.int64)
    return Lead(known.astype(np.int64), levels[rows], int(unmatched[rows].sum()))


def _after(start: int) -> Callable[[int], int]:
    """A part's candidate ``p`` as a position among every part's (they begin at ``start``)."""
    return lambda p: p + start
