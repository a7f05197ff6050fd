"""References -> definition-to-definition edges.

A reference is resolved by trying, in order:

1. the same scope: a definition with that name in the enclosing definition, its
   parents, the enclosing class (for ``self.x``/``this.x``) and the file;
2. imports: a name or module alias bound by an import of the same file, looked
   up by qualified name;
3. the bare name anywhere in the workspace, each of ``n`` candidates with
   confidence ``1/n`` (names with more than ``MAX_CANDIDATES`` definitions are
   too ambiguous to link).

Edges go from the reference's enclosing definition to the resolved definition;
references at file level have no source definition and make no edge.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from symfuse.indexer.extract import module_name
from symfuse.indexer.index import EdgeRow, FileEntry, Index
from symfuse.indexer.model import EdgeKind, Kind, Reference, RefKind, Symbol

MAX_CANDIDATES = 8
_SELF_NAMES = frozenset({"self", "this", "cls", "super()", "Self", "@"})
_CALLABLE = frozenset(
    {Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR, Kind.CLASS, Kind.STRUCT, Kind.MACRO}
)
_TYPES = frozenset(
    {
        Kind.CLASS,
        Kind.STRUCT,
        Kind.INTERFACE,
        Kind.TRAIT,
        Kind.ENUM,
        Kind.TYPE,
        Kind.UNION,
        Kind.TYPE_PARAMETER,
    }
)


_MEMBERS = frozenset({Kind.FIELD, Kind.METHOD, Kind.PROPERTY, Kind.CONSTRUCTOR})
_CONTAINERS = frozenset(kind for kind in Kind if kind.is_container)
# Languages whose files see one another's definitions by bare name.
_FAMILY = {"typescript": "javascript", "tsx": "javascript", "cpp": "c", "cuda": "c", "objc": "c"}


class Resolution(NamedTuple):
    """A definition a reference resolves to (a named tuple: hundreds of thousands per index)."""

    target: Symbol
    confidence: float


class Resolver:
    """Resolves references against an index's current symbols."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.symbols = index.symbols
        self.by_name = index.by_name
        self._by_fqn = index.by_fqn
        self._bare: dict[tuple[str, RefKind, bool, str], list[Resolution]] = {}
        self._imports: dict[str, dict[str, str]] = {}
        self._outside: dict[tuple[str, str, str, RefKind], list[Resolution]] = {}

    def _file_imports(self, entry: FileEntry) -> dict[str, str]:
        """Local name -> qualified name it stands for, from the file's import references."""
        table = self._imports.get(entry.path)
        if table is None:
            table = {}
            for ref in entry.references():
                if ref.kind is not RefKind.IMPORT:
                    continue
                full = _import_fqn(ref, entry)
                local = ref.alias or ref.name.rsplit(".", 1)[-1]
                table[local] = full
                if not ref.alias and "." in ref.name and not ref.qualifier:
                    table[ref.name.split(".", 1)[0]] = ref.name.split(".", 1)[0]
            self._imports[entry.path] = table
        return table

    def resolve(self, ref: Reference, entry: FileEntry) -> list[Resolution]:
        name = ref.name
        if ref.kind is RefKind.IMPORT:
            target = self._fqn(_import_fqn(ref, entry))
            return [Resolution(target, 1.0)] if target is not None else []
        qualifier = ref.qualifier
        if not qualifier or qualifier in _SELF_NAMES:
            scoped = self._in_scope(ref, entry)
            if scoped is not None:
                return [Resolution(scoped, 1.0)]
        # Past the scopes the answer depends on the file and the written name alone:
        # remembered per file (a test module says `self.assertEqual` a thousand times).
        key = (entry.path, name, qualifier, ref.kind)
        found = self._outside.get(key)
        if found is None:
            found = self._outside[key] = self._outside_scopes(ref, entry)
        return found

    def _outside_scopes(self, ref: Reference, entry: FileEntry) -> list[Resolution]:
        name = ref.name
        imports = self._file_imports(entry)
        if ref.qualifier:
            head = ref.qualifier.split(".", 1)[0]
            rest = ref.qualifier[len(head) :]
            # The qualifier's head is an imported name, or a definition of this file
            # (``Order.total(self)`` next to ``class Order``).
            local = entry.lookups().top.get(head)
            for base in (imports.get(head), local.fqn if local is not None else None):
                if base is None:
                    continue
                target = self._fqn(f"{base}{rest}.{name}")
                if target is not None:
                    return [Resolution(target, 1.0)]
        elif name in imports:
            target = self._fqn(imports[name])
            if target is not None:
                return [Resolution(target, 1.0)]
        return self._by_bare_name(ref, entry)

    def _fqn(self, dotted: str) -> Symbol | None:
        """The definition with this qualified name; failing that, with its longest suffix
        of two or more parts (``django.db.models.Q`` when the workspace root is the
        ``django`` package itself, whose names start at ``db``)."""
        found = self._by_fqn.get(dotted)
        if found is not None:
            return found
        parts = dotted.split(".")
        for start in range(1, len(parts) - 1):
            found = self._by_fqn.get(".".join(parts[start:]))
            if found is not None:
                break
        return found

    def _in_scope(self, ref: Reference, entry: FileEntry) -> Symbol | None:
        """A definition of the name in the reference's scopes (all in its own file)."""
        by_id, top, scoped, nested_names = entry.lookups()
        self_scope = bool(ref.qualifier)
        if ref.name not in nested_names:  # no scope of this file defines it: skip the walk
            return None if self_scope else top.get(ref.name)
        scope = ref.enclosing
        while scope is not None:
            owner = by_id.get(scope)
            if owner is None:
                break
            if not self_scope or owner.kind in _CONTAINERS:
                found = scoped.get((scope, ref.name))
                if found is not None and found.symbol_id != ref.enclosing:
                    return found
            scope = owner.parent
        if self_scope:
            return None
        return top.get(ref.name)

    def _by_bare_name(self, ref: Reference, entry: FileEntry) -> list[Resolution]:
        """Candidates by name alone; they depend on nothing else, so they are cached."""
        key = (ref.name, ref.kind, bool(ref.qualifier), _FAMILY.get(entry.language, entry.language))
        found = self._bare.get(key)
        if found is None:
            found = self._bare[key] = self._bare_candidates(ref, entry)
        return found

    def _bare_candidates(self, ref: Reference, entry: FileEntry) -> list[Resolution]:
        positions = self.by_name.get(ref.name)
        if not positions:
            return []
        candidates = [self.symbols[i] for i in positions]
        # A bare name never links across languages (Python's builtin ``sum`` is not a
        # Java method ``sum``), except within a family that shares its definitions.
        family = _FAMILY.get(entry.language, entry.language)
        candidates = [c for c in candidates if _FAMILY.get(c.language, c.language) == family]
        if ref.kind is RefKind.REFERENCE and not ref.qualifier:
            # An unqualified name is not a member of some class elsewhere: a parameter
            # ``items`` is not the field ``Order.items`` (members in scope resolved above).
            candidates = [c for c in candidates if c.kind not in _MEMBERS]
        elif ref.qualifier:
            # ``order.total()``: an attribute of a value is a member, when one is so named.
            candidates = [c for c in candidates if c.parent is not None] or candidates
        if not candidates:
            return []
        wanted = _CALLABLE if ref.kind is RefKind.CALL else None
        if ref.kind in (RefKind.TYPE, RefKind.INHERIT, RefKind.IMPLEMENT):
            wanted = _TYPES
        if wanted is not None:
            candidates = [c for c in candidates if c.kind in wanted] or candidates
        if len(candidates) > MAX_CANDIDATES:
            return []
        # three decimals, as the store keeps them: stored and fresh edges compare equal
        confidence = round(1.0 / len(candidates) * (0.5 if len(candidates) > 1 else 0.8), 3)
        return [Resolution(c, confidence) for c in candidates]


