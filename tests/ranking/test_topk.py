"""The one top-k primitive: the k highest positive scores, best first, ties by position."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest

from symfuse.ranking.channels.topk import top_k


def by_sorting(scores: npt.NDArray[np.floating], k: int) -> npt.NDArray[np.int64]:
    positive = np.flatnonzero(scores > 0)
    order = np.lexsort((positive, -scores[positive]))
    return positive[order][:k].astype(np.int64)


def _scores(shape: str, n: int, rng: np.random.Generator) -> npt.NDArray[np.float64]:
    if shape == "distinct":
        return rng.random(n)
    if shape == "ties":  # two decimals: every value is shared by hundreds
        return np.round(rng.random(n), 2)
    if shape == "sparse":  # a name's words: a few symbols of many
        return np.where(rng.random(n) < 0.01, rng.random(n), 0.0)
    flat = np.full(n, 0.5)  # all tied but a handful
    flat[rng.integers(0, n, 5)] = 0.9
    return flat


@pytest.mark.parametrize("shape", ["distinct", "ties", "sparse", "flat"])
@pytest.mark.parametrize("n", [50, 5_000, 60_000])
def test_the_selection_is_the_head_of_a_full_sort(shape: str, n: int) -> None:
    # 60k values take the sampled threshold (a similarity channel scores every symbol):
    # it must select exactly what sorting everything gives, ties included.
    rng = np.random.default_rng(n)
    scores = _scores(shape, n, rng)
    for k in (1, 7, 100, 300):
        assert np.array_equal(top_k(scores, k), by_sorting(scores, k)), (shape, n, k)


def test_a_longer_list_extends_a_shorter_one() -> None:
    scores = np.round(np.random.default_rng(3).random(60_000), 3)
    assert np.array_equal(top_k(scores, 200)[:50], top_k(scores, 50))
