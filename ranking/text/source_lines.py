"""A file's lines as offsets into its text: ``str.splitlines`` without a string per line.

Servers keep recently read files for snippets and text search
(:class:`symfuse.ranking.text.paths.Source`). Held as ``splitlines()`` lists, every line
costs a string object beside the text itself; :class:`Lines` keeps two
int32 offsets per line and slices a line out when it is asked for. For ASCII text (most
code) the offsets come from numpy over the bytes; other text keeps the list, since
``splitlines`` also breaks at Unicode separators whose byte and character offsets differ.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

import numpy as np
import numpy.typing as npt

# What str.splitlines breaks at in ASCII: \n, \r (\r\n is one break), \v, \f, \x1c-\x1e.
_BREAKS = np.asarray([10, 13, 11, 12, 28, 29, 30], dtype=np.uint8)


# ... but \n, each a byte that most code files never hold.
_RARE_BREAKS = tuple(bytes([code]) for code in _BREAKS if code != 10)
# What str.splitlines also breaks at beyond ASCII (NEL, LINE and PARAGRAPH SEPARATOR).
_UNICODE_BREAKS = ("\x85", "\u2028", "\u2029")


def ascii_offsets(data: bytes) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """Where each line of ASCII ``data`` starts and ends (its break left out), as
    ``data.decode().splitlines()`` splits it; also of UTF-8 ``data`` whose text holds no
    break beyond ASCII (no byte of a longer character is below 128)."""
    codes = np.frombuffer(data, dtype=np.uint8)
    size = codes.shape[0]
    if not any(rare in data for rare in _RARE_BREAKS):  # a scan of bytes each, in C
        breaks = np.flatnonzero(codes == 10)
        starts = np.concatenate([[0], breaks + 1])
        ends = np.concatenate([breaks, [size]])
        if starts[-1] == size:  # a final break ends the last line; no empty one after
            starts, ends = starts[:-1], ends[:-1]
        return starts.astype(np.int32), ends.astype(np.int32)
    breaks = np.flatnonzero(np.isin(codes, _BREAKS))
    following = np.minimum(breaks + 1, size - 1)  # the byte after each break (clamped)
    crlf = (codes[breaks] == 13) & (breaks + 1 < size) & (codes[following] == 10)
    preceding = np.maximum(breaks - 1, 0)
    second = (codes[breaks] == 10) & (breaks > 0) & (codes[preceding] == 13)
    keep = ~second  # the \n of a \r\n breaks nothing of its own
    breaks, crlf = breaks[keep], crlf[keep]
    after = breaks + 1 + crlf  # where the next line starts
    starts = np.concatenate([[0], after])
    ends = np.concatenate([breaks, [size]])
    if starts[-1] == size:  # a final break ends the last line; no empty one after
        starts, ends = starts[:-1], ends[:-1]
    return starts.astype(np.int32), ends.astype(np.int32)


def utf8_offsets(data: bytes) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]] | None:
    """Byte offsets of the lines of UTF-8 ``data`` as ``splitlines`` splits its text
    (Unicode breaks too); None when ``data`` is not valid UTF-8 (its text replaces bytes,
    so text and byte offsets part) or too large for int32 offsets."""
    if len(data) >= 2**31:
        return None
    if data.isascii():
        return ascii_offsets(data)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not any(brk in text for brk in _UNICODE_BREAKS):
        return ascii_offsets(data)
    whole = np.fromiter(
        (len(line.encode()) for line in text.splitlines(keepends=True)), dtype=np.int64
    )
    bare = np.fromiter((len(line.encode()) for line in text.splitlines()), dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(whole)[:-1]]) if whole.size else whole
    return starts.astype(np.int32), (starts + bare).astype(np.int32)


class Lines(Sequence[str]):
    """``text.splitlines()``, computed as offsets; items are sliced on demand."""

    __slots__ = ("_ends", "_list", "_starts", "_text")

    def __init__(self, text: str) -> None:
        self._text = text
        self._list: list[str] | None = None
        self._starts: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        self._ends: npt.NDArray[np.int32] = np.zeros(0, dtype=np.int32)
        if not text.isascii() or len(text) >= 2**31:
            self._list = text.splitlines()
            return
        self._starts, self._ends = ascii_offsets(text.encode("ascii"))

    def __len__(self) -> int:
        return len(self._list) if self._list is not None else int(self._starts.shape[0])

    @overload
    def __getitem__(self, at: int) -> str: ...

    @overload
    def __getitem__(self, at: slice) -> list[str]: ...

    def __getitem__(self, at: int | slice) -> str | list[str]:
        if self._list is not None:
            return self._list[at]
        if isinstance(at, slice):
            starts, ends = self._starts[at].tolist(), self._ends[at].tolist()
            return [self._text[a:b] for a, b in zip(starts, ends, strict=True)]
        start = int(self._starts[at])  # IndexError past the end, negative from it, as a list
        return self._text[start : int(self._ends[at])]

    def __iter__(self) -> Iterator[str]:
        if self._list is not None:
            return iter(self._list)
        text = self._text
        return (text[a:b] for a, b in zip(self._starts.tolist(), self._ends.tolist(), strict=True))

    @property
    def nbytes(self) -> int:
        """Memory held beside the text (for the cache's bound), roughly."""
        if self._list is not None:
            return sum(map(len, self._list)) + 56 * len(self._list)
        return int(self._starts.nbytes + self._ends.nbytes)
