"""Methods a language runs by name or by its syntax, which no reference names: Ruby's
``initialize`` (run by ``new``), ``method_missing``, ``to_s``, ``each``; Swift's
``subscript``, ``makeIterator``, ``hash(into:)``, ``description``; operators, run by
``a + b`` and ``xs[i]`` (Ruby's, Scala's and Swift's methods named by their symbol,
Kotlin's ``operator fun``); C#'s explicit interface members (``bool
IConvertible.ToBoolean(...)``), which only a call through the interface reaches (one
from outside the workspace, or of a type the index cannot tell); SwiftPM's ``package``
value."""

from __future__ import annotations

import re

from symfuse.indexer.model import Kind, Symbol


def runs_it(symbol: Symbol) -> bool:
    """Whether the language runs ``symbol`` by its name or by an operator's syntax."""
    if symbol.kind not in (Kind.METHOD, Kind.FUNCTION):
        return False
    if symbol.language == "ruby" and symbol.name in _RUBY_HOOKS:
        return True
    if symbol.language == "swift" and symbol.name in _SWIFT_WITNESSES:
        return True
    if symbol.language == "csharp":
        return _explicit_member(symbol)
    return _by_syntax(symbol)


def _explicit_member(symbol: Symbol) -> bool:
    """A C# method implementing an interface's member explicitly (``IEnumerator
    IEnumerable.GetEnumerator()``): its name is written after the interface's."""
    head = symbol.signature.split("{", 1)[0]
    return any(found[1] == symbol.name for found in _EXPLICIT.finditer(head))


_EXPLICIT = re.compile(r"\.\s*([A-Za-z_]\w*)\s*(?:<[^()]*>)?\s*\(")  # `IEnumerable.GetEnumerator(`


def swift_manifest(symbol: Symbol) -> bool:
    """SwiftPM's manifest value (``let package = Package(...)`` in Package.swift or a
    versioned ``Package@swift-6.0.swift``), which SwiftPM reads."""
    name = symbol.file.rpartition("/")[2]
    return symbol.name == "package" and symbol.language == "swift" and name.startswith("Package")


# What Ruby runs by name: `new` runs `initialize`, `dup` `initialize_copy`, a missing
# method `method_missing`, a mixin's inclusion `included`, interpolation `to_s`, a block
# argument `to_proc`, Comparable `<=>`, Enumerable `each`, a Hash key `hash` and `eql?`.
_RUBY_HOOKS = frozenset(
    {
        *("initialize", "initialize_copy", "initialize_dup", "initialize_clone"),
        *("method_missing", "respond_to_missing?", "const_missing", "method_added"),
        *("inherited", "included", "extended", "prepended"),
        *("to_s", "to_str", "to_ary", "to_hash", "to_proc", "coerce", "inspect"),
        *("each", "hash", "eql?"),
    }
)
# What Swift runs by syntax or its standard library calls on a conforming type: `x[i]`,
# `x(...)`, `for ... in x` (an iterator's `next`), hashing, coding, printing.
_SWIFT_WITNESSES = frozenset(
    {
        *("subscript", "callAsFunction", "makeIterator", "makeAsyncIterator", "next"),
        *("hash", "encode", "description", "debugDescription", "customMirror"),
    }
)
_OPERATOR = re.compile(r"[^\w]+|\[\]=?|[+\-!~]@")  # `<=>`, `==`, `[]=`, `-@`: run by syntax
_SYMBOLIC = frozenset({"ruby", "scala", "swift"})  # methods named by their operator
_KOTLIN_OPERATOR = re.compile(r"(?:^|\s)operator\s")  # `operator fun plus(...)`


def _by_syntax(symbol: Symbol) -> bool:
    """An operator, which its syntax runs (`a + b`, `xs(i)`): a method named by its
    symbol (Ruby's `<=>`, Scala's `++`, Swift's `==`) or Kotlin's `operator fun`."""
    if symbol.language in _SYMBOLIC:
        return _OPERATOR.fullmatch(symbol.name) is not None
    return symbol.language == "kotlin" and _KOTLIN_OPERATOR.search(symbol.signature) is not None
