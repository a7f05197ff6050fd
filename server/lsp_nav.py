"""The navigation questions the language server asks of the index.

Thin adapters over the index and graph: what is at a position, where a
reference leads, who uses a definition, callers and callees, super- and
subtypes. Positions here are the index's (1-based lines, 1-based code-point
columns); the LSP layer converts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from symfuse.indexer.graph import Resolver
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import EdgeKind, Reference, RefKind, Symbol

_CALL_EDGES = frozenset({EdgeKind.CALLS})
_TYPE_EDGES = frozenset({EdgeKind.INHERITS, EdgeKind.IMPLEMENTS})


@dataclass(frozen=True, slots=True)
class Hit:
    """What a position points at: a definition's name, or a reference to resolve."""

    symbol: Symbol | None
    reference: Reference | None


def _inside(line: int, col: int, start: tuple[int, int], end: tuple[int, int]) -> bool:
    return start <= (line, col) <= end


def _ref_end(ref: Reference) -> tuple[int, int]:
    return ref.line, ref.col + len(ref.name)


def at(index: Index, key: str, line: int, col: int) -> Hit:
    """The definition name or the reference under ``line:col`` of file ``key``."""
    entry = index.files.get(key)
    if entry is None:
        return Hit(None, None)
    for s in entry.symbols:
        if _inside(line, col, (s.name_line, s.name_col), (s.name_end_line, s.name_end_col)):
            return Hit(s, None)
    best: Reference | None = None
    for ref in entry.references():
        inside = ref.line == line and _inside(line, col, (ref.line, ref.col), _ref_end(ref))
        if inside and (best is None or ref.col > best.col):
            best = ref
    return Hit(None, best)


def resolve(index: Index, key: str, ref: Reference) -> list[Symbol]:
    """The definitions a reference may stand for, most confident first."""
    entry = index.files[key]
    hits = Resolver(index).resolve(ref, entry)
    hits.sort(key=lambda h: -h.confidence)
    return [h.target for h in hits]


def definitions_at(index: Index, key: str, line: int, col: int) -> list[Symbol]:
    hit = at(index, key, line, col)
    if hit.symbol is not None:
        return [hit.symbol]
    if hit.reference is not None:
        return resolve(index, key, hit.reference)
    return []


def symbol_at(index: Index, key: str, line: int, col: int) -> Symbol | None:
    """The definition named at a position, or the first one a reference there resolves to."""
    found = definitions_at(index, key, line, col)
    return found[0] if found else None


def enclosing(index: Index, key: str, line: int, col: int) -> Symbol | None:
    """The innermost definition whose span contains the position."""
    entry = index.files.get(key)
    if entry is None:
        return None
    best: Symbol | None = None
    for s in entry.symbols:
        if _inside(line, col, (s.line, s.col), (s.end_line, s.end_col)) and (
            best is None or (s.line, s.col) >= (best.line, best.col)
        ):
            best = s
    return best


def usages(index: Index, target: Symbol) -> list[Reference]:
    """References anywhere in the workspace that resolve to ``target``."""
    resolver = Resolver(index)
    found: list[Reference] = []
    for key in index.files_referencing(target.name):
        entry: FileEntry = index.files[key]
        for ref in entry.references():
            if ref.name != target.name and not ref.name.endswith("." + target.name):
                continue
            if any(h.target.symbol_id == target.symbol_id for h in resolver.resolve(ref, entry)):
                found.append(ref)
    return found


def call_sites(index: Index, caller: Symbol, callee: Symbol) -> list[Reference]:
    """Calls of ``callee``'s name made directly inside ``caller``."""
    entry = index.files.get(caller.file)
    if entry is None:
        return []
    return [
        r
        for r in entry.references()
        if r.enclosing == caller.symbol_id and r.kind is RefKind.CALL and r.name == callee.name
    ]


def callers(index: Index, s: Symbol) -> list[Symbol]:
    return _unique(
        n for n, _, _ in index.neighbours(s.symbol_id, outgoing=False, kinds=_CALL_EDGES)
    )


def callees(index: Index, s: Symbol) -> list[Symbol]:
    return _unique(n for n, _, _ in index.neighbours(s.symbol_id, outgoing=True, kinds=_CALL_EDGES))


def supertypes(index: Index, s: Symbol) -> list[Symbol]:
    return _unique(n for n, _, _ in index.neighbours(s.symbol_id, outgoing=True, kinds=_TYPE_EDGES))


def subtypes(index: Index, s: Symbol) -> list[Symbol]:
    return _unique(
        n for n, _, _ in index.neighbours(s.symbol_id, outgoing=False, kinds=_TYPE_EDGES)
    )


def _unique(symbols: Iterable[Symbol]) -> list[Symbol]:
    seen: dict[str, Symbol] = {}
    for s in symbols:
        seen.setdefault(s.symbol_id, s)
    return list(seen.values())
