"""Compact matrices (issue 16): coded values and narrow row ids read back bit for bit."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pytest
from scipy import sparse

from symfuse.ranking.channels.documents import similarity_tf
from symfuse.ranking.channels.tfidf import Tfidf
from symfuse.ranking.prepared import columns as columns_module
from symfuse.ranking.prepared.columns import Coding, Columns


def _random(rows: int, cols: int, values: npt.NDArray[np.float32]) -> sparse.csr_matrix:
    rng = np.random.default_rng(7)
    nnz = values.shape[0]
    r = rng.integers(0, rows, nnz)
    c = rng.integers(0, cols, nnz)
    matrix = sparse.coo_matrix((values, (r, c)), shape=(rows, cols)).tocsr()
    matrix.sum_duplicates()
    return matrix


def _same_bits(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> bool:
    return np.array_equal(a.astype(np.float32).view(np.uint32), b.view(np.uint32))


def test_counts_code_as_bytes_and_read_back_exactly() -> None:
    counts = np.random.default_rng(1).integers(1, 60, 3000).astype(np.float32)
    matrix = _random(500, 40, counts)
    coded = Columns.coded(matrix, Coding())
    assert coded.stored.dtype == np.uint8
    assert coded.indices.dtype == np.uint16
    assert _same_bits(Columns.of(matrix).data, coded.data)
    for col in range(40):
        rows, values = coded.column(col)
        expected = matrix.tocsc()[:, col]
        assert rows.tolist() == sorted(expected.indices.tolist())
        assert _same_bits(expected.toarray().ravel()[rows], values)


def test_divided_values_equal_the_quotients_made_ahead() -> None:
    """A BM25 head: field-weighted counts over a per-row norm, as lexical.normalized made it."""
    weights = np.array([0.5, 2.0, 3.0, 1 / 6, 0.125, 3.5], dtype=np.float32)
    values = np.random.default_rng(2).choice(weights, 4000) * 3
    matrix = _random(300, 50, values.astype(np.float32))
    norm = np.random.default_rng(3).uniform(0.3, 2.0, 300)
    coded = Columns.coded(matrix, Coding(divisor=norm))
    assert coded.stored.dtype == np.uint8  # a few dozen distinct sums
    rows = np.repeat(np.arange(300), np.diff(matrix.indptr))
    ahead = matrix.copy()
    ahead.data = (matrix.data / norm[rows]).astype(np.float32)
    assert _same_bits(Columns.of(ahead).data, coded.data)


def test_tfidf_columns_made_from_the_bm25_counts_equal_the_products() -> None:
    """The TF-IDF values a search reads, made from a head and a body coded as the BM25
    index codes them, are the products ``ln(1 + tf) * idf / |row|`` bit for bit."""
    rng = np.random.default_rng(4)
    head = _random(400, 60, rng.integers(1, 9, 5000).astype(np.float32) * 1.5)
    body = _random(400, 60, rng.integers(1, 30, 4000).astype(np.float32))
    head_columns = Columns.coded(head, Coding(divisor=rng.uniform(0.5, 2.0, 400)))
    body_columns = Columns.coded(body, Coding())
    tf = similarity_tf(head, body)
    made = Tfidf.of(head_columns, body_columns, tf)
    tf = sparse.csr_matrix(tf)
    logs = np.log1p(tf.data).astype(np.float64) * made.idf[tf.indices]
    rows = np.repeat(np.arange(400), np.diff(tf.indptr))
    norms = np.sqrt(np.bincount(rows, weights=logs * logs, minlength=400))
    products = (logs * (1.0 / norms)[rows]).astype(np.float32)
    plain = Columns.of(sparse.csr_matrix((products, tf.indices, tf.indptr), shape=tf.shape))
    assert head_columns.coding.table is not None
    ours = sparse.csc_matrix(made.scipy())
    assert np.array_equal(ours.indptr, plain.indptr)
    assert np.array_equal(ours.indices, plain.indices)
    assert _same_bits(plain.data, ours.data)
    assert made.tf().nnz == tf.nnz
    for col in range(60):  # a query's sum reads the same values, found without sorting
        rows, values = made.column(col)
        expected = np.zeros(400)
        expected[rows] += np.float64(0.7) * values
        got = np.zeros(400)
        made.add_column(col, np.float64(0.7), got)
        assert np.array_equal(got, expected), col


def test_many_distinct_values_stay_float32(monkeypatch: pytest.MonkeyPatch) -> None:
    values = np.random.default_rng(5).uniform(0.1, 9.0, 2000).astype(np.float32)
    matrix = _random(100, 20, values)
    monkeypatch.setattr(columns_module, "MAX_TABLE", 256)  # a limit, not a component
    coded = Columns.coded(matrix, Coding())
    assert coded.coding.table is None
    assert coded.stored.dtype == np.float32
    assert _same_bits(Columns.of(matrix).data, coded.data)


def test_row_ids_are_narrow_only_when_they_fit() -> None:
    tall = sparse.csr_matrix(([1.0, 2.0], ([0, 70_000], [0, 1])), shape=(70_001, 2))
    assert Columns.of(tall).indices.dtype == np.int32
    assert Columns.of(tall).column(0)[0].tolist() == [0]
    assert Columns.of(tall).column(1)[0].tolist() == [70_000]
    short = sparse.csr_matrix(([1.0], ([65_535], [0])), shape=(65_536, 1))
    assert Columns.of(short).indices.dtype == np.uint16
    assert Columns.of(short).column(0)[0].tolist() == [65_535]


def test_rows_come_sorted_within_each_column_values_with_them() -> None:
    # column 0: rows 4, 1; column 1: empty; column 2: rows 3, 0, 2
    shuffled = Columns(
        np.asarray([0, 2, 2, 5]),
        np.asarray([4, 1, 3, 0, 2], dtype=np.uint16),
        np.asarray([0.4, 0.1, 0.3, 0.0, 0.2], dtype=np.float32),
        (5, 3),
    )
    ordered = shuffled.with_sorted_rows()
    assert ordered is not shuffled
    rows, values = ordered.column(0)
    assert rows.tolist() == [1, 4]
    assert values.tolist() == pytest.approx([0.1, 0.4])
    assert ordered.column(1)[0].tolist() == []
    rows, values = ordered.column(2)
    assert rows.tolist() == [0, 2, 3]
    assert values.tolist() == pytest.approx([0.0, 0.2, 0.3])
    assert ordered.with_sorted_rows() is ordered  # already sorted: itself
    assert (ordered.scipy() != shuffled.scipy()).nnz == 0  # the same matrix
