"""Methods a language runs by name or by its syntax, which no reference names: Ruby's
``initialize`` (run by ``new``), ``method_missing``, ``to_s``, ``each``; operators, run
by ``a + b`` and ``xs[i]`` (Ruby's, Scala's and Swift's methods named by their symbol,
Kotlin's ``operator fun``)."""

from __future__ import annotations

import re

from symfuse.indexer.model import Kind, Symbol


def runs_it(symbol: Symbol) -> bool:
    """Whether the language runs ``symbol`` by its name or by an operator's syntax."""
    if symbol.kind not in (Kind.METHOD, Kind.FUNCTION):
        return False
    if symbol.language == "ruby" and symbol.name in _RUBY_HOOKS:
        return True
    return _by_syntax(symbol)


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
_OPERATOR = re.compile(r"[^\w]+|\[\]=?|[+\-!~]@")  # `<=>`, `==`, `[]=`, `-@`: run by syntax
_SYMBOLIC = frozenset({"ruby", "scala", "swift"})  # methods named by their operator
_KOTLIN_OPERATOR = re.compile(r"(?:^|\s)operator\s")  # `operator fun plus(...)`


def _by_syntax(symbol: Symbol) -> bool:
    """An operator, which its syntax runs (`a + b`, `xs(i)`): a method named by its
    symbol (Ruby's `<=>`, Scala's `++`, Swift's `==`) or Kotlin's `operator fun`."""
    if symbol.language in _SYMBOLIC:
        return _OPERATOR.fullmatch(symbol.name) is not None
    return symbol.language == "kotlin" and _KOTLIN_OPERATOR.search(symbol.signature) is not None
