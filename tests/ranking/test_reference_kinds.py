"""References that are easy to miss, each found by ``find_usages`` (issue 17): annotations,
exception classes, objects used before a dot, bare values, re-exports, module aliases
and TypeScript generics. Comments and strings that mention a name are not references."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.graph.usages import find_usages
from tests.support.index import index_of_tree

PYTHON = {
    "pkg/__init__.py": "from .mod import Foo as Foo\nfrom . import helpers\n",
    "pkg/mod.py": """\
from typing import Callable, Optional


class Foo:
    pass


class BadThing(Exception):
    pass


class OtherError(Exception):
    pass


class Registry:
    def items(self):
        return []


registry = Registry()


def handler():
    return 1


def use_all(session, x: Foo | None, y: Optional[Foo], z: Callable[..., Foo], w: "Foo"):
    registry.items()
    if session:
        return handler
    pair = (handler, Foo)
    listing = [handler]
    run(callback=handler)
    try:
        pass
    except BadThing:
        raise OtherError
    except (OtherError, BadThing) as error:
        pass
    # Foo mentioned in a comment
    return "Foo in a string"
""",
    "pkg/helpers.py": "import pkg.mod as m\n\n\ndef go():\n    return m.handler()\n",
    "web/mod.ts": "export class Foo {\n  size(): number { return 1; }\n}\n",
    "web/index.ts": "export { Foo } from './mod';\n",
    "web/use.ts": """\
import { Foo } from './index';

export function make(items: Array<Foo>, m: Map<string, Foo>): Promise<Foo> {
  return Promise.resolve(new Foo());
}
""",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("refs"), PYTHON)


def places(index: Index, name: str, file: str) -> list[tuple[int, str]]:
    result = find_usages(index, name=name, file=file)
    return sorted((u.line, u.kind) for u in result.usages if u.file == file)


def test_annotations_of_every_shape(index: Index) -> None:
    # `Foo | None`, `Optional[Foo]`, `Callable[..., Foo]` and `"Foo"`, all on line 28.
    assert places(index, "Foo", "pkg/mod.py").count((28, "type")) == 4


def test_exception_classes_in_except_and_raise(index: Index) -> None:
    assert places(index, "BadThing", "pkg/mod.py") == [(37, "type"), (39, "type")]
    assert (38, "reference") in places(index, "OtherError", "pkg/mod.py")
    assert (39, "type") in places(index, "OtherError", "pkg/mod.py")


def test_objects_before_a_dot_and_names_as_values(index: Index) -> None:
    assert places(index, "registry", "pkg/mod.py") == [(29, "reference")]
    assert [line for line, _ in places(index, "handler", "pkg/mod.py")] == [31, 32, 33, 34]
    assert (32, "reference") in places(index, "Foo", "pkg/mod.py")  # in a tuple


def test_comments_and_strings_are_not_references(index: Index) -> None:
    lines = [line for line, _ in places(index, "Foo", "pkg/mod.py")]
    assert 40 not in lines
    assert 41 not in lines


def test_re_exports_and_module_aliases(index: Index) -> None:
    reexported = find_usages(index, name="Foo", file="pkg/mod.py")
    assert ("pkg/__init__.py", 1, "import") in {(u.file, u.line, u.kind) for u in reexported.usages}
    through_alias = find_usages(index, name="handler", file="pkg/mod.py")
    assert ("pkg/helpers.py", 5, "call") in {(u.file, u.line, u.kind) for u in through_alias.usages}


def test_typescript_generics_and_export_from(index: Index) -> None:
    found = find_usages(index, name="Foo", file="web/mod.ts")
    by_file = {(u.file, u.line, u.kind) for u in found.usages}
    assert ("web/index.ts", 1, "import") in by_file  # export { Foo } from './mod'
    types = sorted(u.column for u in found.usages if u.file == "web/use.ts" and u.line == 3)
    assert len(types) == 3  # Array<Foo>, Map<string, Foo>, Promise<Foo>
    assert ("web/use.ts", 4, "call") in by_file  # new Foo()


OPERANDS = {
    "urls.py": """\
import typing

SUB_DELIMS = "!$&"
STEP = 2
KEY = "k"
PREFIX = "p"
ALIAS = typing.Tuple[str, ...]
NESTED = typing.Tuple[ALIAS, ...]
CACHE: dict = {}


def quote_host(host, quote):
    return quote(host, safe=SUB_DELIMS + "%")


def moved(n, table, pending):
    n += STEP
    return -STEP, table[KEY], table[KEY:], f"{PREFIX}-{n}", pending


