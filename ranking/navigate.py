"""Navigation queries on the index: usages, symbol details, file outlines, what is at a position.

Pure functions of an :class:`Index`, answered with frozen dataclasses whose
``to_dict()`` is JSON-ready. Lines are 1-based; columns are 1-based code points
(as in :mod:`symfuse.indexer.model`), ``end_column`` exclusive. Paths given by a
caller are confined to the workspace by :mod:`symfuse.ranking.paths`. Calls and
type hierarchies live in :mod:`symfuse.ranking.hierarchy`.
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import EdgeKind, Kind, Reference, RefKind, Symbol
from symfuse.indexer.resolve import MAX_CANDIDATES, Resolver
from symfuse.ranking import paths

USAGE_KINDS = tuple(k.value for k in RefKind)
DECLARATION = "definition"  # the usage kind of a target's own definition
MAX_LIMIT = 10_000
MAX_CONTEXT_LINES = 50
MAX_SHOWN_TARGETS = 20
_WORD = re.compile(r"[^\W\d]\w*|\$\w*")
_PATH_LINE = re.compile(r"^(.*\S):(\d+)$")


def brief(symbol: Symbol) -> dict[str, Any]:
    """The few fields that identify a symbol in an answer."""
    return {
        "symbol_id": symbol.symbol_id,
        "name": symbol.name,
        "kind": symbol.kind.value,
        "fqn": symbol.fqn,
        "file": symbol.file,
        "line": symbol.line,
        "end_line": symbol.end_line,
        "signature": symbol.signature,
    }


# --- a resolver per index generation ------------------------------------------------------

_RESOLVERS: weakref.WeakKeyDictionary[Index, tuple[int, Resolver]] = weakref.WeakKeyDictionary()
_RESOLVERS_LOCK = threading.Lock()


def resolver_for(index: Index) -> Resolver:
    """A Resolver for the index as it is now, reused until the index changes."""
    with _RESOLVERS_LOCK:
        cached = _RESOLVERS.get(index)
        if cached is not None and cached[0] == index.generation:
            return cached[1]
    resolver = Resolver(index)
    with _RESOLVERS_LOCK:
        _RESOLVERS[index] = (index.generation, resolver)
    return resolver


def warm(index: Index) -> None:
    """Pay the first-query costs now: the resolver's tables and every file's references
    (a server calls this in the background after loading; about 0.5 s on Django)."""
    resolver_for(index)
    for entry in list(index.files.values()):
        entry.references()


def require_symbol(index: Index, symbol_id: str, *, argument: str = "symbol_id") -> Symbol:
    if not isinstance(symbol_id, str) or not symbol_id:
        raise InvalidRequest(argument, "give a symbol_id")
    symbol = index.get(symbol_id)
    if symbol is None:
        raise NotFound(
            f"{argument}: unknown symbol {symbol_id!r}; ids come from search results, "
            "or from get_symbol with a path (the file's outline)"
        )
    return symbol


def resolve_one(
    index: Index, symbol_id: str | None, name: str | None, file: str | None = None
) -> Symbol:
    """The one symbol a graph query is about, by id or by name (optionally in ``file``);
    an error listing the candidates when a name is ambiguous."""
    if symbol_id is not None and name is not None:
        raise InvalidRequest("name", "give either symbol_id or name, not both")
    if symbol_id is not None:
        return require_symbol(index, symbol_id)
    if name is None:
        raise InvalidRequest(
            "symbol_id", "give a symbol_id (from search), or a name (optionally with file)"
        )
    found = find_targets(index, name, file)
    if len(found) == 1:
        return found[0]
    shown = ", ".join(s.symbol_id for s in found[:8])
    more = f" and {len(found) - 8} more" if len(found) > 8 else ""
    raise InvalidRequest(
        "name",
        f"{name!r} names {len(found)} definitions ({shown}{more}); "
        "pass one of them as symbol_id, or add file",
    )


def _limits(limit: int, offset: int) -> None:
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest("limit", f"must be 1..{MAX_LIMIT}")
    if offset < 0:
        raise InvalidRequest("offset", "must be 0 or more")


# --- find_usages ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Usage:
    """One use of a target. ``kind`` is a RefKind value, or "definition" for a declaration."""

    file: str
    line: int
    column: int
    end_column: int
    kind: str
    enclosing: str | None
    target: str
    confidence: float
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_column": self.end_column,
            "kind": self.kind,
            "enclosing": self.enclosing,
            "target": self.target,
            "confidence": round(self.confidence, 3),
            "text": self.text,
        }


@dataclass(frozen=True, slots=True)
class FileUsages:
    file: str
    count: int
    usages: tuple[Usage, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "count": self.count,
            "usages": [u.to_dict() for u in self.usages],
        }


@dataclass(frozen=True, slots=True)
class UsagesResult:
    """A page of usages in file, line, column order. ``by_kind`` counts before the kind filter."""

    targets: tuple[Symbol, ...]
    usages: tuple[Usage, ...]
    total: int
    offset: int
    limit: int
    truncated: bool
    by_kind: dict[str, int]
    groups: tuple[FileUsages, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "targets": [brief(t) for t in self.targets[:MAX_SHOWN_TARGETS]],
            "target_count": len(self.targets),
            "total": self.total,
            "offset": self.offset,
            "limit": self.limit,
            "truncated": self.truncated,
            "by_kind": dict(self.by_kind),
        }
        if self.groups is not None:
            data["files"] = [g.to_dict() for g in self.groups]
        else:
            data["usages"] = [u.to_dict() for u in self.usages]
        return data


def parse_kinds(kinds: Iterable[str | RefKind] | str | None) -> frozenset[str] | None:
    """Usage kinds from a list or a comma-separated string; None means all."""
    if kinds is None:
        return None
    items = kinds.split(",") if isinstance(kinds, str) else list(kinds)
    chosen: set[str] = set()
    for item in items:
        value = item.value if isinstance(item, RefKind) else str(item).strip().lower()
        if not value:
            continue
        if value not in USAGE_KINDS:
            raise InvalidRequest("kinds", f"unknown usage kind {value!r}; one of {USAGE_KINDS}")
        chosen.add(value)
    return frozenset(chosen) or None


def find_targets(index: Index, name: str, file: str | None = None) -> list[Symbol]:
    """Definitions named ``name`` (or whose qualified name ends with it), optionally in ``file``."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidRequest("name", "give a name")
    name = name.strip()
    symbols = index.symbols
    found = [symbols[i] for i in index.by_name.get(name, ())]
    if not found and "." in name:
        last = name.rsplit(".", 1)[1]
        found = [
            symbols[i]
            for i in index.by_name.get(last, ())
            if symbols[i].fqn == name or symbols[i].fqn.endswith("." + name)
        ]
    if file is not None:
        key = paths.resolve_file(index, file, argument="file")
        found = [s for s in found if s.file == key]
        if not found:
            raise NotFound(f"name: no definition named {name!r} in {key}")
    if not found:
        raise NotFound(f"name: no definition named {name!r}; try search or search_text")
    return found


