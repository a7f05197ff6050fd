"""Growing term ids and CSR blocks without a column count: what per-file pieces are made of.

A :class:`Vocabulary` hands out column ids that only grow, so a piece tokenized
for one generation stays valid in the next; a :class:`Rows` block is a CSR
matrix whose width is fixed only when blocks are stacked into one matrix
(:meth:`Rows.matrix`), once the vocabulary is complete.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from scipy import sparse

# The dtype of every stored sparse value (term counts, field-weighted counts, TF-IDF and
# borrowed weights): float32 halves the ranking file's largest members and the pages a
# query maps, and its 24-bit mantissa holds every count exactly and every weight to 1e-7.
VALUES = np.float32


def distinct_inverse(
    keys: npt.NDArray[np.int64],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.intp]]:
    """``np.unique(keys, return_inverse=True)`` of non-negative keys: the distinct keys,
    ascending, and each key's position among them. One sort of the keys with their
    positions in the low bits, when both fit 63 bits, instead of numpy's argsort (which
    sorts positions by keys, about twice the time); numpy's otherwise."""
    n = int(keys.shape[0])
    bits = max(n - 1, 1).bit_length()
    if not n or int(keys.min()) < 0 or int(keys.max()) >= 1 << (63 - bits):
        found, inverse = np.unique(keys, return_inverse=True)
        return found, inverse.ravel()
    packed = np.left_shift(keys, bits)
    packed |= np.arange(n, dtype=np.int64)
    packed.sort()
    ordered = np.right_shift(packed, bits)
    first = np.empty(n, dtype=np.bool_)
    first[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=first[1:])
    distinct = ordered[first]
    del ordered  # (arrays of a key each: the fewer alive at once, the lower a build's peak)
    positions = np.bitwise_and(packed, (1 << bits) - 1, out=packed)
    ranks = np.cumsum(first, dtype=np.intp)
    ranks -= 1
    inverse = np.empty(n, dtype=np.intp)
    inverse[positions] = ranks
    return distinct, inverse


class Vocabulary:
    """Term -> column id; ids only grow, so pieces built earlier stay valid.

    Not thread-safe for writers: one builder at a time (the corpus lock).
    """

    __slots__ = ("ids", "terms")

    def __init__(self, terms: Sequence[str] = ()) -> None:
        self.terms: list[str] = list(terms)
        self.ids: dict[str, int] = {t: i for i, t in enumerate(self.terms)}

    def __len__(self) -> int:
        return len(self.terms)

    def add(self, tokens: list[str]) -> npt.NDArray[np.int32]:
        """The ids of ``tokens``, adding the new ones (in the order they first appear).

        New terms are found among the distinct tokens (``dict.fromkeys`` keeps first-use
        order, in C) rather than by a Python loop over every token: a worker tokenizes
        each file against a fresh vocabulary, where most files bring new terms, and that
        loop would be the largest part of tokenizing.
        """
        ids = self.ids
        found = list(map(ids.get, tokens))
        if None in found:
            terms = self.terms
            for token in dict.fromkeys(tokens):
                if token not in ids:
                    ids[token] = len(terms)
                    terms.append(token)
            found = list(map(ids.get, tokens))
        return np.fromiter(found, dtype=np.int32, count=len(found))


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Rows:
    """A CSR block without a column count: rows of (column id, value) pairs."""

    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.int32]
    data: npt.NDArray[np.float32]  # counts and field weights: float32 holds them (see VALUES)

    @property
    def rows(self) -> int:
        return int(self.indptr.shape[0]) - 1

    def matrix(self, columns: int) -> sparse.csr_matrix:
        from scipy import sparse

        return sparse.csr_matrix((self.data, self.indices, self.indptr), shape=(self.rows, columns))

    def row_of_entry(self) -> npt.NDArray[np.int64]:
        return np.repeat(np.arange(self.rows, dtype=np.int64), np.diff(self.indptr))

    @classmethod
    def of(
        cls, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int32], vals: npt.NDArray[np.float64]
    ) -> Rows:
        """Sum duplicate (row, column) pairs; rows sorted, columns sorted within a row."""
        n = int(rows.max()) + 1 if rows.shape[0] else 0
        return cls.sized(rows, cols, vals, n)

    @classmethod
    def sized(
        cls,
        rows: npt.NDArray[np.int64],
        cols: npt.NDArray[np.int32],
        vals: npt.NDArray[np.float64],
        n: int,
    ) -> Rows:
        if not rows.shape[0]:
            return cls.empty(n)
        width = int(cols.max()) + 1
        keys, inverse = distinct_inverse(rows * width + cols)
        data = np.bincount(inverse, weights=vals, minlength=keys.shape[0])
        owner = keys // width
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(owner, minlength=n), out=indptr[1:])
        return cls(indptr, (keys % width).astype(np.int32), data.astype(VALUES))

    @classmethod
    def empty(cls, n: int) -> Rows:
        return cls(
            np.zeros(n + 1, dtype=np.int64), np.zeros(0, dtype=np.int32), np.zeros(0, VALUES)
        )

    @classmethod
    def stack(cls, blocks: Sequence[Rows]) -> Rows:
        """The blocks one under the other."""
        if not blocks:
            return cls.empty(0)
        sizes = np.asarray([b.indices.shape[0] for b in blocks], dtype=np.int64)
        offsets = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        indptr = np.concatenate(
            [np.zeros(1, dtype=np.int64)]
            + [b.indptr[1:] + off for b, off in zip(blocks, offsets, strict=True)]
        )
        return cls(
            indptr,
            np.concatenate([b.indices for b in blocks]),
            np.concatenate([b.data for b in blocks]),
        )
