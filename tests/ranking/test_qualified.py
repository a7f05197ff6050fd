"""Qualified names in each language's own separators (issue 35, items 3 and 4): the parts
before the name say where it lives (a scope, a folder or file, a crate's own name), and
a call's arguments pick an overload; a qualified name inside a sentence leads too. On
tests/fixtures/qualified (Rust, PHP, Java, Zig)."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.api import SearchRequest, prepare
from symfuse.ranking.query import operations
from symfuse.ranking.query.parse import parse
from symfuse.ranking.search.plans import Shape
from symfuse.ranking.search.qualified import paired_name, qualified_matches, qualified_parts
from tests.support.index import index_of_fixture, index_of_tree


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("qualified"), "qualified")


def first(index: Index, query: str) -> tuple[str, str, int]:
    answer = operations.search(index, SearchRequest.from_mapping({"query": query, "limit": 5}))
    symbol = answer.items[0].symbol  # type: ignore[union-attr]
    return symbol.file, symbol.fqn, symbol.line


def test_the_parts_of_a_qualified_name() -> None:
    assert qualified_parts("serde_json::ser::Formatter") == (["serde_json", "ser"], "Formatter")
    assert qualified_parts("GuzzleHttp\\Client::send") == (["guzzlehttp", "client"], "send")
    assert qualified_parts("JsonWriter.value(double)") == (["jsonwriter"], "value")
    assert qualified_parts("conn->close") == (["conn"], "close")
    assert qualified_parts("Formatter") is None
    assert qualified_parts("a sentence") is None
    assert qualified_parts("$.foo") is None  # a JSON path's root: no word
    assert qualified_parts("1.5") is None


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        # a module that is a file: src/ser.rs; the crate's own name names nothing
        ("serde_json::ser::Formatter", ("src/ser.rs", "Formatter", 4)),
        # a crate's name before a name defined at top level and as a method: the function
        ("serde_json::from_str", ("src/de.rs", "from_str", 13)),
        # a Zig file is a struct: Uri.zig's resolveImport, not analysis.zig's
        ("Uri.resolveImport", ("zig/src/Uri.zig", "resolveImport", 3)),
        # PHP: the namespace's function, not the class's method of the same name
        ("GuzzleHttp\\json_decode", ("php/src/functions.php", "json_decode", 5)),
        ("GuzzleHttp\\Utils::json_decode", ("php/src/Utils.php", "Utils.json_decode", 12)),
        # a call's argument types pick the overload
        ("JsonWriter.value(double)", ("java/com/example/JsonWriter.java", "JsonWriter.value", 12)),
    ],
)
def test_a_qualified_name_finds_where_it_lives(
    index: Index, query: str, expected: tuple[str, str, int]
) -> None:
    assert first(index, query) == expected


def test_a_qualified_name_inside_a_sentence_leads(index: Index) -> None:
    assert first(index, "the serde_json::ser::Formatter trait") == ("src/ser.rs", "Formatter", 4)
    assert first(index, "how does JsonWriter.value(double) write a number") == (
        "java/com/example/JsonWriter.java",
        "JsonWriter.value",
        12,
    )


def test_a_qualifier_naming_nothing_takes_the_name_as_written(index: Index) -> None:
    prepared = prepare(index, None)

    def named(token: str) -> list[str]:
        found = qualified_matches(index, prepared, token, None).tolist()
        return [index.symbols[p].fqn for p in found]

    assert named("serde_json::from_str") == ["from_str"]
    assert named("Ecto.Formatter") == ["Formatter"]
    # the method written `formatter`, not the trait; nothing is written `FORMATTER`
    assert named("Ecto.formatter") == ["Serializer.formatter"]
    assert named("Ecto.FORMATTER") == []


def test_two_names_side_by_side_are_a_scope_and_its_member(index: Index) -> None:
    assert paired_name("basic_memory_buffer grow") == "basic_memory_buffer.grow"
    assert paired_name("Deserializer  from_str ") == "Deserializer.from_str"
    assert paired_name("parse the header") is None
    # the method of Deserializer, not the crate's function of that name
    assert first(index, "Deserializer from_str") == ("src/de.rs", "Deserializer.from_str", 8)
    # Serializer has no from_str: the order is the words' own
    assert first(index, "Serializer from_str") == ("src/de.rs", "from_str", 13)


def test_a_macro_named_as_it_is_invoked_comes_first(index: Index) -> None:
    # src/macros.rs (serde_json's): `json!` names the macro, which no sentence ranks by its
    # words (macros are not among the kinds a sentence describes)
    query = "how does the json! literal macro expand objects and arrays"
    answer = operations.search(index, SearchRequest.from_mapping({"query": query, "limit": 3}))
    top = answer.items[0]  # type: ignore[union-attr]
    assert (top.symbol.file, top.symbol.fqn, top.symbol.kind.value) == (
        "src/macros.rs",
        "json",
        "macro",
    )
    assert top.boost is not None


def test_a_member_the_qualifiers_type_inherits_leads(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """`Flask.register` where Flask inherits `register` from App: App's, not the more
    central `Blueprint.register`; the nearest supertype's over a farther one's; a type's
    own member over an inherited one."""
    index = index_of_tree(
        tmp_path_factory.mktemp("inherited"),
        {
            "web/sansio/base.py": "class Base:\n    def register(self, bp):\n        return 0\n",
            "web/sansio/app.py": "from web.sansio.base import Base\n\n\nclass App(Base):\n"
            "    def register(self, bp):\n        return bp\n\n    def run(self):\n"
            "        return 1\n",
            "web/sansio/blueprints.py": "class Blueprint:\n    def register(self, app):\n"
            "        return app\n\n\ndef setup(b: Blueprint):\n    b.register(1)\n"
            "    b.register(2)\n    b.register(3)\n",
            "web/flask.py": "from web.sansio.app import App\n\n\nclass Flask(App):\n"
            "    def run(self):\n        return 2\n",
        },
    )
    assert first(index, "Flask.register")[1] == "web.sansio.app.App.register"
    assert first(index, "Flask.run")[1] == "web.flask.Flask.run"
    assert first(index, "App.register")[1] == "web.sansio.app.App.register"


def test_a_go_method_the_struct_embeds_leads(tmp_path_factory: pytest.TempPathFactory) -> None:
    from tests.ranking.test_targets import GO_EMBEDDING

    index = index_of_tree(tmp_path_factory.mktemp("embedded"), GO_EMBEDDING)
    assert first(index, "Engine.GET")[1] == "RouterGroup.GET"


# A workspace of two Rust crates (a struct with impl blocks, fields and a method named like
# it), a Lua class, and Ruby classes reopened by their qualified name.
WRITTEN_FORMS = {
    "crates/searcher/src/searcher/mod.rs": "pub struct Searcher {\n    config: u8,\n}\n\n"
    "impl Searcher {\n    pub fn new() -> Searcher {\n        Searcher { config: 0 }\n    }\n}\n\n"
    "impl Clone for Searcher {\n    fn clone(&self) -> Searcher {\n        Searcher::new()\n"
    "    }\n}\n",
    "crates/core/search.rs": "pub struct SearchWorker {\n    searcher: u8,\n}\n\n"
    "impl SearchWorker {\n    pub fn searcher(&self) -> u8 {\n        self.searcher\n    }\n}\n",
    "lua/telescope/pickers.lua": "local Picker = {}\n\nfunction Picker:new(opts)\n"
    "  return setmetatable(opts, self)\nend\n\nfunction Picker:find()\n  return self\nend\n\n"
    "local function find_files(opts)\n  return Picker:new(opts):find()\nend\n\n"
    "return { Picker = Picker, find_files = find_files }\n",
    "lib/web/base.rb": "module Web\n  class Base\n    def call(env)\n      env\n    end\n\n"
    "    def merge(other)\n      other\n    end\n\n    def merge!(other)\n      other\n    end\n"
    "\n    def include?(key)\n      key\n    end\n  end\nend\n",
    "src/main/java/org/webclient/Webclient.java": "package org.webclient;\n\n"
    "public class Webclient {\n    private Webclient() {\n    }\n\n"
    "    public static Webclient connect(String url) {\n        return new Webclient();\n"
    "    }\n}\n",
    "src/main/java/org/net/Connection.java": "package org.net;\n\npublic interface Connection {\n"
    "    enum Method {\n        GET(false), POST(true);\n\n        private final boolean body;\n\n"
    "        Method(boolean body) {\n            this.body = body;\n        }\n    }\n\n"
    "    Connection method(Method method);\n}\n",
    "lib/web/token.ex": 'defmodule Web.Token do\n  @moduledoc """\n  Signs data into tokens.\n'
    '  """\n\n  def sign(data), do: data\nend\n',
    "lib/web/socket.ex": 'defmodule Web.Socket do\n  @doc "The token of a socket: signs data for '
    'clients."\n  def token(socket), do: socket\nend\n',
    "src/Text/Doc/Char.hs": "-- | Characters of a document.\n"
    "module Text.Doc.Char (isBlank) where\n\nisBlank :: Char -> Bool\nisBlank c = c == ' '\n",
    "src/Text/Doc/Sources.hs": "module Text.Doc.Sources (char) where\n\n-- | A character of a "
    "document's sources.\nchar :: Char -> Char\nchar c = c\n",
    # a library whose namespace a macro opens, and an old copy of it kept for a test
    "include/lib/json.hpp": "LIB_BEGIN_NAMESPACE\nclass basic_json {\n  int size() const;\n};\n"
    "LIB_END_NAMESPACE\n",
    "tests/abi/include/lib/json_v1.hpp": "namespace lib {\nclass basic_json {\n"
    "  int size() const;\n};\n}\n",
    "test/test_helper.rb": "class Web::Base\n  def settings\n    1\n  end\nend\n\n"
    "class ::Web::Helpers::Testing\nend\n",
}


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("written"), WRITTEN_FORMS)


