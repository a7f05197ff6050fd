"""A query's answer before the ranking structures exist (ranking.names_first)."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import (
    MAX_SHOWN_TARGETS,
    CallGraphAnswer,
    Channel,
    SearchMode,
    SearchRequest,
    SearchResponse,
    Tier,
    prepare,
    search,
)
from symfuse.ranking.channels.names.names_only import quick_search
from symfuse.ranking.query import operations
from symfuse.ranking.query.parse import parse
from symfuse.ranking.search.cold_start import (
    NAMESAKES_FIRST,
    answerable,
    early_answer,
    names_answer,
)
from tests.support.cli import write_tree
from tests.support.paths import FIXTURES


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("names-first") / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    config = IndexConfig(roots=(root,), index_dir=root.parent / "idx", progress=False)
    return update_index(config)[0]


def request(**fields: Any) -> SearchRequest:
    return SearchRequest.from_mapping({"query": "OrderRepository", **fields})


@pytest.mark.parametrize(
    "fields",
    [
        {},
        {"query": "orderrepo"},
        {"kind": "class", "language": "python", "file_pattern": "shop/*"},
        {"limit": 3, "offset": 1, "mode": "tiered", "semantic": "off"},
        {"detail_level": "minimal", "snippet_lines": 2},
        {"query": "compute the order total"},  # prose: from the words of names
        {"query": "order total", "kind": "method"},  # keywords
    ],
)
def test_an_identifier_with_the_quick_filters_is_answerable(fields: dict[str, Any]) -> None:
    assert answerable(request(**fields))


@pytest.mark.parametrize(
    "fields",
    [
        {"query": "repository.OrderRepository"},  # dotted: import paths
        {"query": "shop/repository.py"},  # a path: get mode
        {"query": "who calls OrderRepository"},  # the call graph
        {"mode": "flat"},
        {"mode": "drill", "drill_from": "shop/repository.py"},
        {"semantic": "only"},
        {"implements": "Repository"},
        {"decorator": "dataclass"},
        {"exclude_path": "tests/*"},
        {"min_score": 0.5},
        {"fuzzy": True},
        {"fusion": False},
        {"fusion_weights": {"identity": 1.0}},
        {"fusion_debug": True},
        {"include_tests": "false"},
        {"repository": "ws"},
        {"response_format": "grouped"},
    ],
)
def test_anything_only_the_fused_search_has_is_not(fields: dict[str, Any]) -> None:
    assert not answerable(request(**fields))


def test_the_answer_is_the_quick_ranking_marked_names_only(index: Index) -> None:
    answer = names_answer(index, request(query="OrdRep", limit=5))
    assert answer is not None
    quick = quick_search(index, "OrdRep", limit=5)
    assert [i.symbol.symbol_id for i in answer.items] == [h.symbol.symbol_id for h in quick]
    assert answer.items[0].symbol.name == "OrderRepository"
    assert answer.names_only
    assert answer.to_dict()["names_only"] is True
    assert answer.search_mode is SearchMode.SINGLE
    assert Channel.LEXICAL not in answer.channels
    assert answer.total >= len(answer.items)
    assert names_answer(index, request(query="shop/repository.py")) is None


def test_a_sentence_is_answered_from_the_words_of_names_and_paths(index: Index) -> None:
    answer = names_answer(index, request(query="calculate the total of an order", limit=5))
    assert answer is not None
    assert answer.names_only
    assert answer.items[0].symbol.name == "calculate_total"  # both words of its name
    assert Channel.LEXICAL in answer.channels
    assert Channel.IDENTITY not in answer.channels
    by_path = names_answer(index, request(query="repository lookups", limit=50))
    assert by_path is not None  # "repository" names a class and, at half, its file's others
    names = [i.symbol.name for i in by_path.items]
    assert names.index("Repository") < names.index("get_user_by_id")
    files = {i.symbol.file for i in by_path.items if "repositor" not in i.symbol.name.lower()}
    assert files == {"shop/repository.py"}
    methods = names_answer(index, request(query="order total", kind="method"))
    assert methods is not None
    assert {i.symbol.kind.value for i in methods.items} == {"method"}
    assert names_answer(index, request(query="the of an")) is not None  # stop words only
    nothing = names_answer(index, request(query="xyzzy plugh"))
    assert nothing is not None
    assert nothing.items == ()


def test_a_call_question_is_answered_from_the_graph_without_structures(index: Index) -> None:
    asked = request(query="who calls calculate_total")
    parsed = parse(asked)
    early = early_answer(index, asked, parsed, large=False)
    assert early is not None
    assert early == operations.search(index, asked)  # the full path's answer, same
    for query in ("calculate the total", "total"):  # a small index: they wait
        asked = request(query=query)
        assert early_answer(index, asked, parse(asked), large=False) is None
        assert early_answer(index, asked, parse(asked), large=True) is not None


def test_a_small_index_answers_a_name_by_names_when_one_definition_carries_it(
    index: Index,
) -> None:
    prepared = prepare(index)
    for query in ("OrderRepository", "calculate_total"):  # (the class's constructor is its)
        asked = request(query=query)
        early = early_answer(index, asked, parse(asked), large=False)
        assert isinstance(early, SearchResponse)
        assert early.names_only
        fused = operations.search(index, asked, prepared=prepared)
        assert isinstance(fused, SearchResponse)
        assert early.items[0].symbol.symbol_id == fused.items[0].symbol.symbol_id
        one = request(query=query, limit=1)  # a namesake beyond the page would be seen
        assert early_answer(index, one, parse(one), large=False) is not None
    for query in ("User", "charge", "getUserById"):  # namesakes: the fused ranking chooses
        asked = request(query=query)
        assert early_answer(index, asked, parse(asked), large=False) is None
        assert early_answer(index, asked, parse(asked), large=True) is not None
    later = request(offset=1)
    assert early_answer(index, later, parse(later), large=False) is None


def test_a_name_whose_other_matches_are_headings_is_answered_with_its_code_first(
    tmp_path: Path,
) -> None:
    root = write_tree(
        tmp_path / "ws",
        {
            "README.md": "# Shop\n\n## Gateway\n\nHow to pay.\n",
            "UPGRADING.md": "# Upgrading\n\n## Gateway\n\nRenamed.\n",
            "shop/gateway.py": "class Gateway:\n    def pay(self):\n        return 1\n",
        },
    )
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    small = update_index(config)[0]
    assert quick_search(small, "Gateway", limit=1)[0].symbol.kind.value == "heading"
    asked = request(query="Gateway")
    early = early_answer(small, asked, parse(asked), large=False)
    assert isinstance(early, SearchResponse)
    fused = operations.search(small, asked, prepared=prepare(small))
    assert isinstance(fused, SearchResponse)
    assert early.items[0].symbol.symbol_id == "shop/gateway.py::Gateway#class"
    assert fused.items[0].symbol.symbol_id == early.items[0].symbol.symbol_id
    assert {i.symbol.kind.value for i in early.items[1:3]} == {"heading"}


def test_a_large_index_answers_a_name_with_its_product_definition_before_a_tests(
    tmp_path: Path,
) -> None:
    """Names alone on a large index's cold start put the exact match in product code
    before one in a test, as the fused ranking does (tokio's ``Runtime``), unless the
    query asks for tests."""
    root = write_tree(
        tmp_path / "ws",
        {
            # the test's copy is the more central one: names alone ranked it first
            "src/runtime/tests/task.py": "class Runtime:\n    pass\n\n\n"
            + "".join(f"def t{i}():\n    return Runtime()\n\n\n" for i in range(6)),
            "src/runtime/runtime.py": "class Runtime:\n    def spawn(self):\n        return 1\n",
        },
    )
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    large = update_index(config)[0]
    assert quick_search(large, "Runtime", limit=1)[0].symbol.file == "src/runtime/tests/task.py"
    asked = request(query="Runtime")
    early = names_answer(large, asked)
    assert early is not None
    fused = operations.search(large, asked, prepared=prepare(large))
    assert isinstance(fused, SearchResponse)
    product = "src/runtime/runtime.py::Runtime#class"
    assert early.items[0].symbol.symbol_id == product
    assert fused.items[0].symbol.symbol_id == product
    assert early.items[1].symbol.file == "src/runtime/tests/task.py"
    tests = names_answer(large, request(query="Runtime test"))  # words: not reordered
    assert tests is not None


def test_pages_filters_tiers_and_code_are_honoured(index: Index) -> None:
    every = names_answer(index, request(query="order", limit=6))
    page = names_answer(index, request(query="order", limit=3, offset=2))
    assert every is not None
    assert page is not None
    assert [i.symbol.symbol_id for i in page.items] == [
        i.symbol.symbol_id for i in every.items[2:5]
    ]
    assert page.total == every.total
    methods = names_answer(index, request(query="get", kind="method"))
    assert methods is not None
    assert methods.items
    assert {i.symbol.kind.value for i in methods.items} == {"method"}
    tiered = names_answer(index, request(mode="tiered"))
    assert tiered is not None
    assert tiered.items[0].tier is Tier.HIGH
    coded = names_answer(index, request(snippet_lines=2))
    assert coded is not None
    assert coded.items[0].snippet


def test_the_fused_search_finds_the_same_first_name(index: Index) -> None:
    for query in ("OrderRepository", "process_payment", "prcoess_payment", "OrdRep"):
        early = names_answer(index, request(query=query, limit=3))
        fused = search(index, request(query=query, limit=3))
        assert early is not None
        assert early.items[0].symbol.name == fused.items[0].symbol.name
        assert not fused.names_only


def test_an_index_of_some_size_answers_a_name_with_namesakes_in_the_fused_order(
    tmp_path: Path,
) -> None:
    """From :data:`NAMESAKES_FIRST` symbols a cold start answers a name that has namesakes
    from names too, the way the fused ranking most often orders them: a type before a
    method of its name, a function before a method (logrus's ``AddHook``), a class's method
    before the interface's it implements (okio's ``readHexadecimalUnsignedLong``)."""
    padding = "".join(f"def pad{i}():\n    return {i}\n\n\n" for i in range(NAMESAKES_FIRST))
    root = write_tree(
        tmp_path / "ws",
        {
            "app/padding.py": padding,
            # the methods are the more central: names alone ranked them first
            "app/logger.py": "class Logger:\n    def add_hook(self, hook):\n        pass\n\n"
            "    def FloatArgs(self):\n        return 1.0\n\n\n"
            + "".join(
                f"def use{i}(log):\n    log.add_hook(log.FloatArgs())\n\n\n" for i in range(4)
            ),
            "app/exported.py": "def add_hook(hook):\n    Logger().add_hook(hook)\n",
            "app/args.py": "class FloatArgs:\n    pass\n",
            # the interface's method is the one its callers name: names alone put it first
            "src/Source.java": "interface Source {\n    long readLong();\n}\n",
            "src/Buffer.java": "class Buffer implements Source {\n"
            "    public long readLong() {\n        return 0;\n    }\n}\n",
            "src/Reader.java": "class Reader {\n    long read(Source source) {\n"
            + "".join("        source.readLong();\n" for _ in range(4))
            + "        return 0;\n    }\n}\n",
        },
    )
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    index = update_index(config)[0]
    assert len(index.symbols) >= NAMESAKES_FIRST
    prepared = prepare(index)
    for query, first in (
        ("add_hook", "app/exported.py::add_hook#function"),
        ("FloatArgs", "app/args.py::FloatArgs#class"),
        ("readLong", "src/Buffer.java::Buffer.readLong#method"),
    ):
        assert quick_search(index, query, limit=1)[0].symbol.symbol_id != first
        asked = request(query=query)
        early = early_answer(index, asked, parse(asked), large=False)
        assert isinstance(early, SearchResponse)
        assert early.names_only
        assert early.items[0].symbol.symbol_id == first
        assert {i.symbol.name for i in early.items[:2]} == {query}
        fused = operations.search(index, asked, prepared=prepared)
        assert isinstance(fused, SearchResponse)
        assert fused.items[0].symbol.symbol_id == first


def test_a_pool_orders_the_namesakes_beyond_the_page(tmp_path: Path) -> None:
    """A partial index (the files parsed so far: no PageRank orders its exact matches) asks
    for the namesakes among a pool of matches: the product's class comes first though the
    quick ranking puts six examples' variables before it on a page of three."""
    files = {f"examples/e{i}/env.py": "Session = make_session()\n" for i in range(6)}
    files["lib/orm/session.py"] = "class Session:\n    def commit(self):\n        return 1\n"
    root = write_tree(tmp_path / "ws", files)
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    index = update_index(config)[0]
    asked = request(query="Session", limit=3)
    paged = [h.symbol.file for h in quick_search(index, "Session", limit=3)]
    assert "lib/orm/session.py" not in paged  # the page's quick order holds examples only
    pooled = names_answer(index, asked, pool=50)
    assert pooled is not None
    assert pooled.items[0].symbol.symbol_id == "lib/orm/session.py::Session#class"
    assert len(pooled.items) == 3


def test_a_call_question_about_a_common_name_shows_some_targets_and_counts_them(
    tmp_path: Path,
) -> None:
    """A call question names every definition of its name (options and test properties
    among them, in a repository where the name is common): the answer shows the first
    MAX_SHOWN_TARGETS, those with callers first, then what may be called, and counts all."""
    fields = "".join(f"class Options{i}:\n    retry = {i}\n\n\n" for i in range(30))
    root = write_tree(
        tmp_path / "ws",
        {
            "opts.py": fields,
            "net.py": "def retry():\n    return 1\n\n\ndef fetch():\n    return retry()\n",
            "later.py": "def retry():\n    return 2\n",
        },
    )
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / "index"))
    answer = operations.search(index, request(query="who calls retry"))
    assert isinstance(answer, CallGraphAnswer)
    assert [item.symbol.name for item in answer.items] == ["fetch"]
    assert answer.target_count == 32
    shown = answer.to_dict()["targets"]
    assert len(shown) == MAX_SHOWN_TARGETS
    assert shown[:2] == ["net.py::retry#function", "later.py::retry#function"]
