"""Impact: what a change to a symbol, a file or a diff may break, and which tests
exercise it.

From the changed definitions the walk follows, breadth first up to ``depth`` hops:
the definitions that call or refer to them (the graph's incoming edges but imports
and inheritance) through links at least ``min_confidence`` sure (the usages' default,
0.5: ``dict.get`` is no use of ``Client.get``; the guesses below are counted as
``unresolved``), the subclasses of a reached type, the overriders of a changed method
(a subtype's method of the same name: a method reached only because it uses the change
does not reach its overriders, which replace it), and the files whose imports name
them or whose module-level code uses them (no definition to walk on from). Each
reached definition is walked from in turn; files stop the walk.

The answer is grouped by file, product code first, and the test files among them
(:func:`~symfuse.ranking.fusion.roles.role_of`) are listed again as ``tests``: the tests
that exercise the change.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind, Kind, Symbol
from symfuse.ranking.analysis.dead_evidence import file_level_uses
from symfuse.ranking.analysis.diffs import Lines, changes, file_key
from symfuse.ranking.fusion.roles import Role, role_of
from symfuse.ranking.graph.inheritance import inheritance
from symfuse.ranking.query.records import Record, brief, shown

DEFAULT_MIN_CONFIDENCE = 0.5  # as find_usages' default (ranking/query/requests.py)

MAX_DEPTH = 10
MAX_LIMIT = 10_000
_USES = frozenset({EdgeKind.CALLS, EdgeKind.REFERENCES, EdgeKind.TYPE_OF, EdgeKind.DECORATES})


@dataclass(frozen=True, slots=True)
class Impacted(Record):
    """Something a change reaches: a definition, or a file alone (``symbol`` None) for
    an import or module-level code. ``relation`` says how: calls, references,
    subclass, override, imports, module_code; ``via`` is the symbol one hop nearer."""

    file: str
    line: int
    name: str
    kind: str
    relation: str
    depth: int
    via: str
    symbol_id: str | None = None


@dataclass(frozen=True, slots=True)
class FileImpact(Record):
    file: str
    test: bool
    items: tuple[Impacted, ...]


@dataclass(frozen=True, slots=True)
class ImpactResult(Record):
    """The changed definitions, and what they reach grouped by file (product code
    first); ``tests`` names the test files among them; ``unresolved`` counts the
    definitions linked to a reached one only by a guess below ``min_confidence``."""

    changed: tuple[Symbol, ...] = field(metadata=shown(view=lambda s: [brief(x) for x in s]))
    files: tuple[FileImpact, ...]
    tests: tuple[str, ...]
    total: int
    offset: int
    truncated: bool
    unresolved: int = 0


def impact(
    index: Index,
    changed: list[Symbol],
    depth: int = 2,
    limit: int = 200,
    offset: int = 0,
    min_confidence: float = DEFAULT_MIN_CONFIDENCE,
) -> ImpactResult:
    """What may break when the ``changed`` definitions change, up to ``depth`` hops."""
    if not 1 <= depth <= MAX_DEPTH:
        raise InvalidRequest("depth", f"must be 1..{MAX_DEPTH}")
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest("limit", f"must be 1..{MAX_LIMIT}")
    if offset < 0:
        raise InvalidRequest("offset", "must be 0 or more")
    walk = _Walk(index, min_confidence)
    found = walk.run(changed, depth)
    found.sort(key=lambda i: (role_of(i.file) is not Role.PRODUCT, i.depth, i.file, i.line))
    shown_items = found[offset : offset + limit]
    per_file: dict[str, list[Impacted]] = defaultdict(list)
    for item in shown_items:
        per_file[item.file].append(item)
    files = tuple(
        FileImpact(f, role_of(f) is not Role.PRODUCT, tuple(items)) for f, items in per_file.items()
    )
    tests = sorted({i.file for i in found if role_of(i.file) is Role.TEST})
    truncated = offset + len(shown_items) < len(found)
    unresolved = len(walk.guessed - walk.seen - {file for file, _ in walk.files_seen})
    return ImpactResult(
        tuple(changed), files, tuple(tests), len(found), offset, truncated, unresolved
    )


class _Walk:
    """One breadth-first walk from the changed definitions."""

    def __init__(self, index: Index, min_confidence: float) -> None:
        self.index = index
        self.min_confidence = min_confidence
        self.guessed: set[str] = set()
        self.tree = inheritance(index)
        self.uses = file_level_uses(index)
        self.seen: set[str] = set()
        self.files_seen: set[tuple[str, str]] = set()
        self.found: list[Impacted] = []

    def run(self, changed: list[Symbol], depth: int) -> list[Impacted]:
        self.seen = {s.symbol_id for s in changed}
        frontier = list(changed)
        for level in range(1, depth + 1):
            following: list[Symbol] = []
            for node in frontier:
                for other, relation in self._reached(node, changed=level == 1):
                    if other.symbol_id in self.seen:
                        continue
                    self.seen.add(other.symbol_id)
                    following.append(other)
                    self.found.append(_item(other, relation, level, node.symbol_id))
                self._files(node, level)
            frontier = following
        return self.found

    def _reached(self, node: Symbol, changed: bool) -> list[tuple[Symbol, str]]:
        index = self.index
        reached = []
        for other, kind, weight in index.neighbours(node.symbol_id, outgoing=False, kinds=_USES):
            if weight < self.min_confidence:
                self.guessed.add(other.symbol_id)
                continue
            reached.append((other, "calls" if kind is EdgeKind.CALLS else "references"))
        if node.kind in Kind.TYPES:
            reached += [
                (s, "subclass") for s in self._symbols(self.tree.derived.get(node.symbol_id, ()))
            ]
        parent = index.get(node.parent) if changed and node.parent is not None else None
        if parent is not None and parent.kind in Kind.TYPES and node.kind in Kind.CALLABLES:
            for sub in self.tree.descendants(parent.symbol_id):
                for i in index.children.get(sub, ()):
                    if index.symbols[i].name == node.name:
                        reached.append((index.symbols[i], "override"))
        return reached

    def _symbols(self, ids: Iterable[str]) -> list[Symbol]:
        found = [self.index.get(i) for i in ids]
        return [s for s in found if s is not None]

    def _files(self, node: Symbol, level: int) -> None:
        """Files that import ``node`` or use it at module level: they stop the walk."""
        for relation, table in (("imports", self.uses.imported), ("module_code", self.uses.used)):
            for file in sorted(table.get(node.symbol_id, ())):
                if file == node.file and relation == "module_code" and level > 1:
                    continue
                if (file, relation) in self.files_seen:
                    continue
                sure = self.uses.sure.get((node.symbol_id, file), 1.0)
                if relation == "module_code" and sure < self.min_confidence:
                    self.guessed.add(file)  # a guess (`response.json()`): unresolved
                    continue
                self.files_seen.add((file, relation))
                self.found.append(Impacted(file, 0, "", "file", relation, level, node.symbol_id))


def _item(symbol: Symbol, relation: str, depth: int, via: str) -> Impacted:
    return Impacted(
        symbol.file,
        symbol.line,
        symbol.name,
        symbol.kind.value,
        relation,
        depth,
        via,
        symbol.symbol_id,
    )


# a decorator or annotation (Python, Java, TypeScript, Kotlin, Swift), an attribute (Rust, C#)
_DECORATION = re.compile(r"^\s*(?:@|#\[|\[\w.*\]\s*$)")
_DECORATION_LINES = 8  # the most lines a decoration above its definition is looked through


def _innermost(symbols: list[Symbol], line: int) -> Symbol | None:
    holders = [s for s in symbols if s.line <= line <= s.end_line]
    return min(holders, key=lambda s: (s.end_line - s.line, -s.line)) if holders else None


def _decorated(symbols: list[Symbol], line: int, text: str) -> Symbol | None:
    """The decorated definition that ``line``, a decorator or attribute, stands above."""
    if not _DECORATION.match(text):
        return None
    below = [s for s in symbols if line < s.line <= line + _DECORATION_LINES and s.decorators]
    return min(below, key=lambda s: s.line) if below else None


def _attached(symbols: list[Symbol], container: Symbol, line: int, lines: Lines) -> Symbol | None:
    """The member of ``container`` (itself unchanged) that a changed line between its
    members belongs to: the value it follows (an attribute's docstring: Python's string
    literal after ``x = 1``), else the member it stands above (a comment on it), when
    changed or blank lines run unbroken from the member to ``line``."""
    members = [s for s in symbols if s.parent == container.symbol_id]
    above = max((s for s in members if s.end_line < line), key=lambda s: s.end_line, default=None)
    if above is not None and above.kind in Kind.VALUES and lines.unbroken(above.end_line + 1, line):
        return above
    below = min((s for s in members if s.line > line), key=lambda s: s.line, default=None)
    if below is not None and lines.unbroken(line, below.line - 1):
        return below
    return None


def changed_in_file(index: Index, path: str) -> list[Symbol]:
    """Every definition of a workspace file (code, not document headings or keys)."""
    key = file_key(index, path)
    if key is None:
        raise NotFound(f"target: no symbol, and no file {path!r} in the index")
    return [s for s in index.files[key].definitions() if s.kind not in Kind.DOCUMENTS]


def changed_by_diff(index: Index, diff: str) -> list[Symbol]:
    """The definitions whose spans the new side of a unified diff touches: for each
    changed line, the innermost definition holding it, or the definition a changed
    decorator or attribute line stands above (a definition's span starts at its
    name's line: ``@property`` above a method changes the method, not its class)."""
    touched: dict[str, Symbol] = {}
    found = changes(diff)
    for path, lines in found.items():
        key = file_key(index, path)
        if key is None:
            continue
        symbols = [s for s in index.files[key].definitions() if s.kind not in Kind.DOCUMENTS]
        for line, text in sorted(lines.changed.items()):
            inner = _decorated(symbols, line, text) or _innermost(symbols, line)
            if (
                inner is not None
                and inner.kind in Kind.CONTAINERS
                and inner.line not in lines.changed
            ):
                inner = _attached(symbols, inner, line, lines) or inner
            if inner is not None:
                touched.setdefault(inner.symbol_id, inner)
    if not touched and not found:
        raise InvalidRequest("diff", "no file changes found: give `git diff` output (unified)")
    return list(touched.values())
