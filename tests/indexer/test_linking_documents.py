"""A name that a module and a document's heading share links to the module: the README
of a library is often titled with its main module's name (`# DBConnection`)."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import UsagesRequest
from tests.support.index import index_of_tree


def test_an_import_links_the_module_not_the_readme_heading(tmp_path: Path) -> None:
    index = index_of_tree(
        tmp_path,
        {
            "README.md": "# Shop\n\nA shop.\n",
            "lib/shop.ex": "defmodule Shop do\n  def checkout(cart), do: cart\nend\n",
            "examples/app/lib/app.ex": "defmodule App do\n  use Shop\n\n"
            "  def run, do: Shop.checkout([])\nend\n",
        },
    )
    found = operations.usages(index, UsagesRequest(target="lib/shop.ex::Shop#module"))
    assert [(u.file, u.line, u.kind) for u in found.usages] == [
        ("examples/app/lib/app.ex", 2, "import")
    ]
