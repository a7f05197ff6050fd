"""The graph's edges: per-file rows as the linker makes them, and the arrays ranking reads.

Each symbol_id gets a number for the life of an index (:class:`EdgeNumbering`) and
each file's edges are kept as arrays of those numbers until the file is relinked,
so after a one-file change only that file's edges are converted; the rest is numpy.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

if TYPE_CHECKING:  # numpy is imported where arrays are built: CLI start-up stays light
    import numpy as np
    import numpy.typing as npt

# An edge as stored per source file: (src symbol_id, dst symbol_id, kind, weight).
EdgeRow = tuple[str, str, int, float]


class StoredEdges(Sequence[EdgeRow]):
    """One file's edges as loaded from the store: rows made on first use.

    Loading builds none of them (that would cost every load): ranking reads the arrays,
    and a change re-reads only the rows of the files it relinks.
    """

    __slots__ = ("_dst", "_ids", "_kind", "_rows", "_src", "_weight")

    def __init__(
        self,
        ids: list[str],
        src: npt.NDArray[np.int32],
        dst: npt.NDArray[np.int32],
        kind: npt.NDArray[np.int8],
        weight: npt.NDArray[np.float64],
    ) -> None:
        self._ids, self._src, self._dst, self._kind, self._weight = ids, src, dst, kind, weight
        self._rows: list[EdgeRow] | None = None

    def _made(self) -> list[EdgeRow]:
        if self._rows is None:
            ids = self._ids
            self._rows = [
                (ids[s], ids[d], k, w)
                for s, d, k, w in zip(
                    self._src.tolist(),
                    self._dst.tolist(),
                    self._kind.tolist(),
                    self._weight.tolist(),
                    strict=True,
                )
            ]
        return self._rows

    def __len__(self) -> int:
        return len(self._src)

    @overload
    def __getitem__(self, at: int) -> EdgeRow: ...
    @overload
    def __getitem__(self, at: slice) -> list[EdgeRow]: ...
    def __getitem__(self, at: int | slice) -> EdgeRow | list[EdgeRow]:
        return self._made()[at]

    def __iter__(self) -> Iterator[EdgeRow]:
        return iter(self._made())


# One file's edges as arrays of symbol numbers: (the rows they came from, src, dst, kind,
# weight); numbers restored from the store stay int32, numbered ones are int64
_EdgePart = tuple[
    Sequence[EdgeRow],
    "npt.NDArray[np.int32] | npt.NDArray[np.int64]",
    "npt.NDArray[np.int32] | npt.NDArray[np.int64]",
    "npt.NDArray[np.int8]",
    "npt.NDArray[np.float64]",
]


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class EdgeArrays:
    """Graph edges as parallel arrays of symbol positions in :attr:`Index.symbols`."""

    src: npt.NDArray[np.int32]
    dst: npt.NDArray[np.int32]
    kind: npt.NDArray[np.int8]
    weight: npt.NDArray[np.float32]
    milli: npt.NDArray[np.int32]  # the weights in thousandths, exactly as stored
    files: tuple[tuple[str, int], ...]  # (file, how many of the edges are its), in order

    def __len__(self) -> int:
        return int(self.src.shape[0])


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class StoredGraph:
    """Edges and ranks as the store keeps them: arrays of positions in ``ids``, the
    weights in thousandths, and how many of the edges each file has, in order."""

    ids: list[str]
    src: npt.NDArray[np.int32]
    dst: npt.NDArray[np.int32]
    kind: npt.NDArray[np.int8]
    milli: npt.NDArray[np.int32]
    files: list[tuple[str, int]]
    ranks: npt.NDArray[np.float64]

    def check(self) -> None:
        """ValueError when the arrays do not fit together."""
        src, dst, ids = self.src, self.dst, self.ids
        if not (len(src) == len(dst) == len(self.kind) == len(self.milli)) or len(
            self.ranks
        ) != len(ids):
            raise ValueError("graph arrays of different lengths")
        if len(src) and (
            max(int(src.max()), int(dst.max())) >= len(ids)
            or min(int(src.min()), int(dst.min())) < 0
        ):
            raise ValueError("an edge points outside the symbol list")
        if sum(count for _, count in self.files) != len(src):
            raise ValueError("per-file edge counts do not add up")


class EdgeNumbering:
    """Symbol numbers for the life of an index, and each file's edges as arrays of them.

    Owned by one :class:`~symfuse.indexer.index.Index` (a snapshot gets a copy).
    """

    __slots__ = ("numbers", "parts")

    def __init__(self) -> None:
        self.numbers: dict[str, int] = {}  # symbol_id -> its number
        self.parts: dict[str, _EdgePart] = {}  # file key -> its edges as numbers

    def copy(self) -> EdgeNumbering:
        """An independent copy (RuntimeError when another thread is filling this one)."""
        copy = EdgeNumbering()
        copy.numbers = dict(self.numbers)
        copy.parts = dict(self.parts)
        return copy

    def restore(self, graph: StoredGraph) -> dict[str, Sequence[EdgeRow]]:
        """Stored edges (positions in ``graph.ids``, which become the numbers) -> each
        file's edge rows, made on first use."""
        graph.check()
        ids, src, dst, kind = graph.ids, graph.src, graph.dst, graph.kind
        weights = graph.milli / 1000.0
        self.numbers = {sid: i for i, sid in enumerate(ids)}
        # the parts are views of the stored int32 ends (int64 copies would double them)
        by_file: dict[str, Sequence[EdgeRow]] = {}
        start = 0
        for key, count in graph.files:
            end = start + count
            rows = StoredEdges(
                ids, src[start:end], dst[start:end], kind[start:end], weights[start:end]
            )
            by_file[key] = rows
            self.parts[key] = (
                rows,
                src[start:end],
                dst[start:end],
                kind[start:end],
                weights[start:end],
            )
            start = end
        return by_file

    def arrays(self, edges_by_file: dict[str, Sequence[EdgeRow]], numbers: list[int]) -> EdgeArrays:
        """Concatenate per-file edge arrays, then map symbol numbers (``numbers``: those
        of the index's symbols, in order) to positions. Edges to a symbol that is gone
        (not expected: relinking follows every change) are dropped."""
        import numpy as np

        keys = sorted(edges_by_file)
        self._number_edges(edges_by_file, keys)
        parts = [self.parts[key] for key in keys]
        for key in [k for k in self.parts if k not in edges_by_file]:
            del self.parts[key]
        owner = np.repeat(np.arange(len(keys)), [len(p[1]) for p in parts])
        src_numbers = np.concatenate([p[1] for p in parts]) if parts else np.zeros(0, np.int64)
        dst_numbers = np.concatenate([p[2] for p in parts]) if parts else np.zeros(0, np.int64)
        kind = np.concatenate([p[3] for p in parts]) if parts else np.zeros(0, np.int8)
        weights = np.concatenate([p[4] for p in parts]) if parts else np.zeros(0, np.float64)
        at = np.full(len(self.numbers), -1, dtype=np.int32)
        at[np.asarray(numbers, dtype=np.int64)] = np.arange(len(numbers), dtype=np.int32)
        src, dst = at[src_numbers], at[dst_numbers]
        keep = (src >= 0) & (dst >= 0)
        if not keep.all():
            src, dst, kind, weights, owner = (a[keep] for a in (src, dst, kind, weights, owner))
        counts = np.bincount(owner, minlength=len(keys)).tolist()
        return EdgeArrays(
            src,
            dst,
            kind,
            weights.astype(np.float32),
            np.rint(weights * 1000).astype(np.int32),
            tuple(zip(keys, counts, strict=True)),
        )

    def number(self, symbol_ids: Sequence[str]) -> list[int]:
        """The numbers of these ids; new ones are numbered."""
        numbers = self.numbers
        found: list[int | None] = list(map(numbers.get, symbol_ids))
        if None in found:  # new ids (an added definition): numbered, the rest looked up once
            for at in [i for i, number in enumerate(found) if number is None]:
                found[at] = numbers.setdefault(symbol_ids[at], len(numbers))
        return found  # type: ignore[return-value]

    def _number_edges(self, files: dict[str, Sequence[EdgeRow]], keys: list[str]) -> None:
        """Number the edges of the files among ``keys`` whose rows changed, in one pass.

        One list of all their rows, transposed once, then split per file (views): a
        cold build numbers every file, and four small arrays per file cost more.
        """
        import numpy as np

        parts = self.parts
        stale = [k for k in keys if (p := parts.get(k)) is None or p[0] is not files[k]]
        if not stale:
            return
        lists = [files[key] for key in stale]
        flat = [row for edges in lists for row in edges]
        src_ids, dst_ids, kinds, weights = zip(*flat, strict=True) if flat else ((), (), (), ())
        src = np.asarray(self.number(src_ids), dtype=np.int64)
        dst = np.asarray(self.number(dst_ids), dtype=np.int64)
        kind = np.asarray(kinds, dtype=np.int8)
        weight = np.asarray(weights, dtype=np.float64)
        bounds = np.cumsum([len(edges) for edges in lists])[:-1]
        for key, edges, src_part, dst_part, kind_part, weight_part in zip(
            stale,
            lists,
            np.split(src, bounds),
            np.split(dst, bounds),
            np.split(kind, bounds),
            np.split(weight, bounds),
            strict=True,
        ):
            parts[key] = (edges, src_part, dst_part, kind_part, weight_part)
