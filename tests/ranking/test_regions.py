"""Regions in answers (issue 35), on tests/fixtures/regions: words find the code outside
every definition that does what they say; a name never finds a region; ``kind: region``
lists them."""

from __future__ import annotations

from typing import Any

import pytest

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.query.responses import SearchResponse
from tests.support.index import index_of_fixture


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("regions"), "regions")


def run(index: Index, **fields: Any) -> SearchResponse:
    return search(index, SearchRequest.from_mapping(fields))


def test_words_find_the_code_outside_definitions(index: Index) -> None:
    script = run(index, query="mail the daily sales report from cron")
    first = script.items[0].symbol
    assert (first.kind, first.fqn) == (Kind.REGION, "shop/nightly.py:13-17")
    assert (first.line, first.name_line, first.end_line) == (13, 13, 17)
    # beside a function of its file that the words find too, the route table joins after it
    routes = run(index, query="storefront routes for the catalogue and checkout")
    fqns = [i.symbol.fqn for i in routes.items]
    assert fqns[:2] == ["requireLogin", "server/routes.js:14-18"]


def test_a_name_finds_its_definition_and_never_a_region(index: Index) -> None:
    for query in ("requireLogin", "expire_baskets", "app", "checkout", "orders.checkout"):
        kinds = {item.symbol.kind for item in run(index, query=query).items}
        assert Kind.REGION not in kinds, query
    named = run(index, query="requireLogin")
    assert named.items[0].symbol.name == "requireLogin"


def test_kind_region_lists_the_regions(index: Index) -> None:
    found = run(index, query="routes", kind=["region"])
    assert [i.symbol.fqn for i in found.items] == ["server/routes.js:14-18"]
