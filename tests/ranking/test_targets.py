"""One resolution of a target for every operation (issue 36, item 5): what a name means
when one definition goes by several symbols."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.ranking.graph.targets import AmbiguousTarget, resolve_target
from tests.support.index import index_of_fixture, index_of_tree


def test_a_rust_type_and_its_impl_blocks_are_the_type(tmp_path: Path) -> None:
    index = index_of_fixture(tmp_path, "usages_truth/rust")
    found = resolve_target(index, "Error")
    assert not isinstance(found, str)
    assert (found.symbol_id, found.kind) == ("src/error.rs::Error#enum", Kind.ENUM)


def test_a_java_class_and_its_constructor_are_the_class(tmp_path: Path) -> None:
    index = index_of_fixture(tmp_path, "usages_truth/java")
    found = resolve_target(index, "ParseException")
    assert not isinstance(found, str)
    assert found.kind is Kind.CLASS


def test_candidates_name_themselves_alone(tmp_path: Path) -> None:
    """Each candidate's target resolves to that candidate: a qualified name where one
    is unique, else path:line."""
    index = index_of_fixture(tmp_path, "usages_truth/python")
    with pytest.raises(AmbiguousTarget) as raised:
        resolve_target(index, "get")
    candidates = raised.value.candidates
    assert [c.target for c in candidates] == ["Client.get", "AsyncClient.get", "Headers.get"]
    for c in candidates:
        again = resolve_target(index, c.target)
        assert not isinstance(again, str)
        assert again.symbol_id == c.symbol_id


def test_code_is_meant_rather_than_a_heading_or_key_of_its_name(tmp_path: Path) -> None:
    """An Elixir library's README is titled with its module's name: the module is meant."""
    index = index_of_tree(
        tmp_path,
        {
            "README.md": "# Pool\n\nA pool of connections.\n",
            "config.yaml": "Pool:\n  size: 4\n",
            "lib/pool.ex": "defmodule Pool do\n  def checkout(pool), do: pool\nend\n",
        },
    )
    found = resolve_target(index, "Pool")
    assert not isinstance(found, str)
    assert (found.symbol_id, found.kind) == ("lib/pool.ex::Pool#module", Kind.MODULE)
    heading = resolve_target(index, "README.md:1")
    assert not isinstance(heading, str)
    assert heading.kind is Kind.HEADING  # named by its place, a heading is still found


def test_a_name_only_documents_give_is_still_found(tmp_path: Path) -> None:
    index = index_of_tree(tmp_path, {"README.md": "# Install\n\nRun it.\n", "a.py": "x = 1\n"})
    found = resolve_target(index, "Install")
    assert not isinstance(found, str)
    assert found.kind is Kind.HEADING


def test_a_c_typedef_of_a_struct_of_its_name_is_the_struct(tmp_path: Path) -> None:
    index = index_of_tree(
        tmp_path,
        {
            "ctx.h": "typedef struct ctx {\n    int fd;\n} ctx;\n"
            "typedef struct other_s { int x; } other_t;\n",
            "use.c": '#include "ctx.h"\nint fd_of(ctx *c) { return c->fd; }\n',
        },
    )
    found = resolve_target(index, "ctx")
    assert not isinstance(found, str)
    assert found.kind is Kind.STRUCT
    alias = resolve_target(index, "other_t")  # a typedef of another name stays itself
    assert not isinstance(alias, str)
    assert (alias.name, alias.kind) == ("other_t", Kind.TYPE)


def test_usages_of_an_overloaded_method_cover_every_overload(tmp_path: Path) -> None:
    """`Printer.print` names three overloads: their usages together (each says which it
    reaches); a name of different things (a class and a function) is still refused."""
    from symfuse.ranking.query import operations
    from symfuse.ranking.query.analysis_requests import ImpactRequest
    from symfuse.ranking.query.requests import UsagesRequest

    index = index_of_tree(
        tmp_path,
        {
            "src/Printer.java": "public class Printer {\n"
            "  public void print(int n) { }\n"
            "  public void print(String s) { }\n"
            "  public void print(int n, String s) { print(n); print(s); }\n"
            "}\n",
            "src/Main.java": "public class Main {\n"
            '  public static void main(String[] a) { new Printer().print(1, "x"); }\n'
            "}\n",
        },
    )
    found = operations.usages(index, UsagesRequest(target="Printer.print"))
    assert found.target_count == 3
    assert sorted(u.line for u in found.usages) == [2, 4, 4]
    changed = operations.impact(index, ImpactRequest(target="Printer.print")).changed
    assert len(changed) == 3  # a change to any of them
    with pytest.raises(AmbiguousTarget):
        resolve_target(index_of_tree(tmp_path / "b", TWO_THINGS), "Render")


TWO_THINGS = {
    "a.py": "class Render:\n    pass\n",
    "b.py": "def Render():\n    return 1\n",
}


CPP_OVERLOADS = {
    "include/format.h": "#include <string>\n"
    "std::string vformat(const char* fmt);\n"
    "inline std::string vformat(const char* fmt) { return std::string(fmt); }\n"
    "inline std::string format(const char* fmt) { return vformat(fmt); }\n",
    "include/xchar.h": "#include <string>\n"
    "inline std::wstring vformat(const wchar_t* fmt) { return std::wstring(fmt); }\n"
    "inline std::wstring wformat(const wchar_t* fmt) { return vformat(fmt); }\n",
}


def test_callers_of_cpp_overloads_in_several_headers_cover_each(tmp_path: Path) -> None:
    """C++'s ``vformat`` for narrow strings in one header and wide ones in another: the
    callers (and the usages) of both, each row saying which it reaches; C's functions of
    one name in two files stay two things."""
    from symfuse.ranking.query import operations
    from symfuse.ranking.query.requests import CallsRequest, UsagesRequest

    index = index_of_tree(tmp_path, CPP_OVERLOADS)
    found = operations.callers(index, CallsRequest(target="vformat"))
    assert 1 + len(found.overloads) == 2
    assert {(e.symbol.name, e.via.split("::")[0]) for e in found.items} == {
        ("format", "include/format.h"),
        ("wformat", "include/xchar.h"),
    }
    callees = operations.callees(index, CallsRequest(target="vformat"))
    assert callees.items == ()
    assert operations.usages(index, UsagesRequest(target="vformat")).target_count == 2
    helpers = {
        "a.c": "static int helper(void) { return 1; }\nint a(void) { return helper(); }\n",
        "b.c": "static int helper(void) { return 2; }\nint b(void) { return helper(); }\n",
    }
    with pytest.raises(AmbiguousTarget):
        operations.callers(index_of_tree(tmp_path / "c", helpers), CallsRequest(target="helper"))


def test_import_bindings_do_not_make_a_name_ambiguous(tmp_path: Path) -> None:
    """Zig's `const Store = @import("Store.zig")` in each user file and CommonJS's
    `var parse = require('./m').parse` stand for what they import: `Store` is the file's
    struct, `parse` m.js's function; each is also named by its file (`Store.open`,
    `m.parse`), the way its users write it."""
    index = index_of_tree(
        tmp_path,
        {
            "src/Store.zig": "const Store = @This();\npub fn open(self: *Store) void {\n"
            "    _ = self;\n}\n",
            "src/server.zig": 'const Store = @import("Store.zig");\n'
            "pub fn serve(s: *Store) void {\n    s.open();\n}\n",
            "src/hover.zig": 'const Store = @import("Store.zig");\n',
            "lib/m.js": "exports.parse = function parse(text) { return text; };\n",
            "lib/app.js": "var parse = require('./m').parse;\nparse('x');\n",
        },
    )
    assert resolved_ids(index, "Store", "Store.open", "parse", "m.parse") == {
        "Store": "src/Store.zig::Store#struct",
        "Store.open": "src/Store.zig::open#function",
        "parse": "lib/m.js::exports.parse#function",
        "m.parse": "lib/m.js::exports.parse#function",
    }


def test_a_definition_compiled_or_declared_in_two_forms_is_one(tmp_path: Path) -> None:
    """luarocks keeps each module as Teal source and the Lua compiled from it, and
    declares some in `.d.tl`: a name they share means the form its uses reach (a
    `require` loads the `.lua`), not two definitions."""
    module = "local fetch = {}\nfunction fetch.sources(url)\n  return url\nend\nreturn fetch\n"
    index = index_of_tree(
        tmp_path,
        {
            "src/fetch.tl": module,
            "src/fetch.lua": module,
            "src/fs.d.tl": "local fs = record\n  make_dir: function(string): boolean\nend\n"
            "return fs\n",
            "src/fs.lua": "local fs = {}\nfunction fs.make_dir(d)\n  return true\nend\nreturn fs\n",
            "src/main.lua": 'local fetch = require("fetch")\nlocal fs = require("fs")\n'
            'fetch.sources("x")\nfs.make_dir("y")\n',
        },
    )
    for target, file in (("fetch.sources", "src/fetch.lua"), ("fs", "src/fs.lua")):
        found = resolve_target(index, target)
        assert not isinstance(found, str)
        assert found.file == file, target


RUST_NAMES = {
    "src/value/mod.rs": "pub enum Value {\n    Null,\n    Number(Number),\n}\n",
    "src/number.rs": "pub struct Number {\n    n: f64,\n}\n\nimpl Number {\n"
    "    pub fn from_f64(f: f64) -> Option<Number> {\n        Some(Number { n: f })\n    }\n}\n",
    "src/de.rs": "struct NumberVisitor;\n\nimpl<'de> Visitor<'de> for NumberVisitor {\n"
    "    type Value = Number;\n    fn visit_f64(self, f: f64) -> Number {\n"
    "        Number::from_f64(f).unwrap()\n    }\n}\n\nstruct ValueVisitor;\n\n"
    "impl<'de> Visitor<'de> for ValueVisitor {\n    type Value = Value;\n}\n",
}


def test_rust_paths_and_a_type_over_associated_types(tmp_path: Path) -> None:
    """`Number::from_f64` and `value::Value` as Rust writes them; a bare `Value` is the
    enum, not each impl's `type Value = ...`."""
    index = index_of_tree(tmp_path, RUST_NAMES)
    assert resolved_ids(index, "Number::from_f64", "value::Value", "Value") == {
        "Number::from_f64": "src/number.rs::Number.from_f64#method",
        "value::Value": "src/value/mod.rs::Value#enum",
        "Value": "src/value/mod.rs::Value#enum",
    }


