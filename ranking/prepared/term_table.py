"""Ids by term over a stored vocabulary: a loaded index's term lookups without a Python
string, int and dict entry per term.

A ranking file keeps each vocabulary as its terms joined by ``"\\n"`` (UTF-8), a term's
id being its position. Decoding every term into a ``{term: id}`` dict would cost a
server megabytes for as long as it serves, to look up a query's few words.
:class:`TermTable` answers the same lookups from the stored bytes and three small arrays:
a 64-bit hash of each term, sorted, with the term's id beside it; a lookup hashes the
word, bisects, and compares the stored bytes, so the answer is exact (two terms of one
hash are both compared).
"""

from __future__ import annotations

import bisect
from collections.abc import ItemsView, Iterator, Mapping
from typing import Any, TypeVar, overload

import numpy as np
import numpy.typing as npt

_T = TypeVar("_T")
_MASK = (1 << 64) - 1
_BASE = 0x100000001B3  # FNV's 64-bit prime: odd, so its powers never wrap to zero
_LENGTH = 0x9E3779B97F4A7C15  # a term's byte length, mixed in: "a" and "a\0" differ


def term_hash(raw: bytes) -> int:
    """``sum(raw[i] * _BASE**i) ^ (len(raw) * _LENGTH)``, modulo 2**64; what
    :func:`_hashes` computes for every stored term at once."""
    value, power = 0, 1
    for byte in raw:
        value = (value + byte * power) & _MASK
        power = (power * _BASE) & _MASK
    return value ^ ((len(raw) * _LENGTH) & _MASK)


def _hashes(codes: npt.NDArray[np.uint8], lengths: npt.NDArray[np.int64]) -> npt.NDArray[np.uint64]:
    """:func:`term_hash` of each term of ``codes`` (the terms' bytes back to back, no
    separators), in numpy: unsigned arithmetic wraps modulo 2**64 as the function's does."""
    if codes.size == 0:
        return np.zeros(lengths.shape[0], dtype=np.uint64)
    powers = np.full(int(lengths.max()), _BASE, dtype=np.uint64)
    powers[0] = 1
    np.cumprod(powers, out=powers)
    firsts = np.zeros(lengths.shape[0], dtype=np.int64)
    np.cumsum(lengths[:-1], out=firsts[1:])
    at = np.arange(codes.size, dtype=np.int64) - np.repeat(firsts, lengths)
    weighted = codes.astype(np.uint64) * powers[at]
    sums = np.add.reduceat(weighted, firsts)
    mixed: npt.NDArray[np.uint64] = sums ^ (lengths.astype(np.uint64) * np.uint64(_LENGTH))
    return mixed


class TermTable(Mapping[str, int]):
    """``{term: id}`` for ``count`` terms stored ``"\\n"``-joined in ``joined`` (UTF-8
    bytes, as :func:`~symfuse.ranking.prepared.ranking_file.strings` writes them), read-only.

    ``ValueError`` when the bytes do not hold ``count`` non-empty terms.
    """

    __slots__ = ("_bytes", "_ends", "_hashes", "_ids", "_starts")

    def __init__(self, joined: npt.NDArray[Any], count: int) -> None:
        data = np.asarray(joined, dtype=np.uint8)
        breaks = np.flatnonzero(data == 10)
        if count == 0:
            if data.size:
                raise ValueError("string table length mismatch")
        elif breaks.shape[0] != count - 1:
            raise ValueError("string table length mismatch")
        starts = np.zeros(count, dtype=np.int64)
        starts[1:] = breaks + 1
        ends = np.empty(count, dtype=np.int64)
        ends[:-1] = breaks
        if count:
            ends[-1] = data.size
        lengths = ends - starts
        if count and int(lengths.min()) == 0:
            raise ValueError("empty term in a string table")
        hashes = _hashes(data[data != 10], lengths)
        order = np.argsort(hashes, kind="stable")
        # memoryviews: bisect and the comparisons read them as Python ints, no numpy scalars
        self._bytes = data.data
        self._hashes = np.ascontiguousarray(hashes[order]).data.cast("B").cast("Q")
        self._ids = order.astype(np.int64).data.cast("B").cast("q")
        self._starts = starts.data.cast("B").cast("q")
        self._ends = ends.data.cast("B").cast("q")

    def __len__(self) -> int:
        return len(self._starts)

    def __iter__(self) -> Iterator[str]:
        """The terms in id order."""
        data = self._bytes
        for start, end in zip(self._starts, self._ends, strict=True):
            yield data[start:end].tobytes().decode()

    def __contains__(self, term: object) -> bool:
        return isinstance(term, str) and self._find(term) >= 0

    def __getitem__(self, term: str) -> int:
        found = self._find(term) if isinstance(term, str) else -1
        if found < 0:
            raise KeyError(term)
        return found

    @overload
    def get(self, term: str, /) -> int | None: ...
    @overload
    def get(self, term: str, default: int, /) -> int: ...
    @overload
    def get(self, term: str, default: _T, /) -> int | _T: ...
    def get(self, term: str, default: object = None, /) -> object:
        found = self._find(term)
        return default if found < 0 else found

    def items(self) -> ItemsView[str, int]:
        return _Items(self)

    def term(self, at: int) -> str:
        """The term of id ``at``."""
        return self._bytes[self._starts[at] : self._ends[at]].tobytes().decode()

    def _find(self, term: str) -> int:
        raw = term.encode()
        if b"\n" in raw:
            return -1
        wanted = term_hash(raw)
        hashes, ids = self._hashes, self._ids
        at = bisect.bisect_left(hashes, wanted)
        while at < len(hashes) and hashes[at] == wanted:
            found = ids[at]
            if self._bytes[self._starts[found] : self._ends[found]] == raw:
                return int(found)
            at += 1
        return -1


class _Items(ItemsView[str, int]):
    """``(term, id)`` in id order, without a lookup per term."""

    _mapping: TermTable

    def __iter__(self) -> Iterator[tuple[str, int]]:
        return ((term, i) for i, term in enumerate(self._mapping))
