"""JavaScript's private names (`#retry`): a query writes them with their `#`, alone or
after their class (`Ky.#retry`), and finds them as exact names; Ruby's `Thor#options`
still reads `#` as the separator of a class and its method."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.api import SearchRequest
from symfuse.ranking.channels.tokens import is_identifier_shaped
from symfuse.ranking.query import operations
from symfuse.ranking.query.responses import SearchResponse
from tests.support.index import index_of_tree

KY = """export class Ky {
    #retryCount = 0;

    async #retry<T>(fn: () => Promise<T>): Promise<T> {
        this.#retryCount++;
        return fn();
    }

    retry(): number {
        return this.#retryCount;
    }
}

export function retry(times: number): number {
    return times;
}
"""
THOR = """class Thor
  def options
    @options
  end

  class Options
  end
end
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("private"), {"src/ky.ts": KY, "thor.rb": THOR})


def first(index: Index, query: str) -> str:
    answer = operations.search(index, SearchRequest.from_mapping({"query": query, "limit": 3}))
    assert isinstance(answer, SearchResponse)
    return answer.items[0].symbol.fqn


@pytest.mark.parametrize("query", ["#retry", "Ky.#retry", "Thor#options", "Ky#retry"])
def test_a_private_name_is_a_name(query: str) -> None:
    assert is_identifier_shaped(query)


def test_a_private_name_finds_its_definition(index: Index) -> None:
    assert first(index, "#retry") == "Ky.#retry"
    assert first(index, "Ky.#retry") == "Ky.#retry"
    assert first(index, "Ky.retry") == "Ky.retry"  # the public method, as written


def test_a_ruby_method_after_its_class(index: Index) -> None:
    assert first(index, "Thor#options") == "Thor.options"
