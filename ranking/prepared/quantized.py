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
        """These rows with their codes kept as float32 too: :meth:`dot` then converts
        nothing, for four bytes a dimension more. For rows held in memory anyway, as a
        shard group's joined vectors: a ranking file's stay int8 and mapped."""
        return dataclasses.replace(self, wide=self.codes.astype(np.float32))

    def dot(self, vector: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
        """Every row's dot product with ``vector``: one einsum over the codes, whose
        iterator converts them to float32 a buffer at a time (numpy has no int8 BLAS, and
        converting the whole matrix would allocate a float32 copy of every vector a
        query); over the float32 codes where they are kept. The same sums either way.

        One numpy call lets go of the GIL once, so a side thread's product
        (``RepositoryEmbedder.started`` in the similarity channel) runs beside the
        caller's Python. A loop over blocks of rows took the GIL back between blocks, and
        a thread asking for it waits out the interpreter's switch interval while the
        caller runs Python: the blocks after the first ran once the caller waited."""
        vector = np.asarray(vector, dtype=np.float32)
        codes = self.codes if self.wide is None else self.wide
        out: npt.NDArray[np.float32] = np.einsum("ij,j->i", codes, vector)
        out *= self.scales
        return out

    def rows(self, start: int = 0, stop: int | None = None) -> npt.NDArray[np.float32]:
        """Rows ``start:stop`` as float32 vectors."""
        codes = self.codes[start:stop].astype(np.float32)
        codes *= self.scales[start:stop, None]
        return codes
