"""A sparse matrix by column, as searches read it: no scipy needed to hold or query one.

The channels read a term's postings as a slice of a column-compressed matrix
(``indptr``, ``indices``, ``data``) and nothing else. Keeping the matrices a search
holds in this plain form lets a warm start read them from the ranking file and answer
without importing scipy: importing ``scipy.sparse`` took about a tenth of a warm
``symfuse search`` (its array-API layer imports numpy's every lazy submodule,
``numpy.f2py`` among them). Building and updating the structures still use scipy
(:meth:`Columns.of`, :meth:`Columns.scipy`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy.typing as npt

if TYPE_CHECKING:
    from scipy import sparse


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Columns:
    """A (rows x columns) sparse matrix in compressed-column form."""

    indptr: npt.NDArray[Any]
    indices: npt.NDArray[Any]
    data: npt.NDArray[Any]
    shape: tuple[int, int]

    @classmethod
    def of(cls, matrix: sparse.spmatrix | sparse.sparray) -> Columns:
        """Any scipy sparse matrix, by column."""
        from scipy import sparse

        csc = sparse.csc_matrix(matrix)
        rows, columns = csc.shape
        return cls(csc.indptr, csc.indices, csc.data, (int(rows), int(columns)))

    def scipy(self) -> sparse.csc_matrix:
        """The same matrix for scipy's arithmetic (shares the arrays)."""
        from scipy import sparse

        return sparse.csc_matrix((self.data, self.indices, self.indptr), shape=self.shape)
