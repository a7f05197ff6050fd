"""Rust paths as Rust code writes them (``tokio::spawn``, ``my_crate::sync::mpsc::channel``):
from a crate's name through its modules and re-exports, for targets and for the linker."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.graph.targets import resolve_target
from tests.support.index import index_of_tree, links

LIBRARY = {
    "Cargo.toml": '[workspace]\nmembers = ["my-crate", "app"]\n',
    "my-crate/Cargo.toml": '[package]\nname = "my-crate"\nversion = "0.1.0"\n',
    "my-crate/src/lib.rs": """\
pub mod sync;
mod task;
mod engine;
pub use engine::*;
pub use crate::task::{spawn, helpers::{make as build, Thing}};

macro_rules! cfg_rt {
    ($($item:item)*) => { $($item)* };
}
cfg_rt! {
    pub use self::sync::Mutex;
}

pub mod inline {
    pub fn helper() {}
}

#[macro_export]
macro_rules! ready {
    ($e:expr) => { $e };
}
""",
    "my-crate/src/engine.rs": """\
pub struct Engine;

impl Engine {
    pub fn start(&self) {}
}
""",
    "my-crate/src/task/mod.rs": "mod spawn;\npub mod helpers;\npub use spawn::spawn;\n",
    "my-crate/src/task/spawn.rs": "pub fn spawn() {}\n",
    "my-crate/src/task/helpers.rs": "pub fn make() {}\npub struct Thing;\n",
    "my-crate/src/sync/mod.rs": "pub mod mpsc;\nmod mutex;\npub use mutex::Mutex;\n",
    "my-crate/src/sync/mutex.rs": "pub struct Mutex;\n",
    "my-crate/src/sync/mpsc/mod.rs": "mod list;\nmod bounded;\npub use self::bounded::channel;\n",
    "my-crate/src/sync/mpsc/list.rs": "pub(crate) fn channel() {}\n",
    "my-crate/src/sync/mpsc/bounded.rs": "pub fn channel() {}\n",
    "app/Cargo.toml": '[package]\nname = "app"\nversion = "0.1.0"\n',
    "app/src/main.rs": """\
mod util;
mod other;
use my_crate::sync::mpsc;
use std::sync::mpsc as std_mpsc;

fn main() {
    my_crate::spawn();
    mpsc::channel();
    std_mpsc::channel();
    crate::util::helper();
}
""",
    "app/src/other.rs": """\
use my_crate::sync::mpsc::channel;
use std::sync::mpsc::channel as std_channel;
use my_crate::build;
use std::fmt::Display;

fn calls() {
    channel();
    std_channel();
    build();
}

fn shows(value: &dyn Display) {}
""",
    "app/src/util.rs": """\
pub fn helper() {}

mod tests {
    fn helper() {}

    fn calls() {
        super::helper();
    }
}
""",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("rust_paths"), LIBRARY)


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("my_crate::spawn", "my-crate/src/task/spawn.rs::spawn#function"),  # `mod spawn` too
        ("my_crate::sync::mpsc::channel", "my-crate/src/sync/mpsc/bounded.rs::channel#function"),
        ("my_crate::Engine", "my-crate/src/engine.rs::Engine#struct"),  # a glob's
        ("my_crate::Engine::start", "my-crate/src/engine.rs::Engine.start#method"),
        ("my_crate::build", "my-crate/src/task/helpers.rs::make#function"),  # an alias
        ("my_crate::Thing", "my-crate/src/task/helpers.rs::Thing#struct"),
        ("my_crate::Mutex", "my-crate/src/sync/mutex.rs::Mutex#struct"),  # in a macro call
        ("my_crate::inline::helper", "my-crate/src/lib.rs::inline.helper#function"),
        ("my_crate::ready", "my-crate/src/lib.rs::ready#macro"),  # #[macro_export]
    ],
)
def test_a_rust_path_names_what_its_crate_exports(
    index: Index, written: str, expected: str
) -> None:
    found = resolve_target(index, written)
    assert getattr(found, "symbol_id", found) == expected


def test_the_linker_reads_a_qualified_rust_reference_as_a_path(index: Index) -> None:
    """`mpsc::channel()` after `use my_crate::sync::mpsc;` is the public channel (not the
    crate-private one of list.rs, a namesake); after `use std::sync::mpsc as std_mpsc;`
    nothing of the workspace; `super::` in an inline module is the file's module."""
    linked = links(index, "app/src/main.rs", "app/src/main.rs::main#function")
    called = {target: weight for target, weight in linked.items() if "#function" in target}
    assert called == {
        "my-crate/src/task/spawn.rs::spawn#function": 1.0,
        "my-crate/src/sync/mpsc/bounded.rs::channel#function": 1.0,
        "app/src/util.rs::helper#function": 1.0,
    }
    inner = links(index, "app/src/util.rs", "app/src/util.rs::tests.calls#function")
    assert inner == {"app/src/util.rs::helper#function": 1.0}  # not tests.helper


def test_a_name_a_use_binds_is_the_definition_its_path_names(index: Index) -> None:
    """`channel()` after `use my_crate::sync::mpsc::channel;` is bounded.rs's public
    channel alone (not list.rs's namesake), `build()` the function `build` aliases, and a
    name from std (`std_channel()`, the type `Display`) nothing of the workspace."""
    linked = links(index, "app/src/other.rs", "app/src/other.rs::calls#function")
    assert linked == {
        "my-crate/src/sync/mpsc/bounded.rs::channel#function": 1.0,
        "my-crate/src/task/helpers.rs::make#function": 1.0,
    }
    assert links(index, "app/src/other.rs", "app/src/other.rs::shows#function") == {}
