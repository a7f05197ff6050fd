"""A part's candidates as they travel from a worker to the coordinator: each symbol
pickled once where it is held, unpickled only where it is read.

A part names a few hundred candidates; the coordinator reads a few dozen of them (the
heads fusion's later steps look at, and the page), the rest only by position. Pickled
as symbols, every candidate cost its worker a ``__reduce__`` call and the coordinator
a symbol made again, for each search (about 0.8 ms each way for a group's part of 300).
:class:`Packer` keeps each symbol's bytes once made, and a :class:`Packed` sequence
sends those bytes, with the two things the coordinator reads of every candidate (its
root, for the shards' order, and whether it is a file unit), and makes a symbol again
the first time it is read.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Sequence
from operator import attrgetter
from typing import overload

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol

_FIELDS = attrgetter(*Symbol.__dataclass_fields__)
_KIND = list(Symbol.__dataclass_fields__).index("kind")
KEPT = 1 << 14  # symbols' bytes a packer keeps (those its parts named lately: a few MB)


def _bytes(symbol: Symbol) -> bytes:
    fields = list(_FIELDS(symbol))
    fields[_KIND] = symbol.kind.value  # a plain string: an enum member pickles by name
    return pickle.dumps(tuple(fields), protocol=pickle.HIGHEST_PROTOCOL)


def _symbol(data: bytes) -> Symbol:
    fields = list(pickle.loads(data))
    fields[_KIND] = Kind(fields[_KIND])
    return Symbol(*fields)


class Packed(Sequence[Symbol]):
    """Symbols as bytes, each made a symbol when first read (the module docstring)."""

    __slots__ = ("_read", "blobs", "roots", "units")

    def __init__(
        self, blobs: Sequence[bytes], roots: Sequence[str], units: npt.NDArray[np.bool_]
    ) -> None:
        self.blobs = blobs
        self.roots = roots
        self.units = units
        self._read: list[Symbol | None] = [None] * len(blobs)

    def __len__(self) -> int:
        return len(self.blobs)

    @overload
    def __getitem__(self, at: int) -> Symbol: ...

    @overload
    def __getitem__(self, at: slice) -> tuple[Symbol, ...]: ...

    def __getitem__(self, at: int | slice) -> Symbol | tuple[Symbol, ...]:
        if isinstance(at, slice):
            return tuple(self[k] for k in range(*at.indices(len(self.blobs))))
        found = self._read[at]
        if found is None:
            found = self._read[at] = _symbol(self.blobs[at])
        return found

    def __reduce__(self) -> tuple[type[Packed], tuple[object, ...]]:
        return (Packed, (self.blobs, self.roots, self.units))

    @classmethod
    def joined(cls, packs: Sequence[Packed], order: npt.NDArray[np.int64] | None) -> Packed:
        """``packs`` one after another, then put in ``order`` (old positions) when given."""
        blobs = [b for p in packs for b in p.blobs]
        roots = [r for p in packs for r in p.roots]
        units = np.concatenate([p.units for p in packs]) if packs else np.zeros(0, np.bool_)
        if order is None:
            return cls(blobs, roots, units)
        at = order.tolist()
        return cls([blobs[k] for k in at], [roots[k] for k in at], units[order])


def roots_of(symbols: Sequence[Symbol]) -> Sequence[str]:
    """Each symbol's root, without making a packed one again."""
    return symbols.roots if isinstance(symbols, Packed) else [s.root for s in symbols]


def units_of(symbols: Sequence[Symbol]) -> npt.NDArray[np.bool_]:
    """Whether each symbol is a file unit, without making a packed one again."""
    if isinstance(symbols, Packed):
        return symbols.units
    return np.fromiter((s.kind in Kind.UNITS for s in symbols), np.bool_, len(symbols))


def joined_symbols(
    each: Sequence[Sequence[Symbol]], order: npt.NDArray[np.int64] | None
) -> Sequence[Symbol]:
    """The parts' symbols one after another, then in ``order`` (old positions): packed
    still when every part's is."""
    if each and all(isinstance(s, Packed) for s in each):
        return Packed.joined([s for s in each if isinstance(s, Packed)], order)
    symbols = tuple(s for one in each for s in one)
    return symbols if order is None else tuple(symbols[k] for k in order.tolist())


class Packer:
    """Symbols packed, each one's bytes made once and kept while its symbol is the one
    held (by identity: a shard loaded again holds new symbols)."""

    def __init__(self, kept: int = KEPT) -> None:
        self.kept = kept
        self._made: dict[int, tuple[Symbol, bytes]] = {}

    def packed(self, symbols: Iterable[Symbol]) -> Packed:
        blobs: list[bytes] = []
        roots: list[str] = []
        units: list[bool] = []
        made = self._made
        for symbol in symbols:
            found = made.get(id(symbol))
            if found is None or found[0] is not symbol:
                if len(made) >= self.kept:
                    made.clear()  # bounded: the bytes of symbols not sent lately go
                found = made[id(symbol)] = (symbol, _bytes(symbol))
            blobs.append(found[1])
            roots.append(symbol.root)
            units.append(symbol.kind in Kind.UNITS)
        return Packed(blobs, roots, np.array(units, dtype=np.bool_))
