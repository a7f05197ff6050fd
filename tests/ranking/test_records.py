"""Record.to_dict: the field rules (key, view, flatten, omit) and how plain values are shown."""

from __future__ import annotations

import json
from dataclasses import dataclass, field

import pytest

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.query.records import Record, brief, round3, shown, symbol_view
from tests.support.symbols import make_symbol

SYMBOL = make_symbol("Order", kind=Kind.CLASS, signature="class Order")


@dataclass(frozen=True, slots=True)
class Leaf(Record):
    label: str
    confidence: float = field(metadata=shown(view=round3))


@dataclass(frozen=True, slots=True)
class Tree(Record):
    name: str
    symbol: Symbol = field(metadata=shown(view=symbol_view("name", "kind", "line"), flatten=True))
    leaves: tuple[Leaf, ...] = field(metadata=shown(key="children"))
    hidden: int = field(metadata=shown(omit=True))
    note: str | None = field(default=None, metadata=shown(omit=lambda t: t.note is None))


def test_fields_are_shown_in_order_with_their_rules() -> None:
    tree = Tree("tree", SYMBOL, (Leaf("a", 1 / 3),), hidden=7)
    assert list(tree.to_dict().items()) == [
        ("name", "Order"),  # a flattened key overwrites in place, as ** does in a literal
        ("kind", "class"),
        ("line", 1),
        ("children", [{"label": "a", "confidence": 0.333}]),
    ]
    noted = Tree("tree", SYMBOL, (), hidden=7, note="n")
    assert list(noted.to_dict()) == ["name", "kind", "line", "children", "note"]


def test_plain_values_symbols_enums_and_containers() -> None:
    @dataclass(frozen=True, slots=True)
    class Bag(Record):
        symbol: Symbol
        kinds: tuple[Kind, ...]
        counts: dict[str, int]
        nothing: None = None

    data = Bag(SYMBOL, (Kind.CLASS, Kind.METHOD), {"call": 2}).to_dict()
    assert data == {
        "symbol": brief(SYMBOL),
        "kinds": ["class", "method"],
        "counts": {"call": 2},
        "nothing": None,
    }
    assert list(brief(SYMBOL)) == [
        *("symbol_id", "name", "kind", "fqn", "file", "line", "end_line", "signature"),
        "repository",
    ]
    assert brief(SYMBOL)["repository"] == SYMBOL.root
    assert json.loads(json.dumps(data)) == data


def test_a_value_without_a_json_shape_is_refused() -> None:
    @dataclass(frozen=True, slots=True)
    class Odd(Record):
        value: object

    with pytest.raises(TypeError, match="no JSON shape for set"):
        Odd({1}).to_dict()
