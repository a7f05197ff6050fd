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


RUST_IMPLS = """\
pub trait Formatter {
    fn write(&mut self) {}
}

pub struct Deserializer {
    depth: u8,
}

pub struct Pretty {
    indent: u8,
}

impl Formatter for Pretty {}

impl From<u8> for Pretty {
    fn from(indent: u8) -> Self {
        Pretty { indent }
    }
}

impl From<u16> for Pretty {
    fn from(indent: u16) -> Self {
        Pretty { indent: indent as u8 }
    }
}

impl<'de> Deserializer<'de> for Pretty {
    type Error = String;
}
"""


def test_a_rust_type_implements_the_traits_of_its_impl_blocks(tmp_path: Path) -> None:
    """`Pretty`'s supertypes are the traits its `impl` blocks implement (an outside one
    once by name; a struct of a trait's name is no trait); `Formatter`'s subtypes are the
    structs, not their impl blocks."""
    index = index_of_tree(tmp_path, {"src/ser.rs": RUST_IMPLS})
    pretty = index.get("src/ser.rs::Pretty#struct")
    formatter = index.get("src/ser.rs::Formatter#trait")
    assert pretty is not None
    assert formatter is not None
    up = hierarchy.supertypes(index, pretty)
    assert sorted((link.name, link.symbol is not None) for link in up) == [
        ("Deserializer", False),
        ("Formatter", True),
        ("From", False),
    ]
    down = hierarchy.subtypes(index, formatter)
    assert [(link.name, link.symbol and link.symbol.kind.value) for link in down] == [
        ("Pretty", "struct")
    ]
    struct = index.get("src/ser.rs::Deserializer#struct")
    assert struct is not None
    assert hierarchy.subtypes(index, struct) == ()


RUST_CRATES = {
    "crates/core/src/lib.rs": "pub trait Runner {\n    fn run(&self);\n}\n\n"
    "pub trait Named {\n    fn name(&self) -> String;\n}\n",
    "crates/fast/src/engine.rs": "pub struct Engine;\n\n"
    "impl Runner for Engine {\n    fn run(&self) {}\n}\n",
    "crates/slow/src/engine.rs": "pub struct Engine;\n",
    "crates/slow/src/named.rs": "impl Runner for Engine {\n    fn run(&self) {}\n}\n\n"
    "impl Named for Engine {\n    fn name(&self) -> String { String::new() }\n}\n",
}


def test_a_rust_impl_is_for_the_type_of_its_name_nearest_to_it(tmp_path: Path) -> None:
    """Two crates each have an `Engine`: an impl block is for the one in its file, else
    in its crate (the most folders shared), on both sides of the hierarchy."""
    index = index_of_tree(tmp_path, RUST_CRATES)
    runner = index.get("crates/core/src/lib.rs::Runner#trait")
    fast = index.get("crates/fast/src/engine.rs::Engine#struct")
    slow = index.get("crates/slow/src/engine.rs::Engine#struct")
    assert runner is not None
    assert fast is not None
    assert slow is not None
    down = hierarchy.subtypes(index, runner)
    assert sorted((link.symbol.file, link.symbol.kind.value) for link in down if link.symbol) == [
        ("crates/fast/src/engine.rs", "struct"),
        ("crates/slow/src/engine.rs", "struct"),
    ]
    assert [link.name for link in hierarchy.supertypes(index, fast)] == ["Runner"]
    assert sorted(link.name for link in hierarchy.supertypes(index, slow)) == ["Named", "Runner"]


SWIFT_EXTENSIONS = {
    "Source/Interceptor.swift": "public protocol RequestInterceptor {}\n\n"
    "extension RequestInterceptor {\n    func adapt() {}\n}\n",
    "Source/Session.swift": "open class Session {}\n",
    "Source/Session+Interceptor.swift": "extension Session: RequestInterceptor {}\n",
}


def test_a_swift_type_is_what_its_extensions_add(tmp_path: Path) -> None:
    """`RequestInterceptor` names the protocol, not also the extension that adds to it;
    `Session`'s supertypes include the protocol an extension makes it conform to."""
    from symfuse.ranking.graph.targets import resolve_target

    index = index_of_tree(tmp_path, SWIFT_EXTENSIONS)
    protocol = resolve_target(index, "RequestInterceptor")
    assert getattr(protocol, "symbol_id", None) == (
        "Source/Interceptor.swift::RequestInterceptor#interface"
    )
    session = resolve_target(index, "Session")
    assert not isinstance(session, str)
    assert [link.name for link in hierarchy.supertypes(index, session)] == ["RequestInterceptor"]


HASKELL_INSTANCES = """\
module Shapes where

class Pretty a where
  pretty :: a -> String

data Shape = Circle Double | Square Double

instance Pretty Shape where
  pretty _ = "shape"

instance Show Shape where
  show _ = "shape"
"""


def test_a_haskell_type_is_an_instance_of_its_instances_classes(tmp_path: Path) -> None:
    """`Shape`'s supertypes are the classes of its instances (`Show`, outside, by name);
    `Pretty`'s subtypes name the data type, not the instance."""
    index = index_of_tree(tmp_path, {"src/Shapes.hs": HASKELL_INSTANCES})
    shape = next(s for s in index.symbols if s.name == "Shape" and s.kind.is_type)
    pretty = next(s for s in index.symbols if s.name == "Pretty" and s.kind.is_type)
    up = sorted((link.name, link.symbol is not None) for link in hierarchy.supertypes(index, shape))
    assert up == [("Pretty", True), ("Show", False)]
    down = hierarchy.subtypes(index, pretty)
    assert [(link.name, link.symbol and link.symbol.symbol_id) for link in down] == [
        ("Shape", shape.symbol_id)
    ]


def test_a_module_that_uses_a_behaviour_giving_module_implements_it(tmp_path: Path) -> None:
    """`use Store` runs Store's `__using__`, which quotes `@behaviour Store`: MemoryStore
    implements Store though it writes no `@behaviour` line (db_connection's adapters
    `use DBConnection`)."""
    memory = "defmodule MemoryStore do\n  use Store\n\n  def fetch(key), do: key\nend\n"
    index = index_of_tree(tmp_path, {"lib/store.ex": BEHAVIOUR, "lib/memory_store.ex": memory})
    store = index.by_fqn["Store"]
    below = sorted((link.name, link.relation) for link in hierarchy.subtypes(index, store))
    assert below == [("DiskStore", "implements"), ("MemoryStore", "implements")]
    above = hierarchy.supertypes(index, index.by_fqn["MemoryStore"])
    assert [(link.name, link.relation) for link in above] == [("Store", "implements")]


def test_a_base_declared_per_platform_is_listed_once(tmp_path: Path) -> None:
    """okio's `Source : Closeable`, where `Closeable` is an `expect` interface and an
    `actual` one per platform: one supertype."""
    index = index_of_tree(
        tmp_path,
        {
            "commonMain/okio/Platform.kt": "package okio\n\nexpect interface Closeable {\n"
            "  fun close()\n}\n",
            "nonJvmMain/okio/Platform.kt": "package okio\n\nactual interface Closeable {\n"
            "  actual fun close()\n}\n",
            "commonMain/okio/Source.kt": "package okio\n\ninterface Source : Closeable {\n"
            "  fun read(): Long\n}\n",
        },
    )
    source = index.by_fqn["Source"]
    assert [link.name for link in hierarchy.supertypes(index, source)] == ["Closeable"]
