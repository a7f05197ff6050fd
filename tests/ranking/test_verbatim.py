"""A pasted message finds the definition that writes it (ranking.search.verbatim)."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.channels.names.names_only import filter_table
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.search.verbatim import WRITTEN, verbatim, verbatim_first, written
from symfuse.ranking.text.paths import read_lines

CLIENT = '''"""The client."""


class ClientClosed(Exception):
    """The client has been closed: a request cannot be sent, the client cannot send it."""


class Client:
    def close(self):
        """Close the client: a closed client cannot send a request; sending a request to a
        closed client raises, as the client has been closed."""
        self.closed = True

    def reopen(self):
        """Cannot send a request, as the client has been closed: reopen it first."""
        self.closed = False

    def can_send_request(self, request):
        """Whether the client can send a request: a closed client cannot send a request,
        a request cannot be sent as the client has been closed."""
        return not self.closed and request is not None

    def dispatch(self, request):
        if self.closed:
            raise ClientClosed("Cannot send a request, as the client has been closed.")
        return request
'''

TESTS = """from client import Client, ClientClosed


def test_send_after_close():
    client = Client()
    client.close()
    try:
        client.dispatch("GET /")
    except ClientClosed as exc:
        assert str(exc) == "Cannot send a request, as the client has been closed."
"""


# definitions that say every word of the message, not as it is written
SENDING = "\n\n".join(
    f'def send_request_{n}(client, request):\n    """Send a request with the client; a request '
    f'cannot be sent once the client has been closed ({n})."""\n    return client, request\n'
    for n in range(8)
)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("verbatim")
    files = {"ws/client.py": CLIENT, "ws/tests/test_client.py": TESTS, "ws/sending.py": SENDING}
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    config = IndexConfig(roots=(root / "ws",), index_dir=root / "index", progress=False)
    return update_index(config)[0]


def test_a_pasted_message_finds_the_code_that_writes_it(index: Index) -> None:
    query = "Cannot send a request, as the client has been closed."
    assert search(index, SearchRequest.from_mapping({"query": query})).items[0].symbol.fqn == (
        "client.Client.dispatch"
    )


def at(index: Index, *fqns: str) -> list[int]:
    return [next(i for i, s in enumerate(index.symbols) if s.fqn == f) for f in fqns]


@pytest.mark.parametrize(
    "query",
    [
        "Cannot send a request, as the client has been closed.",
        '"cannot send a request, as the client   has been closed"',
    ],
)
def test_only_a_string_the_code_writes_counts(index: Index, query: str) -> None:
    # the docstrings that say it do not count; the test's assertion does, after the raise
    candidates = at(index, "client.Client.reopen", "client.ClientClosed")
    candidates += at(index, "tests.test_client.test_send_after_close", "client.Client.dispatch")
    found = verbatim(index.symbols, np.asarray(candidates), query, partial(read_lines, index))
    fqns = [index.symbols[p].fqn for p in found]
    assert fqns == ["client.Client.dispatch", "tests.test_client.test_send_after_close"]


def test_the_product_code_that_writes_it_leads(index: Index) -> None:
    order = at(index, "sending.send_request_0", "tests.test_client.test_send_after_close")
    order += at(index, "client.Client.dispatch")
    fused = Fused(np.asarray(order), np.asarray([0.9, 0.8, 0.7]), {}, {}, {}).traced()
    led = verbatim_first(fused, tuple(order[1:][::-1]), filter_table(index))
    assert [index.symbols[p].fqn for p in led.positions] == [
        "client.Client.dispatch",  # the test that asserts it stays where it was
        "sending.send_request_0",
        "tests.test_client.test_send_after_close",
    ]
    assert led.scores.tolist() == [0.9, 0.8, 0.7]
    assert led.notes is not None
    assert led.notes[0][0].reason == WRITTEN


def test_a_short_query_is_no_message() -> None:
    assert written("client has been closed") == "client has been closed"
    assert written("client closed") is None