def load():
    global CACHE
    if len(CACHE) == 0:
        CACHE = {1: 2}


def shadowed(SUB_DELIMS):
    return SUB_DELIMS + "x"
""",
}


def test_operands_indexes_and_names_a_function_declares_global(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    # httpx's `safe=SUB_DELIMS + WHATWG_SAFE`, `typing.Tuple[_PCTRTT, ...]` and a `global
    # HTTPCORE_EXC_MAP` map read in the function that fills it: symfuse dead listed the
    # constants and find_usages found none of these uses
    index = index_of_tree(tmp_path_factory.mktemp("operands"), OPERANDS)
    assert places(index, "SUB_DELIMS", "urls.py") == [(13, "reference")]  # not the parameter
    assert places(index, "STEP", "urls.py") == [(17, "reference"), (18, "reference")]
    assert places(index, "KEY", "urls.py") == [(18, "reference"), (18, "reference")]
    assert places(index, "PREFIX", "urls.py") == [(18, "reference")]
    assert places(index, "ALIAS", "urls.py") == [(8, "reference")]
    assert places(index, "CACHE", "urls.py") == [(23, "reference")]


INDEXES_AND_RECEIVERS = {
    "web/table.ts": """\
const TABLE: Record<string, number> = {};
const KEY = "k";

export function read(): number {
  return TABLE[KEY];
}
""",
    "src/lib.rs": """\
static REGISTRY: Vec<u8> = Vec::new();
const LIMIT: i32 = 3;

fn count() -> usize {
    REGISTRY.len() + LIMIT.to_string().len()
}

fn local() -> usize {
    let LIMIT = vec![1];
    LIMIT.len()
}
""",
}


def test_typescript_indexes_and_rust_values_before_a_dot(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    index = index_of_tree(tmp_path_factory.mktemp("receivers"), INDEXES_AND_RECEIVERS)
    assert places(index, "KEY", "web/table.ts") == [(5, "reference")]
    assert places(index, "REGISTRY", "src/lib.rs") == [(5, "reference")]
    assert places(index, "LIMIT", "src/lib.rs") == [(5, "reference")]  # not the local's


CONSTANTS_AS_VALUES = {
    "lib/limits.rb": """\
LIMIT = 3
TABLE = [1, 2]
KEY = 0
PREFIX = "p"
module Foo
  BAR = 2
end

def f(n)
  n + LIMIT + TABLE[KEY]
end

def g(mode)
  case mode
  when 1 then "#{PREFIX}#{Foo::BAR}"
  end
end
""",
    "src/limits.php": """\
<?php
const LIMIT = 3;
const KEY = 'k';
class K {
    const PREFIX = "p";
    function m() { return self::PREFIX; }
}
function f($n, $t) {
    return $n + LIMIT . $t[KEY] . K::PREFIX . g(a: LIMIT);
}
function g($a) { return $a; }
""",
    "Sources/Limits.swift": """\
let LIMIT = 3
let PREFIX = "p"
let DEFAULT = 7
func f(n: Int, opt: Int?) -> String {
    return "\\(PREFIX)\\(n + LIMIT)\\(opt ?? DEFAULT)"
}
func h(LIMIT: Int) -> Int { return LIMIT + 1 }
""",
    "src/limits.cpp": "const int KEY = 0;\nstatic int TABLE[2];\nint f() { return TABLE[KEY]; }\n",
}


def test_constants_as_values_in_ruby_php_swift_and_cpp(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    index = index_of_tree(tmp_path_factory.mktemp("values"), CONSTANTS_AS_VALUES)
    ruby = "lib/limits.rb"
    assert places(index, "LIMIT", ruby) == [(10, "reference")]
    assert places(index, "KEY", ruby) == [(10, "reference")]
    assert places(index, "PREFIX", ruby) == [(15, "reference")]
    assert places(index, "BAR", ruby) == [(15, "reference")]
    php = "src/limits.php"
    assert places(index, "LIMIT", php) == [(9, "reference"), (9, "reference")]
    assert places(index, "KEY", php) == [(9, "reference")]
    assert places(index, "PREFIX", php) == [(6, "reference"), (9, "reference")]
    swift = "Sources/Limits.swift"
    assert places(index, "LIMIT", swift) == [(5, "reference")]  # not h's parameter
    assert places(index, "PREFIX", swift) == [(5, "reference")]
    assert places(index, "DEFAULT", swift) == [(5, "reference")]
    assert places(index, "KEY", "src/limits.cpp") == [(3, "reference")]


LUA = {
    "src/limits.lua": """\
