"""A value used only as the receiver of a call is used: Java's `registry.get(k)` (a
field), Ruby's `REGISTRY.fetch(k)` (a constant), PHP's `self::$registry->get($k)` (a
static property). Before, each had no usage and `symfuse dead` doubted it."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import UsagesRequest
from tests.support.index import index_of_tree

FILES = {
    "D.java": "class D {\n    private static final java.util.Map<String, Integer> registry =\n"
    "        new java.util.HashMap<>();\n    int find(String k) { return registry.get(k); }\n}\n",
    "f.rb": "class Finder\n  REGISTRY = {}\n  def find(k)\n    REGISTRY.fetch(k)\n  end\nend\n",
    "i.php": "<?php\nclass I {\n    private static $registry = [];\n"
    "    public function find($k) { return self::$registry->get($k); }\n}\n",
}


@pytest.mark.parametrize(
    ("symbol_id", "line"),
    [
        ("D.java::D.registry#field", 4),
        ("f.rb::Finder.REGISTRY#constant", 4),
        ("i.php::I.registry#property", 4),
    ],
)
def test_a_value_before_a_dot_is_used(tmp_path: Path, symbol_id: str, line: int) -> None:
    index = index_of_tree(tmp_path, FILES)
    found = operations.usages(index, UsagesRequest(target=symbol_id))
    assert [(u.line, u.confidence) for u in found.usages] == [(line, 1.0)]


CONDITIONS = {
    "web/urls.py": "class URL:\n    @property\n    def is_relative_url(self):\n"
    "        return True\n",
    "web/client.py": "from web.urls import URL\n\n\ndef merge(url: URL):\n"
    "    if url.is_relative_url:\n        return 1\n    return 0\n",
    "tests/conftest.py": "def status_code():\n    return 200\n",
    "tests/test_client.py": "def test_ok(response):\n    assert response.status_code == 200\n",
    "gradle/kmp.kt": 'val kmpJsEnabled = System.getProperty("kjs", "true").toBoolean()\n',
    "gradle/platforms.kt": "fun configure() {\n  if (kmpJsEnabled) {\n    println(1)\n  }\n}\n",
}


def test_a_value_tested_in_a_condition_is_used(tmp_path: Path) -> None:
    """A property tested (`if url.is_relative_url:`) and a Kotlin value as a condition
    (`if (kmpJsEnabled)`) are uses; an attribute of an untyped value is no module's
    function of its name (`response.status_code` is not conftest's fixture)."""
    index = index_of_tree(tmp_path, CONDITIONS)

    def lines(symbol_id: str) -> list[int]:
        found = operations.usages(index, UsagesRequest(target=symbol_id, min_confidence=0.0))
        return [u.line for u in found.usages]

    assert lines("web/urls.py::URL.is_relative_url#method") == [5]
    assert lines("gradle/kmp.kt::kmpJsEnabled#variable") == [2]
    assert lines("tests/conftest.py::status_code#function") == []


def test_jsx_braces_and_lua_colon_calls_use_their_values(tmp_path: Path) -> None:
    index = index_of_tree(
        tmp_path,
        {
            "c.tsx": "function shared() { return 2; }\nexport function Other() {\n"
            "  return <div title={shared}></div>;\n}\n",
            "a.jsx": "function onSave() { return 1; }\nexport function Form() {\n"
            "  return <form onSubmit={onSave} />;\n}\n",
            "i.lua": "local template = [[x $VER y]]\nlocal function render(ver)\n"
            '  return template:gsub("$VER", ver)\nend\nreturn { render = render }\n',
        },
    )
    for symbol_id, line in (
        ("c.tsx::shared#function", 3),
        ("a.jsx::onSave#function", 3),
        ("i.lua::template#variable", 3),
    ):
        found = operations.usages(index, UsagesRequest(target=symbol_id))
        assert [u.line for u in found.usages] == [line], symbol_id


def test_an_elixir_type_named_in_a_spec_is_used(tmp_path: Path) -> None:
    index = index_of_tree(
        tmp_path,
        {
            "lib/conn.ex": "defmodule Conn do\n  @type params :: [term]\n  @type result :: term\n\n"
            "  @callback handle(params, state :: any) :: {:ok, result}\n\n"
            "  @spec run(params) :: result\n  def run(params), do: params\nend\n",
        },
    )
    for symbol_id, lines in (
        ("lib/conn.ex::Conn.params#type", [5, 7]),
        ("lib/conn.ex::Conn.result#type", [5, 7]),
    ):
        found = operations.usages(index, UsagesRequest(target=symbol_id))
        assert sorted(u.line for u in found.usages) == lines, symbol_id


def test_a_csharp_generic_type_in_typeof_is_used(tmp_path: Path) -> None:
    index = index_of_tree(
        tmp_path,
        {
            "src/Wrapper.cs": "public class Wrapper<T> { }\n",
            "src/Registrar.cs": "public static class Registrar {\n"
            "    public static System.Type Open() { return typeof(Wrapper<>); }\n}\n",
        },
    )
    found = operations.usages(index, UsagesRequest(target="src/Wrapper.cs::Wrapper#class"))
    assert [(u.file, u.line) for u in found.usages] == [("src/Registrar.cs", 2)]


def test_a_kotlin_property_read_after_a_dot_is_used(tmp_path: Path) -> None:
    index = index_of_tree(
        tmp_path,
        {
            "src/Buffer.kt": "class Buffer {\n  var size: Long = 0L\n}\n",
            "src/Use.kt": "fun empty(buffer: Buffer): Boolean {\n  return buffer.size == 0L\n}\n",
        },
    )
    found = operations.usages(index, UsagesRequest(target="src/Buffer.kt::Buffer.size#property"))
    assert [(u.file, u.line) for u in found.usages] == [("src/Use.kt", 2)]


VTABLE = {
    "src/lib.rs": "struct VTable {\n    drop: unsafe fn(),\n    size: usize,\n}\n\n"
    "unsafe fn object_drop<E>() {}\n\n"
    "fn vtable(size: usize) -> VTable {\n"
    "    VTable {\n        drop: object_drop::<u8>,\n        size,\n    }\n}\n",
}


def test_a_generic_function_named_as_a_value_is_used(tmp_path: Path) -> None:
    """anyhow's `object_drop: object_drop::<E>` (a vtable of functions): the function is
    used where it is named; `symfuse dead` listed seven of them. A shorthand field
    (`size,`) names the local it copies, no definition."""
    index = index_of_tree(tmp_path, VTABLE)
    found = operations.usages(index, UsagesRequest(target="src/lib.rs::object_drop#function"))
    assert [(u.line, u.confidence) for u in found.usages] == [(10, 1.0)]
