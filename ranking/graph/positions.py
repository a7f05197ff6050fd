"""What is at a position: the innermost definition around it, and what the name there refers to.

Lines are 1-based; columns are 1-based code points (as in
:mod:`symfuse.indexer.model`). Answered with
:class:`~symfuse.ranking.query.records.Record` dataclasses (``to_dict()``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import Reference, RefKind, Symbol
from symfuse.ranking.graph.targets import DECLARATION, resolver_for
from symfuse.ranking.query.records import Record, brief, round3, shown
from symfuse.ranking.text import paths

_WORD = re.compile(r"[^\W\d]\w*|\$\w*")


def symbol_at(index: Index, file: str, line: int, col: int | None = None) -> Symbol | None:
    """The innermost definition whose span contains the position (``col`` None: the line)."""
    key = paths.resolve_file(index, file, argument="file")
    best: Symbol | None = None
    for s in index.files[key].definitions():
        if not s.line <= line <= s.end_line:
            continue
        if col is not None and (
            (line == s.line and col < s.col) or (line == s.end_line and col >= s.end_col)
        ):
            continue
        if best is None or (s.line, -s.end_line) >= (best.line, -best.end_line):
            best = s
    return best


@dataclass(frozen=True, slots=True)
class Target(Record):
    symbol: Symbol = field(metadata=shown(view=brief, flatten=True))
    confidence: float = field(metadata=shown(view=round3))


@dataclass(frozen=True, slots=True)
class DefinitionResult(Record):
    """What the name at a position refers to. ``via`` is a RefKind value, "definition" or "word"."""

    file: str
    line: int
    column: int
    name: str
    via: str
    targets: tuple[Target, ...]


def definition_at(index: Index, file: str, line: int, col: int) -> DefinitionResult:
    """The definitions that the name at (line, col) refers to, best first (may be empty)."""
    key = paths.resolve_file(index, file, argument="file")
    entry = index.files[key]
    text = paths.line_text(paths.read_lines(index, key), line)
    resolver = resolver_for(index)
    for ref, name in _refs_at(entry, text, line, col):
        hits = resolver.resolve(ref, entry)
        return _definition(key, line, col, name, ref.kind.value, hits)
    for s in entry.definitions():
        if s.name_line == line and s.name_col <= col < s.name_end_col:
            return DefinitionResult(key, line, col, s.name, DECLARATION, (Target(s, 1.0),))
    word, start = _word_at(text, col)
    if not word:
        return DefinitionResult(key, line, col, "", "word", ())
    qualifier = _qualifier_before(text, start)
    enclosing = symbol_at(index, key, line, col)
    probe = Reference(
        name=word,
        file=key,
        line=line,
        col=start + 1,
        kind=RefKind.REFERENCE,
        enclosing=enclosing.symbol_id if enclosing is not None else None,
        qualifier=qualifier,
    )
    return _definition(key, line, col, word, "word", resolver.resolve(probe, entry))


def _definition(
    key: str, line: int, col: int, name: str, via: str, hits: Iterable[Any]
) -> DefinitionResult:
    ranked = sorted(hits, key=lambda h: (-h.confidence, h.target.file, h.target.line))
    targets = tuple(Target(h.target, h.confidence) for h in ranked)
    return DefinitionResult(key, line, col, name, via, targets)


def _refs_at(entry: FileEntry, text: str, line: int, col: int) -> list[tuple[Reference, str]]:
    """References whose name (or import alias) covers the column, narrowest first."""
    found: list[tuple[int, Reference, str]] = []
    for ref in entry.references():
        if ref.line != line:
            continue
        for written in (ref.name, ref.alias):
            if not written:
                continue
            at = text.find(written, ref.col - 1)
            if at >= 0 and at + 1 <= col < at + 1 + len(written):
                found.append((len(written), ref, written))
    found.sort(key=lambda item: item[0])
    return [(ref, written) for _, ref, written in found]


def _word_at(text: str, col: int) -> tuple[str, int]:
    for match in _WORD.finditer(text):
        if match.start() + 1 <= col <= match.end():
            return match.group(), match.start()
    return "", 0


def _qualifier_before(text: str, start: int) -> str:
    """``shop.util`` for the ``format_price`` of ``shop.util.format_price``; "" when none."""
    head = text[:start]
    if not head.endswith("."):
        return ""
    match = re.search(r"([\w.]+)\.$", head)
    return match.group(1) if match else ""