local LIMIT = 3
TABLE = {1, 2}
KEY = 1
PREFIX = "p"

local function f(n)
  local y = TABLE[KEY] .. PREFIX
  for i = 1, LIMIT do print(i) end
  return n + LIMIT, y
end

local function g(LIMIT)
  return LIMIT + 1
end
""",
}


def test_lua_names_as_values_and_a_parameter_that_shadows_one(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    index = index_of_tree(tmp_path_factory.mktemp("lua"), LUA)
    lua = "src/limits.lua"
    assert places(index, "LIMIT", lua) == [(8, "reference"), (9, "reference")]  # not g's
    assert places(index, "TABLE", lua) == [(7, "reference")]
    assert places(index, "KEY", lua) == [(7, "reference")]
    assert places(index, "PREFIX", lua) == [(7, "reference")]


SCALA = {
    "src/Limits.scala": """\
object Limits {
  val LIMIT = 3
  val KEY = 0
  val PREFIX = "p"
  def f(n: Int, t: Array[Int]): Int = n + LIMIT + t(KEY)
  def g(): String = s"$PREFIX!"
  def h(LIMIT: Int): Int = LIMIT + 1
}
""",
}


def test_scala_names_as_values_and_a_parameter_that_shadows_one(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    index = index_of_tree(tmp_path_factory.mktemp("scala"), SCALA)
    scala = "src/Limits.scala"
    assert places(index, "LIMIT", scala) == [(5, "reference")]  # not h's parameter
    assert places(index, "KEY", scala) == [(5, "reference")]
    assert places(index, "PREFIX", scala) == [(6, "reference")]


ZIG = {
    "src/limits.zig": """\
const LIMIT: i32 = 3;
const TABLE = [_]i32{ 1, 2 };
const KEY: usize = 0;
const Status = enum { open, paid };
fn f(n: i32) i32 {
    const x = n + LIMIT;
    return x + TABLE[KEY];
}
fn g(LIMIT: i32) Status {
    _ = LIMIT;
    return .open;
}
""",
}


def test_zig_names_as_values_a_shadowing_parameter_and_enum_members(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    index = index_of_tree(tmp_path_factory.mktemp("zig"), ZIG)
    zig = "src/limits.zig"
    assert places(index, "LIMIT", zig) == [(6, "reference")]  # not g's parameter
    assert places(index, "TABLE", zig) == [(7, "reference")]
    assert places(index, "KEY", zig) == [(7, "reference")]
    assert (4, "reference") not in places(index, "open", zig)  # a member is no use of itself


DART_AND_CSHARP = {
    "lib/limits.dart": """\
const limit = 3;
const prefix = 'p';
const table = [1];
const key = 0;
int f(int n) => n + limit;
String g() => '${prefix}!';
int h(int limit) => limit + 1;
int k() { var y = table[key]; return y; }
""",
    "src/Limits.cs": """\
class B {
    const string Prefix = "p";
    string G() { return $"{Prefix}!"; }
}
""",
}


def test_dart_names_as_values_and_a_csharp_interpolation(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    index = index_of_tree(tmp_path_factory.mktemp("dart"), DART_AND_CSHARP)
    dart = "lib/limits.dart"
    assert places(index, "limit", dart) == [(5, "reference")]  # not h's parameter
    assert places(index, "prefix", dart) == [(6, "reference")]
    assert places(index, "table", dart) == [(8, "reference")]
    assert places(index, "key", dart) == [(8, "reference")]
    assert places(index, "Prefix", "src/Limits.cs") == [(3, "reference")]


C_MACROS = {
    "src/config.h": """\
#ifndef CONFIG_H
#define CONFIG_H
#define YEAR 26
#define MONTH 11
#define VERSION ((YEAR << 16) | \\
    (MONTH << 8))
#define CHECK(x, LIMIT) check_value((x), LIMIT, "YEAR") /* MONTH */
#if defined(USE_TLS) && TLS_LEVEL > 1
#define SECURE 1
#elif LEGACY
#define SECURE 0
#endif
#ifdef SECURE
int check_value(int v, int limit, const char *what);
#endif
#endif
""",
    "src/check.c": """\
