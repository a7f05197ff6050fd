"""Long queries (issue 35, item 6): a text of many words is ranked as a text, and the
stack frames a pasted report carries name the definitions it is about. On
tests/fixtures/file_units."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.api import SearchRequest
from symfuse.ranking.query import operations
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.search.frames import Frame, frames
from symfuse.ranking.search.plans import TEXT_WORDS, Shape, classify
from tests.support.index import index_of_fixture

# The words say "refund" (PaymentGateway.refund's doc); the frames say charge and checkout.
REPORT = """Refunding the transaction of a cancelled order gives the money back twice.
Traceback (most recent call last):
  File "/srv/app/venv/lib/python3.11/site-packages/shop/orders.py", line 14, in checkout
    receipt = gateway.charge(token, order.total)
  File "/srv/app/venv/lib/python3.11/site-packages/shop/payment.py", line 8, in charge
    raise ValueError("negative amount")
ValueError: negative amount"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("long"), "file_units")


def answer(index: Index, query: str) -> SearchResponse:
    found = operations.search(index, SearchRequest.from_mapping({"query": query, "limit": 5}))
    assert isinstance(found, SearchResponse)
    return found


def test_frames_innermost_first() -> None:
    assert frames(REPORT) == [
        Frame("/srv/app/venv/lib/python3.11/site-packages/shop/payment.py", 8),
        Frame("/srv/app/venv/lib/python3.11/site-packages/shop/orders.py", 14),
    ]
    java = "IllegalStateException\n\tat a.Gson.toJson(Gson.java:812)\n\tat Main.main(Main.java:3)"
    assert frames(java) == [Frame("Gson.java", 812), Frame("Main.java", 3)]
    rust = "thread 'main' panicked at src/de.rs:1372:9:\nrecursion limit exceeded"
    assert frames(rust) == [Frame("src/de.rs", 1372)]
    assert frames("version 1.2:3 of the spec, see e.g. the docs") == []


def test_a_traceback_puts_its_frames_first(index: Index) -> None:
    names = [item.symbol.fqn for item in answer(index, REPORT).items]
    assert names[:2] == ["shop.payment.PaymentGateway.charge", "shop.orders.checkout"]


def test_a_long_text_is_ranked_as_a_text(index: Index) -> None:
    sentence = "when an order is cancelled after payment the gateway refunds the transaction"
    text = " ".join([sentence] * (TEXT_WORDS // len(sentence.split()) + 1))
    assert classify(sentence) is not Shape.TEXT
    assert classify(text) is Shape.TEXT
    found = answer(index, text)
    assert found.shape == "text"
    assert found.items[0].symbol.fqn == "shop.payment.PaymentGateway.refund"
