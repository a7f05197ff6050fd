"""A routine or type a question or request names is what it asks about (issue 35, item 3):
``what does build_request do`` puts ``build_request`` first, ``how is Client used`` the
class (ranking.search.prose_names)."""

from __future__ import annotations

import functools

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, prepare, search
from symfuse.ranking.search.prose_names import asked_definitions, asked_names

CLIENT = '''"""The client: requests built, sent and their errors handled."""


class Client:
    def request(self, method, url, headers=None):
        """Send a request and handle its errors: build the request, send the request,
        retry on errors, raise the errors the request could not recover from."""
        request = self.build_request(method, url, headers)
        return self.send(request)

    def send(self, request):
        """Send a built request; errors are raised to the caller."""
        return request

    def build_request(self, method, url, headers=None):
        return (method, url, headers or {})

    def send_with_retries(self, request):
        """Like build_request, but send it and retry on errors."""
        return self.send(request)


def clients_used(clients):
    """How each client is used: the clients used by a session, a client used twice, what a
    client represents and which client is used most."""
    return [client for client in clients if client.used]
'''

TESTS = '''from client import Client


def test_build_request_errors():
    """build_request errors: build_request with a bad url, build_request handles errors."""
    assert Client().build_request("GET", "/")
'''


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("asked")
    files = {"ws/client.py": CLIENT, "ws/tests/test_client.py": TESTS}
    files |= {f"ws/events/e{i}.py": "def handle_event():\n    return 0\n" for i in range(4)}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    config = IndexConfig(roots=(root / "ws",), index_dir=root / "index", progress=False)
    return update_index(config)[0]


def first(index: Index, query: str) -> str:
    return search(index, SearchRequest.from_mapping({"query": query})).items[0].symbol.fqn


@pytest.mark.parametrize(
    "query",
    [
        "how does build_request handle errors",
        "what does `build_request` do with the headers",
        "explain build_request and its errors",
        "where is build_request defined?",
        "definition of build_request",
        "bug in build_request when the headers are empty",
    ],
)
def test_a_question_asks_about_the_routine_it_names(index: Index, query: str) -> None:
    assert first(index, query) == "client.Client.build_request"


def test_a_statement_or_a_plain_word_names_no_routine() -> None:
    # a docstring names what its function uses: a longer statement is not a question
    said = "Like build_request, but send the request it builds and retry when the server fails"
    assert asked_names(said) == []
    assert asked_names("how does the client send a request") == []
    assert asked_names("what does client.build_request do") == []  # qualified: not here
    assert [name for name, _ in asked_names("what does `send` do")] == ["send"]
    # a short request names routines, not types ("Return a copy of the current QuerySet")
    short = asked_names("the ClientError for build_request")
    assert [name for name, _ in short] == ["ClientError", "build_request"]
    assert all(kinds == Kind.CALLABLES for _, kinds in short)
    assert asked_names("tests for build_request") == []  # asks for the tests


def test_a_name_of_many_routines_is_left_to_the_ranking(index: Index) -> None:
    prepared = prepare(index)
    ask = functools.partial(asked_definitions, prepared, mask=None, symbols=index.symbols)
    assert [index.symbols[p].fqn for p in ask("what does build_request do")] == [
        "client.Client.build_request"
    ]
    assert ask("what does handle_event do") == []  # four functions of the name


@pytest.mark.parametrize("query", ["how is Client used", "what does Client represent?"])
def test_a_question_asks_about_the_type_it_names(index: Index, query: str) -> None:
    assert first(index, query) == "client.Client"


def test_a_capitalised_word_names_a_type_only_as_the_questions_subject() -> None:
    assert [name for name, _ in asked_names("how is Client used")] == ["Client"]
    assert asked_names("how are errors turned into a Client error") == []
    assert asked_names("how is JSON Schema export built") == []


@pytest.mark.parametrize(
    "query",
    [
        "the send method of Client",
        "Client's send method",
        "how does Client send work",
        "send in Client when the request is empty",
    ],
)
def test_a_member_named_with_its_type_comes_first(index: Index, query: str) -> None:
    assert first(index, query) == "client.Client.send"
