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


def test_a_rust_impl_implements_no_struct_of_the_traits_name(tmp_path: Path) -> None:
    """serde_json's `impl<'de> Deserializer<'de> for Value` implements serde's trait,
    not serde_json's own struct `de::Deserializer` (nor an impl's `type Deserializer`)."""
    from symfuse.indexer.model import EdgeKind

    index = index_of_tree(
        tmp_path,
        {
            "src/de.rs": "pub struct Deserializer {\n    depth: u8,\n}\n",
            "src/value/de.rs": "use serde::de::Deserializer;\n\npub enum Value {\n    Null,\n}\n\n"
            "impl<'de> Deserializer<'de> for Value {\n    type Error = String;\n}\n",
        },
    )
    implemented = [
        dst
        for rows in index.edges_by_file.values()
        for _, dst, kind, _ in rows
        if kind == EdgeKind.IMPLEMENTS
    ]
    assert implemented == []
