"""Dead code: definitions nothing in the workspace refers to, each with a confidence
and the reason.

A definition is a candidate when no edge of the graph and no file-level reference
reaches it (:func:`~symfuse.ranking.analysis.dead_evidence.used_ids`), no import names it,
no ``__all__`` lists it, and its name is not so common that the resolver left its
references unlinked. Never reported: entry points (``main``), test functions and
classes, dunder methods, stubs (``.pyi``, ``.d.ts``), abstract and overloaded
declarations, property setters, and overrides: a method whose name a supertype or a
subtype also defines is reached through the other.

Confidence starts from how visible the definition is (:data:`PRIVATE` for a private
name, :data:`PUBLIC` for a public one: someone outside the workspace may import it)
and is capped by every sign of a use no reference records (:class:`Doubt`): a
decorator (a framework may call the function), a base class outside the workspace
(the method may override one of its), a class nested in a class (``Meta``), a
module-level value (configuration modules are read by name), the name written as
a string (``getattr``), a dispatch prefix (``"visit_" + kind``), or the name
appearing elsewhere in the text. Precision matters more than recall: an agent told
to delete a needed function pays more than one told nothing.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.index import Index
from symfuse.indexer.link.resolve import MAX_CANDIDATES
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.analysis import dead_evidence as evidence
from symfuse.ranking.analysis.dead_rules import Judge
from symfuse.ranking.graph.usages import UsageScope
from symfuse.ranking.query.records import Record, brief, round3, shown
from symfuse.ranking.query.search_request import IncludeTests
from symfuse.ranking.query.vocabulary import matched_kinds

MAX_LIMIT = 10_000


@dataclass(frozen=True, slots=True)
class DeadSymbol(Record):
    """A definition nothing refers to: how sure the report is (0..1), and why."""

    symbol: Symbol = field(metadata=shown(view=brief, flatten=True))
    confidence: float = field(metadata=shown(view=round3))
    reason: str


@dataclass(frozen=True, slots=True)
class DeadCodeScope:
    """Which definitions are judged: files, kinds, languages, test code, confidence."""

    file_pattern: tuple[str, ...] = ()
    kinds: tuple[Kind, ...] = ()
    languages: tuple[str, ...] = ()
    include_tests: IncludeTests = IncludeTests.FALSE
    min_confidence: float = 0.5

    def admits(self, symbol: Symbol) -> bool:
        if self.kinds and symbol.kind not in matched_kinds(self.kinds):
            return False
        if self.languages and symbol.language not in self.languages:
            return False
        return UsageScope(self.file_pattern, (), self.include_tests).admits(symbol.file)


@dataclass(frozen=True, slots=True)
class DeadCodeResult(Record):
    """A page of dead definitions, surest first; ``by_kind`` counts every one found."""

    items: tuple[DeadSymbol, ...]
    total: int
    offset: int
    limit: int
    truncated: bool
    by_kind: dict[str, int]


def dead_code(
    index: Index, scope: DeadCodeScope | None = None, limit: int = 100, offset: int = 0
) -> DeadCodeResult:
    """The definitions in ``scope`` that nothing in the workspace refers to."""
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest("limit", f"must be 1..{MAX_LIMIT}")
    if offset < 0:
        raise InvalidRequest("offset", "must be 0 or more")
    scope = scope or DeadCodeScope()
    found = [d for d in find_dead(index, scope) if d.confidence >= scope.min_confidence]
    found.sort(key=lambda d: (-d.confidence, d.symbol.file, d.symbol.line))
    page = tuple(found[offset : offset + limit])
    return DeadCodeResult(
        items=page,
        total=len(found),
        offset=offset,
        limit=limit,
        truncated=offset + len(page) < len(found),
        by_kind=dict(sorted(Counter(d.symbol.kind.value for d in found).items())),
    )


def find_dead(index: Index, scope: DeadCodeScope) -> list[DeadSymbol]:
    """Every unreferenced definition in ``scope``, whatever its confidence."""
    used = evidence.used_ids(index)
    imported = evidence.imported_names(index)
    exported = evidence.exported_names(index)
    judge = Judge(index)
    found: list[DeadSymbol] = []
    for symbol in index.symbols:
        if symbol.symbol_id in used or not scope.admits(symbol) or not judge.reportable(symbol):
            continue
        if symbol.name in imported or symbol.name in exported or _too_common(index, symbol):
            continue
        verdict = judge.verdict(symbol)
        if verdict is not None:
            found.append(DeadSymbol(symbol, verdict[0], verdict[1]))
    return found


def _too_common(index: Index, symbol: Symbol) -> bool:
    """A name with more definitions than the resolver links: its references may be
    any of them, so any reference of the name counts as a use."""
    many = len(index.by_name.get(symbol.name, ())) > MAX_CANDIDATES
    return many and bool(index.files_referencing(symbol.name))
