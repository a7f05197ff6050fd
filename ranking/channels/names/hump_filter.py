"""Which names could match a camel-hump reading at all, from the letters they hold.

An all-lower-case word (``sess``) is read letter by letter: each letter continues the
current sub-token or starts the next one (:func:`.humps.camel_hump_pattern`).
That regex has no literal to skip ahead with: it tries every sub-token starting with
the word's first letter, and is the costliest scan of the identity channel when it
reads every name. A name can only match if it holds every letter of the word and has a
sub-token starting with its first (with several humps, ``ColElem``, one starting with
each hump's first letter): two bit masks per name say so, and the regex then reads
only the names that pass.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.topk import distinct

_OTHER = 36  # the bit of any character but a-z and 0-9
_NONE = 63  # spaces and newlines: no bit (cleared below)
# Below this share of names passing, reading them apart costs less than scanning all
# (above it, the two cost about the same).
WORTH_IT = 0.2


def _bits(codes: npt.NDArray[np.uint32]) -> npt.NDArray[np.uint64]:
    """The bit of each code point: a-z 0-25, 0-9 26-35, others 36; none for blanks."""
    bit = np.full(codes.shape[0], _OTHER, dtype=np.uint64)
    lower = (codes >= ord("a")) & (codes <= ord("z"))
    digit = (codes >= ord("0")) & (codes <= ord("9"))
    bit[lower] = codes[lower] - ord("a")
    bit[digit] = codes[digit] - ord("0") + 26
    bit[(codes == ord(" ")) | (codes == ord("\n"))] = _NONE
    values = np.left_shift(np.uint64(1), bit)
    values[bit == _NONE] = 0
    return values


def word_bits(word: str) -> int:
    """The mask of every character of ``word``."""
    values = _bits(np.frombuffer(word.encode("utf-32-le"), dtype=np.uint32))
    return int(np.bitwise_or.reduce(values)) if values.shape[0] else 0


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class LetterMasks:
    """Per name, the characters it holds and those starting one of its sub-tokens."""

    held: npt.NDArray[np.uint64]
    initials: npt.NDArray[np.uint64]

    @classmethod
    def of(cls, codes: npt.NDArray[np.uint32], starts: npt.NDArray[np.int64]) -> LetterMasks:
        """The masks of the spaced names whose code points ``codes`` holds (each ends with
        a newline, the i-th starting at ``starts[i]``: a
        :class:`symfuse.ranking.channels.names.scans.Joined` text)."""
        if not starts.shape[0]:
            empty = np.zeros(0, dtype=np.uint64)
            return cls(empty, empty)
        values = _bits(codes)
        after_blank = np.zeros(codes.shape[0], dtype=np.bool_)
        after_blank[1:] = codes[:-1] == ord(" ")
        initials = np.where(after_blank, values, np.uint64(0))
        return cls(
            np.bitwise_or.reduceat(values, starts),
            np.bitwise_or.reduceat(initials, starts),
        )

    def candidates(self, letters: str, initials: str) -> npt.NDArray[np.int64] | None:
        """The names holding every character of ``letters`` with sub-tokens starting
        with each of ``initials``; ``None`` when so many do that scanning them all is
        cheaper."""
        if not letters or not initials:
            return None
        want, lead = np.uint64(word_bits(letters)), np.uint64(word_bits(initials))
        held = (self.held & want) == want
        passing = np.flatnonzero(held & ((self.initials & lead) == lead))
        if passing.shape[0] > WORTH_IT * self.held.shape[0]:
            return None
        return passing


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class InitialPairs:
    """Which names have a sub-token starting with one character directly followed by a
    sub-token starting with another: the names a letter-by-letter reading can match
    across sub-tokens at all.

    ``sess`` read across sub-tokens splits after some letter: a sub-token starting
    with ``s`` is followed by one starting with the next letter read (``e``, ``s``).
    Of the names that :class:`LetterMasks` passes for a word, those holding it whole
    are found by the suffix array, and few of the rest have such a pair: the regex
    reads those few, not every name the letters passed.
    """

    keys: npt.NDArray[np.uint64]  # (first << 21) | second code point, sorted
    names: npt.NDArray[np.int32]  # the name holding each pair, in key order

    @classmethod
    def of(cls, codes: npt.NDArray[np.uint32], starts: npt.NDArray[np.int64]) -> InitialPairs:
        """The pairs of the spaced names in ``codes`` (as for :meth:`LetterMasks.of`)."""
        blank = (codes == ord(" ")) | (codes == ord("\n"))
        after_blank = np.zeros(codes.shape[0], dtype=np.bool_)
        after_blank[1:] = codes[:-1] == ord(" ")
        at = np.flatnonzero(after_blank & ~blank)
        owner = np.searchsorted(starts, at, side="right") - 1
        same = owner[1:] == owner[:-1]
        first = codes[at[:-1][same]].astype(np.uint64)
        second = codes[at[1:][same]].astype(np.uint64)
        keys = np.left_shift(first, np.uint64(21)) | second
        order = np.argsort(keys, kind="stable")
        return cls(keys[order], owner[1:][same][order].astype(np.int32))

    def holding(self, first: str, seconds: str) -> npt.NDArray[np.int64]:
        """The names with a pair ``first`` -> any character of ``seconds``, each once."""
        found = []
        for second in set(seconds):
            key = np.uint64((ord(first) << 21) | ord(second))
            low = int(np.searchsorted(self.keys, key, side="left"))
            high = int(np.searchsorted(self.keys, key, side="right"))
            found.append(self.names[low:high])
        if not found:
            return np.zeros(0, dtype=np.int64)
        return distinct(np.concatenate(found)).astype(np.int64)
