"""``find_usages``: the references that resolve to a symbol, or to the definitions of a name.

Answered with :class:`~symfuse.ranking.query.records.Record` dataclasses (``to_dict()``).
Lines are 1-based; columns are 1-based code points (as in
:mod:`symfuse.indexer.model`), ``end_column`` exclusive.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.link.resolve import MAX_CANDIDATES, NAME, SCOPE, Resolver
from symfuse.indexer.model import Kind, Reference, RefKind, Symbol
from symfuse.ranking.fusion.roles import Role, role_of
from symfuse.ranking.graph.named import find_targets
from symfuse.ranking.graph.targets import DECLARATION, require_symbol, resolver_for
from symfuse.ranking.query.records import MAX_SHOWN_TARGETS, Record, brief, round3, shown
from symfuse.ranking.query.search_request import IncludeTests
from symfuse.ranking.search.filters import glob_match
from symfuse.ranking.text import paths

USAGE_KINDS = tuple(k.value for k in RefKind)
MAX_LIMIT = 10_000
# the files past the page named in ``by_file``: those with the most usages left (FastAPI's
# 1,580 usages span 700 files, whose counts alone filled an agent's 2,000-token page)
MAX_SHOWN_FILES = 20


def _limits(limit: int, offset: int) -> None:
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest("limit", f"must be 1..{MAX_LIMIT}")
    if offset < 0:
        raise InvalidRequest("offset", "must be 0 or more")


@dataclass(frozen=True, slots=True)
class Usage(Record):
    """One use of a target. ``kind`` is a RefKind value, or "definition" for a declaration;
    ``resolution`` how the reference was linked to it: ``scope``, ``import``, ``type``
    (its receiver's declared type) or ``name`` (by name alone, a guess)."""

    file: str
    line: int
    column: int
    end_column: int
    kind: str
    enclosing: str | None
    target: str
    confidence: float = field(metadata=shown(view=round3))
    resolution: str
    text: str
    repository: str  # the alias of the file's root


@dataclass(frozen=True, slots=True)
class UsageScope:
    """Which files' usages count: globs to keep and to skip, and test/example code."""

    file_pattern: tuple[str, ...] = ()
    exclude_path: tuple[str, ...] = ()
    include_tests: IncludeTests = IncludeTests.TRUE

    def admits(self, file: str) -> bool:
        if self.file_pattern and not any(glob_match(file, p) for p in self.file_pattern):
            return False
        if any(glob_match(file, p) for p in self.exclude_path):
            return False
        side = role_of(file) is not Role.PRODUCT
        if self.include_tests is IncludeTests.FALSE:
            return not side
        return side if self.include_tests is IncludeTests.ONLY else True


@dataclass(frozen=True, slots=True)
class UsagesResult(Record):
    """A page of usages, sure links and the files that matter first (:func:`_relevance`),
    then line and column. ``by_kind`` counts before the kind filter; ``by_file`` counts,
    per file, the usages past the page (so a budget-cut answer still says where the
    rest are): the ``MAX_SHOWN_FILES`` files with the most of them, ``other_files``
    the number of files past those.

    Shown with the first ``MAX_SHOWN_TARGETS`` targets. One flat page: the front ends
    group it by file when asked (``symfuse.server.common.present``).
    """

    targets: tuple[Symbol, ...] = field(
        metadata=shown(view=lambda targets: [brief(t) for t in targets[:MAX_SHOWN_TARGETS]])
    )
    target_count: int = field(init=False)  # len(targets)
    total: int
    offset: int
    limit: int
    truncated: bool
    by_kind: dict[str, int]
    usages: tuple[Usage, ...]
    by_file: dict[str, int] = field(
        default_factory=dict, metadata=shown(omit=lambda r: not r.truncated)
    )
    other_files: int = field(default=0, metadata=shown(omit=lambda r: not r.other_files))
    # usages linked less surely than ``min_confidence``, left out of the page
    unresolved: int = field(default=0, metadata=shown(omit=lambda r: not r.unresolved))

    def __post_init__(self) -> None:
        object.__setattr__(self, "target_count", len(self.targets))


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


def find_usages(
    index: Index,
    symbol_id: str | Sequence[str] | None = None,
    name: str | None = None,
    file: str | None = None,
    kinds: Iterable[str | RefKind] | str | None = None,
    limit: int = 50,
    offset: int = 0,
    include_declaration: bool = False,
    min_confidence: float = 0.0,
    scope: UsageScope | None = None,
) -> UsagesResult:
    """References that resolve to a symbol (by id, or several ids: a method's overloads)
    or to the definitions of a name.

    A reference counts when the resolver links it to a target (confidence 1 when
    scope or imports decide, ``1/n``-ish among ``n`` same-named candidates); a
    name too common for the resolver to link (more than ``MAX_CANDIDATES``
    definitions) still counts, with confidence ``0.5/n``.
    """
    _limits(limit, offset)
    wanted = parse_kinds(kinds)
    if isinstance(symbol_id, str):
        targets = [require_symbol(index, symbol_id)]
    elif symbol_id is not None:  # one method's overloads
        targets = [require_symbol(index, one) for one in symbol_id]
    elif name is not None:
        targets = find_targets(index, name, file)
    else:
        raise InvalidRequest("symbol_id", "give a symbol_id, or a name (and optionally a file)")
    found = _usages(index, targets)
    if include_declaration:
        found.extend(_declaration(index, t) for t in targets)
    scope = scope or UsageScope()
    found = [u for u in found if scope.admits(u.file)]
    unresolved = sum(
        1 for u in found if u.confidence < min_confidence and (wanted is None or u.kind in wanted)
    )
    found = [u for u in found if u.confidence >= min_confidence]
    by_kind = dict(sorted(Counter(u.kind for u in found).items()))
    if wanted is not None:
        found = [u for u in found if u.kind in wanted or u.kind == DECLARATION]
    found = _relevance(found, {t.file for t in targets})
    page = tuple(found[offset : offset + limit])
    rest = Counter(u.file for u in found[offset + len(page) :])
    shown_files = dict(rest.most_common(MAX_SHOWN_FILES))
    return UsagesResult(
        targets=tuple(targets),
        usages=page,
        total=len(found),
        offset=offset,
        limit=limit,
        truncated=offset + len(page) < len(found),
        by_kind=by_kind,
        by_file=shown_files,
        other_files=len(rest) - len(shown_files),
        unresolved=unresolved,
    )


def _relevance(found: list[Usage], homes: set[str]) -> list[Usage]:
    """Usages ordered so that a page cut short keeps what matters: product code before
    tests, examples and benchmarks; within each, sure links before guesses (by
    confidence), then the targets' own files first, then the files that use them most,
    then by path; line and column order within a file."""
    per_file = Counter(u.file for u in found)

    def key(u: Usage) -> tuple[bool, float, bool, int, str, int, int, bool]:
        side = role_of(u.file) is not Role.PRODUCT
        home = u.file not in homes
        sure = -round(u.confidence, 2)
        return (
            side,
            sure,
            home,
            -per_file[u.file],
            u.file,
            u.line,
            u.column,
            u.kind != DECLARATION,
        )

    return sorted(found, key=key)


def _usages(index: Index, targets: list[Symbol]) -> list[Usage]:
    target_ids = {t.symbol_id for t in targets}
    by_name: dict[str, list[Symbol]] = {}
    for t in targets:
        by_name.setdefault(t.name, []).append(t)
    resolver = resolver_for(index)
    files = sorted({key for n in by_name for key in index.files_referencing(n)})
    found: list[Usage] = []
    seen: set[tuple[str, int, int]] = set()
    shown: set[tuple[str, int, int]] = set()
    for key in files:
        entry = index.files[key]
        refs = entry.references()
        local = {r.alias: r.name for r in refs if r.kind is RefKind.IMPORT and r.alias}
        names = set(by_name) | {a for a, n in local.items() if n in by_name}
        lines: Sequence[str] | None = None
        for ref in refs:
            if ref.name not in names:
                continue
            hit = _match(index, resolver, ref, entry, target_ids, by_name)
            if hit is None or (ref.file, ref.line, ref.col) in seen:
                continue
            seen.add((ref.file, ref.line, ref.col))
            if lines is None:
                lines = paths.read_lines(index, key)
            usage = _usage(ref, lines, hit, entry.root)
            if (usage.file, usage.line, usage.column) in shown:
                continue  # `@attrs(...)`: the decorator and the call in it are one use
            shown.add((usage.file, usage.line, usage.column))
            found.append(usage)
    return found


def _match(
    index: Index,
    resolver: Resolver,
    ref: Reference,
    entry: FileEntry,
    target_ids: set[str],
    by_name: dict[str, list[Symbol]],
) -> tuple[str, float, str] | None:
    """(target id, confidence, resolution) when ``ref`` refers to one of the targets: the
    likeliest, as surely as it refers to any of them (a use the resolver splits between
    two overloads asked for together is a sure use of one of them)."""
    hits = resolver.resolve(ref, entry)
    best: tuple[str, float, str] | None = None
    total = 0.0
    for h in hits:
        if h.target.symbol_id in target_ids:
            total += h.confidence
            if best is None or h.confidence > best[1]:
                best = (h.target.symbol_id, h.confidence, h.how)
    if best is not None:
        return best[0], min(1.0, total), best[2]
    if hits:
        return None
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
    return (fit.symbol_id, 0.5 / count, NAME) if fit is not None else None


def _usage(
    ref: Reference, lines: Sequence[str], hit: tuple[str, float, str], repository: str
) -> Usage:
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
        target=hit[0],
        confidence=hit[1],
        resolution=hit[2],
        text=text.strip()[:300],
        repository=repository,
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
        resolution=SCOPE,
        text=paths.line_text(lines, target.name_line).strip()[:300],
        repository=target.root,
    )
