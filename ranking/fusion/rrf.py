"""Weighted reciprocal rank fusion of the channels' rankings.

``score(d) = sum_c w_c / (K + rank_c(d))`` (Cormack, Clarke and Buettcher,
"Reciprocal Rank Fusion outperforms Condorcet and individual Rank Learning
Methods", 2009, with per-channel weights). Weights are normalized over the
channels that ran and returned something, so the score of an item ranked
first by every one of them is ``1 / (K + 1)``; scores are multiplied by
``K + 1`` to lie in 0..1.

Every contribution is recorded through :func:`fuse`'s one accumulation, so that
``fusion_debug`` can show each channel's rank and share; every later change to a score
or an order (demotions, the re-ranking, the exact-name guard, a deeper list's tail)
goes through :meth:`Fused.adjusted`, which records it per item as an
:class:`~symfuse.ranking.query.responses.Adjustment` when the search traces
(:meth:`Fused.traced`, with ``fusion_debug``), as zoekt's ``addScore`` keeps each addend
with its reason.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.topk import Ranking, distinct
from symfuse.ranking.fusion.tuning import TUNING
from symfuse.ranking.query.responses import Adjustment, Change
from symfuse.ranking.query.search_request import Channel, FusionWeights

K = TUNING.rrf_k  # fusion's rank constant (ranking.api shows it)
Notes = tuple[tuple[Adjustment, ...], ...]  # per item, the changes made after fusion


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Fused:
    """Candidates best first with scores in 0..1, and per channel their rank and contribution.

    ``ranks[c][i]`` is item i's 1-based rank in channel c (0 when not ranked there).
    """

    positions: npt.NDArray[np.int64]
    scores: npt.NDArray[np.float64]
    ranks: dict[Channel, npt.NDArray[np.int64]]
    contributions: dict[Channel, npt.NDArray[np.float64]]
    weights: dict[Channel, float]
    # items whose score is their place's after the learned re-ranking moved them
    # (ranking.rerank): their channels' contributions no longer sum to it
    rescored: npt.NDArray[np.bool_] | None = None
    notes: Notes | None = None  # traced (fusion_debug): each item's adjustments so far

    def __len__(self) -> int:
        return int(self.positions.shape[0])

    def reorder(self, order: npt.NDArray[np.int64], scores: npt.NDArray[np.float64]) -> Fused:
        return Fused(
            self.positions[order],
            scores,
            {c: r[order] for c, r in self.ranks.items()},
            {c: v[order] for c, v in self.contributions.items()},
            self.weights,
            None if self.rescored is None else self.rescored[order],
            None if self.notes is None else tuple(self.notes[i] for i in order.tolist()),
        )

    def traced(self) -> Fused:
        """``self`` recording every later adjustment per item (see :meth:`adjusted`)."""
        return replace(self, notes=((),) * len(self))

    def adjusted(
        self,
        order: npt.NDArray[np.int64] | None,
        scores: npt.NDArray[np.float64],
        change: Change,
        why: str | Callable[[int], str],
        which: npt.NDArray[np.bool_] | None = None,
        factor: float | None = None,
    ) -> Fused:
        """``self`` put in ``order`` (a permutation; ``None``: as it is) with ``scores`` (in
        the new order): the one door of every score change after fusion.

        Traced, each item it touched gets an :class:`Adjustment`: the items of ``which``
        (aligned with ``self``), else those it moved or rescored; with ``factor`` (else
        the item's new score over its old one), its move, and ``why`` (one reason, or
        one per item by its index in ``self``). Untraced, nothing more than the reorder.
        """
        out = replace(self, scores=scores) if order is None else self.reorder(order, scores)
        if self.notes is None:
            return out
        size = len(self)
        place = np.arange(size)
        if order is not None:
            place[order] = np.arange(size)
        new = out.scores[place]  # each item's new score, by its index in self
        if which is None:
            which = (place != np.arange(size)) | (np.abs(new - self.scores) > 1e-12)
        notes = list(out.notes or ())
        for i in np.flatnonzero(which).tolist():
            at, old = int(place[i]), float(self.scores[i])
            ratio = factor if factor is not None else (float(new[i]) / old if old > 0 else None)
            moved = (i + 1, at + 1) if at != i else None
            reason = why if isinstance(why, str) else why(i)
            notes[at] = (*notes[at], Adjustment(change, reason, ratio, moved))
        return replace(out, notes=tuple(notes))


def normalized_weights(weights: FusionWeights, channels: list[Channel]) -> dict[Channel, float]:
    """The weights of ``channels``, scaled to sum to 1 (equal shares if all are zero)."""
    raw = {c: max(0.0, weights.of(c)) for c in channels}
    total = sum(raw.values())
    if total <= 0:
        return {c: 1.0 / len(channels) for c in channels} if channels else {}
    return {c: w / total for c, w in raw.items()}


def fuse(rankings: dict[Channel, Ranking], weights: FusionWeights, k: int = K) -> Fused:
    """Merge rankings by weighted reciprocal rank; channels with no result are left out."""
    ran = [c for c, r in rankings.items() if len(r)]
    shares = normalized_weights(weights, ran)
    if not ran:
        empty_i = np.zeros(0, dtype=np.int64)
        return Fused(empty_i, np.zeros(0), {}, {}, {})
    every = np.concatenate([rankings[c].positions for c in ran])
    positions, inverse = np.unique(every, return_inverse=True)
    total = np.zeros(positions.shape[0], dtype=np.float64)
    ranks: dict[Channel, npt.NDArray[np.int64]] = {}
    contributions: dict[Channel, npt.NDArray[np.float64]] = {}
    offset = 0
    for c in ran:
        count = len(rankings[c])
        slots = inverse[offset : offset + count]
        offset += count
        rank = np.zeros(positions.shape[0], dtype=np.int64)
        rank[slots] = np.arange(1, count + 1)
        share = np.zeros(positions.shape[0], dtype=np.float64)
        share[slots] = shares[c] / (k + rank[slots])
        total += share
        ranks[c] = rank
        contributions[c] = share * (k + 1)
    scores = total * (k + 1)
    order = np.lexsort((positions, -scores))
    fused = Fused(positions, scores, ranks, contributions, shares)
    return fused.reorder(order, scores[order])


def extended(head: Fused, deep: Fused) -> Fused:
    """``head``, then the items of ``deep`` it lacks, in ``deep``'s order.

    ``head`` fuses each channel's first :data:`~symfuse.ranking.search.pipeline.MIN_DEPTH`
    candidates, ``deep`` more of them: a longer page keeps the order a short one has
    (deeper channel lists would give the items in both extra shares and reorder the
    top), and the rest follows. Tail scores are scaled to stay at or below the head's.
    """
    if not len(deep):
        return head
    tail = np.flatnonzero(~np.isin(deep.positions, head.positions))
    if not tail.shape[0]:
        return head
    scores = deep.scores[tail]
    channels = list(dict.fromkeys([*head.ranks, *deep.ranks]))
    size = len(head)
    ranks: dict[Channel, npt.NDArray[np.int64]] = {}
    contributions: dict[Channel, npt.NDArray[np.float64]] = {}
    for c in channels:
        ranks[c] = np.concatenate(
            [
                head.ranks.get(c, np.zeros(size, dtype=np.int64)),
                deep.ranks[c][tail] if c in deep.ranks else np.zeros(tail.shape[0], np.int64),
            ]
        )
        contributions[c] = np.concatenate(
            [
                head.contributions.get(c, np.zeros(size)),
                deep.contributions[c][tail] if c in deep.contributions else np.zeros(tail.shape[0]),
            ]
        )
    notes = None
    if head.notes is not None and deep.notes is not None:
        notes = head.notes + tuple(deep.notes[i] for i in tail.tolist())
    rescored = None  # the head's places set by the learned re-ranking, when it ran
    if head.rescored is not None:
        rescored = np.concatenate([head.rescored, np.zeros(tail.shape[0], dtype=np.bool_)])
    joined = Fused(
        np.concatenate([head.positions, deep.positions[tail]]),
        np.concatenate([head.scores, scores]),
        ranks,
        contributions,
        {**deep.weights, **head.weights},
        rescored,
        notes,
    )
    floor = float(head.scores[-1]) if len(head) else float(scores[0])
    if not scores[0] > floor > 0:
        return joined
    share = floor / float(scores[0])
    below = np.arange(len(joined)) >= size
    scaled = np.concatenate([head.scores, scores * share])
    why = "from the deeper lists, after the head every page shares: scaled below it"
    return joined.adjusted(None, scaled, Change.OTHER, why, below, share)


def guard_first(
    fused: Fused,
    level: npt.NDArray[np.int8],
    within: npt.NDArray[np.int64] | None = None,
    why: str | Callable[[int], str] = "the exact-name guard's order",
) -> tuple[Fused, npt.NDArray[np.bool_]]:
    """Put items with a lower guard ``level`` (aligned with ``fused``) before all others.

    Used for the exact-name guarantee: level 0 for an exact name, 1 for a
    case-insensitive one, 2 for everything else. ``within`` orders the items of one
    level before their fused scores do (0 everywhere: fused order). Scores are then
    lifted so that they never increase down the list; returns which items were lifted.
    ``why`` says why an item moved (see :meth:`Fused.adjusted`).
    """
    keys = np.zeros(len(fused), dtype=np.int64) if within is None else within
    order = np.lexsort((np.arange(len(fused)), -fused.scores, keys, level)).astype(np.int64)
    scores = fused.scores[order]
    lifted_scores = np.maximum.accumulate(scores[::-1])[::-1]
    lifted = lifted_scores > scores + 1e-12
    return fused.adjusted(order, lifted_scores, Change.GUARD, why), lifted


def cascade(rankings: dict[Channel, Ranking]) -> Fused:
    """No fusion: identity tier order, then lexical, then fuzzy, then similarity rank."""
    order = [Channel.IDENTITY, Channel.LEXICAL, Channel.FUZZY, Channel.SIMILARITY]
    ran = [c for c in order if c in rankings and len(rankings[c])]
    if not ran:
        return fuse({}, FusionWeights())
    positions = distinct(np.concatenate([rankings[c].positions for c in ran]))
    big = positions.shape[0] + 1
    ranks: dict[Channel, npt.NDArray[np.int64]] = {}
    for c in ran:
        rank = np.zeros(positions.shape[0], dtype=np.int64)
        at = np.searchsorted(positions, rankings[c].positions)
        rank[at] = np.arange(1, len(rankings[c]) + 1)
        ranks[c] = rank
    keys = [np.where(ranks[c] > 0, ranks[c], big) for c in reversed(ran)]
    sort = np.lexsort([positions, *keys]).astype(np.int64)
    count = positions.shape[0]
    scores = 1.0 - np.arange(count, dtype=np.float64) / count
    zero = {c: np.zeros(count) for c in ran}
    return Fused(positions, np.zeros(count), ranks, zero, {}).reorder(sort, scores)
