"""Call graph and type hierarchy walks: callers, callees, supertypes and subtypes.

Calls are the graph's CALLS edges (from the innermost definition that holds the
call); each edge carries the call sites, found again from the caller's
references. Types follow INHERITS and IMPLEMENTS edges; where the resolver
could not link a base class (``Symbol.extends``/``implements``), the base is
matched by name among the workspace's types, or reported by name alone.
"""

from __future__ import annotations

import threading
import weakref
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.extract.texts import is_extension, short_name
from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind, Kind, RefKind, Symbol
from symfuse.ranking.graph import behaviours
from symfuse.ranking.graph.targets import per_platform, require_symbol, resolver_for
from symfuse.ranking.query.records import BRIEF, Record, brief, round3, shown

MAX_DEPTH = 10
MAX_ITEMS = 1000
_CALLS = frozenset({EdgeKind.CALLS})
_TYPE_EDGES = frozenset({EdgeKind.INHERITS, EdgeKind.IMPLEMENTS})
# Languages whose types see one another by name (as in the resolver).
_FAMILY = {"typescript": "javascript", "tsx": "javascript", "cpp": "c", "cuda": "c", "objc": "c"}


@dataclass(frozen=True, slots=True)
class CallSite(Record):
    file: str
    line: int
    column: int
    end_column: int


@dataclass(frozen=True, slots=True)
class CallEdge(Record):
    """A caller (or callee) at ``depth`` hops, linked to ``via`` (the symbol one hop nearer).

    ``sites`` are the calls in the calling symbol: in ``symbol`` for callers, in
    ``via`` for callees (the LSP's ``fromRanges`` either way).
    """

    symbol: Symbol = field(metadata=shown(view=brief, flatten=True))
    depth: int
    via: str
    confidence: float = field(metadata=shown(view=round3))
    sites: tuple[CallSite, ...]


@dataclass(frozen=True, slots=True)
class CallGraphResult(Record):
    """The walk from ``root`` and, asked by a name that several overloads bear (C++'s
    ``vformat`` in four headers, Java's ``Gson.toJson``), from ``overloads`` too: each
    edge's ``via`` says which it reaches."""

    root: Symbol
    direction: str  # "callers" or "callees"
    items: tuple[CallEdge, ...]
    total: int
    truncated: bool
    overloads: tuple[Symbol, ...] = field(
        default=(),
        metadata=shown(view=lambda o: [brief(s) for s in o], omit=lambda r: not r.overloads),
    )


def callers(
    index: Index, symbol_id: str | Sequence[str], depth: int = 1, limit: int = 100
) -> CallGraphResult:
    """Who calls the symbol (or each of several overloads), breadth first up to ``depth`` hops."""
    return _walk_calls(index, _ids(symbol_id), depth, limit, outgoing=False)


def callees(
    index: Index, symbol_id: str | Sequence[str], depth: int = 1, limit: int = 100
) -> CallGraphResult:
    """What the symbol (or each of several overloads) calls, breadth first up to ``depth`` hops."""
    return _walk_calls(index, _ids(symbol_id), depth, limit, outgoing=True)


def _ids(symbol_id: str | Sequence[str]) -> tuple[str, ...]:
    return (symbol_id,) if isinstance(symbol_id, str) else tuple(symbol_id)


def _check(depth: int, limit: int) -> None:
    if not 1 <= depth <= MAX_DEPTH:
        raise InvalidRequest("depth", f"must be 1..{MAX_DEPTH}")
    if not 1 <= limit <= MAX_ITEMS:
        raise InvalidRequest("limit", f"must be 1..{MAX_ITEMS}")


