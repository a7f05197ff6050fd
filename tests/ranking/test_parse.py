"""The query door reads a query once: mode, call question, subject and shape; the editor's
filter prefixes; and a call question is answered from the graph with nothing ranked."""

from __future__ import annotations

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.graph.call_questions import CallGraphAnswer
from symfuse.ranking.query import operations
from symfuse.ranking.query.parse import parse, parse_symbol_query
from symfuse.ranking.query.search_request import SearchMode, SearchRequest
from symfuse.ranking.search.plans import Shape
from tests.support.paths import FIXTURES


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    directory = tmp_path_factory.mktemp("index")
    config = IndexConfig(roots=(FIXTURES / "workspace",), index_dir=directory, progress=False)
    built, _ = update_index(config)
    return built


@pytest.mark.parametrize(
    ("query", "mode", "call", "subject", "shape"),
    [
        ("who calls Order.add_item?", SearchMode.SINGLE, "callers", "Order.add_item", Shape.DOTTED),
        ("what does checkout call", SearchMode.SINGLE, "callees", "checkout", Shape.IDENTIFIER),
        ("shop/models.py", SearchMode.GET, None, "shop/models.py", Shape.PATH),
        ("process payment", SearchMode.SINGLE, None, "process payment", Shape.KEYWORDS),
        ("getUserById", SearchMode.SINGLE, None, "getUserById", Shape.IDENTIFIER),
    ],
)
def test_a_request_is_read_once(
    query: str, mode: SearchMode, call: str | None, subject: str, shape: Shape
) -> None:
    parsed = parse(SearchRequest.from_mapping({"query": query}))
    assert parsed.mode is mode
    assert (parsed.call.direction if parsed.call else None) == call
    assert parsed.subject == subject
    assert parsed.shape is shape


def test_a_path_asked_in_get_mode_is_never_a_call_question() -> None:
    parsed = parse(SearchRequest.from_mapping({"query": "who calls x", "mode": "get"}))
    assert parsed.call is None
    assert parsed.mode is SearchMode.GET


def test_the_editor_prefixes_and_the_call_question_are_read_together() -> None:
    q = parse_symbol_query("kind:function lang:py who calls process_payment")
    assert q.kinds == (Kind.FUNCTION,)
    assert q.languages == ("python",)
    assert q.text == "who calls process_payment"
    assert q.call is not None
    assert (q.call.direction, q.call.target) == (
        "callers",
        "process_payment",
    )
    assert parse_symbol_query("file:shop/** total").call is None


def test_a_call_question_is_answered_from_the_graph(index: Index) -> None:
    request = SearchRequest.from_mapping({"query": "who calls process_payment"})
    answer = operations.search(index, request)
    assert isinstance(answer, CallGraphAnswer)
    assert answer.targets
    assert all("process_payment" in t for t in answer.targets)
    assert answer.items, "process_payment has callers in the fixture"
    call = parse(request).call
    assert call is not None
    assert operations.call_answer(index, request, call) == answer


def test_a_call_question_naming_nothing_is_ranked_instead(index: Index) -> None:
    request = SearchRequest.from_mapping({"query": "who calls no_such_function_anywhere"})
    call = parse(request).call
    assert call is not None
    assert operations.call_answer(index, request, call) is None
    answer = operations.search(index, request)
    assert not isinstance(answer, CallGraphAnswer)
    assert answer.intent == call


@pytest.mark.parametrize(
    ("query", "subject"),
    [
        ("GuzzleHttp\\Client::requestAsync", "GuzzleHttp.Client.requestAsync"),
        ("Repo.insert/2", "Repo.insert"),
        ("App\\json_decode", "App.json_decode"),
    ],
)
def test_a_qualified_name_that_reads_like_a_path_is_ranked_as_a_name(
    query: str, subject: str
) -> None:
    parsed = parse(SearchRequest.from_mapping({"query": query}))
    assert (parsed.mode, parsed.subject, parsed.shape) == (SearchMode.SINGLE, subject, Shape.DOTTED)


@pytest.mark.parametrize("query", ["shop\\models.py", "shop/models.py:12", "a.py::C.f#method"])
def test_paths_and_symbol_ids_are_still_looked_up(query: str) -> None:
    assert parse(SearchRequest.from_mapping({"query": query})).mode is SearchMode.GET


def test_a_php_style_name_finds_its_definition(index: Index) -> None:
    answer = operations.search(index, SearchRequest.from_mapping({"query": "shop\\Order"}))
    assert not isinstance(answer, CallGraphAnswer)
    assert answer.items[0].symbol.name == "Order"