def find_usages(
    index: Index,
    symbol_id: str | None = None,
    name: str | None = None,
    file: str | None = None,
    kinds: Iterable[str | RefKind] | str | None = None,
    group_by_file: bool = False,
    limit: int = 50,
    offset: int = 0,
    include_declaration: bool = False,
    min_confidence: float = 0.0,
) -> UsagesResult:
    """References that resolve to a symbol (by id) or to the definitions of a name.

    A reference counts when the resolver links it to a target (confidence 1 when
    scope or imports decide, ``1/n``-ish among ``n`` same-named candidates); a
    name too common for the resolver to link (more than ``MAX_CANDIDATES``
    definitions) still counts, with confidence ``0.5/n``.
    """
    _limits(limit, offset)
    wanted = parse_kinds(kinds)
    if symbol_id is not None:
        targets = [require_symbol(index, symbol_id)]
    elif name is not None:
        targets = find_targets(index, name, file)
    else:
        raise InvalidRequest("symbol_id", "give a symbol_id, or a name (and optionally a file)")
    found = _usages(index, targets)
    if include_declaration:
        found.extend(_declaration(index, t) for t in targets)
    found = [u for u in found if u.confidence >= min_confidence]
    found.sort(key=lambda u: (u.file, u.line, u.column, u.kind != DECLARATION))
    by_kind = dict(sorted(Counter(u.kind for u in found).items()))
    if wanted is not None:
        found = [u for u in found if u.kind in wanted or u.kind == DECLARATION]
    page = tuple(found[offset : offset + limit])
    groups: tuple[FileUsages, ...] | None = None
    if group_by_file:
        per_file: dict[str, list[Usage]] = {}
        for u in page:
            per_file.setdefault(u.file, []).append(u)
        groups = tuple(FileUsages(f, len(us), tuple(us)) for f, us in per_file.items())
    return UsagesResult(
        targets=tuple(targets),
        usages=page,
        total=len(found),
        offset=offset,
        limit=limit,
        truncated=offset + len(page) < len(found),
        by_kind=by_kind,
        groups=groups,
    )


