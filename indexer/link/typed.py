"""Member references decided by types the code states (see :mod:`.receivers`).

``by_receiver``: ``c.Next()`` where ``c`` is declared ``*Context`` is
``Context.Next`` (its own or inherited), through the scopes of the reference; a
receiver of a type from outside the workspace (``d: dict``, ``w http.ResponseWriter``)
uses no workspace member. ``by_qualifier``: ``Error::Syntax``, ``String::new()``,
``errors.New()``: a member of the type or package the qualifier names, or nothing
when that type or package is not the workspace's.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from symfuse.indexer.index import FileEntry
from symfuse.indexer.link import receivers
from symfuse.indexer.model import Kind, RefKind, Symbol

if TYPE_CHECKING:
    from symfuse.indexer.link.resolve import Resolution, Resolver


def by_receiver(
    resolver: Resolver, name: str, qualifier: str, enclosing: str | None, entry: FileEntry
) -> list[Resolution] | None:
    """The member ``qualifier.name`` names when the receiver's declared type says it;
    None when the code does not say the type (then other rules guess)."""
    from symfuse.indexer.link.resolve import TYPE, Resolution

    variable = receivers.variable_of(qualifier)
    if variable is None:
        return None
    declared = _declared_type(resolver, entry, variable[0], enclosing, variable[1])
    if declared is None:
        return None
    type_name, type_qualifier = declared
    hits = resolver.resolve_name(type_name, type_qualifier, RefKind.TYPE, enclosing, entry)
    types = [h for h in hits if h.target.kind in Kind.TYPE_TARGETS]
    if not hits:
        return []  # a type from outside the workspace: none of its members are ours
    best = max((h.confidence for h in types), default=0.0)
    for hit in types:
        if hit.confidence == best:
            member = resolver.member(hit.target, name)
            if member is not None:
                return [Resolution(member, best, TYPE)]
    return None


def _declared_type(
    resolver: Resolver, entry: FileEntry, variable: str, enclosing: str | None, member: bool
) -> tuple[str, str] | None:
    """The variable's declared type, from the innermost scope that declares it;
    ``member`` (``this.x``): only containers' declarations count."""
    declared = resolver.declared(entry)
    if not declared:
        return None
    by_id = entry.lookups().by_id
    scope = enclosing
    while scope is not None:
        owner = by_id.get(scope)
        if owner is None:
            break
        if not member or owner.kind.is_container:
            found = declared.get((scope, variable))
            if found is not None:
                return found
        scope = owner.parent
    return None if member else declared.get((None, variable))


def by_qualifier(
    resolver: Resolver, name: str, qualifier: str, entry: FileEntry
) -> list[Resolution] | None:
    """A member of the type (capitalised) or the Go package the qualifier names; [] when
    that type or package is not the workspace's; None when the qualifier is neither."""
    from symfuse.indexer.link.resolve import IMPORT, Resolution

    index = resolver.index
    if entry.language == "go" and "." not in qualifier:
        folders = receivers.go_package_files(index, entry, qualifier)
        if folders is not None:
            found = _in_folders(resolver, name, folders)
            return [Resolution(s, 1.0 if len(found) == 1 else 0.5, IMPORT) for s in found]
    if receivers.outside_path(qualifier, resolver.file_imports(entry)):
        return []
    segment = receivers.last_segment(qualifier)
    if not receivers.is_type_like(segment):
        return None
    owners = receivers.type_named(index, segment, entry.language)
    members: list[Symbol] = []
    for owner in owners:
        member = resolver.member(owner, name) if owner.kind is not Kind.MODULE else None
        if member is None and owner.kind in (Kind.MODULE, Kind.NAMESPACE):
            home = index.files.get(owner.file)
            member = home.lookups().scoped.get((owner.symbol_id, name)) if home else None
        if member is not None and member not in members:
            members.append(member)
    if not members:
        return []
    confidence = 1.0 if len(members) == 1 else round(0.5 / len(members), 3)
    return [Resolution(m, confidence, IMPORT if len(members) == 1 else "name") for m in members]


def _in_folders(resolver: Resolver, name: str, folders: list[str]) -> list[Symbol]:
    """The package-level definitions called ``name`` in these folders (not methods)."""
    index = resolver.index
    found = []
    for symbol in (index.symbols[at] for at in index.by_name.get(name, ())):
        home = index.files.get(symbol.file)
        if (
            home is not None
            and symbol.parent is None
            and symbol.kind is not Kind.METHOD
            and posixpath.dirname(home.rel) in folders
        ):
            found.append(symbol)
    return found