def test_a_go_name_qualified_by_its_package(tmp_path: Path) -> None:
    """Go code names another package's definitions by the package: `cobra.Command` for
    the repository root's `package cobra`, `doc.GenMarkdown` for a folder's."""
    index = index_of_tree(
        tmp_path,
        {
            "command.go": "package cobra\n\ntype Command struct{}\n\n"
            "func (c *Command) Execute() error { return nil }\n",
            "doc/md_docs.go": "package doc\n\nfunc GenMarkdown() error { return nil }\n",
        },
    )
    assert resolved_ids(index, "cobra.Command", "cobra.Command.Execute", "doc.GenMarkdown") == {
        "cobra.Command": "command.go::Command#struct",
        "cobra.Command.Execute": "command.go::Command.Execute#method",
        "doc.GenMarkdown": "doc/md_docs.go::GenMarkdown#function",
    }


def resolved_ids(index: Index, *targets: str) -> dict[str, str | None]:
    """Each target's symbol id (None for a file)."""
    return {t: getattr(resolve_target(index, t), "symbol_id", None) for t in targets}


def test_names_as_each_language_writes_them(tmp_path: Path) -> None:
    """Ruby's `Rack::Request#params` (no symbol id), PHP's `GuzzleHttp\\Client::send`
    and `->send` (no Windows path), Java's package (`com.acme.Shop.total`), a Python
    package's public path over its private module (`shop.Client.send`), Elixir's arity
    (`Shop.Cart.add/2`)."""
    index = index_of_tree(
        tmp_path,
        {
            "lib/rack/request.rb": "module Rack\n  class Request\n    def params\n"
            "      {}\n    end\n  end\nend\n",
            "src/Client.php": "<?php\nnamespace GuzzleHttp;\n\nclass Client\n{\n"
            "    public function send($request) { return $request; }\n}\n",
            "src/main/java/com/acme/Shop.java": "package com.acme;\n\npublic class Shop {\n"
            "  public int total() { return 1; }\n}\n",
            "shop/__init__.py": "from shop._client import Client\n",
            "shop/_client.py": "class Client:\n    def send(self, request):\n"
            "        return request\n",
            "lib/cart.ex": "defmodule Shop.Cart do\n  def add(cart, item), do: [item | cart]\n"
            "end\n",
        },
    )
    assert resolved_ids(
        index,
        "Rack::Request#params",
        "GuzzleHttp\\Client::send",
        "GuzzleHttp\\Client->send",
        "com.acme.Shop.total",
        "shop.Client.send",
        "Shop.Cart.add/2",
    ) == {
        "Rack::Request#params": "lib/rack/request.rb::Rack.Request.params#method",
        "GuzzleHttp\\Client::send": "src/Client.php::Client.send#method",
        "GuzzleHttp\\Client->send": "src/Client.php::Client.send#method",
        "com.acme.Shop.total": "src/main/java/com/acme/Shop.java::Shop.total#method",
        "shop.Client.send": "shop/_client.py::Client.send#method",
        "Shop.Cart.add/2": "lib/cart.ex::Shop.Cart.add#function",
    }