def _import_fqn(ref: Reference, entry: FileEntry) -> str:
    """The qualified name an import reference names; relative Python imports
    (``from .query import QuerySet``) are made absolute from the file's module."""
    qualifier = ref.qualifier
    if qualifier.startswith(".") and entry.language == "python":
        dots = len(qualifier) - len(qualifier.lstrip("."))
        package = module_name(entry.path).split(".")
        if not entry.path.endswith("__init__.py"):
            package = package[:-1]
        package = package[: len(package) - (dots - 1)] if dots > 1 else package
        qualifier = ".".join(p for p in (*package, qualifier.lstrip(".")) if p)
    return f"{qualifier}.{ref.name}" if qualifier else ref.name


_EDGE_KIND = {kind: int(EdgeKind.of(kind)) for kind in RefKind}


def edges_of_file(resolver: Resolver, entry: FileEntry) -> list[EdgeRow]:
    """The edges that the references of one file make, merged per (src, dst, kind)."""
    merged: dict[tuple[str, str, int], float] = {}
    edge_kind = _EDGE_KIND
    for ref in entry.references():
        enclosing = ref.enclosing
        if enclosing is None:
            continue
        for target, confidence in resolver.resolve(ref, entry):
            target_id = target.symbol_id
            if target_id == enclosing:
                continue
            key = (enclosing, target_id, edge_kind[ref.kind])
            if confidence > merged.get(key, -1.0):
                merged[key] = confidence
    return [(s, d, k, w) for (s, d, k), w in merged.items()]


def relink(index: Index, files: Iterable[str]) -> None:
    """Recompute the outgoing edges of the given files in place.

    (Linking in forked children was tried: on Django it cost 1-3 s more CPU in
    copy-on-write faults and pickled edges than it saved in wall time on 2 cores.)
    """
    resolver = Resolver(index)
    for key in files:
        entry = index.files.get(key)
        if entry is None:
            index.edges_by_file.pop(key, None)
        else:
            index.edges_by_file[key] = edges_of_file(resolver, entry)
    index.changed()


def affected_files(index: Index, changed_names: set[str], changed_files: set[str]) -> set[str]:
    """Files whose edges may change when definitions of ``changed_names`` appear or vanish."""
    files = {key for key in changed_files if key in index.files}
    for name in changed_names:
        files.update(index.files_referencing(name))
    return files


def changed_names(old: list[Symbol], new: list[Symbol]) -> set[str]:
    """Names whose set of definitions differs between two versions of a file."""
    before = defaultdict(set)
    after = defaultdict(set)
    for s in old:
        before[s.name].add((s.symbol_id, s.fqn, s.kind))
    for s in new:
        after[s.name].add((s.symbol_id, s.fqn, s.kind))
    return {name for name in before.keys() | after.keys() if before[name] != after[name]}