def test_a_crates_package_name_names_its_folder(written: Index) -> None:
    """`grep_searcher::Searcher`: the crate is `crates/searcher`; the struct and its impl
    blocks are one definition, chosen ahead of fields and methods named `searcher`."""
    found = qualified_matches(written, prepare(written, None), "grep_searcher::Searcher", None)
    chosen = [written.symbols[p] for p in found.tolist()]
    crate = "crates/searcher/src/searcher/mod.rs"
    assert {(s.file, s.fqn) for s in chosen} == {(crate, "Searcher")}
    assert len(chosen) == 3  # the struct and its two impl blocks
    assert first(written, "grep_searcher::Searcher") == (
        "crates/searcher/src/searcher/mod.rs",
        "Searcher",
        1,
    )


def test_a_lua_method_written_with_a_colon(written: Index) -> None:
    parsed = parse(SearchRequest.from_mapping({"query": "Picker:find"}))
    assert (parsed.subject, parsed.shape) == ("Picker.find", Shape.DOTTED)
    assert first(written, "Picker:find")[:2] == ("lua/telescope/pickers.lua", "Picker.find")
    assert first(written, "Picker:new")[:2] == ("lua/telescope/pickers.lua", "Picker.new")
    for other in ("shop.py:12", "a::b", "std::io"):  # a place in a file, paths of names
        assert parse(SearchRequest.from_mapping({"query": other})).subject == other


