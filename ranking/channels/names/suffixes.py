"""Suffix arrays over the joined name texts, for substring lookups by binary search.

The identity channel looks a query up as a substring of every distinct name (its
separator-free form, and `` word `` runs of the spaced form). ``str.find`` over
all of them costs a Python loop over the hits, long for a common needle; two binary
searches over the text's suffix array cost the same whatever the hit count.

The array is built by libdivsufsort (``pydivsufsort``, quick even for a large
workspace's names) on demand: a long-running server builds it in its warming thread
once the ranking structures are ready (:meth:`Suffixes.build`), a one-shot search
never does and scans with ``str.find``. Until it is built, :meth:`Suffixes.find` answers None.
"""

from __future__ import annotations

import bisect

import numpy as np
import numpy.typing as npt


class Suffixes:
    """The suffix array of one text (its UTF-8 bytes), once :meth:`build` has run."""

    __slots__ = ("_built",)

    def __init__(self) -> None:
        self._built: _Built | None = None

    @property
    def ready(self) -> bool:
        return self._built is not None

    def build(self, text: str, starts: npt.NDArray[np.int64]) -> None:
        """Sort the suffixes of ``text``, whose strings start at ``starts`` (characters)."""
        if self._built is not None:
            return
        from pydivsufsort import divsufsort  # only servers build: others skip the import

        encoded = text.encode("utf-8")
        array = divsufsort(np.frombuffer(encoded, dtype=np.uint8).copy())
        # ASCII (names nearly always are): the text itself is searched, its offsets are the
        # bytes', and no copy is kept; else the UTF-8 bytes, whose order is code points'
        data: str | bytes = text
        if len(encoded) != len(text):  # a string's start counted in bytes
            data = encoded
            ends = np.cumsum([len(s.encode("utf-8")) + 1 for s in text.split("\n")[:-1]])
            starts = np.concatenate(([0], ends[:-1])).astype(np.int64)
        # a memoryview's items index as Python ints: the binary search reads 40 of them
        items = np.ascontiguousarray(array, np.int32).data  # a memoryview of the array
        self._built = _Built(data, items, starts)

    def adopt(self, other: Suffixes) -> None:
        """Take ``other``'s array (built over a text equal to this one's)."""
        if self._built is None:
            self._built = other._built

    def find(self, needle: str, limit: int) -> npt.NDArray[np.int64] | None:
        """Where ``needle`` occurs, as string numbers in text order (the first ``limit``
        occurrences), or None before :meth:`build`."""
        built = self._built
        if built is None or "\n" in needle or not needle:
            return None
        return built.find(needle if isinstance(built.data, str) else needle.encode(), limit)


class _Built:
    __slots__ = ("array", "data", "starts")

    def __init__(self, data: str | bytes, array: memoryview, starts: npt.NDArray[np.int64]) -> None:
        self.data, self.array, self.starts = data, array, starts

    def find(self, needle: str | bytes, limit: int) -> npt.NDArray[np.int64]:
        """``needle`` is of ``data``'s type."""
        data, width = self.data, len(needle)

        def key(at: int) -> str | bytes:
            return data[at : at + width]

        low = bisect.bisect_left(self.array, needle, key=key)
        high = bisect.bisect_right(self.array, needle, low, key=key)
        offsets = np.sort(np.asarray(self.array[low:high], dtype=np.int64))[:limit]
        return np.searchsorted(self.starts, offsets, side="right") - 1