def test_one_type_declared_in_several_places(tmp_path: Path) -> None:
    """A Scala class and its companion object, Kotlin's `expect` class and its `actual`
    per platform (members too), a Swift type's methods over its extensions, a Ruby class
    reopened in another file: usages take them together, the type hierarchy takes the
    class (the most linked declaration)."""
    from symfuse.ranking.query import operations
    from symfuse.ranking.query.requests import HierarchyRequest, UsagesRequest

    index = index_of_tree(
        tmp_path,
        {
            "os/Path.scala": "package os\n\nobject Path {\n  def apply(s: String): Path = "
            "new Path(s)\n}\n\nclass Path(val s: String)\n",
            "os/Main.scala": 'package os\n\nobject Main {\n  val p: Path = Path("x")\n}\n',
            "commonMain/okio/Buffer.kt": "package okio\n\nexpect class Buffer() {\n"
            "  fun readUtf8(): String\n}\n",
            "jvmMain/okio/Buffer.kt": "package okio\n\nactual class Buffer actual constructor() {\n"
            '  actual fun readUtf8(): String = ""\n}\n',
            "Source/Request.swift": "class DataRequest {\n"
            "    func validate() -> Self { self }\n}\n",
            "Source/Validation.swift": "extension DataRequest {\n"
            "    func validate(statusCode: Int) -> Self { self }\n}\n",
            # a Ruby class reopened in another file (sinatra's Application)
            "lib/app/base.rb": "module App\n  class Base\n  end\n\n"
            "  class Application < Base\n    def run!; end\n  end\nend\n",
            "lib/app/main.rb": "module App\n  class Application\n    def main?; end\n"
            "  end\nend\nApp::Application.run!\n",
        },
    )
    for target, count in (("os.Path", 2), ("Buffer.readUtf8", 2), ("DataRequest.validate", 2)):
        assert operations.usages(index, UsagesRequest(target=target)).target_count == count
    root = operations.hierarchy(index, HierarchyRequest(target="os.Path")).root
    assert (root.symbol_id, root.kind) == ("os/Path.scala::Path#class", Kind.CLASS)
    assert operations.usages(index, UsagesRequest(target="App::Application")).target_count == 2
    ruby = operations.hierarchy(index, HierarchyRequest(target="App::Application"))
    assert ruby.root.symbol_id == "lib/app/base.rb::App.Application#class"
    assert [s.name for s in ruby.supertypes] == ["Base"]


