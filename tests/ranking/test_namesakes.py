"""Exact-name namesakes: the library's definition first, then a variable that only
binds an import of it, then test code's namesakes (unless the query asks for tests)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from tests.support.paths import FIXTURES


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    directory = tmp_path_factory.mktemp("index")
    root = FIXTURES / "js_namesakes"
    built, _ = update_index(IndexConfig(roots=(root,), index_dir=directory, progress=False))
    return built


def ranked(index: Index, fields: dict[str, object]) -> list[tuple[str, str]]:
    found = search(index, SearchRequest.from_mapping(fields))
    return [(i.symbol.file, i.symbol.kind.value) for i in found.items if i.symbol.name == "compile"]


def test_the_definition_leads_its_require_alias_and_test_namesakes(index: Index) -> None:
    assert ranked(index, {"query": "compile"}) == [
        ("lib/compile.js", "function"),
        ("lib/index.js", "variable"),  # var compile = require('./compile')
        ("test/render.test.js", "function"),
        ("test/compile.test.js", "variable"),
    ]


def test_a_query_for_tests_does_not_put_them_last(index: Index) -> None:
    found = ranked(index, {"query": "compile", "include_tests": "only"})
    assert found[0] == ("test/render.test.js", "function")


def test_a_require_alias_is_named_by_its_value(tmp_path: Path) -> None:
    from symfuse.indexer.extract.tags import extract
    from symfuse.ranking.channels.names.namesakes import binds_an_import

    source = b"var a = require('./a');\nconst b = await import('./b');\nvar c = make();\n"
    symbols = extract("x.js", "r", "javascript", source).symbols
    assert [binds_an_import(s) for s in symbols] == [True, True, False]


def test_a_zig_import_binding_is_named_by_its_value() -> None:
    from symfuse.indexer.extract.tags import extract
    from symfuse.ranking.channels.names.namesakes import binds_an_import

    source = b'const std = @import("std");\nconst Self = @This();\nconst n = make();\n'
    symbols = extract("x.zig", "r", "zig", source).symbols
    assert [(s.name, binds_an_import(s)) for s in symbols] == [
        ("std", True),
        ("Self", False),
        ("n", False),
    ]


def test_import_bindings_after_the_definition_make_way(tmp_path: Path) -> None:
    """``Store`` is the file's struct, then one of the files that import it; the other
    users' ``const Store = @import("Store.zig")`` rank by their scores, below the
    definitions that match."""
    root = tmp_path / "src"
    root.mkdir()
    (root / "Store.zig").write_text(
        "const Store = @This();\n"
        "items: u32,\n"
        "pub fn openStore(self: *Store) void {\n    _ = self;\n}\n"
        "pub fn closeStore(self: *Store) void {\n    _ = self;\n}\n"
    )
    for user in ("server", "analysis", "hover", "goto", "completions"):
        (root / f"{user}.zig").write_text(
            'const Store = @import("Store.zig");\n'
            f"pub fn {user}Handler(store: *Store) void {{\n    store.openStore();\n}}\n"
        )
    built, _ = update_index(
        IndexConfig(roots=(root,), index_dir=tmp_path / "index", progress=False)
    )
    found = search(built, SearchRequest.from_mapping({"query": "Store", "limit": 5}))
    named = [(i.symbol.file, i.symbol.name) for i in found.items]
    assert named[0] == ("Store.zig", "Store")
    assert sum(name == "Store" for _, name in named) == 2  # the struct, one binding
    assert {name for _, name in named[2:]} >= {"openStore", "closeStore"}
