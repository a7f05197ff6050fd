"""A channel's answer, the one top-k primitive every channel uses, and ``distinct``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

_Int = TypeVar("_Int", bound=np.integer[Any])


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Ranking:
    """Symbol positions best first, with the channel's own (raw) score for each."""

    positions: npt.NDArray[np.int64]
    scores: npt.NDArray[np.float64]
    # Every symbol the channel matched, in any order, when that is more than ``positions``
    # holds (a channel ranks only as deep as a page needs; ``total`` counts them all).
    found: npt.NDArray[np.int64] | None = None

    @property
    def matched(self) -> npt.NDArray[np.int64]:
        """Positions of every symbol the channel matched (ranked or not)."""
        return self.positions if self.found is None else self.found

    def __len__(self) -> int:
        return int(self.positions.shape[0])

    @classmethod
    def empty(cls) -> Ranking:
        return cls(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float64))


def top_k(scores: npt.NDArray[np.floating], k: int) -> npt.NDArray[np.int64]:
    """Positions of the ``k`` highest positive scores, best first (ties: lower position first).

    ``argpartition`` selects in linear time; only the selected few are sorted. Every
    score tied with the k-th joins the sort, so that the first ``j`` of ``top_k(s, k)``
    are ``top_k(s, j)`` for any ``j <= k`` (a longer list extends a shorter one).
    """
    # The selection runs over the positive scores alone: most channels score a few
    # symbols of many (a name's words), and selecting among all of them cost the most.
    positive = np.flatnonzero(scores > 0)
    return top_k_of(positive, scores[positive], k)


def top_k_of(
    positions: npt.NDArray[np.integer[Any]], values: npt.NDArray[np.floating], k: int
) -> npt.NDArray[np.int64]:
    """:func:`top_k` of the scores that are ``values`` at ``positions`` (ascending, each
    value positive) and 0 elsewhere: for a channel that has them apart already, which
    saves two passes over every symbol."""
    k = min(k, positions.shape[0])
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    likely = _likely_top(values, k)
    if likely is not None:  # the top k are among these few: select there
        positions, values = positions[likely], values[likely]
    if k < values.shape[0]:
        picked = np.argpartition(-values, k - 1)[:k]
        kth = values[picked].min()
        if np.count_nonzero(values == kth) > np.count_nonzero(values[picked] == kth):
            picked = np.flatnonzero(values >= kth)
        positions, values = positions[picked], values[picked]
    order = np.lexsort((positions, -values))[:k]
    return positions[order].astype(np.int64)


SAMPLE_STRIDE = 16
SAMPLE_AT_LEAST = 4096  # fewer values: select among them all


def _likely_top(values: npt.NDArray[np.floating], k: int) -> npt.NDArray[np.int64] | None:
    """Positions in ``values`` that hold its ``k`` highest, found from a sample: or
    ``None`` when the sample's guess holds fewer than ``k`` (then select among all).

    A channel that scores nearly every symbol (similarity: a cosine per symbol) would
    spend most of its selection partitioning them all; a sample is partitioned much
    faster. Every 16th value guesses a threshold about 2k values clear; when
    at least ``k`` do, the ``k`` highest (and any tied with the k-th) are all among
    them, so the selection that follows is exact.
    """
    n = values.shape[0]
    if n < SAMPLE_AT_LEAST or n < 8 * SAMPLE_STRIDE * k:
        return None
    sample = values[::SAMPLE_STRIDE]
    rank = sample.shape[0] - max(1, 2 * k // SAMPLE_STRIDE)
    threshold = np.partition(sample, rank)[rank]
    above = np.flatnonzero(values >= threshold)
    return above if above.shape[0] >= k else None


def distinct(values: npt.NDArray[_Int]) -> npt.NDArray[_Int]:
    """The distinct values of an integer array, ascending, as ``np.unique(values)``.

    A query calls this, not ``np.unique``: the first plain ``np.unique`` of a process
    imports ``numpy.ma`` (to ask whether the array is masked), a noticeable part of a
    one-shot command's query.
    """
    ordered = np.sort(values, axis=None)
    if ordered.shape[0] < 2:
        return ordered
    first = np.empty(ordered.shape[0], dtype=np.bool_)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    return ordered[first]
