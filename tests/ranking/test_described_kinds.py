"""What a sentence describes (plans.DESCRIBED_KINDS): besides routines and types, the
documented units of Elixir, Ruby, Scala and Kotlin (modules, traits, objects), found by
the words of their docs; Rust's modules, traits and impl blocks, which hold their
members' text, stay out of the text channels (plans.UNDESCRIBED)."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.api import SearchRequest, search
from tests.support.index import index_of_tree

FILES = {
    "lib/shop/token.ex": '''defmodule Shop.Token do
  @moduledoc """
  Signs data into a string a client hands back later, and verifies that
  signature and its age before trusting the data again.
  """

  def sign(secret, data), do: {secret, data}
  def verify(secret, signed), do: {secret, signed}
end
''',
    "lib/shop/cart.ex": """defmodule Shop.Cart do
  @moduledoc "A cart of items."

  def add(cart, item), do: [item | cart]
end
""",
    "core/Parallel.scala": """package shop

/** Runs each effect of a collection in parallel instead of one after another. */
trait Parallel[M[_]] {
  def sequential: M[Unit]
}
""",
    "src/lib.rs": """/// Signs data into a string a client hands back later.
pub fn sign(data: &str) -> String {
    data.to_string()
}

mod tests {
    // verifies that signature and its age before trusting the data again, again and
    // again: the signature, its age, the data, the client, the string
    fn check() {}
}
""",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("described"), FILES)


def found(index: Index, query: str) -> list[tuple[str, str]]:
    answer = search(index, SearchRequest(query=query, limit=10))
    return [(i.symbol.kind.value, i.symbol.fqn) for i in answer.items]


def test_a_module_is_found_by_the_words_of_its_moduledoc(index: Index) -> None:
    answer = found(index, "verify a signed string a client hands back and check its age")
    assert ("module", "Shop.Token") in answer
    assert ("module", "tests") not in answer  # Rust's inline module: its members' text


def test_a_trait_is_found_by_the_words_of_its_doc(index: Index) -> None:
    answer = found(index, "run the effects of a collection in parallel")
    assert ("trait", "Parallel") in answer[:2]
