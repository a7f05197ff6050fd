"""JavaScript definitions as large utility libraries write them: a named function
expression assigned to a property or variable is one definition, and a variable
bound to a call's result inside a module-like function (an IIFE, or a factory in
parentheses) is a definition, while locals of ordinary functions are not."""

from __future__ import annotations

from symfuse.indexer.extract.tags import extract
from tests.support.paths import FIXTURES

UTIL = FIXTURES / "js_namesakes" / "lib" / "util.js"


def ids() -> list[str]:
    symbols = extract("util.js", "r", "javascript", UTIL.read_bytes()).symbols
    return [s.symbol_id for s in symbols]


def test_named_function_values_appear_once() -> None:
    found = ids()
    assert "util.js::runInContext#function" in found
    assert "util.js::runInContext.init#function" in found
    assert not [i for i in found if "init.init" in i or "runInContext.runInContext" in i]


def test_variables_bound_to_calls_in_module_functions_are_definitions() -> None:
    found = ids()
    assert "util.js::runInContext.merge#variable" in found
    assert "util.js::util#variable" in found  # in the outer `.call(this)` IIFE
    assert not [i for i in found if "merged" in i]  # a local of an ordinary function


def test_named_function_expressions_elsewhere_stay_definitions() -> None:
    source = b"items.forEach(function visit(item) { return item; });\n"
    symbols = extract("a.js", "r", "javascript", source).symbols
    assert [s.symbol_id for s in symbols] == ["a.js::visit#function"]


def test_a_property_assigned_a_named_function_is_one_function() -> None:
    source = b"var obj = {};\nobj.init = function init() { return 1; };\n"
    symbols = extract("a.js", "r", "javascript", source).symbols
    assert [s.symbol_id for s in symbols] == ["a.js::obj#variable", "a.js::obj.init#function"]


def test_a_function_named_apart_from_what_holds_it_keeps_its_name() -> None:
    source = b"module.exports = function parse(text) { return text; };\n"
    symbols = extract("a.js", "r", "javascript", source).symbols
    assert "a.js::module.exports.parse#function" in [s.symbol_id for s in symbols]
