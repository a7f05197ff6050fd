"""Many short strings searched at once: joined into one text for C-level scans, or
sorted for binary searches (the identity channel's name tables).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.names.suffixes import Suffixes

MAX_SCAN_HITS = 20_000  # matches read from one scan; more means a too-general query


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Joined:
    """Strings joined by newlines, so one C-level regex scan searches them all."""

    text: str
    starts: npt.NDArray[np.int64]
    # built by a server for the texts it looks substrings up in (:meth:`index_suffixes`)
    suffixes: Suffixes = field(default_factory=Suffixes, compare=False, repr=False)

    @classmethod
    def of(cls, strings: list[str]) -> Joined:
        starts = np.zeros(len(strings), dtype=np.int64)
        if strings:
            lengths = np.fromiter(map(len, strings), dtype=np.int64, count=len(strings)) + 1
            starts[1:] = np.cumsum(lengths)[:-1]
        return cls("\n".join(strings) + "\n", starts)

    def owners(self, offsets: list[int]) -> npt.NDArray[np.int64]:
        """The strings that the character offsets fall in."""
        if not offsets:
            return np.zeros(0, dtype=np.int64)
        at = np.searchsorted(self.starts, np.asarray(offsets, dtype=np.int64), side="right") - 1
        return at.astype(np.int64)

    def search(self, pattern: re.Pattern[str], limit: int = MAX_SCAN_HITS) -> npt.NDArray[np.int64]:
        """Strings in which ``pattern`` matches (at most ``limit`` matches are read)."""
        offsets = [
            m.start() for m, _ in zip(pattern.finditer(self.text), range(limit), strict=False)
        ]
        return self.owners(offsets)

    def search_among(
        self, pattern: re.Pattern[str], among: npt.NDArray[np.int64], limit: int = MAX_SCAN_HITS
    ) -> npt.NDArray[np.int64]:
        """:meth:`search` over the strings ``among`` alone (cut out and joined again)."""
        if not among.shape[0]:
            return among
        ends = np.empty_like(self.starts)
        ends[:-1], ends[-1] = self.starts[1:], len(self.text)
        first, last = self.starts[among], ends[among]
        text = self.text
        picked = "".join([text[a:b] for a, b in zip(first.tolist(), last.tolist(), strict=True)])
        local = np.zeros(among.shape[0], dtype=np.int64)
        local[1:] = np.cumsum(last - first)[:-1]
        offsets = [m.start() for m, _ in zip(pattern.finditer(picked), range(limit), strict=False)]
        if not offsets:
            return np.zeros(0, dtype=np.int64)
        return among[np.searchsorted(local, np.asarray(offsets, dtype=np.int64), side="right") - 1]

    def index_suffixes(self) -> None:
        """Build the suffix array :meth:`contains` then looks needles up in."""
        self.suffixes.build(self.text, self.starts)

    def contains(self, needle: str, limit: int = MAX_SCAN_HITS) -> npt.NDArray[np.int64]:
        """Strings containing ``needle`` (as many times as it occurs in them): by binary
        search in the suffix array once it is built, else ``str.find`` in C."""
        found = self.suffixes.find(needle, limit)
        if found is not None:
            return found
        find = self.text.find
        offsets: list[int] = []
        at = find(needle)
        while at >= 0 and len(offsets) < limit:
            offsets.append(at)
            at = find(needle, at + 1)
        return self.owners(offsets)

    def equal(self, value: str) -> npt.NDArray[np.int64]:
        return self.search(re.compile("^" + re.escape(value) + "$", re.MULTILINE))


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class SortedNames:
    """Strings sorted, with their positions, for prefix ranges by binary search.

    ``values`` is a list of the same string objects, in order: a numpy string array
    (UTF-32, every item padded to the longest) held many times what the list holds;
    ``bisect`` compares code points as numpy does.
    """

    values: list[str]
    positions: npt.NDArray[np.int64]

    @classmethod
    def of(cls, strings: list[str], order: npt.NDArray[np.int64] | None = None) -> SortedNames:
        """``order``: the sorting permutation, when known (stored with the ranking data)."""
        if order is None:
            ranked = sorted(range(len(strings)), key=strings.__getitem__)  # stable
            order = np.asarray(ranked, dtype=np.int64)
        elif order.shape != (len(strings),):
            raise ValueError("sort order of another length")
        return cls([strings[i] for i in order.tolist()], order)

    def prefixed(self, prefix: str) -> npt.NDArray[np.int64]:
        low = bisect.bisect_left(self.values, prefix)
        high = bisect.bisect_left(self.values, prefix + "\U0010ffff", low)
        return self.positions[low:high]

    def equal(self, value: str) -> npt.NDArray[np.int64]:
        low = bisect.bisect_left(self.values, value)
        high = bisect.bisect_right(self.values, value, low)
        return self.positions[low:high]
