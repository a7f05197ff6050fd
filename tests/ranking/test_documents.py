"""Headings and keys (Kind.DOCUMENTS) rank below code of the same name unless asked for,
through search() on a small tree of Python, Markdown and YAML written for the test."""

from __future__ import annotations

from typing import Any

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.fusion.roles import asks_for_documents
from tests.support.cli import write_tree

FILES = {
    "README.md": "# Checkout\n\nHow an order is paid.\n\n## Settings\n\nSee config.yaml.\n",
    "docs/guide.md": "# shop.nvim\n\n## Sorters\n\nA sorter scores entries.\n\n"
    "## Cart.total\n\nThe sum of a cart's prices.\n",
    "shop/cart.py": "class Cart:\n    def total(self):\n        return 0\n",
    "lua/sorters.lua": "local sorters = {}\n\nfunction sorters.get_fuzzy_sorter(prompt)\n"
    "  -- score each entry against the prompt\n  return function(entry) return #entry end\n"
    "end\n\nreturn sorters\n",
    "config.yaml": "checkout:\n  retries: 3\nsettings:\n  debug: true\n",
    "shop/pay.py": (
        "def checkout(order):\n"
        '    """Pay for an order."""\n'
        "    return order.total\n\n\n"
        "class Settings:\n"
        "    debug = False\n"
    ),
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = write_tree(tmp_path_factory.mktemp("docs") / "ws", FILES)
    directory = tmp_path_factory.mktemp("index")
    built, _ = update_index(IndexConfig(roots=(root,), index_dir=directory, progress=False))
    return built


def kinds(index: Index, query: str, **fields: Any) -> list[Kind]:
    request = SearchRequest.from_mapping({"query": query, "limit": 10, **fields})
    return [item.symbol.kind for item in search(index, request).items]


def test_code_comes_before_a_heading_and_a_key_of_its_name(index: Index) -> None:
    found = kinds(index, "checkout")
    assert found[0] is Kind.FUNCTION
    assert {Kind.HEADING, Kind.KEY} <= set(found[1:])


def test_a_kind_filter_asks_for_headings(index: Index) -> None:
    found = kinds(index, "checkout", kind=["heading"])
    assert found
    assert set(found) == {Kind.HEADING}


def test_a_query_that_names_documents_leaves_them_where_fusion_puts_them(index: Index) -> None:
    assert asks_for_documents("checkout section")
    assert asks_for_documents("debug settings")
    assert not asks_for_documents("checkout")
    assert kinds(index, "checkout section")[0] is Kind.HEADING


def test_a_word_of_a_sentence_does_not_lift_a_heading_it_names(index: Index) -> None:
    """ "shop.sorters Sorter class that scores entries": no code is named Sorters, the
    guide's heading is (`shop.nvim.Sorters`); the sentence asks for the code that does it."""
    found = kinds(index, "shop.sorters Sorter class that scores entries against the prompt")
    assert found[0] is Kind.FUNCTION
    assert kinds(index, "Sorters")[0] is Kind.HEADING  # the name alone: what is named so


def test_code_before_a_heading_written_as_the_qualified_name(index: Index) -> None:
    """cats' docs heading `Eval.now` led `Eval.now`: code matches a qualified name by its
    fqn, a level below a heading whose text is the name."""
    assert kinds(index, "Cart.total")[:2] == [Kind.METHOD, Kind.HEADING]
