"""The similarity channel's int8 vectors (ranking.quantized)."""

from __future__ import annotations

import numpy as np
import pytest

from symfuse.ranking.prepared.quantized import LEVELS, Quantized

ROWS = 8192 * 2 + 17  # more rows than numpy's iterator converts a buffer at a time


def unit_rows(rows: int, dimensions: int = 96, seed: int = 0) -> np.ndarray:
    vectors = np.random.default_rng(seed).standard_normal((rows, dimensions)).astype(np.float32)
    return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def test_cosines_from_the_codes_are_close_to_the_float_ones() -> None:
    vectors = unit_rows(ROWS)
    coded = Quantized.of(vectors)
    assert coded.codes.dtype == np.int8
    assert coded.scales.dtype == np.float32
    assert coded.shape == vectors.shape
    query = vectors[3]
    exact = vectors @ query
    got = coded.dot(query)
    assert np.abs(got - exact).max() < 5e-3
    assert np.abs(got - exact).mean() < 1e-3
    assert int(np.argmax(got)) == 3


def test_widened_rows_give_the_same_products_in_one_call() -> None:
    """A shard group keeps its joined vectors' codes as float32 too: the products are the
    int8 codes' ones, bit for bit (a group's answer must be its shards')."""
    coded = Quantized.of(unit_rows(ROWS, seed=3))
    wide = coded.widened()
    assert wide.wide is not None
    assert wide.wide.dtype == np.float32
    assert coded.wide is None  # the original keeps its int8 codes alone
    for query in unit_rows(20, seed=4):
        assert np.array_equal(wide.dot(query), coded.dot(query))


def test_each_row_uses_the_codes_whole_range_and_a_zero_row_stays_zero() -> None:
    vectors = unit_rows(50)
    vectors[7] = 0.0
    coded = Quantized.of(vectors)
    peaks = np.abs(coded.codes.astype(np.int16)).max(axis=1)
    assert peaks[7] == 0
    assert coded.scales[7] == 0
    assert np.all(np.delete(peaks, 7) == LEVELS)
    assert np.all(coded.rows(7, 8) == 0)
    assert coded.dot(vectors[0])[7] == 0


def test_coding_decoded_rows_again_gives_the_same_codes() -> None:
    """What a restored corpus relies on: its vectors are the decoded codes, and a build
    from them must map the same codes as the file it came from."""
    coded = Quantized.of(unit_rows(5000, seed=2))
    again = Quantized.of(coded.rows())
    assert np.array_equal(again.codes, coded.codes)
    assert np.array_equal(again.scales, coded.scales)


def test_an_empty_matrix_and_a_wrong_shape() -> None:
    empty = Quantized.of(np.zeros((0, 96), dtype=np.float32))
    assert empty.dot(np.ones(96, dtype=np.float32)).shape == (0,)
    with pytest.raises(ValueError, match="matrix"):
        Quantized.of(np.ones(96, dtype=np.float32))
