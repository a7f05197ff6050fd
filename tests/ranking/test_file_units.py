"""File units (issue 35): every code file is a searchable unit of kind ``file``; a file
that matches lifts its best definition and leaves the list, or stands when none of its
definitions ranks (a file of top-level code); ``group_by: file`` answers file by file.
On tests/fixtures/file_units (a JavaScript file with no definition, two Python modules,
a Markdown page)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.channels.topk import Ranking
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import Channel, FusionWeights
from symfuse.ranking.search.channel_run import ChannelRun, truncated
from symfuse.ranking.search.modes import MIN_DEPTH
from symfuse.ranking.search.pipeline import shared_depth
from symfuse.ranking.search.units import files_resolved, head_depths, split_units
from tests.support.index import index_of_fixture
from tests.support.paths import FIXTURES


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("file-units"), "file_units")


def run(index: Index, **fields: Any) -> SearchResponse:
    return search(index, SearchRequest.from_mapping(fields))


def test_every_code_file_has_one_unit_spanning_it(index: Index) -> None:
    units = {s.file: s for s in index.symbols if s.kind is Kind.FILE}
    assert set(units) == {"server/middleware.js", "shop/payment.py", "shop/orders.py"}
    orders = units["shop/orders.py"]
    assert (orders.name, orders.fqn, orders.line, orders.col) == (
        "orders.py",
        "shop/orders.py",
        1,
        1,
    )
    lines = (FIXTURES / "file_units" / "shop" / "orders.py").read_text().splitlines()
    assert orders.end_line == len(lines)  # to the file's last line
    assert orders.signature == "Order, checkout, cancel, reopen, archive, MAX_ITEMS"
    assert orders.doc == "Orders: what a customer bought, and checking them out."
    assert units["server/middleware.js"].doc.startswith("Wires the request logging")
    # the file's own unit is not one of its definitions
    entry = index.files["shop/orders.py"]
    assert all(s.kind is not Kind.FILE for s in entry.definitions())
    assert entry.definition_count == len(entry.symbols) - 1
    assert index.files["README.md"].definition_count == len(index.files["README.md"].symbols)


def test_a_file_of_top_level_code_is_found_by_what_it_does(index: Index) -> None:
    response = run(index, query="which middleware compresses responses and keeps the session")
    (found,) = [i.symbol for i in response.items if i.symbol.file == "server/middleware.js"]
    assert found.kind is Kind.FILE  # the file has no definition: the file is the answer


def test_a_file_unit_lifts_its_best_definition_and_leaves_the_list(index: Index) -> None:
    response = run(index, query="charge the card of the customer", fusion_debug=True)
    assert response.items[0].symbol.kind is not Kind.FILE
    files_with_definitions = {
        i.symbol.file for i in response.items if i.symbol.kind is not Kind.FILE
    }
    units = [i.symbol for i in response.items if i.symbol.kind is Kind.FILE]
    assert not any(u.file in files_with_definitions for u in units)
    assert response.total == len(
        run(index, query="charge the card of the customer", limit=200).items
    )


def test_names_still_find_their_definition_first(index: Index) -> None:
    assert run(index, query="PaymentGateway").items[0].symbol.kind is Kind.CLASS
    assert run(index, query="checkout").items[0].symbol.kind is Kind.FUNCTION


def test_a_kind_filter_asks_for_files(index: Index) -> None:
    found = run(index, query="payment", kind=["file"]).items
    assert [i.symbol.file for i in found][:1] == ["shop/payment.py"]
    assert {i.symbol.kind for i in found} == {Kind.FILE}


def test_a_path_lists_definitions_and_a_top_level_line_names_its_file(index: Index) -> None:
    listed = run(index, query="shop/payment.py").items
    assert [i.symbol.name for i in listed] == [
        "PaymentGateway", "charge", "refund", "format_amount",
    ]  # fmt: skip
    (line,) = run(index, query="shop/orders.py:31").items  # MAX_ITEMS = 50 is a definition
    assert line.symbol.name == "MAX_ITEMS"
    (blank,) = run(index, query="shop/orders.py:2").items  # a line outside every definition
    assert blank.symbol.kind is Kind.FILE


def test_group_by_file_answers_file_by_file(index: Index) -> None:
    flat = run(index, query="order paid", limit=50)
    grouped = run(index, query="order paid", group_by="file", limit=2)
    assert grouped.by_file
    files = list(dict.fromkeys(i.symbol.file for i in grouped.items))
    assert files == list(dict.fromkeys(i.symbol.file for i in flat.items))[:2]
    assert grouped.total == len({i.symbol.file for i in flat.items})
    for file in files:  # a file's hits together, at most three, best first
        inside = [i for i in grouped.items if i.symbol.file == file]
        assert 1 <= len(inside) <= 3
        assert inside == [i for i in flat.items if i.symbol.file == file][: len(inside)]
    rest = run(index, query="order paid", group_by="file", limit=2, offset=2)
    assert not set(files) & {i.symbol.file for i in rest.items}
    assert rest.to_dict()["group_by"] == "file"


def test_answers_keep_their_shape_on_a_repository_of_files(tmp_path: Path) -> None:
    # Each of the five modules matches by its path and body; each keeps one place.
    files = {f"pkg/mod{i}.py": f"def handle_{i}(event):\n    return {i}\n" for i in range(5)}
    for rel, text in files.items():
        (tmp_path / "ws" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "ws" / rel).write_text(text)
    built, _ = update_index(
        IndexConfig(roots=(tmp_path / "ws",), index_dir=tmp_path / "index", progress=False)
    )
    response = run(built, query="handle the event")
    assert [i.symbol.kind for i in response.items] == [Kind.FUNCTION] * 5
    assert response.total == 5


def file_units(size: int) -> list[Symbol]:
    """``size`` file units, each of its own file (what ``split_units`` reads of them)."""
    return [
        Symbol(f"f{i}.py::f{i}.py#file", f"f{i}.py", Kind.FILE, f"f{i}.py", "", "python",
               f"f{i}.py", "ws", 1, 1, 2, 1, 1, 1, 1, 1)
        for i in range(size)
    ]  # fmt: skip


def test_a_unit_scores_by_the_places_every_page_length_ranks() -> None:
    # A page longer than 50 ranks each channel deeper than a short one; a unit's places
    # below the reach every page's lists hold must add nothing, or the head that every page
    # length shares would change with the limit.
    size = 500
    units = np.zeros(size, dtype=np.bool_)
    units[[7, 350]] = True
    lexical = np.arange(size, dtype=np.int64)  # unit 7 at place 8, unit 350 at place 351
    similar = lexical[::-1].copy()  # unit 350 at place 150, unit 7 at place 493

    def split(depth: int) -> Fused | None:
        run = ChannelRun(
            {
                Channel.LEXICAL: Ranking(lexical[:depth], np.linspace(9.0, 1.0, depth)),
                Channel.SIMILARITY: Ranking(similar[:depth], np.linspace(0.9, 0.1, depth)),
            },
            np.zeros(size, dtype=np.int8),
            FusionWeights.sentence(),
        )
        reach = shared_depth(size)
        return split_units(run, units, np.ones(size), depth // 2, reach, file_units(size))[1]

    short, long = split(200), split(400)
    assert short is not None
    assert long is not None
    assert short.positions.tolist() == long.positions.tolist() == [7, 350]
    assert short.scores.tolist() == long.scores.tolist()
    assert short.ranks[Channel.LEXICAL].tolist() == [8, 0]  # place 351: beyond the reach


def test_the_head_holds_the_definitions_every_page_length_ranks() -> None:
    # Units take places in a channel's list: when they are many, a short page's list of 200
    # places holds fewer than 100 definitions; a longer page's head must hold the same ones,
    # not the first 100 of its deeper list.
    size = 600
    units = np.zeros(size, dtype=np.bool_)
    units[:150] = True  # the lexical channel ranks 150 file units first
    lexical = np.arange(size, dtype=np.int64)

    def run(depth: int) -> ChannelRun:
        ranking = Ranking(lexical[:depth], np.linspace(9.0, 1.0, depth))
        return ChannelRun({Channel.LEXICAL: ranking}, np.zeros(size, np.int8), FusionWeights())

    reach = shared_depth(size)
    heads = head_depths(run(400), units, reach, MIN_DEPTH)
    assert heads == head_depths(run(200), units, reach, MIN_DEPTH) == {Channel.LEXICAL: 50}
    symbols = file_units(size)
    short = split_units(run(200), units, np.ones(size), MIN_DEPTH, reach, symbols)[0]
    long = split_units(run(400), units, np.ones(size), 2 * MIN_DEPTH, reach, symbols)[0]
    head = truncated(long, np.ones(size), heads).rankings[Channel.LEXICAL].positions
    assert head.tolist() == short.rankings[Channel.LEXICAL].positions.tolist()
    assert head.tolist() == list(range(150, 200))


def test_a_long_page_starts_as_a_short_one_does(tmp_path: Path) -> None:
    # past 50 a page ranks each channel deeper; its first items, their scores and what
    # placed them (the learned re-ranking's mark) are a short page's
    words = ["card", "charge", "customer", "refund", "order", "invoice", "ledger", "tax"]
    for i in range(120):
        a, b, c = words[i % 8], words[(i // 8) % 8], words[(i * 3 + 1) % 8]
        module = tmp_path / "ws" / "shop" / f"{a}_{b}_{i}.py"
        module.parent.mkdir(parents=True, exist_ok=True)
        module.write_text(
            f'"""The {a} and the {b} of a {c}."""\n\n\n'
            f"def {a}_{c}_{i}({b}):\n"
            f'    """Take the {c} of the {b}, then the {a}."""\n'
            f"    return {b} + {i}\n"
        )
    built, _ = update_index(
        IndexConfig(roots=(tmp_path / "ws",), index_dir=tmp_path / "index", progress=False)
    )
    query = "charge the card of the customer"
    short, long = run(built, query=query, limit=10), run(built, query=query, limit=60)

    def seen(response: SearchResponse) -> list[tuple[str, float, str | None]]:
        return [(i.symbol.symbol_id, i.score, i.boost) for i in response.items[:10]]

    assert seen(long) == seen(short)
    assert any(i.boost == "reranked" for i in short.items)


def test_a_test_files_unit_ranks_after_the_code_as_its_tests_do(tmp_path: Path) -> None:
    # a test file of top-level calls has no definition: its unit stands for it, and is
    # demoted with the other test code unless the query asks for tests
    sources = {
        "shop/billing.py": 'def settle(card):\n    """Charge the card of a customer."""\n',
        "test/billing.test.js": (
            "describe('charge the card of a customer', () => {\n"
            "  it('charges the card of the customer', () => charge(card, customer));\n"
            "  it('refuses a card the customer lost', () => charge(lost, customer));\n"
            "});\n"
        ),
    }
    for rel, text in sources.items():
        (tmp_path / "ws" / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "ws" / rel).write_text(text)
    built, _ = update_index(
        IndexConfig(roots=(tmp_path / "ws",), index_dir=tmp_path / "index", progress=False)
    )
    asked = run(built, query="charge the card of the customer", fusion_debug=True)
    assert [i.symbol.file for i in asked.items] == ["shop/billing.py", "test/billing.test.js"]
    unit = asked.items[1]
    assert unit.symbol.kind is Kind.FILE
    assert any(a.change.value == "demotion" for a in unit.adjustments)
    tests = run(built, query="tests that charge the card of the customer", fusion_debug=True)
    (unit,) = [i for i in tests.items if i.symbol.kind is Kind.FILE]
    assert not any(a.change.value == "demotion" for a in unit.adjustments)


def definition(file: str, name: str) -> Symbol:
    return Symbol(f"{file}::{name}#function", name, Kind.FUNCTION, name, "", "python", file,
                  "ws", 3, 1, 9, 1, 3, 5, 3, 9)  # fmt: skip


def test_the_file_the_words_find_first_lifts_its_best_definition_to_the_top() -> None:
    # b.py's unit is the lexical channel's first symbol and among the similarity channel's
    # first ten: the words find that file before any definition, and its best definition,
    # fourth, rises to the leader's score (second: a tie keeps the leader first). Ranked
    # 40th by similarity, the same unit lifts it as any unit does (a tenth of its score).
    symbols = [
        definition("a.py", "long_task"),
        definition("a.py", "other"),
        definition("c.py", "helper"),
        definition("b.py", "sign"),
        *file_units(1),
    ]
    channels = (Channel.LEXICAL, Channel.SIMILARITY)
    fused = Fused(
        np.arange(4, dtype=np.int64),
        np.asarray([0.9, 0.8, 0.75, 0.7]),
        {c: np.arange(1, 5, dtype=np.int64) for c in channels},
        {c: np.asarray([0.45, 0.4, 0.375, 0.35]) for c in channels},
        dict.fromkeys(channels, 0.5),
    )
    symbols[4] = replace(symbols[4], file="b.py")

    def unit(similar: int) -> Fused:
        ranks = {Channel.LEXICAL: np.asarray([1]), Channel.SIMILARITY: np.asarray([similar])}
        shares = {c: np.asarray([0.25]) for c in channels}
        return Fused(
            np.asarray([4]), np.asarray([0.5]), ranks, shares, dict.fromkeys(channels, 0.5)
        )

    def names(files: Fused) -> list[str]:
        lifted, joined = files_resolved(fused, files, symbols, head=4)
        assert joined == 0  # b.py defines a routine: its unit lifts it, and does not join
        return [symbols[p].name for p in lifted.positions.tolist()]

    assert names(unit(similar=3)) == ["long_task", "sign", "other", "helper"]
    assert names(unit(similar=40)) == ["long_task", "other", "helper", "sign"]
