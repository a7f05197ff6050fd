"""``get_symbol``: a symbol's source, context and neighbourhood, or a file's outline.

Answered with :class:`~symfuse.ranking.query.records.Record` dataclasses (``to_dict()``).
Paths given by a caller are confined to the workspace by :mod:`symfuse.ranking.text.paths`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind, Symbol
from symfuse.ranking.graph.positions import symbol_at
from symfuse.ranking.graph.targets import require_symbol
from symfuse.ranking.query.records import BRIEF, Record, shown, symbol_view
from symfuse.ranking.text import paths

MAX_CONTEXT_LINES = 50
_PATH_LINE = re.compile(r"^(.*\S):(\d+)$")
_DETAIL = symbol_view(
    *BRIEF, "language", "col", "end_col", "doc", "decorators", "extends", "implements"
)
_OUTLINE = symbol_view("symbol_id", "name", "kind", "line", "end_line", "signature")


@dataclass(frozen=True, slots=True)
class SymbolDetail(Record):
    """A symbol with its source, context and neighbourhood.

    Shown with the symbol's own fields first; ``end_line`` is the symbol's.
    """

    type: Literal["symbol"] = field(default="symbol", init=False)
    symbol: Symbol = field(metadata=shown(view=_DETAIL, flatten=True))
    start_line: int
    end_line: int = field(metadata=shown(omit=True))
    source: str
    source_truncated: bool
    context_before: str
    context_after: str
    parent: Symbol | None
    children: tuple[Symbol, ...]
    callers_count: int
    callees_count: int
    # Read from git (at_commit, include_removed): the commit, and whether HEAD lacks it.
    at_commit: str | None = field(
        default=None, metadata=shown(omit=lambda record: record.at_commit is None)
    )
    is_removed: bool = field(default=False, metadata=shown(omit=lambda r: not r.at_commit))
    # Asked by a name its overloads share: the others' ids (this one is the most linked).
    overloads: tuple[str, ...] = field(default=(), metadata=shown(omit=lambda r: not r.overloads))
    # With show_evolution: the commits that changed it (ranking.history.EvolutionEntry).
    evolution: tuple[Any, ...] | None = field(
        default=None,
        metadata=shown(
            view=lambda entries: [e.to_dict() for e in entries],
            omit=lambda record: record.evolution is None,
        ),
    )


@dataclass(frozen=True, slots=True)
class OutlineNode(Record):
    symbol: Symbol = field(metadata=shown(view=_OUTLINE, flatten=True))
    children: tuple[OutlineNode, ...]


@dataclass(frozen=True, slots=True)
class FileOutline(Record):
    """A file's symbols as a tree (the LSP documentSymbol shape)."""

    type: Literal["outline"] = field(default="outline", init=False)
    file: str
    language: str
    count: int
    symbols: tuple[OutlineNode, ...]


def get_symbol(
    index: Index,
    symbol_id: str | None = None,
    path: str | None = None,
    line: int | None = None,
    context_lines: int = 3,
    max_lines: int = 400,
) -> SymbolDetail | FileOutline:
    """A symbol by id; a file's outline by ``path``; the innermost symbol at ``path:line``."""
    if symbol_id is not None:
        return symbol_detail(index, symbol_id, context_lines=context_lines, max_lines=max_lines)
    if path is None:
        raise InvalidRequest("symbol_id", "give a symbol_id, a path, or a path:line")
    if line is None:
        match = _PATH_LINE.match(path.strip())
        if match is not None and match.group(1) and not is_file(index, path):
            path, line = match.group(1), int(match.group(2))
    key = paths.resolve_file(index, path, argument="path")
    if line is None:
        return file_outline(index, key)
    if line < 1:
        raise InvalidRequest("line", "must be 1 or more")
    symbol = symbol_at(index, key, line)
    if symbol is None:
        raise NotFound(
            f"path: no definition contains line {line} of {key}; "
            "give the path alone for the file's outline"
        )
    return symbol_detail(index, symbol.symbol_id, context_lines=context_lines, max_lines=max_lines)


def is_file(index: Index, path: str) -> bool:
    try:
        paths.resolve_file(index, path)
    except (NotFound, InvalidRequest):
        return False
    return True


@dataclass(frozen=True, slots=True)
class SourceWindow:
    """A definition's lines (cut after ``max_lines``) and ``context_lines`` around them."""

    source: str
    cut: bool
    before: str
    after: str

    @classmethod
    def of(
        cls, lines: Sequence[str], symbol: Symbol, context_lines: int, max_lines: int
    ) -> SourceWindow:
        start, end = symbol.line, min(symbol.end_line, len(lines))
        cut = end - start + 1 > max_lines
        shown_end = start + max_lines - 1 if cut else end
        return cls(
            "\n".join(lines[start - 1 : shown_end]),
            cut,
            "\n".join(lines[max(0, start - 1 - context_lines) : start - 1]),
            "\n".join(lines[end : end + context_lines]),
        )

    def detail(self, symbol: Symbol, **relations: Any) -> SymbolDetail:
        """``symbol`` showing this window; ``relations``: its parent, children, counts."""
        return SymbolDetail(
            symbol=symbol,
            source=self.source,
            start_line=symbol.line,
            end_line=symbol.end_line,
            source_truncated=self.cut,
            context_before=self.before,
            context_after=self.after,
            **relations,
        )


def symbol_detail(
    index: Index, symbol_id: str, *, context_lines: int = 3, max_lines: int = 400
) -> SymbolDetail:
    if not 0 <= context_lines <= MAX_CONTEXT_LINES:
        raise InvalidRequest("context_lines", f"must be 0..{MAX_CONTEXT_LINES}")
    if max_lines < 1:
        raise InvalidRequest("max_lines", "must be 1 or more")
    symbol = require_symbol(index, symbol_id)
    window = SourceWindow.of(paths.read_lines(index, symbol.file), symbol, context_lines, max_lines)
    children = tuple(index.symbols[i] for i in index.children.get(symbol.symbol_id, ()))
    calls = frozenset({EdgeKind.CALLS})
    return window.detail(
        symbol,
        parent=index.get(symbol.parent) if symbol.parent else None,
        children=children,
        callers_count=len(
            {s.symbol_id for s, _, _ in index.neighbours(symbol_id, outgoing=False, kinds=calls)}
        ),
        callees_count=len(
            {s.symbol_id for s, _, _ in index.neighbours(symbol_id, outgoing=True, kinds=calls)}
        ),
    )


def file_outline(index: Index, path: str) -> FileOutline:
    key = paths.resolve_file(index, path, argument="path")
    entry = index.files[key]
    kids: dict[str | None, list[Symbol]] = {}
    definitions = entry.definitions()
    ids = {s.symbol_id for s in definitions}
    for s in definitions:
        kids.setdefault(s.parent if s.parent in ids else None, []).append(s)

    def build(parent: str | None) -> tuple[OutlineNode, ...]:
        return tuple(OutlineNode(s, build(s.symbol_id)) for s in kids.get(parent, ()))

    return FileOutline(
        file=key, language=entry.language, count=len(definitions), symbols=build(None)
    )
