"""Helpers of the ranking structures' build: distinct keys with their inverse, as numpy's
``unique`` gives them."""

from __future__ import annotations

import numpy as np
import pytest

from symfuse.ranking.prepared.sparse_rows import distinct_inverse


@pytest.mark.parametrize(
    "keys",
    [
        np.zeros(0, dtype=np.int64),
        np.asarray([7], dtype=np.int64),
        np.asarray([3, 3, 3], dtype=np.int64),
        np.random.default_rng(3).integers(0, 50, 1000),
        np.random.default_rng(4).integers(0, 2**40, 5000),
        np.asarray([2**62, 1, 2**62], dtype=np.int64),  # too wide to pack: numpy's own
    ],
    ids=["empty", "one", "repeated", "narrow", "wide", "too-wide"],
)
def test_distinct_inverse_is_numpys_unique(keys: np.ndarray) -> None:
    expected, inverse = np.unique(keys, return_inverse=True)
    found, positions = distinct_inverse(keys.astype(np.int64))
    assert found.dtype == np.int64
    assert np.array_equal(found, expected)
    assert np.array_equal(positions, inverse.ravel())