def _walk_calls(
    index: Index, symbol_ids: Sequence[str], depth: int, limit: int, *, outgoing: bool
) -> CallGraphResult:
    _check(depth, limit)
    roots = [require_symbol(index, symbol_id) for symbol_id in symbol_ids]
    sites = _SiteFinder(index)
    seen = {root.symbol_id for root in roots}
    frontier = roots
    items: list[CallEdge] = []
    total = 0
    for level in range(1, depth + 1):
        following: list[Symbol] = []
        for node in frontier:
            for other, _, weight in index.neighbours(
                node.symbol_id, outgoing=outgoing, kinds=_CALLS
            ):
                if other.symbol_id in seen:
                    continue
                seen.add(other.symbol_id)
                following.append(other)
                total += 1
                if len(items) < limit:
                    caller, callee = (node, other) if outgoing else (other, node)
                    found = sites.between(caller, callee)
                    items.append(CallEdge(other, level, node.symbol_id, weight, found))
        frontier = following
    items.sort(key=lambda e: (e.depth, -e.confidence, e.symbol.file, e.symbol.line))
    direction = "callees" if outgoing else "callers"
    return CallGraphResult(
        roots[0], direction, tuple(items), total, total > len(items), tuple(roots[1:])
    )


class _SiteFinder:
    """Call sites of one symbol in another, from the caller file's references."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.resolver = resolver_for(index)
        self._by_enclosing: dict[str, dict[str, list[Any]]] = {}

    def between(self, caller: Symbol, callee: Symbol) -> tuple[CallSite, ...]:
        entry = self.index.files.get(caller.file)
        if entry is None:
            return ()
        table = self._by_enclosing.get(caller.file)
        if table is None:
            grouped: defaultdict[str, list[Any]] = defaultdict(list)
            for ref in entry.references():
                if ref.kind is RefKind.CALL and ref.enclosing is not None:
                    grouped[ref.enclosing].append(ref)
            table = self._by_enclosing[caller.file] = dict(grouped)
        found: list[CallSite] = []
        for ref in table.get(caller.symbol_id, ()):
            hits = self.resolver.resolve(ref, entry)
            if any(h.target.symbol_id == callee.symbol_id for h in hits):
                found.append(CallSite(ref.file, ref.line, ref.col, ref.col + len(ref.name)))
        return tuple(found)


# --- type hierarchy -----------------------------------------------------------------------


def _brief_or_unlinked(symbol: Symbol | None) -> dict[str, Any]:
    """A linked type's brief; for a base outside the workspace, the same keys set to None
    (but ``name``, which the link shows as written)."""
    if symbol is not None:
        return brief(symbol)
    return dict.fromkeys(key for key in BRIEF if key != "name")


@dataclass(frozen=True, slots=True)
class TypeLink(Record):
    """A supertype or subtype. ``symbol`` is None for a base outside the workspace.

    ``relation`` is "extends" or "implements"; ``resolved`` says the graph linked
    it (else it was matched by name, with ``confidence`` 1/candidates).
    """

    name: str
    symbol: Symbol | None = field(metadata=shown(view=_brief_or_unlinked, flatten=True))
    relation: str
    depth: int
    via: str
    confidence: float = field(metadata=shown(view=round3))
    resolved: bool


@dataclass(frozen=True, slots=True)
class TypeHierarchyResult(Record):
    root: Symbol
    supertypes: tuple[TypeLink, ...]
    subtypes: tuple[TypeLink, ...]


def type_hierarchy(
    index: Index, symbol_id: str, depth: int = 1, direction: str = "both"
) -> TypeHierarchyResult:
    """Supertypes and subtypes of a type, up to ``depth`` levels each way.

    ``direction`` is "both", "supertypes" or "subtypes".
    """
    _check(depth, MAX_ITEMS)
    if direction not in ("both", "supertypes", "subtypes"):
        raise InvalidRequest("direction", "one of both, supertypes, subtypes")
    root = main_part(index, require_symbol(index, symbol_id))  # JValue.cs of its parts
    up = supertypes(index, root, depth) if direction != "subtypes" else ()
    down = subtypes(index, root, depth) if direction != "supertypes" else ()
    return TypeHierarchyResult(root, up, down)


def _relation(kind: EdgeKind) -> str:
    return "implements" if kind is EdgeKind.IMPLEMENTS else "extends"


def _written_bases(symbol: Symbol) -> list[tuple[str, str]]:
    return [(short_name(t), "extends") for t in symbol.extends] + [
        (short_name(t), "implements") for t in symbol.implements
    ]


def _family(language: str) -> str:
    return _FAMILY.get(language, language)


def _types_named(index: Index, name: str, language: str) -> list[Symbol]:
    family = _family(language)
    return [
        index.symbols[i]
        for i in index.by_name.get(name, ())
        if index.symbols[i].kind in Kind.TYPES and _family(index.symbols[i].language) == family
    ]


def _impl_blocks(index: Index, symbol: Symbol) -> list[Symbol]:
    """A Rust type's ``impl`` blocks and a Haskell type's instances (kind object, of its
    name), a Swift or Dart type's extensions: where it implements its traits, classes and
    protocols (``impl Formatter for PrettyFormatter``, ``extension Session: RequestDelegate``)."""
    if symbol.language not in _EXTENDED or symbol.kind not in Kind.TYPES:
        return []
    if is_extension(symbol):
        return []
    found = (index.symbols[i] for i in index.by_name.get(symbol.name, ()))
    blocks = [s for s in found if s.language == symbol.language and _adds_to_a_type(s)]
    return [s for s in blocks if _implemented_type(index, s) == symbol]


# Languages where a type's traits, classes or protocols are declared apart from it: Rust's
# `impl Trait for T` and Haskell's `instance Class T` (kind object, named after the type),
# Swift's and Dart's extensions
_EXTENDED = frozenset({"rust", "haskell", "swift", "dart"})
_INSTANCES = frozenset({"rust", "haskell"})


def _adds_to_a_type(symbol: Symbol) -> bool:
    """A Rust impl block, a Haskell instance, a Swift or Dart extension."""
    return (symbol.kind is Kind.OBJECT and symbol.language in _INSTANCES) or is_extension(symbol)


def _implemented_type(index: Index, symbol: Symbol) -> Symbol:
    """For a Rust ``impl`` block, a Haskell instance or a Swift or Dart extension, the type
    it is for: the one type (not an extension) of its name, or of several (ripgrep's
    ``RegexMatcher`` in three crates) the one nearest to it, in its file or else sharing
    the most folders with it; else the block itself."""
    if not _adds_to_a_type(symbol):
        return symbol
    types = [t for t in _types_named(index, symbol.name, symbol.language) if not is_extension(t)]
    if len(types) > 1:
        types = _nearest(types, symbol.file)
    return types[0] if len(types) == 1 else symbol


def _nearest(symbols: list[Symbol], file: str) -> list[Symbol]:
    """Of ``symbols``, those in ``file``, else those sharing the most leading folders with it."""
    here = [s for s in symbols if s.file == file]
    if here:
        return here
    folders = file.split("/")[:-1]

    def shared(s: Symbol) -> int:
        count = 0
        for mine, theirs in zip(folders, s.file.split("/")[:-1], strict=False):
            if mine != theirs:
                break
            count += 1
        return count

    best = max(shared(s) for s in symbols)
    return [s for s in symbols if shared(s) == best]


def supertypes(index: Index, root: Symbol, depth: int = 1) -> tuple[TypeLink, ...]:
    """What ``root`` extends or implements, up to ``depth`` levels (a Rust type's traits
    through its ``impl`` blocks); a base outside the workspace once, by name, and one
    declared per platform (Kotlin's ``expect`` and its ``actual`` ones) once."""
    links: list[TypeLink] = []
    impls = _impl_blocks(index, root) + _declared_again(index, root)
    seen = {root.symbol_id, *(s.symbol_id for s in impls)}
    unlinked: set[str] = set()
    platforms: set[str] = set()  # names of bases declared per platform, listed once
    listed: set[str] = set()  # the bases listed, by id
    frontier = [root, *impls]
    for level in range(1, depth + 1):
        following: list[Symbol] = []
        for node in frontier:
            for found in _bases_of(index, node, level, seen, unlinked):
                if found.symbol is not None and per_platform(index, found.symbol):
                    if found.name in platforms:
                        continue  # another platform's declaration of a base listed
                    platforms.add(found.name)
                shown = found
                if found.symbol is not None:
                    parts = _declared_again(index, found.symbol)  # JToken.cs, JToken.Async.cs
                    if any(part.symbol_id in listed for part in parts):
                        continue
                    listed.add(found.symbol.symbol_id)
                    seen.update(part.symbol_id for part in parts)
                    following.extend([found.symbol, *parts])
                    shown = replace(found, symbol=main_part(index, found.symbol, parts))
                links.append(shown)
        frontier = following
    return tuple(links)


def inherited_members(index: Index, types: list[Symbol], member: str) -> list[Symbol]:
    """The definitions named ``member`` that ``types`` inherit: of each type, those of
    the nearest supertype (:func:`supertypes`) that defines one (``Flask.register_blueprint``
    is App's), a class's before an interface's or trait's declaration (Go's embedded
    struct's method over the interface the type implements; a Rust trait's default method
    when no impl has its own)."""
    by_parent: defaultdict[str, list[Symbol]] = defaultdict(list)
    for i in index.by_name.get(member, ()):
        symbol = index.symbols[i]
        # a Go method is declared beside its type: its receiver names it (the container)
        holder = symbol.parent or symbol.container
        if holder:
            by_parent[holder].append(symbol)

    def members(base: Symbol) -> list[Symbol]:
        return by_parent.get(base.symbol_id) or by_parent.get(base.fqn) or []

    found: dict[str, Symbol] = {}
    for owner in types:
        lineage = [link.symbol for link in supertypes(index, owner, MAX_DEPTH) if link.symbol]
        defining = [base for base in lineage if members(base)]
        concrete = [base for base in defining if base.kind not in (Kind.INTERFACE, Kind.TRAIT)]
        for base in (concrete or defining)[:1]:
            found.update((s.symbol_id, s) for s in members(base))
    return list(found.values())


def _bases_of(
    index: Index, node: Symbol, level: int, seen: set[str], unlinked: set[str]
) -> list[TypeLink]:
    """``node``'s bases not ``seen`` yet: linked by the graph, else matched by name among
    the workspace's types, else named as written (once per name: ``unlinked``)."""
    found: list[TypeLink] = []
    linked_names: set[str] = set()
    for other, kind, weight in index.neighbours(node.symbol_id, outgoing=True, kinds=_TYPE_EDGES):
        if _adds_to_a_type(other):  # an impl, instance or extension is no base
            continue
        linked_names.add(other.name)
        if other.symbol_id not in seen:
            seen.add(other.symbol_id)
            found.append(
                TypeLink(other.name, other, _relation(kind), level, node.symbol_id, weight, True)
            )
    for used in behaviours.used(index, node):  # Elixir's `use X`: X's behaviour
        if used.symbol_id not in seen:
            seen.add(used.symbol_id)
            found.append(TypeLink(used.name, used, "implements", level, node.symbol_id, 1.0, True))
    for name, relation in _written_bases(node):
        if name in linked_names:
            continue
        candidates = [
            c
            for c in _types_named(index, name, node.language)
            if c != node and not is_extension(c) and not _no_trait(c)
        ]
        if not candidates and name not in unlinked:
            unlinked.add(name)
            found.append(TypeLink(name, None, relation, level, node.symbol_id, 1.0, False))
        for c in candidates:
            if c.symbol_id not in seen:
                seen.add(c.symbol_id)
                conf = 1.0 / len(candidates)
                found.append(TypeLink(name, c, relation, level, node.symbol_id, conf, False))
    return found


def _no_trait(symbol: Symbol) -> bool:
    """A Rust definition no ``impl`` implements (the linker links only traits: 8fbd5e4),
    which a base written by name must not be taken for (serde's ``Deserializer`` is not
    serde_json's struct)."""
    return symbol.language == "rust" and symbol.kind is not Kind.TRAIT


def _declared_again(index: Index, root: Symbol) -> list[Symbol]:
    """The other declarations of ``root``'s type where a language lets one type be
    declared in several places, each naming bases of its own: C#'s partial classes
    (Newtonsoft.Json's ``JValue`` names its bases in JValue.cs, not in JValue.Async.cs),
    Ruby's reopened classes."""
    if root.language not in _DECLARED_IN_PARTS or root.kind not in Kind.TYPES:
        return []
    return [
        other
        for other in (index.symbols[i] for i in index.by_name.get(root.name, ()))
        if other.fqn == root.fqn
        and other.kind is root.kind
        and other.language == root.language
        and other.symbol_id != root.symbol_id
    ]


_DECLARED_IN_PARTS = frozenset({"csharp", "ruby"})


def main_part(index: Index, symbol: Symbol, parts: list[Symbol] | None = None) -> Symbol:
    """Of a type declared in parts (:func:`_declared_again`), the one to show: the part in
    the file named after the type (``JsonReader.cs``, not ``JsonReader.Async.cs``), else
    the one naming the most bases; ``symbol`` itself when it is declared once."""
    parts = _declared_again(index, symbol) if parts is None else parts
    if not parts:
        return symbol

    def key(part: Symbol) -> tuple[bool, int]:
        stem = part.file.rpartition("/")[2].rpartition(".")[0]
        return stem == part.name, len(part.extends) + len(part.implements)

    return max([symbol, *parts], key=key)


def subtypes(index: Index, root: Symbol, depth: int = 1) -> tuple[TypeLink, ...]:
    links: list[TypeLink] = []
    parts = _declared_again(index, root)
    seen = {root.symbol_id, *(s.symbol_id for s in parts)}
    frontier = [root, *parts]
    written = _subclasses_by_name(index)
    for level in range(1, depth + 1):
        following: list[Symbol] = []
        for node in frontier:
            found: list[tuple[Symbol, str, float, bool]] = []
            for other, kind, weight in index.neighbours(
                node.symbol_id, outgoing=False, kinds=_TYPE_EDGES
            ):
                # a routine is no subtype: Elixir's `@behaviour X` quoted in a
                # `defmacro __using__` is the using module's, not the macro's
                if not other.kind.is_callable and not _adds_to_a_type(node):
                    found.append((other, _relation(kind), weight, True))
            found.extend((m, "implements", w, True) for m, w in behaviours.users(index, node))
            family = _family(node.language)
            same_name = len(_types_named(index, node.name, node.language)) or 1
            for position, relation in written.get(node.name, ()):
                other = index.symbols[position]
                if _family(other.language) != family or _links_to_name(index, other, node.name):
                    continue
                if relation == "implements" and _no_trait(node):
                    continue  # a Rust impl of a trait named like this struct
                found.append((other, relation, 1.0 / same_name, False))
            for block, relation, conf, resolved in found:
                other = _implemented_type(index, block)  # a Rust impl: the type it is for
                if other.symbol_id in seen:
                    continue
                seen.add(other.symbol_id)
                following.append(other)
                links.append(
                    TypeLink(other.name, other, relation, level, node.symbol_id, conf, resolved)
                )
        frontier = following
    return tuple(links)


def _links_to_name(index: Index, symbol: Symbol, name: str) -> bool:
    """Whether the graph already links ``symbol`` to some type called ``name``."""
    return any(
        other.name == name
        for other, _, _ in index.neighbours(symbol.symbol_id, outgoing=True, kinds=_TYPE_EDGES)
    )


_SUBCLASSES: weakref.WeakKeyDictionary[Index, tuple[int, dict[str, list[tuple[int, str]]]]] = (
    weakref.WeakKeyDictionary()
)
_LOCK = threading.Lock()


def _subclasses_by_name(index: Index) -> dict[str, list[tuple[int, str]]]:
    """Base name as written -> (position, relation) of the symbols that name it."""
    with _LOCK:
        cached = _SUBCLASSES.get(index)
        if cached is not None and cached[0] == index.generation:
            return cached[1]
    table: defaultdict[str, list[tuple[int, str]]] = defaultdict(list)
    for position, symbol in enumerate(index.symbols):
        if symbol.extends or symbol.implements:
            for name, relation in _written_bases(symbol):
                table[name].append((position, relation))
    built = dict(table)
    with _LOCK:
        _SUBCLASSES[index] = (index.generation, built)
    return built
