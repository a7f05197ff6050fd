"""Jumpable lines: ``file:line:col: message``, as compilers and ``rg --vimgrep`` print them.

A terminal turns such a line into a link, Vim reads it with its default
``errorformat`` (``%f:%l:%c:%m``: ``:cexpr system('symfuse search send')``) and an
editor's problem matcher takes it as it is. The text form of ``search``, ``usages``,
``callers`` and ``callees`` is one such line per answer; ``-f table`` shows the
scored table instead.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from itertools import groupby
from typing import Protocol

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


class TextHitLike(Protocol):
    """What :func:`grep_lines` reads of a text search hit."""

    @property
    def file(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def text(self) -> str: ...
    @property
    def snippet(self) -> str: ...


_CONTEXT = re.compile(r"(\d+)[:-] ?(.*)")  # a snippet line: "12: hit" or "11- context"


def grep_lines(hits: Sequence[TextHitLike], context: bool) -> list[str]:
    """Hits as ``rg --column -n -C`` prints them: ``file:12:5: line`` on a hit,
    ``file-11- line`` on context, ``--`` between runs of lines that do not touch. Each
    line is printed once: context that overlaps the next hit's, or is a hit itself, is
    not repeated."""
    out: list[str] = []
    for file, group in groupby(hits, key=lambda h: h.file):
        rows: dict[int, str] = {}
        found = list(group)
        for hit in found:
            for raw in hit.snippet.splitlines() if context else ():
                match = _CONTEXT.fullmatch(raw)
                if match is not None:
                    rows.setdefault(int(match[1]), f"{file}-{match[1]}- {match[2]}")
        for hit in found:
            rows[hit.line] = location(file, hit.line, hit.column, hit.text)
        previous = None
        for number in sorted(rows):
            if context and out and (previous is None or number != previous + 1):
                out.append("--")
            out.append(rows[number])
            previous = number
    return out
