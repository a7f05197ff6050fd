"""Jumpable lines: ``file:line:col: message``, as compilers and ``rg --vimgrep`` print them.

A terminal turns such a line into a link, Vim reads it with its default
``errorformat`` (``%f:%l:%c:%m``: ``:cexpr system('symfuse search send')``) and an
editor's problem matcher takes it as it is. The text form of ``search``, ``usages``,
``callers`` and ``callees`` is one such line per answer; ``-f table`` shows the
scored table instead.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

from symfuse.indexer.model import Symbol


def qualified_name(symbol: Symbol) -> str:
    """The name as it stands in its file: ``Client.send``, ``AsyncClient.__init__``.

    That is the symbol id's middle (``path::Client.send#method``); the module path of
    the fqn is left out, since the line already starts with the file.
    """
    return inner_name(symbol.symbol_id) or symbol.name


def inner_name(symbol_id: str) -> str:
    """``Order.label`` of ``shop/models.py::Order.label#method`` ("" for another shape)."""
    _, sep, rest = symbol_id.partition("::")
    return rest.rpartition("#")[0] if sep else ""


def symbol_line(symbol: Symbol, note: str = "", *, file_shown: bool = True) -> str:
    """``file:line:col: Client.send method`` at the symbol's name; ``note`` after it."""
    where = f"{symbol.name_line}:{symbol.name_col}"
    head = f"{symbol.file}:{where}" if file_shown else where
    tail = f"  {note}" if note else ""
    return f"{head}: {qualified_name(symbol)} {symbol.kind.value}{tail}"


def location(file: str, line: int, column: int, message: str) -> str:
    return f"{file}:{line}:{column}: {message}"


def with_code(line: str, code: str | None) -> list[str]:
    """A location line, then its snippet or source indented (no ``errorformat`` match)."""
    return [line, *(f"    │ {text}" for text in (code or "").splitlines())]


def summary_on_stderr(parts: Iterable[str]) -> None:
    """What is not a location (how many more there are) goes to stderr, so that stdout
    holds nothing but location lines, as grep's does."""
    text = "; ".join(p for p in parts if p)
    if text:
        print(f"symfuse: {text}", file=sys.stderr)
