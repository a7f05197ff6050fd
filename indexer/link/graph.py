"""References -> definition-to-definition edges, file by file.

Edges go from the reference's enclosing definition to the definition it resolves
to (:mod:`symfuse.indexer.link.resolve`); a reference in a region's lines has the region
as its source (extract/units.py ``enclose``), other references at file level have none
and make no edge. Linking is versioned by
:data:`~symfuse.indexer.versions.LINKER_VERSION`: bump it when the edges change.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.link import go_interfaces, inherit
from symfuse.indexer.link.edges import EdgeRow
from symfuse.indexer.link.receivers import CHAINING_FAMILIES, variable_of
from symfuse.indexer.link.resolve import SELF_NAMES, Resolver
from symfuse.indexer.link.scopes import implementable
from symfuse.indexer.model import EdgeKind, RefKind, Symbol

FEW_NAMES = 64  # changed names up to which affected_files scans the files

_REF_KINDS = list(RefKind)  # by code, as rows stores them
_EDGE_KIND_OF_CODE = [int(EdgeKind.of(kind)) for kind in _REF_KINDS]
_FILE_LEVEL = [-1]  # a link group's enclosings when all its references are at file level


def edges_of_file(resolver: Resolver, entry: FileEntry) -> list[EdgeRow]:
    """The edges that the references of one file make, merged per (src, dst, kind).

    Each distinct written name is resolved once (rows.pack_references groups them);
    only names that some scope of the file defines are resolved per enclosing
    definition, since the scope walk starts there.
    """
    merged: dict[tuple[str, str, int], float] = {}
    ids = [s.symbol_id for s in entry.symbols]
    groups = resolver.link_groups(entry)  # decoded once: declared() reads them too
    scoping = _Scoping.of(resolver, entry)
    for name, qualifier, code, _, enclosings, args in groups:
        if enclosings == _FILE_LEVEL:
            continue  # an import at file level alone: it binds names, it makes no edge
        kind = _REF_KINDS[code]
        if kind is RefKind.REFERENCE and qualifier in SELF_NAMES:
            # `self.items` read inside its class: a usage (find_usages lists it), not a
            # vote for centrality; a class reads its own fields everywhere, and those
            # edges drowned the ranks of what other code uses (quality gate, nl MRR@10)
            continue
        edge_kind = _EDGE_KIND_OF_CODE[code]
        per_scope = scoping.per_scope(name, qualifier, kind, entry)
        shared = (
            None
            if per_scope
            else resolver.resolve_name(name, qualifier, kind, None, entry, once=True, args=args)
        )
        for index in enclosings:
            if index < 0:
                continue  # at file level: no source definition
            source = ids[index]
            targets = shared
            if targets is None:
                targets = resolver.resolve_name(name, qualifier, kind, source, entry, args=args)
            for target, confidence, _how in implementable(targets, kind, entry, qualifier):
                target_id = target.symbol_id
                if target_id == source:
                    continue
                key = (source, target_id, edge_kind)
                if confidence > merged.get(key, -1.0):
                    merged[key] = confidence
    return [(s, d, k, w) for (s, d, k), w in merged.items()]


@dataclass(frozen=True, slots=True)
class _Scoping:
    """What says a name of a file must be resolved per enclosing definition."""

    nested_names: set[str]
    # receivers whose declared type some scope says (`c: Client`, `c = Client()`): their
    # members are resolved per enclosing definition too, as usages resolve them
    typed: set[str]
    # a chained call's receiver, typed by the call before it (`cleaner.clean(d).text()`),
    # is typed from the enclosing definition's scope too
    chaining: bool
    out_of_line: bool  # C++: a member function's class's members, wherever declared

    @classmethod
    def of(cls, resolver: Resolver, entry: FileEntry) -> _Scoping:
        return cls(
            entry.lookups().nested_names,
            resolver.declared_variables(entry),
            family(entry.language) in CHAINING_FAMILIES,
            inherit.member_scope(entry),
        )

    def per_scope(self, name: str, qualifier: str, kind: RefKind, entry: FileEntry) -> bool:
        chaining = self.chaining
        return (
            (name in self.nested_names and (not qualifier or qualifier in SELF_NAMES))
            or (bool(self.typed) and _typed_receiver(qualifier, self.typed))
            or (chaining and qualifier.endswith(")"))
            # `Serializer.Convert(x)`, `this.Serializer.Convert(x)`: perhaps a field a
            # base class declares elsewhere
            or (chaining and kind is RefKind.CALL and variable_of(qualifier) is not None)
            # Rust's `super::helper()` in an inline `mod tests`: relative to that module
            or (qualifier.startswith("super") and entry.language == "rust")
            # Ruby's `helper`: a call on self, reaching what its class inherits
            or inherit.self_call(qualifier, kind, entry)
            # C++'s `flush_()` or `tracer_.enable(n)` in `void logger::f() {}`
            or (self.out_of_line and (not qualifier or variable_of(qualifier) is not None))
        )


def _typed_receiver(qualifier: str, typed: set[str]) -> bool:
    variable = variable_of(qualifier) if qualifier else None
    return variable is not None and variable[0] in typed


def relink(index: Index, files: Iterable[str]) -> set[str]:
    """Recompute the outgoing edges of the given files in place; Go's implicit
    interface edges are recomputed for every file (:mod:`go_interfaces`). Returns the
    other files whose edges that changed.

    (Linking in forked children costs more CPU in copy-on-write faults and pickled edges
    than it saves in wall time on a two-core machine.)
    """
    resolver = Resolver(index)
    keys = list(files)
    for key in keys:
        entry = index.files.get(key)
        if entry is None:
            index.edges_by_file.pop(key, None)
        else:
            index.edges_by_file[key] = edges_of_file(resolver, entry)
    others = go_interfaces.relink(index, keys)
    index.changed()
    return others


def affected_files(index: Index, changed_names: set[str], changed_files: set[str]) -> set[str]:
    """Files whose edges may change when definitions of ``changed_names`` appear or vanish."""
    files = {key for key in changed_files if key in index.files}
    if len(changed_names) <= FEW_NAMES:
        # An edit touches a few names: checking each file's name set is far cheaper than
        # building the name -> files table (a one-shot command builds it from scratch
        # every time).
        files.update(k for k, e in index.files.items() if not changed_names.isdisjoint(e.ref_names))
    else:
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
