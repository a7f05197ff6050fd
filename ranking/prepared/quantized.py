"""Unit vectors kept as int8 codes and a scale per row: less disk and serving memory.

The similarity channel reads every symbol's vector on every query: as float32, a
large part of the ranking file that a server maps and keeps resident. Stored as
``int8`` codes with one float32 scale per row (the row's largest magnitude over 127,
so each row uses the codes' whole range) they take a quarter of that. A cosine read
from the codes stays close to the float32 one, and the golden sets' figures do not
move (tests/bench/README.md).

Searches and builds read the same codes: a structure built in this process scores
exactly as the one a restart maps from the ranking file.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

LEVELS = 127  # codes run over [-LEVELS, LEVELS]
BLOCK = 8192  # rows converted to float32 at a time by :meth:`Quantized.dot` (3 MB at 96)


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Quantized:
    """Rows as ``codes[r] * scales[r]``."""

    codes: npt.NDArray[np.int8]  # rows x dimensions
    scales: npt.NDArray[np.float32]  # rows
    # the codes as float32, where kept (:meth:`widened`): never stored
    wide: npt.NDArray[np.float32] | None = None

    @classmethod
    def of(cls, vectors: npt.NDArray[np.float32]) -> Quantized:
        """``vectors`` rounded to codes, each row against its own largest magnitude."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2:
            raise ValueError(f"expected a matrix of vectors, got shape {vectors.shape}")
        peak = np.abs(vectors).max(axis=1) if vectors.shape[1] else np.zeros(vectors.shape[0])
        scales = (peak / LEVELS).astype(np.float32)
        safe = np.where(scales > 0, scales, np.float32(1.0))
        codes = np.rint(vectors / safe[:, None]).clip(-LEVELS, LEVELS).astype(np.int8)
        return cls(codes, scales)

    @property
    def shape(self) -> tuple[int, int]:
        rows, dimensions = self.codes.shape
        return int(rows), int(dimensions)

    def widened(self) -> Quantized:
        """These rows with their codes kept as float32 too: :meth:`dot` is then one numpy
        call (the GIL let go once, not twice a block; 0.47 against 0.80 ms over 32k rows
        of 96), for four bytes a dimension more. For rows held in memory anyway, as a
        shard group's joined vectors: a ranking file's stay int8 and mapped."""
        return dataclasses.replace(self, wide=self.codes.astype(np.float32))

    def dot(self, vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Every row's dot product with ``vector``, converted a block of rows at a time
        (numpy has no int8 BLAS; converting the whole matrix would allocate a float32 copy
        of every vector a query, and einsum straight over the codes is slower); over the
        float32 codes at once where they are kept, with the same sums."""
        rows, dimensions = self.shape
        vector = np.asarray(vector, dtype=np.float32)
        if self.wide is not None:
            wide: npt.NDArray[np.float32] = np.einsum("ij,j->i", self.wide, vector)
            wide *= self.scales
            return wide
        out = np.empty(rows, dtype=np.float32)
        block = np.empty((min(BLOCK, rows), dimensions), dtype=np.float32)
        for start in range(0, rows, BLOCK):
            stop = min(start + BLOCK, rows)
            part = block[: stop - start]
            np.copyto(part, self.codes[start:stop], casting="unsafe")
            # einsum's own loop, not BLAS: a threaded BLAS matvec stalls on a busy machine
            np.einsum("ij,j->i", part, vector, out=out[start:stop])
        out *= self.scales
        return out

    def rows(self, start: int = 0, stop: int | None = None) -> npt.NDArray[np.float32]:
        """Rows ``start:stop`` as float32 vectors."""
        codes = self.codes[start:stop].astype(np.float32)
        codes *= self.scales[start:stop, None]
        return codes
