"""Helpers of the ranking structures' build: distinct keys with their inverse, as numpy's
``unique`` gives them, and two halves of a step run side by side."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from symfuse.ranking.prepared.sparse_rows import distinct_inverse
from symfuse.ranking.prepared.threads import both


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


def test_both_runs_the_first_on_another_thread_and_joins_it() -> None:
    here = threading.get_ident()
    first, second = both(threading.get_ident, threading.get_ident)
    assert second == here != first
    assert threading.active_count() == 1 or all(
        t.name != "symfuse-build-half" for t in threading.enumerate()
    )


def test_both_raises_either_half_s_error_after_both_ended() -> None:
    ended: list[str] = []

    def failing() -> int:
        raise ValueError("first half")

    def second() -> int:
        ended.append("second")
        return 2

    with pytest.raises(ValueError, match="first half"):
        both(failing, second)
    assert ended == ["second"]
    with pytest.raises(KeyError):
        both(lambda: ended.append("first"), lambda: {}["missing"])
    assert ended == ["second", "first"]
