"""File dependencies across languages: Python modules, script paths, C includes, externals,
transitive depth and import cycles."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import RefKind
from symfuse.ranking.graph.dependencies import CYCLE_HOPS, dependencies, import_graph
from tests.support.index import index_of_tree

TREE = {
    "app/__init__.py": "",
    "app/a.py": "from app import b\nimport json\n\n\ndef fa():\n    return b.fb()\n",
    "app/b.py": "from app.a import fa\nfrom app.c import fc\n\n\ndef fb():\n    return fc()\n",
    "app/c.py": "def fc():\n    return 1\n",
    "web/use.ts": (
        "import * as m from './mod';\nimport { x } from 'lodash';\nexport const y = m.a;\n"
    ),
    "web/mod.ts": "export const a = 1;\n",
    "web/lib/index.js": "export const z = 2;\n",
    "web/other.js": "import { z } from './lib';\n",
    "csrc/main.c": '#include "util.h"\n#include <stdio.h>\nint main(void) { return util(); }\n',
    "csrc/util.h": "int util(void);\n",
    ".ci/check.py": "from app.c import fc\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("deps"), TREE)


def files(links: tuple[object, ...]) -> list[tuple[str, int]]:
    return [(link.file, link.depth) for link in links]  # type: ignore[attr-defined]


def test_python_modules_depth_and_cycles(index: Index) -> None:
    found = dependencies(index, "app/a.py", depth=2)
    assert files(found.imports) == [("app/b.py", 1), ("app/c.py", 2)]
    assert files(found.importers) == [("app/b.py", 1)]
    assert [(e.module, e.lines) for e in found.external] == [("json", (2,))]
    assert found.cycles == (("app/a.py", "app/b.py"),)
    assert dependencies(index, "app.c").file == "app/c.py"  # a module name works too
    assert dependencies(index, "./app/a.py").file == "app/a.py"


def test_a_file_in_a_dot_folder_is_found_by_its_path(index: Index) -> None:
    found = dependencies(index, ".ci/check.py")
    assert (found.file, files(found.imports)) == (".ci/check.py", [("app/c.py", 1)])
    assert dependencies(index, "./.ci/check.py").file == ".ci/check.py"


def test_script_paths_and_c_includes(index: Index) -> None:
    assert files(dependencies(index, "web/use.ts").imports) == [("web/mod.ts", 1)]
    assert [e.module for e in dependencies(index, "web/use.ts").external] == ["lodash"]
    assert files(dependencies(index, "web/other.js").imports) == [("web/lib/index.js", 1)]
    main = dependencies(index, "csrc/main.c")
    assert files(main.imports) == [("csrc/util.h", 1)]
    assert [e.module for e in main.external] == ["<stdio.h>"]
    assert files(dependencies(index, "csrc/util.h").importers) == [("csrc/main.c", 1)]


def test_an_unknown_target_is_named(index: Index) -> None:
    with pytest.raises(NotFound, match=r"no file or Python module 'app/zzz\.py'"):
        dependencies(index, "app/zzz.py")


PACKAGES = {
    "go/go.mod": "module example.com/shop\n\ngo 1.21\n",
    "go/util/strings.go": "package util\n\nfunc Upper(s string) string { return s }\n",
    "go/util/nums.go": "package util\n\nfunc Add(a, b int) int { return a + b }\n",
    "go/util/nums_test.go": "package util\n",
    "go/cmd/main.go": (
        'package main\n\nimport (\n\t"fmt"\n\tu "example.com/shop/util"\n)\n\n'
        'func main() { fmt.Println(u.Upper("x")) }\n'
    ),
    "rs/src/main.rs": (
        "mod net;\nmod util;\nuse crate::util::helper;\nuse std::collections::HashMap;\n\n"
        "fn main() { helper(); net::client::get(); }\n"
    ),
    "rs/src/util.rs": "pub fn helper() {}\n",
    "rs/src/net/mod.rs": "pub mod client;\n",
    "rs/src/net/client.rs": "use super::super::util::helper;\npub fn get() { helper(); }\n",
    "java/com/shop/model/Order.java": "package com.shop.model;\n\npublic class Order {}\n",
    "java/com/shop/model/Item.java": "package com.shop.model;\n\npublic class Item {}\n",
    "java/com/shop/app/App.java": (
        "package com.shop.app;\n\nimport com.shop.model.Order;\nimport java.util.List;\n\n"
        "public class App { Order o; }\n"
    ),
    "java/com/shop/app/All.java": (
        "package com.shop.app;\n\nimport com.shop.model.*;\n\nclass All {}\n"
    ),
    "cs/Shop/Models/Order.cs": "namespace Shop.Models\n{\n    public class Order { }\n}\n",
    "cs/Shop/App/Program.cs": (
        "using System;\nusing Shop.Models;\n\n"
        "namespace Shop.App\n{\n    class Program { Order o; }\n}\n"
    ),
}


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("packages"), PACKAGES)


def with_lines(links: tuple[object, ...]) -> list[tuple[str, tuple[int, ...]]]:
    return [(link.file, link.lines) for link in links]  # type: ignore[attr-defined]


def test_go_import_paths_name_the_package_folder(packages: Index) -> None:
    main = dependencies(packages, "go/cmd/main.go")
    assert with_lines(main.imports) == [("go/util/nums.go", (5,)), ("go/util/strings.go", (5,))]
    assert [e.module for e in main.external] == ["fmt"]
    assert files(dependencies(packages, "go/util/nums.go").importers) == [("go/cmd/main.go", 1)]


def test_rust_mod_and_use_paths(packages: Index) -> None:
    main = dependencies(packages, "rs/src/main.rs")
    assert with_lines(main.imports) == [("rs/src/net/mod.rs", (1,)), ("rs/src/util.rs", (2, 3))]
    assert [e.module for e in main.external] == ["std::collections"]
    assert files(dependencies(packages, "rs/src/net/mod.rs").imports) == [
        ("rs/src/net/client.rs", 1)
    ]
    assert files(dependencies(packages, "rs/src/net/client.rs").imports) == [("rs/src/util.rs", 1)]


def test_java_classes_and_packages(packages: Index) -> None:
    app = dependencies(packages, "java/com/shop/app/App.java")
    assert with_lines(app.imports) == [("java/com/shop/model/Order.java", (3,))]
    assert [e.module for e in app.external] == ["java.util"]
    every = dependencies(packages, "java/com/shop/app/All.java")
    assert files(every.imports) == [
        ("java/com/shop/model/Item.java", 1),
        ("java/com/shop/model/Order.java", 1),
    ]


def test_csharp_namespaces(packages: Index) -> None:
    program = dependencies(packages, "cs/Shop/App/Program.cs")
    assert with_lines(program.imports) == [("cs/Shop/Models/Order.cs", (2,))]
    assert [e.module for e in program.external] == ["System"]


SCRIPTS = {
    "app/main.js": (
        "import './polyfill';\nconst util = require('util');\nconst lib = require('./lib');\n"
        "const lazy = () => import('./lazy.mjs');\n"
    ),
    "app/polyfill.js": "globalThis.x = 1;\n",
    "app/lib/index.js": "module.exports = { a: 1 };\n",
    "app/lazy.mjs": "export const b = 2;\n",
    "app/util.js": "const util = require('node:util');\n",
    "app/fs.ts": "import fs = require('./lib');\nexport const c = fs;\n",
}


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("scripts"), SCRIPTS)


def test_require_dynamic_and_side_effect_imports(scripts: Index) -> None:
    main = dependencies(scripts, "app/main.js")
    assert with_lines(main.imports) == [
        ("app/lazy.mjs", (4,)),
        ("app/lib/index.js", (3,)),
        ("app/polyfill.js", (1,)),
    ]
    # a package is external, not the workspace's variable named util
    assert [e.module for e in main.external] == ["util"]
    assert files(dependencies(scripts, "app/util.js").importers) == []
    assert files(dependencies(scripts, "app/fs.ts").imports) == [("app/lib/index.js", 1)]


LOOPS = {
    "loop/__init__.py": "",
    "loop/a.py": "from loop import b\nfrom loop import c\n",
    "loop/b.py": "from loop import d\n",
    "loop/c.py": "import loop.d\n",
    "loop/d.py": "from loop import e, f\n",
    "loop/e.py": "def g():\n    from loop import a\n",
    "loop/f.py": "from loop.a import *\n",
}


def test_cycles_take_the_way_back_networkx_would(tmp_path: Path) -> None:
    """Each import's shortest way back, of several equally short ones the one
    ``networkx.single_target_shortest_path`` picks (the reference implementation)."""
    import networkx as nx

    index = index_of_tree(tmp_path, LOOPS)
    found = dependencies(index, "loop/a.py")
    assert found.cycles == (
        ("loop/a.py", "loop/b.py", "loop/d.py", "loop/e.py"),
        ("loop/a.py", "loop/c.py", "loop/d.py", "loop/e.py"),
    )
    graph = import_graph(index)
    directed = nx.DiGraph()
    for source, targets in graph.imports.items():
        directed.add_edges_from((source, target) for target in targets)
    for key in sorted(directed):
        back = nx.single_target_shortest_path(directed, key, cutoff=CYCLE_HOPS)
        expected = {(key, *back[first][:-1]) for first in graph.imports[key] if first in back}
        assert dependencies(index, key).cycles == tuple(sorted(expected, key=lambda c: (len(c), c)))


def test_imports_are_read_alone_and_read_alike(tmp_path: Path) -> None:
    """A file's imports are decoded without its other references, and not kept; the
    answers are the same once every reference is decoded (usages asked first)."""
    index = index_of_tree(tmp_path, {**TREE, **LOOPS})
    before = {key: dependencies(index, key, depth=2) for key in sorted(index.files)}
    assert all(entry._references is None for entry in index.files.values())
    for entry in index.files.values():
        every = entry.references()
        assert entry.imports() == [r for r in every if r.kind is RefKind.IMPORT]
    again = index_of_tree(tmp_path / "again", {**TREE, **LOOPS})
    for entry in again.files.values():
        entry.references()
    assert {key: dependencies(again, key, depth=2) for key in sorted(again.files)} == before