#include "config.h"
#define USE_TLS 1
#define TLS_LEVEL 2
#define LEGACY 0
#define LIMIT 10
int check_value(int v, int limit, const char *what) { return v < limit; }
""",
}


def test_c_macros_the_preprocessor_tests_and_names_in_macro_bodies(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """`#ifndef` (an include guard's), `defined()`, `#if`, `#elif` and `#ifdef` use a macro;
    so does another macro's body, but for its parameters and its strings and comments."""
    index = index_of_tree(tmp_path_factory.mktemp("macros"), C_MACROS)
    header = "src/config.h"
    assert places(index, "CONFIG_H", header) == [(1, "reference")]
    assert places(index, "YEAR", header) == [(5, "reference")]  # not its string in CHECK
    assert places(index, "MONTH", header) == [(6, "reference")]  # the continued line
    assert places(index, "SECURE", header) == [(13, "reference")]
    uses = find_usages(index, name="check_value", file="src/check.c").usages
    assert [(u.file, u.line) for u in uses] == [(header, 7)]
    assert [(u.line, u.kind) for u in find_usages(index, name="USE_TLS").usages] == [
        (8, "reference")
    ]
    assert [u.line for u in find_usages(index, name="TLS_LEVEL").usages] == [8]
    assert [u.line for u in find_usages(index, name="LEGACY").usages] == [10]
    assert not find_usages(index, name="LIMIT").usages  # CHECK's parameter, not the macro


HASKELL = {
    "src/Text/Join.hs": """\
module Text.Join
    ( joinWith
    , Sep(..)
    , (<+>)
    ) where

data Sep = Comma | Space

(<+>) :: String -> String -> String
a <+> b = a ++ b

joinWith :: Sep -> [String] -> String
joinWith _ = foldr (<+>) ""

twice :: String -> String
twice s = s <+> s `after` s

after :: String -> String -> String
after a b = a ++ b

instance Show Sep where
  show Comma = ","
  show Space = " "
""",
}


def test_haskell_export_lists_operators_and_instance_methods(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code

    index = index_of_tree(tmp_path_factory.mktemp("haskell"), HASKELL)
    module = "src/Text/Join.hs"
    assert places(index, "joinWith", module) == [(2, "reference")]
    assert places(index, "Sep", module) == [(3, "type"), (12, "type")]
    assert places(index, "<+>", module) == [(4, "reference"), (13, "reference"), (16, "call")]
    assert places(index, "after", module) == [(16, "call")]
    found = dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    assert [d.symbol.name for d in found] == ["twice"]  # not Show's `show`


SINGLETONS = {
    "src/A.kt": "package a\n\nobject Registry {\n  fun lookup(k: String): Int = 1\n}\n",
    "src/B.kt": 'package a\n\nfun main() {\n  Registry.lookup("x")\n}\n',
    "src/Walk.scala": "package w\n\nobject Walk {\n  def visitor(): Int = 1\n}\n",
    "src/Main.scala": "package w\n\nobject Main {\n  def main(): Int = Walk.visitor()\n}\n",
}


def test_a_singleton_objects_members_called_through_it(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Scala's and Kotlin's `object Walk { def visitor() }`, called `Walk.visitor()`."""
    index = index_of_tree(tmp_path_factory.mktemp("singletons"), SINGLETONS)
    assert [(u.file, u.line) for u in find_usages(index, name="lookup").usages] == [("src/B.kt", 4)]
    assert [(u.file, u.line) for u in find_usages(index, name="visitor").usages] == [
        ("src/Main.scala", 4)
    ]


ELIXIR = {
    "lib/pool.ex": """\
defmodule Pool do
  @default_timeout 5_000
  @moduledoc "A pool."

  def checkout(pool, opts \\\\ []) do
    Keyword.get(opts, :timeout, @default_timeout)
  end

  def limit, do: @default_timeout * 2

  def run(x) do
    case x do
      :ok -> :ok
      other -> bad_return!(other)
    end
  end

  @spec pair(term) :: list
  defp pair(x), do: [helper(x), {:ok, tail(x)}]
  defp bad_return!(other), do: raise("bad #{describe(other)}")
  defp helper(x), do: x
  defp tail(x), do: x
  defp describe(x), do: pair(x)
end
""",
}


def test_elixir_attribute_reads_and_calls_in_case_arms_lists_and_strings(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    index = index_of_tree(tmp_path_factory.mktemp("elixir"), ELIXIR)
    module = "lib/pool.ex"
    assert places(index, "default_timeout", module) == [(6, "reference"), (9, "reference")]
    assert places(index, "bad_return!", module) == [(14, "call")]
    assert places(index, "helper", module) == [(19, "call")]
    assert places(index, "tail", module) == [(19, "call")]
    assert places(index, "describe", module) == [(20, "call")]
    assert places(index, "pair", module) == [(23, "call")]  # not its @spec