def test_a_ruby_class_reopened_by_its_qualified_name(written: Index) -> None:
    """`class Web::Base` in a test helper is Base in Web, as the library's is: the
    library's comes first."""
    reopened = [s for s in written.symbols if s.file == "test/test_helper.rb"]
    assert [(s.name, s.fqn) for s in reopened if s.kind.value == "class"] == [
        ("Base", "Web.Base"),
        ("Testing", "Web.Helpers.Testing"),
    ]
    assert first(written, "Web::Base")[:2] == ("lib/web/base.rb", "Web.Base")


def test_the_products_definition_before_a_tests_copy(written: Index) -> None:
    """`lib::basic_json`: the test's old copy shows the namespace, the library's (opened by
    a macro) does not; the library's is the one asked for."""
    assert first(written, "lib::basic_json")[0] == "include/lib/json.hpp"


def test_a_class_before_its_constructor(written: Index) -> None:
    """`org.webclient.Webclient` (jsoup's `org.jsoup.Jsoup`): the class, not its
    constructor `Webclient.Webclient`, whose class name read as the package's."""
    assert first(written, "org.webclient.Webclient")[1:] == ("Webclient", 3)


def test_a_type_nested_in_an_interface_is_no_declaration(written: Index) -> None:
    """jsoup's `Connection.Method`: the enum an interface holds, before its constructor
    and the interface's `method`."""
    assert first(written, "Connection.Method")[1:] == ("Connection.Method", 4)
    assert first(written, "org.net.Connection.Method")[1:] == ("Connection.Method", 4)


