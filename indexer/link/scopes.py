"""A name in the scopes of its reference: the definitions around it in its own file
(the first rule of :mod:`.resolve`)."""

from __future__ import annotations

from typing import TypeVar

from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry
from symfuse.indexer.link.typed import scopes_outward
from symfuse.indexer.model import Kind, RefKind, Symbol

_R = TypeVar("_R", bound=tuple[Symbol, float, str])


def in_scope(
    name: str,
    self_scope: bool,
    enclosing: str | None,
    entry: FileEntry,
    kind: RefKind = RefKind.REFERENCE,
) -> Symbol | None:
    """A definition of the name in the reference's scopes (all in its own file);
    ``self_scope``: written ``self.name`` (only class scopes count). A type written
    inside its class is the class, not its same-named constructor."""
    by_id, top, scoped, nested_names = entry.lookups()
    typed = kind in (RefKind.TYPE, RefKind.INHERIT, RefKind.IMPLEMENT)
    if name not in nested_names:  # no scope of this file defines it: skip the walk
        return None if self_scope else _top_level(top, name, entry)
    for scope in scopes_outward(by_id, enclosing, containers_only=self_scope):
        found = scoped.get((scope, name))
        if found is not None and typed and found.kind is Kind.CONSTRUCTOR:
            found = None
        if found is not None and (self_scope or found.symbol_id != enclosing):
            return found  # `self.run()` inside `run` is itself; a bare `run` is not
    if self_scope:
        return None
    return _top_level(top, name, entry)


def _top_level(top: dict[str, Symbol], name: str, entry: FileEntry) -> Symbol | None:
    """The file's top-level definition a bare name stands for. In JavaScript a member
    assigned at top level (``axios.Axios = Axios``) is never a bare name: the
    ``Axios`` written there is the import, or a definition elsewhere."""
    found = top.get(name)
    if found is not None and found.kind in Kind.MEMBERS and family(entry.language) == "javascript":
        return None
    return found


def implementable(found: list[_R], kind: RefKind, entry: FileEntry) -> list[_R]:
    """``found`` for a reference of ``kind`` in ``entry``; what a Rust ``impl`` implements
    is a trait (serde's ``Deserializer``, not serde_json's struct ``de::Deserializer``
    that its suffix names, nor an impl's associated type)."""
    if kind is RefKind.IMPLEMENT and entry.language == "rust":
        return [r for r in found if r[0].kind is Kind.TRAIT]
    return found
