"""The similarity channel's TF-IDF rows, read from the BM25 index's own counts.

A symbol's TF-IDF row weighs ``tf = head + SIMILARITY_BODY * body``, the same head and
body counts the BM25 channel keeps by column (:class:`~symfuse.ranking.channels.lexical.
LexicalIndex`). Its values, ``ln(1 + tf) * idf[column] / |row|``, are made when a column
is read from those two columns and two vectors (the columns' idf and the rows' inverse
norms), in the arithmetic the stored matrix's coding used. Storing that matrix as well
would take a large share of the ranking file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels import kept as keeping
from symfuse.ranking.channels.documents import SIMILARITY_BODY
from symfuse.ranking.prepared.columns import Columns

if TYPE_CHECKING:
    from scipy import sparse

Floats = npt.NDArray[np.float64]
BLOCK_ROWS = 2048  # rows weighed at a time by :func:`weights` (its temporaries stay small)
_BODY = np.float32(SIMILARITY_BODY)  # as scipy scales float32 counts by a Python float


@dataclass(frozen=True, slots=True)
class _Column:
    """A TF-IDF column's values at ``rows`` (each once), or over every row when ``rows``
    is None (0 where the term is not)."""

    rows: npt.NDArray[np.intp] | None
    values: npt.NDArray[np.float32]

    @property
    def nbytes(self) -> int:
        return int(self.values.nbytes) + (0 if self.rows is None else int(self.rows.nbytes))

    def spread(self, size: int) -> _Column:
        """The column over every row when it holds a quarter of them or more (one add of
        vectors is faster than a scatter then)."""
        if self.rows is None or self.rows.shape[0] * 4 < size:
            return self
        values = np.zeros(size, dtype=np.float32)
        values[self.rows] = self.values
        return _Column(None, values)

    def add_to(self, out: Floats, weight: float) -> None:
        """``out += weight * values`` at the column's rows, in float64."""
        if self.rows is None:
            out += np.float64(weight) * self.values  # x + 0.0 is x: the scatter's sums
        else:
            out[self.rows] += np.float64(weight) * self.values


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Tfidf:
    """A symbols x terms TF-IDF matrix, its values made from ``head`` and ``body`` counts
    (the BM25 index's: their codings' tables hold the counts; the BM25 head's divisor is
    not applied here) as ``float32(ln(1 + tf) * idf[c] * inverse[r])``."""

    head: Columns
    body: Columns
    idf: Floats  # each column's weight: ln(N / df)
    inverse: Floats  # each row's 1 / L2 norm of its weights (0 for an empty row)
    # frequent terms' columns (:meth:`add_column`)
    _kept: keeping.Kept[_Column] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_kept", keeping.Kept(self.shape[0]))

    @classmethod
    def of(
        cls,
        head: Columns,
        body: Columns,
        tf: sparse.csr_matrix,
        counted: npt.NDArray[np.bool_] | None = None,
    ) -> Tfidf:
        """The matrix of ``tf`` (:func:`~symfuse.ranking.channels.documents.similarity_tf` of the
        counts ``head`` and ``body`` hold); the idf over the rows ``counted`` marks."""
        idf = None if counted is None or counted.all() else counted_idf(tf, counted)
        idf, inverse = weights(tf, idf)
        return cls(head, body, idf, inverse)

    @property
    def shape(self) -> tuple[int, int]:
        return self.head.shape

    def column(self, col: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        """Column ``col``: its row ids (ascending) and values."""
        rows, tf = self._tf(col)
        order = np.argsort(rows, kind="stable")
        rows, tf = rows[order], tf[order]
        return rows, self._values(col, rows, tf)

    def add_column(self, col: int, weight: float, out: Floats) -> None:
        """``out[r] += weight * value`` for each entry of column ``col`` (what a query's
        term adds to the cosines): the values of :meth:`column`, their rows unsorted; a
        frequent term's, kept (:mod:`.kept`)."""
        column = self._kept.get(col)
        if column is None:
            rows, tf = self._tf(col)
            read = _Column(rows, self._values(col, rows, tf))
            size = self.shape[0]
            frequent = rows.shape[0] >= keeping.ROWS
            column = (self._kept.keep(col, lambda: read.spread(size)) if frequent else None) or read
        column.add_to(out, weight)

    def _tf(self, col: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
        """Column ``col`` of ``tf``: its row ids, in no order, and ``head + SIMILARITY_BODY
        * body`` summed in float32 as scipy sums the two matrices. The union of the head's
        and the body's rows is found through a dense scratch of the rows, not by sorting:
        a frequent term's column is long, and sorting the union would be a noticeable part
        of a search."""
        head_rows, head = _entries(self.head, col)
        body_rows, body = _entries(self.body, col)
        if not body_rows.shape[0]:
            return head_rows, head
        scaled = body * _BODY
        if not head_rows.shape[0]:
            return body_rows, scaled
        dense = np.zeros(self.shape[0], dtype=np.float32)
        dense[head_rows] = head
        only_body = body_rows[dense[body_rows] == 0]  # counts are positive
        dense[body_rows] += scaled
        rows = np.concatenate([head_rows, only_body])
        return rows, dense[rows]

    def _values(
        self, col: int, rows: npt.NDArray[np.intp], tf: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """``float32(ln(1 + tf) * idf[col] * inverse[rows])``, in the order a stored
        matrix's coding multiplied them."""
        logs = np.log1p(tf).astype(np.float64)
        logs *= self.idf[col]
        logs *= np.take(self.inverse, rows)
        return logs.astype(np.float32)

    def reweighted(self, idf: Floats) -> Tfidf:
        """The matrix with each column weighed by ``idf`` instead and the rows normalized
        again (a shard scoring as part of a larger corpus)."""
        return Tfidf(self.head, self.body, idf, weights(self.tf(), idf)[1])

    def tf(self) -> sparse.csr_matrix:
        """The whole ``tf`` matrix, by row."""
        from scipy import sparse

        head, body = (_raw(part) for part in (self.head, self.body))
        return sparse.csr_matrix(head + SIMILARITY_BODY * body)

    def scipy(self) -> sparse.csc_matrix:
        """The matrix for scipy's arithmetic (tests; every column made)."""
        from scipy import sparse

        parts = [self.column(c) for c in range(self.shape[1])]
        indptr = np.concatenate([[0], np.cumsum([rows.shape[0] for rows, _ in parts])])
        indices = np.concatenate([np.zeros(0, dtype=np.intp), *(rows for rows, _ in parts)])
        data = np.concatenate([np.zeros(0, dtype=np.float32), *(v for _, v in parts)])
        return sparse.csc_matrix((data, indices, indptr), shape=self.shape)


def counted_idf(tf: sparse.csr_matrix, counted: npt.NDArray[np.bool_]) -> Floats:
    """``idf = ln(N / df)`` of ``tf``'s columns over the rows ``counted`` marks."""
    from scipy import sparse

    tf = sparse.csr_matrix(tf)
    tf.sum_duplicates()
    held = np.repeat(counted, np.diff(tf.indptr))  # the entries of those rows (no copy of them)
    df = np.bincount(tf.indices[held], minlength=tf.shape[1]).astype(np.float64)
    idf: Floats = np.log(max(int(np.count_nonzero(counted)), 1) / np.maximum(df, 1.0))
    return idf


def weights(tf: sparse.csr_matrix, idf: Floats | None = None) -> tuple[Floats, Floats]:
    """``idf = ln(N / df)`` of ``tf``'s columns (unless given) and each row's inverse L2
    norm of ``ln(1 + tf) * idf``, :data:`BLOCK_ROWS` rows at a time (whole, the float64
    temporaries would set the peak of a cold build's memory)."""
    from scipy import sparse

    tf = sparse.csr_matrix(tf)
    tf.sum_duplicates()
    n_docs = tf.shape[0]
    if idf is None:
        df = np.bincount(tf.indices, minlength=tf.shape[1]).astype(np.float64)
        idf = np.log(max(n_docs, 1) / np.maximum(df, 1.0))
    inverse = np.zeros(n_docs, dtype=np.float64)
    for start in range(0, n_docs, BLOCK_ROWS):
        stop = min(start + BLOCK_ROWS, n_docs)
        lo, hi = int(tf.indptr[start]), int(tf.indptr[stop])
        logs = np.log1p(tf.data[lo:hi].astype(np.float32)).astype(np.float64)
        logs *= idf[tf.indices[lo:hi]]
        rows = np.repeat(np.arange(stop - start), np.diff(tf.indptr[start : stop + 1]))
        norms = np.sqrt(np.bincount(rows, weights=logs * logs, minlength=stop - start))
        np.divide(1.0, norms, out=inverse[start:stop], where=norms > 0)
    return idf, inverse


def _entries(matrix: Columns, col: int) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.float32]]:
    """Column ``col``'s row ids and stored values as its table decodes them, unscaled."""
    start, end = int(matrix.indptr[col]), int(matrix.indptr[col + 1])
    rows = matrix.indices[start:end].astype(np.intp)
    stored = matrix.stored[start:end]
    table = matrix.coding.table
    values: npt.NDArray[Any] = stored if table is None else np.take(table, stored)
    return rows, values.astype(np.float32, copy=False)


def _raw(matrix: Columns) -> sparse.csc_matrix:
    """``matrix`` with its stored values decoded by its table alone."""
    from scipy import sparse

    table = matrix.coding.table
    data = matrix.stored if table is None else np.take(table, matrix.stored)
    indices = np.asarray(matrix.indices, dtype=np.int32)
    return sparse.csc_matrix(
        (np.asarray(data, dtype=np.float32), indices, matrix.indptr), shape=matrix.shape
    )