def test_a_use_split_between_overloads_is_a_use_of_them(tmp_path: Path) -> None:
    """MediatR's `IRequestHandler<TRequest>` and `IRequestHandler<TRequest, TResponse>`:
    the resolver cannot tell which one `: IRequestHandler<Ping, Pong>` implements and
    links both, each half as surely; asked for together, it is a sure use of them."""
    from symfuse.ranking.query import operations
    from symfuse.ranking.query.requests import UsagesRequest

    index = index_of_tree(
        tmp_path,
        {
            "src/IRequestHandler.cs": "namespace MediatR;\n\n"
            "public interface IRequestHandler<in TRequest, TResponse> { }\n\n"
            "public interface IRequestHandler<in TRequest> { }\n",
            "src/PingHandler.cs": "namespace MediatR.Examples;\n\n"
            "public class PingHandler : IRequestHandler<Ping, Pong> { }\n",
        },
    )
    found = operations.usages(index, UsagesRequest(target="IRequestHandler"))
    assert found.target_count == 2
    assert [(u.file, u.line) for u in found.usages] == [("src/PingHandler.cs", 3)]


def test_members_give_way_to_top_level_types_of_their_name(tmp_path: Path) -> None:
    """zod's `ZodString`: a class in v3, an interface in v4, and an enum member: the
    choice offered is between the two types."""
    index = index_of_tree(
        tmp_path,
        {
            "v3/types.ts": "export class ZodString {}\n"
            "export enum ZodFirstPartyTypeKind {\n  ZodString = 'ZodString',\n}\n",
            "v4/schemas.ts": "export interface ZodString {\n  min(n: number): ZodString;\n}\n",
        },
    )
    with pytest.raises(AmbiguousTarget) as raised:
        resolve_target(index, "ZodString")
    assert sorted(c.kind for c in raised.value.candidates) == ["class", "interface"]


