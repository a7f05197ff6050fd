"""A file's lines read from disk when asked for: only their byte offsets are held.

A search answer shows a few lines of each hit (:mod:`symfuse.ranking.search.snippets`). Read
through the text cache (:class:`symfuse.ranking.text.paths.Source`), every file a hit sits in
would stay in memory whole, text and line lists, and a server's cache would grow with its
searches. Here a file is read once to find its line offsets (two int32 a line), and a
snippet's lines are read again from the file, a block at a time: a search holds nothing
but the offsets. The price is an open and a read per hit, cheap from the page cache.

Texts and offsets agree only where the file is valid UTF-8 (a replaced byte changes the
text's length); other files, and files too large for int32 offsets, are read whole.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from typing import NamedTuple, overload

import numpy as np
import numpy.typing as npt

from symfuse.indexer.files.source import BOM, read_source_bytes
from symfuse.ranking.text.file_cache import FileCache
from symfuse.ranking.text.source_lines import utf8_offsets

# Lines read at once: a snippet scans a few lines after a signature (a source, up to
# 120 lines, is read as one slice).
_BLOCK = 16


class Offsets(NamedTuple):
    """Where a file's lines lie in its bytes (after ``base``, a byte order mark)."""

    size: int
    mtime_ns: int
    base: int
    starts: npt.NDArray[np.int32]
    ends: npt.NDArray[np.int32]


class DiskLines(Sequence[str]):
    """``text.splitlines()`` of a file, each block of lines read from disk on first use.

    Made per use and dropped with it; the block it read last is all it holds. A file
    that changed since its offsets were taken is read as it now is at those offsets
    (callers check size and mtime first, as the text cache does).
    """

    __slots__ = ("_count", "_first", "_held", "_offsets", "_path")

    def __init__(self, path: str, offsets: Offsets) -> None:
        self._path = path
        self._offsets = offsets
        self._count = int(offsets.starts.shape[0])
        self._first = 0
        self._held: list[str] = []

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, at: int) -> str: ...

    @overload
    def __getitem__(self, at: slice) -> list[str]: ...

    def __getitem__(self, at: int | slice) -> str | list[str]:
        if isinstance(at, slice):
            chosen = range(len(self))[at]
            if chosen.step != 1 or not chosen:
                return [self[i] for i in chosen]
            return self._read(chosen.start, chosen.stop)
        count = self._count
        number = at + count if at < 0 else at
        if not 0 <= number < count:
            raise IndexError("line index out of range")
        if not self._first <= number < self._first + len(self._held):
            self._first = number
            self._held = self._read(number, min(number + _BLOCK, count))
        return self._held[number - self._first]

    def __iter__(self) -> Iterator[str]:
        for first in range(0, len(self), _BLOCK):
            yield from self._read(first, min(first + _BLOCK, len(self)))

    def _read(self, first: int, stop: int) -> list[str]:
        """Lines ``first`` to ``stop`` (exclusive), in one read."""
        starts = self._offsets.starts[first:stop].tolist()
        ends = self._offsets.ends[first:stop].tolist()
        begin = starts[0]
        try:
            with open(self._path, "rb", buffering=0) as handle:  # unbuffered: one read
                handle.seek(self._offsets.base + begin)
                data = handle.read(ends[-1] - begin)
        except OSError:
            return [""] * len(starts)
        text = data.decode("utf-8", errors="replace")
        if len(text) != len(data):  # some character of several bytes: cut the bytes
            return [
                data[a - begin : b - begin].decode("utf-8", errors="replace")
                for a, b in zip(starts, ends, strict=True)
            ]
        return [text[a - begin : b - begin] for a, b in zip(starts, ends, strict=True)]


def offsets_of(real: str, st: os.stat_result) -> Offsets | None:
    """A file's line offsets, read now; None when it cannot be read or is not UTF-8."""
    data = read_source_bytes(real)
    if data is None:
        return None
    base = len(BOM) if data.startswith(BOM) else 0
    found = utf8_offsets(data[base:] if base else data)
    if found is None:
        return None
    return Offsets(st.st_size, st.st_mtime_ns, base, *found)


def offsets_cache(max_lines: int = 4_000_000) -> FileCache[Offsets]:
    """Files' line offsets by real path, bounded by lines held (eight bytes a line)."""
    return FileCache(offsets_of, lambda offsets: len(offsets.starts), max_lines)
