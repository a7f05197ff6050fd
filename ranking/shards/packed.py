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
from collections.abc import Iterable, Mapping, Sequence
from operator import attrgetter
from typing import overload

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol

_FIELDS = attrgetter(*Symbol.__dataclass_fields__)
_KIND = list(Symbol.__dataclass_fields__).index("kind")
_KINDS = {kind.value: kind for kind in Kind}
KEPT = 1 << 14  # symbols' bytes a packer keeps (those its parts named lately: a few MB)


def _bytes(symbol: Symbol) -> bytes:
    fields = list(_FIELDS(symbol))
    fields[_KIND] = symbol.kind.value  # a plain string: an enum member pickles by name
    return pickle.dumps(tuple(fields), protocol=pickle.HIGHEST_PROTOCOL)


def _symbol(data: bytes) -> Symbol:
    fields = list(pickle.loads(data))
    fields[_KIND] = _KINDS[fields[_KIND]]
    return Symbol(*fields)


class Packed(Sequence[Symbol]):
    """Symbols as bytes, each made a symbol when first read (the module docstring)."""

    __slots__ = ("_read", "blobs", "names", "roots", "units")

    def __init__(
        self,
        blobs: Sequence[bytes],
        names: Sequence[str],
        roots: npt.NDArray[np.int32],
        units: npt.NDArray[np.bool_],
    ) -> None:
        self.blobs = blobs
        self.names = names  # the roots named, each once
        self.roots = roots  # each symbol's root, as its place in ``names``
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
        return (Packed, (self.blobs, self.names, self.roots, self.units))

    @classmethod
    def joined(cls, packs: Sequence[Packed], order: npt.NDArray[np.int64] | None) -> Packed:
        """``packs`` one after another, then put in ``order`` (old positions) when given."""
        names: dict[str, int] = {}
        roots = []
        for pack in packs:
            table = np.array([names.setdefault(n, len(names)) for n in pack.names], np.int32)
            roots.append(table[pack.roots])
        blobs = [b for p in packs for b in p.blobs]
        joined = cls(
            blobs,
            list(names),
            np.concatenate(roots) if roots else np.zeros(0, np.int32),
            np.concatenate([p.units for p in packs]) if packs else np.zeros(0, np.bool_),
        )
        if order is None:
            return joined
        blobs = [blobs[k] for k in order.tolist()]
        return cls(blobs, joined.names, joined.roots[order], joined.units[order])


def owners(symbols: Sequence[Symbol], rank: Mapping[str, int], late: int) -> npt.NDArray[np.int64]:
    """Each symbol's ``rank`` by its root (``late`` for a root not ranked), without making
    a packed one again."""
    if isinstance(symbols, Packed):
        table = np.array([rank.get(n, late) for n in symbols.names], np.int64)
        return table[symbols.roots]
    return np.fromiter((rank.get(s.root, late) for s in symbols), np.int64, len(symbols))


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
        names: dict[str, int] = {}
        roots: list[int] = []
        units: list[bool] = []
        made = self._made
        for symbol in symbols:
            found = made.get(id(symbol))
            if found is None or found[0] is not symbol:
                if len(made) >= self.kept:
                    made.clear()  # bounded: the bytes of symbols not sent lately go
                found = made[id(symbol)] = (symbol, _bytes(symbol))
            blobs.append(found[1])
            roots.append(names.setdefault(symbol.root, len(names)))
            units.append(symbol.kind in Kind.UNITS)
        return Packed(
            blobs, list(names), np.array(roots, dtype=np.int32), np.array(units, dtype=np.bool_)
        )