def test_a_member_a_type_inherits_is_its_nearest_supertypes(tmp_path: Path) -> None:
    """`Flask.register_blueprint` where Flask inherits it from App: App's method; an
    override is the subclass's own; the nearest supertype that defines it wins; a name no
    supertype defines is still not found (Python, Java)."""
    index = index_of_tree(
        tmp_path,
        {
            "app/base.py": "class App:\n    def register(self, bp):\n        return bp\n\n"
            "    def run(self):\n        return 0\n",
            "app/flask.py": "from app.base import App\n\n\nclass Flask(App):\n"
            "    def run(self):\n        return 1\n\n\nclass Quart(Flask):\n    pass\n",
            "src/Shape.java": "class Shape {\n  int area() { return 0; }\n}\n"
            "class Square extends Shape {\n}\n",
        },
    )
    assert resolved_ids(index, "Flask.register", "Quart.run", "Flask.run", "Square.area") == {
        "Flask.register": "app/base.py::App.register#method",
        "Quart.run": "app/flask.py::Flask.run#method",
        "Flask.run": "app/flask.py::Flask.run#method",
        "Square.area": "src/Shape.java::Shape.area#method",
    }
    with pytest.raises(NotFound):
        resolve_target(index, "Quart.stop")


GO_EMBEDDING = {
    "go.mod": "module example.com/web\n\ngo 1.22\n",
    "routes.go": "package web\n\ntype IRoutes interface {\n\tGET(path string) IRoutes\n}\n\n"
    "type RouterGroup struct {\n\tbase string\n}\n\n"
    "func (g *RouterGroup) GET(path string) IRoutes {\n\treturn g\n}\n",
    "engine.go": "package web\n\ntype Engine struct {\n\tRouterGroup\n\tname string\n}\n\n"
    "func New() *Engine {\n\treturn &Engine{}\n}\n",
}


def test_a_go_struct_embeds_its_bases(tmp_path: Path) -> None:
    """`type Engine struct { RouterGroup }`: Engine's base is the struct RouterGroup (not
    its embedded field, named after it), and `Engine.GET` is RouterGroup's method rather
    than the interface's declaration it implements."""
    from symfuse.ranking.graph.hierarchy import supertypes

    index = index_of_tree(tmp_path, GO_EMBEDDING)
    engine = index.get("engine.go::Engine#struct")
    assert engine is not None
    assert engine.extends == ("RouterGroup",)
    bases = [
        (link.name, link.symbol and link.symbol.symbol_id) for link in supertypes(index, engine)
    ]
    assert bases == [("RouterGroup", "routes.go::RouterGroup#struct")]
    assert resolved_ids(index, "Engine.GET") == {"Engine.GET": "routes.go::RouterGroup.GET#method"}


def test_a_rust_type_inherits_its_traits_default_methods(tmp_path: Path) -> None:
    """`impl Formatter for CompactFormatter {}`: `CompactFormatter.write_null` is the
    trait's default method; `PrettyFormatter.write_null`, which its impl defines, its own."""
    index = index_of_tree(
        tmp_path,
        {
            "src/lib.rs": "pub trait Formatter {\n    fn write_null(&mut self) {}\n}\n\n"
            "pub struct CompactFormatter;\n\nimpl Formatter for CompactFormatter {}\n\n"
            "pub struct PrettyFormatter;\n\nimpl Formatter for PrettyFormatter {\n"
            "    fn write_null(&mut self) {}\n}\n",
        },
    )
    compact = resolve_target(index, "CompactFormatter.write_null")
    pretty = resolve_target(index, "PrettyFormatter.write_null")
    assert getattr(compact, "symbol_id", None) == "src/lib.rs::Formatter.write_null#method"
    assert getattr(pretty, "line", None) == 12


def test_a_cpp_namespace_a_macro_opens_is_no_part_of_the_name(tmp_path: Path) -> None:
    """fmt opens ``namespace fmt`` with ``FMT_BEGIN_NAMESPACE`` (blanked before the
    parse), so its definitions are ``format_to`` and ``detail.write``; an agent asking
    for ``fmt::format_to`` or ``fmt::detail::write`` as the code writes them got "no
    definition named". ``std::`` names stay the library's."""
    files = {
        "include/lib/base.h": "#define LIB_BEGIN_NAMESPACE namespace lib {\n"
        "#define LIB_END_NAMESPACE }\nLIB_BEGIN_NAMESPACE\n"
        "namespace detail {\ninline int write(int x) { return x; }\n}\n"
        "inline int format_to(int x) { return detail::write(x); }\n"
        "class vector { public: int size() const { return 0; } };\nLIB_END_NAMESPACE\n",
    }
    index = index_of_tree(tmp_path, files)
    assert resolve_target(index, "lib::format_to").fqn == "format_to"
    assert resolve_target(index, "lib::detail::write").fqn == "detail.write"
    assert resolve_target(index, "lib::vector::size").fqn == "vector.size"
    with pytest.raises(NotFound):
        resolve_target(index, "std::vector")