def _usages(index: Index, targets: list[Symbol]) -> list[Usage]:
    target_ids = {t.symbol_id for t in targets}
    by_name: dict[str, list[Symbol]] = {}
    for t in targets:
        by_name.setdefault(t.name, []).append(t)
    resolver = resolver_for(index)
    files = sorted({key for n in by_name for key in index.files_referencing(n)})
    found: list[Usage] = []
    seen: set[tuple[str, int, int]] = set()
    for key in files:
        entry = index.files[key]
        refs = entry.references()
        local = {r.alias: r.name for r in refs if r.kind is RefKind.IMPORT and r.alias}
        names = set(by_name) | {a for a, n in local.items() if n in by_name}
        lines: list[str] | None = None
        for ref in refs:
            if ref.name not in names:
                continue
            hit = _match(index, resolver, ref, entry, target_ids, by_name)
            if hit is None or (ref.file, ref.line, ref.col) in seen:
                continue
            seen.add((ref.file, ref.line, ref.col))
            if lines is None:
                lines = paths.read_lines(index, key)
            found.append(_usage(ref, lines, hit[0], hit[1]))
    return found


def _match(
    index: Index,
    resolver: Resolver,
    ref: Reference,
    entry: FileEntry,
    target_ids: set[str],
    by_name: dict[str, list[Symbol]],
) -> tuple[str, float] | None:
    """(target id, confidence) when ``ref`` refers to one of the targets."""
    hits = resolver.resolve(ref, entry)
    best: tuple[str, float] | None = None
    for h in hits:
        if h.target.symbol_id in target_ids and (best is None or h.confidence > best[1]):
            best = (h.target.symbol_id, h.confidence)
    if best is not None or hits:
        return best
    # Unlinked because the name is too common: keep it as a weak by-name match.
    same = by_name.get(ref.name)
    count = len(index.by_name.get(ref.name, ()))
    if not same or count <= MAX_CANDIDATES:
        return None
    if ref.kind is RefKind.IMPORT:
        return None
    fit = next(
        (
            t
            for t in same
            if t.language == entry.language
            and not (ref.kind is RefKind.CALL and t.kind not in Kind.CALL_TARGETS)
            and not (ref.kind is RefKind.REFERENCE and not ref.qualifier and t.kind in Kind.MEMBERS)
        ),
        None,
    )
    return (fit.symbol_id, 0.5 / count) if fit is not None else None


def _usage(ref: Reference, lines: list[str], target: str, confidence: float) -> Usage:
    text = paths.line_text(lines, ref.line)
    column = ref.col
    at = text.find(ref.name, ref.col - 1)
    if at >= 0 and ref.kind in (RefKind.DECORATE, RefKind.INHERIT, RefKind.IMPLEMENT):
        column = at + 1  # these references start at the decorator or base-class text
    return Usage(
        file=ref.file,
        line=ref.line,
        column=column,
        end_column=column + len(ref.name),
        kind=ref.kind.value,
        enclosing=ref.enclosing,
        target=target,
        confidence=confidence,
        text=text.strip()[:300],
    )


def _declaration(index: Index, target: Symbol) -> Usage:
    lines = paths.read_lines(index, target.file)
    return Usage(
        file=target.file,
        line=target.name_line,
        column=target.name_col,
        end_column=target.name_end_col,
        kind=DECLARATION,
        enclosing=target.parent,
        target=target.symbol_id,
        confidence=1.0,
        text=paths.line_text(lines, target.name_line).strip()[:300],
    )


# --- get_symbol ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SymbolDetail:
    """A symbol with its source, context and neighbourhood."""

    symbol: Symbol
    source: str
    start_line: int
    end_line: int
    source_truncated: bool
    context_before: str
    context_after: str
    parent: Symbol | None
    children: tuple[Symbol, ...]
    callers_count: int
    callees_count: int

    def to_dict(self) -> dict[str, Any]:
        s = self.symbol
        return {
            "type": "symbol",
            **brief(s),
            "language": s.language,
            "col": s.col,
            "end_col": s.end_col,
            "doc": s.doc,
            "decorators": list(s.decorators),
            "extends": list(s.extends),
            "implements": list(s.implements),
            "start_line": self.start_line,
            "source": self.source,
            "source_truncated": self.source_truncated,
            "context_before": self.context_before,
            "context_after": self.context_after,
            "parent": brief(self.parent) if self.parent is not None else None,
            "children": [brief(c) for c in self.children],
            "callers_count": self.callers_count,
            "callees_count": self.callees_count,
        }


