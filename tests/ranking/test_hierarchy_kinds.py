"""What a type hierarchy lists as subtypes: types, never the routine a base is named in."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.graph import hierarchy
from tests.support.index import index_of_tree

BEHAVIOUR = """\
defmodule Store do
  @callback fetch(term) :: term

  defmacro __using__(_) do
    quote do
      @behaviour Store
    end
  end
end

defmodule DiskStore do
  @behaviour Store
  def fetch(key), do: key
end
"""


def test_a_behaviour_quoted_in_a_using_macro_makes_no_subtype_of_the_macro(
    tmp_path: Path,
) -> None:
    index = index_of_tree(tmp_path, {"lib/store.ex": BEHAVIOUR})
    store = index.by_fqn["Store"]
    below = hierarchy.subtypes(index, store)
    assert [(link.symbol.name, link.relation) for link in below] == [("DiskStore", "implements")]
