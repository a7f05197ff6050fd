"""A part's symbols packed for the way from a worker to the coordinator
(:mod:`symfuse.ranking.shards.packed`): pickled once each, the same symbols again
wherever they are read, in any order."""

from __future__ import annotations

import dataclasses
import pickle

import numpy as np

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.api import Packer
from symfuse.ranking.shards.packed import Packed, joined_symbols, owners, units_of

RANK = {"two": 0, "one": 1}  # the shards' order: a root not in it comes last (2)


def _symbol(name: str, kind: Kind = Kind.FUNCTION, root: str = "one", **more: object) -> Symbol:
    fields: dict[str, object] = {
        "symbol_id": f"{root}/m.py::{name}",
        "name": name,
        "kind": kind,
        "fqn": f"m.{name}",
        "signature": f"def {name}(a, b=None)",
        "language": "python",
        "file": f"{root}/m.py",
        "root": root,
        "line": 3,
        "col": 0,
        "end_line": 9,
        "end_col": 4,
        "name_line": 3,
        "name_col": 4,
        "name_end_line": 3,
        "name_end_col": 4 + len(name),
        "parent": None,
        "decorators": ("cached",),
        "doc": "Ünïcode doc.",
    }
    fields.update(more)
    return Symbol(**fields)  # type: ignore[arg-type]


SYMBOLS = (
    _symbol("total"),
    _symbol("Ledger", Kind.CLASS, root="two", extends=("Base",), implements=("Sized",)),
    _symbol("m.py", Kind.FILE, root="two"),
    _symbol("order", Kind.METHOD, parent="one/m.py::Ledger"),
)


def test_packed_symbols_cross_a_pickle_as_the_same_symbols() -> None:
    packed = pickle.loads(pickle.dumps(Packer().packed(SYMBOLS)))
    assert len(packed) == len(SYMBOLS)
    assert packed[2] == SYMBOLS[2]  # read out of order, then the rest
    assert packed[-1] == SYMBOLS[-1]
    assert list(packed) == list(SYMBOLS)
    assert packed[1:3] == SYMBOLS[1:3]
    assert packed[1].kind is Kind.CLASS
    assert packed[0] is packed[0]  # made once
    assert owners(packed, RANK, 2).tolist() == [1, 0, 0, 1]
    assert owners(SYMBOLS, RANK, 2).tolist() == [1, 0, 0, 1]
    assert owners(packed, {"one": 0}, 5).tolist() == [0, 5, 5, 0]
    assert units_of(packed).tolist() == [False, False, True, False]
    assert units_of(SYMBOLS).tolist() == units_of(packed).tolist()


def test_packed_parts_join_in_the_shards_order() -> None:
    packer = Packer()
    first, second = packer.packed(SYMBOLS[:2]), packer.packed(SYMBOLS[2:])
    order = np.array([3, 0, 2, 1], dtype=np.int64)
    joined = joined_symbols([first, second], order)
    assert isinstance(joined, Packed)
    assert list(joined) == [SYMBOLS[k] for k in order.tolist()]
    assert owners(joined, RANK, 2).tolist() == [RANK[SYMBOLS[k].root] for k in order.tolist()]
    # a part not packed (a fleet in one process): plain symbols, in the same order
    assert joined_symbols([SYMBOLS[:2], second], order) == tuple(joined)


def test_a_packer_makes_a_symbols_bytes_once_and_again_for_a_new_symbol() -> None:
    packer = Packer()
    once = packer.packed(SYMBOLS)
    again = packer.packed(SYMBOLS)
    assert all(a is b for a, b in zip(once.blobs, again.blobs, strict=True))
    moved = dataclasses.replace(SYMBOLS[0], line=40, end_line=44)  # the shard rebuilt
    assert packer.packed([moved])[0] == moved
    small = Packer(kept=2)  # bounded: full, it starts again
    assert list(small.packed(SYMBOLS)) == list(SYMBOLS)