@dataclass(frozen=True, slots=True)
class OutlineNode:
    symbol: Symbol
    children: tuple[OutlineNode, ...]

    def to_dict(self) -> dict[str, Any]:
        s = self.symbol
        return {
            "symbol_id": s.symbol_id,
            "name": s.name,
            "kind": s.kind.value,
            "line": s.line,
            "end_line": s.end_line,
            "signature": s.signature,
            "children": [c.to_dict() for c in self.children],
        }


@dataclass(frozen=True, slots=True)
class FileOutline:
    """A file's symbols as a tree (the LSP documentSymbol shape)."""

    file: str
    language: str
    symbols: tuple[OutlineNode, ...]
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "type": "outline",
            "file": self.file,
            "language": self.language,
            "count": self.count,
            "symbols": [n.to_dict() for n in self.symbols],
        }


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
        if match is not None and match.group(1) and not _is_file(index, path):
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


def _is_file(index: Index, path: str) -> bool:
    try:
        paths.resolve_file(index, path)
    except (NotFound, InvalidRequest):
        return False
    return True


def symbol_detail(
    index: Index, symbol_id: str, *, context_lines: int = 3, max_lines: int = 400
) -> SymbolDetail:
    if not 0 <= context_lines <= MAX_CONTEXT_LINES:
        raise InvalidRequest("context_lines", f"must be 0..{MAX_CONTEXT_LINES}")
    if max_lines < 1:
        raise InvalidRequest("max_lines", "must be 1 or more")
    symbol = require_symbol(index, symbol_id)
    lines = paths.read_lines(index, symbol.file)
    start, end = symbol.line, min(symbol.end_line, len(lines))
    cut = end - start + 1 > max_lines
    shown_end = start + max_lines - 1 if cut else end
    before = lines[max(0, start - 1 - context_lines) : start - 1]
    after = lines[end : end + context_lines]
    children = tuple(index.symbols[i] for i in index.children.get(symbol.symbol_id, ()))
    calls = frozenset({EdgeKind.CALLS})
    return SymbolDetail(
        symbol=symbol,
        source="\n".join(lines[start - 1 : shown_end]),
        start_line=start,
        end_line=symbol.end_line,
        source_truncated=cut,
        context_before="\n".join(before),
        context_after="\n".join(after),
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
    ids = {s.symbol_id for s in entry.symbols}
    for s in entry.symbols:
        kids.setdefault(s.parent if s.parent in ids else None, []).append(s)

    def build(parent: str | None) -> tuple[OutlineNode, ...]:
        return tuple(OutlineNode(s, build(s.symbol_id)) for s in kids.get(parent, ()))

    return FileOutline(key, entry.language, build(None), len(entry.symbols))


# --- positions ------------------------------------------------------------------------


def symbol_at(index: Index, file: str, line: int, col: int | None = None) -> Symbol | None:
    """The innermost definition whose span contains the position (``col`` None: the line)."""
    key = paths.resolve_file(index, file, argument="file")
    best: Symbol | None = None
    for s in index.files[key].symbols:
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
class Target:
    symbol: Symbol
    confidence: float

    def to_dict(self) -> dict[str, Any]:
        return {**brief(self.symbol), "confidence": round(self.confidence, 3)}


@dataclass(frozen=True, slots=True)
class DefinitionResult:
    """What the name at a position refers to. ``via`` is a RefKind value, "definition" or "word"."""

    file: str
    line: int
    column: int
    name: str
    via: str
    targets: tuple[Target, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "name": self.name,
            "via": self.via,
            "targets": [t.to_dict() for t in self.targets],
        }


def definition_at(index: Index, file: str, line: int, col: int) -> DefinitionResult:
    """The definitions that the name at (line, col) refers to, best first (may be empty)."""
    key = paths.resolve_file(index, file, argument="file")
    entry = index.files[key]
    text = paths.line_text(paths.read_lines(index, key), line)
    resolver = resolver_for(index)
    for ref, name in _refs_at(entry, text, line, col):
        hits = resolver.resolve(ref, entry)
        return _definition(key, line, col, name, ref.kind.value, hits)
    for s in entry.symbols:
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
        for shown in (ref.name, ref.alias):
            if not shown:
                continue
            at = text.find(shown, ref.col - 1)
            if at >= 0 and at + 1 <= col < at + 1 + len(shown):
                found.append((len(shown), ref, shown))
    found.sort(key=lambda item: item[0])
    return [(ref, shown) for _, ref, shown in found]


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
