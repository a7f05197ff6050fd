"""Conventions read from a definition's lines: what the definition alone does not say.

- :func:`built`: a Scala ``def`` inside ``new Generator[Path] { ... }`` is the built
  object's method (the grammar reads it as a local function);
- :func:`elixir_callback`: an Elixir function a behaviour, a protocol or Mix calls.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from symfuse.indexer.model import Kind, Symbol

# a line that opens an object's body: `new Generator[Path] {`, `new FileVisitor[P] {`
_NEW_BLOCK = re.compile(r"\bnew\s+[\w.]+(?:\[.*\])?(?:\(.*\))?(?:\s+with\s+[\w.\[\]]+)*\s*\{\s*$")


def built(symbol: Symbol, lines: Sequence[str]) -> bool:
    """A member of an object its enclosing function builds: a method, or a Scala ``def``
    in ``new Generator[Path] { def generate(...) = ... }`` (read as a local function)."""
    if symbol.kind is Kind.METHOD:
        return True
    if symbol.language != "scala" or symbol.kind is not Kind.FUNCTION:
        return False
    at = symbol.line - 1
    indent = len(lines[at]) - len(lines[at].lstrip()) if at < len(lines) else 0
    for line in reversed(lines[:at]):
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            return _NEW_BLOCK.search(line) is not None
    return False


# what marks an Elixir function as a callback: `@impl true` or `@impl GenServer` above it,
# a `defimpl Protocol, for: T do` block around it, a Mix project's module
_ELIXIR_IMPL = re.compile(r"^\s*@impl\b")
_ELIXIR_SKIPPED = re.compile(r"^\s*(@(doc|spec|since|deprecated)\b|#|$)")
_ELIXIR_DEFIMPL = re.compile(r"^(\s*)defimpl\s")
_MIX_CALLBACKS = frozenset({"project", "application", "cli"})


def _impl_above(lines: Sequence[str], at: int) -> bool:
    for line in reversed(lines[max(0, at - 12) : at]):
        if _ELIXIR_IMPL.match(line):
            return True
        if not _ELIXIR_SKIPPED.match(line):
            return False
    return False


def _first_clause(symbol: Symbol, lines: Sequence[str], at: int) -> int:
    """The line (0-based) of the first of the clauses before ``at`` that run on into it
    (`def handle_info({:DOWN, ...})` ... `def handle_info(_msg, state)`: one callback,
    `@impl` written once above its first clause)."""
    head = re.compile(rf"^\s*def\s+{re.escape(symbol.name)}\b")
    first = at
    for number in range(at - 1, -1, -1):
        line = lines[number]
        if head.match(line):
            first = number
        elif re.match(r"^\s*(defp?|defmacrop?|defmodule)\s", line):
            break
    return first


def elixir_callback(symbol: Symbol, lines: Sequence[str]) -> str | None:
    """Why a behaviour or a protocol calls an Elixir function, or None: ``@impl`` above
    it, an enclosing ``defimpl``, or a ``use Mix.Project`` module's ``project``,
    ``application`` or ``cli``."""
    if symbol.language != "elixir" or symbol.kind is not Kind.FUNCTION:
        return None
    at = symbol.line - 1
    if _impl_above(lines, at) or _impl_above(lines, _first_clause(symbol, lines, at)):
        return "@impl: a behaviour's callback, called by the behaviour"
    indent = len(lines[at]) - len(lines[at].lstrip()) if at < len(lines) else 0
    for line in reversed(lines[:at]):
        opened = _ELIXIR_DEFIMPL.match(line)
        if opened and len(opened.group(1)) < indent:
            return "implements a protocol (defimpl): called through the protocol"
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            break
    if symbol.name in _MIX_CALLBACKS and any("use Mix.Project" in line for line in lines):
        return f"{symbol.name}: Mix calls it in a project's mix.exs"
    return None
