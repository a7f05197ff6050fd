"""JavaScript and TypeScript names bound by relative imports link to the module file
they name (`./models`, `./models.js` for models.ts, `./lib` for lib/index.ts), not to
every definition of the name in the workspace; package imports keep the bare name."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.graph.positions import definition_at
from tests.support.cli import write_tree
from tests.support.index import index_of_tree, links

FILES = {
    "src/models.ts": (
        "export class Order {\n  total(): number {\n    return 1;\n  }\n}\n\n"
        "export function price(): number {\n  return 2;\n}\n"
    ),
    "src/lib/index.ts": "export function helper(): number {\n  return 3;\n}\n",
    # namesakes elsewhere: a bare-name guess would link to these too
    "src/other.ts": (
        "export class Order {}\nexport function price() {}\nexport function helper() {}\n"
        "export function mapper() {}\nexport function keep() {}\n"
    ),
    # a barrel: names re-exported by name and with `export *`
    "src/ops/index.ts": 'export { mapper } from "./map";\nexport * from "./filter";\n',
    "src/ops/map.ts": "export function mapper(): number {\n  return 4;\n}\n",
    "src/ops/filter.ts": "export function keep(): number {\n  return 5;\n}\n",
    "src/app.ts": (
        'import { Order } from "./models";\n'
        'import * as m from "./models";\n'
        'import { price as cost } from "./models.js";\n'
        'import { helper } from "./lib";\n'
        'import { mapper, keep } from "./ops";\n'
        'import { Subject } from "rxjs";\n\n'
        "export function run(): void {\n"
        "  const order = new Order();\n"
        "  m.price();\n"
        "  cost();\n"
        "  helper();\n"
        "  mapper();\n"
        "  keep();\n"
        "  new Subject();\n"
        "}\n"
    ),
    "vendorish/rxjs.ts": "export class Subject {}\n",
}


@pytest.fixture
def index(tmp_path: Path) -> Index:
    root = write_tree(tmp_path / "ws", FILES)
    built, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False))
    return built


def calls_of(index: Index, source: str) -> dict[str, float]:
    return {
        dst: weight
        for src, dst, kind, weight in index.edges_by_file["src/app.ts"]
        if src == source and kind == EdgeKind.CALLS
    }


def test_relative_imports_link_to_the_module_they_name(index: Index) -> None:
    calls = calls_of(index, "src/app.ts::run#function")
    assert calls["src/models.ts::Order#class"] == 1.0  # import { Order } from "./models"
    assert calls["src/models.ts::price#function"] == 1.0  # m.price() and cost()
    assert calls["src/lib/index.ts::helper#function"] == 1.0  # "./lib" is lib/index.ts
    assert calls["src/ops/map.ts::mapper#function"] == 1.0  # through the barrel, by name
    assert calls["src/ops/filter.ts::keep#function"] == 1.0  # through its `export *`
    assert not any(dst.startswith("src/other.ts") for dst in calls)
    # A package import is not a file of the workspace: the bare name still links.
    assert "vendorish/rxjs.ts::Subject#class" in calls


def test_go_to_definition_on_an_import_opens_the_module(index: Index) -> None:
    found = definition_at(index, "src/app.ts", 1, 10)  # the `Order` in the import
    assert [t.symbol.symbol_id for t in found.targets] == ["src/models.ts::Order#class"]


def test_editing_a_barrel_relinks_its_importers_as_a_cold_build(
    index: Index, tmp_path: Path
) -> None:
    root = tmp_path / "ws"
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    barrel = root / "src" / "ops" / "index.ts"
    for text in (
        'export * from "./filter";\n',  # mapper no longer re-exported
        'export { mapper } from "./map";\n',  # the `export *` gone
        'export { mapper as mapper } from "./map";\nexport * from "./filter";\n',
    ):
        barrel.write_text(text)
        index, report = update_index(config, index=index)
        assert report.parsed == 1
        cold, _ = update_index(
            IndexConfig(roots=(root,), index_dir=tmp_path / f"cold-{len(text)}", progress=False)
        )
        assert sorted(index.edges_by_file["src/app.ts"]) == sorted(cold.edges_by_file["src/app.ts"])
    assert calls_of(index, "src/app.ts::run#function")["src/ops/filter.ts::keep#function"] == 1.0


COMMONJS = {
    "lib/compile.js": "function compile(text) {\n  return text;\n}\nmodule.exports = compile;\n",
    "lib/util.js": "exports.trim = function trim(s) {\n  return s;\n};\n",
    "lib/factory.js": "module.exports = class Factory {\n  make() {}\n};\n",
    "lib/index.js": (
        "var compile = require('./compile');\n"
        "var util = require('./util');\n"
        "const Factory = require('./factory');\n\n"
        "function build(src) {\n"
        "  new Factory();\n"
        "  return compile(util.trim(src));\n"
        "}\n"
        "module.exports = build;\n"
    ),
    # a namesake elsewhere: a bare-name guess could pick it
    "other/compile.js": "function compile() {}\n",
}


NAMED_REQUIRES = {
    "lib/utils.js": (
        "exports.compileETag = function (val) {\n  return val;\n};\n"
        "exports.parse = function (s) {\n  return s;\n};\n"
        "exports.format = function (s) {\n  return s;\n};\n"
    ),
    "lib/app.js": (
        "var compileETag = require('./utils').compileETag;\n"
        "const { parse, format: fmt } = require('./utils');\n\n"
        "function set(val) {\n  return fmt(parse(compileETag(val)));\n}\n"
        "module.exports = set;\n"
    ),
    "other/utils.js": "function parse() {}\n",  # a namesake a bare-name guess could pick
}


def test_commonjs_named_imports_link_to_the_required_exports(tmp_path: Path) -> None:
    """`var f = require('./m').f` and `const { f, g: h } = require('./m')` import m's
    exports by name, as `import { f, g as h } from './m'` does: calls reach them."""
    calls = links(index_of_tree(tmp_path, NAMED_REQUIRES), "lib/app.js", "lib/app.js::set#function")
    for name in ("compileETag", "parse", "format"):
        assert calls.get(f"lib/utils.js::exports.{name}#function") == 1.0, (name, calls)
    assert not any(dst.startswith("other/") for dst in calls)


def test_calls_through_a_require_alias_link_to_the_required_module(tmp_path: Path) -> None:
    """`var compile = require('./compile'); compile(x)` calls compile.js's function, not
    the local variable `compile` (the alias) nor a namesake elsewhere; a class assigned to
    `module.exports` is what `new Factory()` makes."""
    calls = links(index_of_tree(tmp_path, COMMONJS), "lib/index.js", "lib/index.js::build#function")
    assert calls.get("lib/compile.js::compile#function") == 1.0
    assert calls.get("lib/factory.js::module.exports.Factory#class") == 1.0
    assert "lib/index.js::compile#variable" not in calls
    assert not any(dst.startswith("other/") for dst in calls)
    assert any(dst.startswith("lib/util.js::") and "trim" in dst for dst in calls), calls


def test_a_modules_unbound_value_is_no_other_modules_name(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """zod's schemas linked 934 times to a test file's top-level `def`: a module's name
    that it neither defines nor imports is a global, not another module's variable; a
    script without imports may still share its globals."""
    index = index_of_tree(
        tmp_path_factory.mktemp("js_modules"),
        {
            "src/schema.ts": 'import { check } from "./check";\n\n'
            "export function parse(def: unknown) {\n  return check(def, options);\n}\n",
            "src/check.ts": "export function check(a: unknown, b: unknown) {\n"
            "  return a ?? b;\n}\n",
            "test/schema.test.ts": 'import { parse } from "../src/schema";\n\n'
            "const options = {};\nconst def = 1;\nparse(def);\n",
            "public/app.js": "function boot() {\n  return settings;\n}\n",
            "public/settings.js": "var settings = {};\n",
        },
    )
    assert links(index, "src/schema.ts", "src/schema.ts::parse#function") == {
        "src/check.ts::check#function": 1.0
    }
    assert "public/settings.js::settings#variable" in links(
        index, "public/app.js", "public/app.js::boot#function"
    )
