"""What a class inherits: ``self.name`` and ``super().name`` reach the member of the
nearest base that defines it, and so does a Ruby method's bare call (``helper``,
``request``: a call on ``self``), whose bases are its class's mixins (``include
Helpers``) before its superclass.

A Ruby base is a constant, looked up from the modules the class is written in outward
(``class CSP < Base`` inside ``module Rack; module Protection`` is ``Rack::Protection::
Base``, not ``Sinatra::Base``). A bare call no class of the hierarchy answers stays a
guess among namesakes: a block may run with another ``self`` (``instance_eval`` in
Sinatra's routes, a test framework's ``it``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symfuse.indexer.index import FileEntry
from symfuse.indexer.model import Kind, RefKind, Symbol

if TYPE_CHECKING:
    from symfuse.indexer.link.resolve import Resolver

MAX_BASE_HOPS = 6  # base classes followed for an inherited member
# languages whose bare call inside a method is a call on its object
SELF_CALLING = frozenset({"ruby"})
# languages whose members may be defined outside their class (`void logger::flush_() {}`),
# where a bare name is looked up in the class (and its bases) before the namespace
OUT_OF_LINE = frozenset({"cpp", "cuda"})
_RUBY_OWNERS = Kind.TYPES | {Kind.MODULE}


def self_call(qualifier: str, kind: RefKind, entry: FileEntry) -> bool:
    """A bare call that is a call on ``self`` (Ruby's ``helper``, ``request``)."""
    return not qualifier and kind is RefKind.CALL and entry.language in SELF_CALLING


def member_scope(entry: FileEntry) -> bool:
    """Whether a member function of ``entry``'s language may be defined outside its
    class (C++): its bare names and fields are its class's members (its own or a
    base's) wherever that class is declared."""
    return entry.language in OUT_OF_LINE


def inherited(
    resolver: Resolver, name: str, skip_own: bool, enclosing: str | None, entry: FileEntry
) -> Symbol | None:
    """``self.name`` that the enclosing class inherits, or ``super().name``: the member
    of the nearest base class (bases resolved as the class's own file resolves them,
    breadth first) that defines it. Remembered per class and name for the pass."""
    owner = _owner(resolver, enclosing, entry)
    if owner is None:
        return None
    key = (owner.symbol_id, name, skip_own)
    if key in resolver.inherited:
        return resolver.inherited[key]
    found = None
    queue, seen = [owner], {owner.symbol_id}
    for _ in range(MAX_BASE_HOPS):
        if not queue:
            break
        current = queue.pop(0)
        if current is not owner or not skip_own:
            found = member_of(resolver, current, name)
            if found is not None:
                break
        for base in bases(resolver, current):
            if base.symbol_id not in seen:
                seen.add(base.symbol_id)
                queue.append(base)
    resolver.inherited[key] = found
    return found


def bases(resolver: Resolver, cls: Symbol) -> list[Symbol]:
    """The classes ``cls`` extends, as its file's scope and imports name them (a Ruby
    class's mixins first: they come before its superclass in its method lookup)."""
    known = resolver.bases_of.get(cls.symbol_id)
    if known is not None:
        return known
    found = resolver.bases_of[cls.symbol_id] = []
    home = resolver.index.files.get(cls.file)
    if home is None:
        return found
    written_bases = [(written, RefKind.INHERIT) for written in cls.extends]
    if cls.language in SELF_CALLING:
        mixins = [(written, RefKind.IMPLEMENT) for written in reversed(cls.implements)]
        written_bases = mixins + written_bases
    for written, kind in written_bases:
        path = written.split("[", 1)[0].split("(", 1)[0].strip().replace("::", ".")
        qualifier, _, base = path.rpartition(".")
        nested = _constant(resolver, cls, path) if cls.language in SELF_CALLING else None
        if nested is not None:
            found.append(nested)
            continue
        hits = resolver.resolve_name(base, qualifier, kind, cls.parent, home)
        # sure, or the one type of that name (Java's same-package base, unimported)
        found += [h.target for h in hits if h.confidence >= 0.8 and _owns(h.target)]
    return found


def _constant(resolver: Resolver, cls: Symbol, path: str) -> Symbol | None:
    """The class or module a Ruby constant path written in ``cls``'s head names: from
    the innermost module around it outward (Ruby's lexical lookup)."""
    by_fqn = resolver.index.by_fqn
    scope = cls.fqn.rpartition(".")[0]
    while True:
        found = by_fqn.get(f"{scope}.{path}" if scope else path)
        if found is not None and _owns(found) and found is not cls:
            return found
        if not scope:
            return None
        scope = scope.rpartition(".")[0]


def _owner(resolver: Resolver, enclosing: str | None, entry: FileEntry) -> Symbol | None:
    """The class (or, in Ruby, module) around ``enclosing``; for a C++ member defined
    outside its class, that class."""
    by_id = entry.lookups().by_id
    owners = _RUBY_OWNERS if entry.language in SELF_CALLING else Kind.TYPES
    written = owner = by_id.get(enclosing) if enclosing else None
    while owner is not None and owner.kind not in owners:
        owner = by_id.get(owner.parent) if owner.parent else None
    if owner is None and written is not None and entry.language in OUT_OF_LINE:
        return _defined_for(resolver, written, by_id)
    return owner


def _defined_for(resolver: Resolver, symbol: Symbol, by_id: dict[str, Symbol]) -> Symbol | None:
    """The class a C++ member defined outside it belongs to: the type its qualified name
    puts it in (``spdlog.logger`` of ``void logger::flush_() {}`` in ``namespace
    spdlog``), wherever that type is declared."""
    parent = by_id.get(symbol.parent) if symbol.parent else None
    while parent is not None and parent.kind.is_callable:  # a lambda's: its function's
        symbol, parent = parent, by_id.get(parent.parent) if parent.parent else None
    if not symbol.kind.is_callable:
        return None
    found = resolver.index.by_fqn.get(symbol.container)
    return found if found is not None and found.kind in Kind.TYPES else None


def _owns(symbol: Symbol) -> bool:
    return symbol.kind in Kind.TYPES or (
        symbol.kind is Kind.MODULE and symbol.language in SELF_CALLING
    )


def member_of(resolver: Resolver, owner: Symbol, member: str) -> Symbol | None:
    """``owner``'s own member ``member`` (a Ruby module's methods too)."""
    home = resolver.index.files.get(owner.file)
    if home is None or not (owner.kind.is_container or _owns(owner)):
        return None
    return home.lookups().scoped.get((owner.symbol_id, member))
