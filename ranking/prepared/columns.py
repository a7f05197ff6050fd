"""A sparse matrix by column, as searches read it: no scipy needed to hold or query one.

The channels read a term's postings as a slice of a column-compressed matrix
(``indptr``, ``indices`` and the entries' values) and nothing else. Keeping the
matrices a search holds in this plain form lets a warm start read them from the
ranking file and answer without importing scipy: importing ``scipy.sparse`` is a
large part of a warm ``symfuse search`` (its array-API layer imports numpy's every
lazy submodule, ``numpy.f2py`` among them). Building and updating the
structures still use scipy (:meth:`Columns.of`, :meth:`Columns.scipy`).

The ranking file maps these arrays, so their size is both the index's size on disk
and the pages a server's searches touch. They are kept compact without changing a
single value a search reads:

- row ids are ``uint16`` when the matrix has at most 65,536 rows (a large workspace's
  symbols may fit), else ``int32``;
- an entry's value may be stored factored (:class:`Coding`): a code into a table of
  the matrix's distinct values (a term's counts are a few hundred distinct numbers;
  a BM25 head's field-weighted counts more, but far fewer than its entries), times a
  per-column and a per-row scale, divided by a per-row divisor, rounded to float32
  last. That is the arithmetic that made the values (TF-IDF's ``ln(1 + tf) * idf * 1 /
  |row|``, BM25's ``tf / norm``), done in the same order, so each value is bit for bit
  the one it replaces (:meth:`Columns.column`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from scipy import sparse

# Row ids below this fit uint16.
NARROW_ROWS = 1 << 16
# A table longer than this is not worth its codes (uint16 at most).
MAX_TABLE = 1 << 16

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Coding:
    """How stored entries become values: ``float32(table[code] * column[c] * row[r] /
    divisor[r])``, each factor left out when None (``table``: the stored entries are the
    values themselves)."""

    table: npt.NDArray[np.float32] | None = None
    column: Floats | None = None
    row: Floats | None = None
    divisor: Floats | None = None

    @property
    def plain(self) -> bool:
        """Whether the stored entries are the values as they are."""
        parts = (self.table, self.column, self.row, self.divisor)
        return all(part is None for part in parts)

    def values(
        self, stored: npt.NDArray[Any], rows: npt.NDArray[Any], columns: npt.NDArray[Any] | int
    ) -> npt.NDArray[np.float32]:
        """The values of entries ``stored`` at ``rows`` of ``columns`` (one, or one each)."""
        # np.take and in-place products: as fast as slicing stored float32 values, even for
        # the longest columns
        base = stored if self.table is None else np.take(self.table, stored)
        if self.column is None and self.row is None and self.divisor is None:
            return base
        x = base.astype(np.float64)
        if self.column is not None:
            x *= np.take(self.column, columns)
        if self.row is not None:
            x *= np.take(self.row, rows)
        if self.divisor is not None:
            x /= np.take(self.divisor, rows)
        return x.astype(np.float32)


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Columns:
    """A (rows x columns) sparse matrix in compressed-column form."""

    indptr: npt.NDArray[Any]
    indices: npt.NDArray[Any]
    stored: npt.NDArray[Any]  # the entries: values, or codes (see ``coding``)
    shape: tuple[int, int]
    coding: Coding = Coding()

    @classmethod
    def of(cls, matrix: sparse.spmatrix | sparse.sparray) -> Columns:
        """Any scipy sparse matrix, by column, its values as they are (row ids narrowed)."""
        from scipy import sparse

        csc = sparse.csc_matrix(matrix)
        rows, columns = (int(x) for x in csc.shape)
        return cls(csc.indptr, narrow_ids(csc.indices, rows), csc.data, (rows, columns))

    @classmethod
    def coded(cls, matrix: sparse.spmatrix | sparse.sparray, scales: Coding) -> Columns:
        """``matrix`` by column, its float32 values coded in a table when they have few
        distinct values (others are kept as they are); ``scales`` (without a table) apply
        when a value is read. The table costs a sort of the values, once per build."""
        plain = cls.of(matrix)
        table, stored = None, plain.stored
        if plain.stored.dtype == np.float32:
            table, stored = _table(plain.stored)
        coding = Coding(table, scales.column, scales.row, scales.divisor)
        return cls(plain.indptr, plain.indices, stored, plain.shape, coding)

    def column(self, col: int) -> tuple[npt.NDArray[Any], npt.NDArray[np.float32]]:
        """Column ``col``: its row ids (ascending, as indices: converted once here, not by
        every gather that uses them) and values."""
        start, end = int(self.indptr[col]), int(self.indptr[col + 1])
        rows = self.indices[start:end].astype(np.intp)
        return rows, self.coding.values(self.stored[start:end], rows, col)

    def with_sorted_rows(self) -> Columns:
        """This matrix with each column's row ids ascending, as :meth:`column` promises
        (itself when they are: checking is one pass over the row ids)."""
        indices = self.indices.astype(np.int64)
        starts = np.zeros(indices.shape[0], dtype=np.bool_)
        starts[self.indptr[:-1][np.diff(self.indptr) > 0]] = True
        if bool(np.all((np.diff(indices) > 0) | starts[1:])):
            return self
        owners = np.repeat(np.arange(self.shape[1]), np.diff(self.indptr))
        order = np.lexsort((indices, owners))
        return Columns(
            self.indptr, self.indices[order], self.stored[order], self.shape, self.coding
        )

    @property
    def data(self) -> npt.NDArray[np.float32]:
        """Every entry's value, column after column (decoded: a copy when coded)."""
        if self.coding.plain:
            return self.stored
        owners = np.repeat(np.arange(self.shape[1]), np.diff(self.indptr))
        return self.coding.values(self.stored, self.indices, owners)

    def scipy(self) -> sparse.csc_matrix:
        """The same matrix for scipy's arithmetic (its values decoded)."""
        from scipy import sparse

        indices = np.asarray(self.indices, dtype=np.int32)
        return sparse.csc_matrix((self.data, indices, self.indptr), shape=self.shape)


def narrow_ids(ids: npt.NDArray[Any], bound: int) -> npt.NDArray[Any]:
    """Ids below ``bound`` (row ids, term ids) as ``uint16`` when it allows, else ``int32``."""
    return ids.astype(np.uint16 if bound <= NARROW_ROWS else np.int32, copy=False)


def _table(values: npt.NDArray[np.float32]) -> tuple[npt.NDArray[np.float32] | None, Any]:
    """The distinct values and each entry's code in them (uint8 or uint16), or no table and
    the values when there are too many. Counts (whole numbers up to 255) are their own
    codes; other values are looked up in their sorted set."""
    if not values.shape[0]:
        return None, values
    if float(values.min()) >= 0 and float(values.max()) < 256:
        whole = values.astype(np.uint8)
        if np.array_equal(whole, values):
            return np.arange(256, dtype=np.float32), whole
    table = np.unique(values)
    if table.shape[0] > MAX_TABLE:
        return None, values
    dtype = np.uint8 if table.shape[0] <= 256 else np.uint16
    return table, np.searchsorted(table, values).astype(dtype)