def test_a_module_named_by_its_dotted_path_in_a_sentence(written: Index) -> None:
    """Elixir's and Haskell's modules are named whole (`Web.Token`): written in a
    sentence, the module leads, not a function named like its last part."""
    assert first(written, "Web.Token signs data for clients")[:2] == (
        "lib/web/token.ex",
        "Web.Token",
    )
    assert first(written, "Text.Doc.Char characters of a document")[0] == "src/Text/Doc/Char.hs"


def test_a_name_ending_in_a_bang_or_a_question_mark(written: Index, index: Index) -> None:
    """Ruby's `merge!` and `include?`, a Rust macro's `json!` (Elixir's `execute!` too): names as
    written, not keywords."""
    assert first(written, "Web::Base#merge!")[1] == "Web.Base.merge!"
    assert first(written, "merge!")[1] == "Web.Base.merge!"
    assert first(written, "Web::Base#include?")[1] == "Web.Base.include?"
    assert first(index, "json!")[:2] == ("src/macros.rs", "json")


def test_a_member_named_as_written_before_names_that_only_spell_it(tmp_path: Path) -> None:
    """A qualified name whose last part is the member's name as written is that member:
    `JsonFactory.builder` is the method, not the class `JsonFactoryBuilder` (the parts
    run together); `Thor#options` the method, not the class `Thor::Options` (another
    case), which `Thor::Options` still finds first."""
    index = index_of_tree(
        tmp_path,
        {
            "factory/JsonFactory.java": (
                "package factory;\n\npublic class JsonFactory {\n"
                "    public static JsonFactoryBuilder builder() {\n"
                "        return new JsonFactoryBuilder();\n    }\n}\n"
            ),
            "factory/JsonFactoryBuilder.java": (
                "package factory;\n\npublic class JsonFactoryBuilder {\n"
                "    public JsonFactory build() {\n        return new JsonFactory();\n    }\n}\n"
            ),
            "lib/thor.rb": "class Thor\n  def options\n    @options ||= {}\n  end\nend\n",
            "lib/thor/options.rb": "class Thor\n  class Options\n    def parse; end\n  end\nend\n",
        },
    )
    assert first(index, "JsonFactory.builder")[:2] == (
        "factory/JsonFactory.java",
        "JsonFactory.builder",
    )
    assert first(index, "Thor#options")[:2] == ("lib/thor.rb", "Thor.options")
    assert first(index, "Thor::Options")[:2] == ("lib/thor/options.rb", "Thor.Options")


def test_a_rust_files_folders_are_its_modules(tmp_path: Path) -> None:
    """`tokio::sync::Mutex` is the Mutex of tokio/src/sync/mutex.rs (module `sync` by its
    folder), not the one an inline `mod sync` of loom's mock declares."""
    index = index_of_tree(
        tmp_path,
        {
            "tokio/src/sync/mutex.rs": "/// An async lock.\npub struct Mutex<T: ?Sized> {\n"
            "    c: std::cell::UnsafeCell<T>,\n}\n",
            "tokio/src/loom/mocked.rs": "pub(crate) mod sync {\n"
            "    pub(crate) struct Mutex<T>(loom::sync::Mutex<T>);\n}\n",
        },
    )
    assert first(index, "tokio::sync::Mutex")[:2] == ("tokio/src/sync/mutex.rs", "Mutex")
