"""A name in the scopes of its reference: the definitions around it in its own file
(the first rule of :mod:`.resolve`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry
from symfuse.indexer.link import overloads
from symfuse.indexer.link.go_scope import imported_names, names_a_package
from symfuse.indexer.link.typed import scopes_outward
from symfuse.indexer.model import Kind, RefKind, Symbol

if TYPE_CHECKING:
    from symfuse.indexer.link.resolve import Resolver

_R = TypeVar("_R", bound=tuple[Symbol, float, str])


# the reference kinds that name a type
TYPED = frozenset({RefKind.TYPE, RefKind.INHERIT, RefKind.IMPLEMENT})


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
    by_id, top, scoped, nested_names, _ = entry.lookups()
    if not self_scope and names_a_package(name, entry):
        return None  # Go's `time` of `time.Second`, not a method `time` of the receiver
    typed = kind in TYPED
    if name not in nested_names:  # no scope of this file defines it: skip the walk
        return None if self_scope else _top_level(top, name, entry)
    for scope in scopes_outward(by_id, enclosing, containers_only=self_scope):
        found = scoped.get((scope, name))
        if found is not None and typed and (found.kind is Kind.CONSTRUCTOR or _go_field(found)):
            found = None
        if found is not None and (self_scope or found.symbol_id != enclosing):
            return found  # `self.run()` inside `run` is itself; a bare `run` is not
    if self_scope:
        return None
    return _top_level(top, name, entry)


def reached(
    resolver: Resolver, found: Symbol, args: int, entry: FileEntry
) -> list[tuple[Symbol, float]]:
    """What a use the scopes resolve to ``found`` reaches, and how surely: the overloads
    a call passing ``args`` arguments may be (:func:`~.overloads.in_scope`; several are a
    guess, half sure in all), or ``found`` and its :func:`alternatives` (each may run)."""
    called = overloads.in_scope(resolver, found, args)
    if len(called) > 1:
        return [(symbol, round(0.5 / len(called), 3)) for symbol in called]
    found_all = alternatives(called[0], entry)
    share = 1.0 if len(found_all) == 1 else max(0.5, round(1 / len(found_all), 3))
    return [(symbol, share) for symbol in found_all]


def alternatives(found: Symbol, entry: FileEntry) -> list[Symbol]:
    """``found`` and the other functions or classes of its name in its scope, where a
    language that has no overloads defines one name twice: each branch of ``if ...: def f()``
    / ``else: def f()`` or ``try: from x import f`` / ``except: def f()`` is what a use
    may reach (jinja's two ``is_async`` and ``finalize``: one was left unused)."""
    if found.kind not in _ALTERNATIVES or entry.language not in _BRANCHING:
        return [found]
    repeated = entry.lookups().repeated.get((found.parent or "", found.name))
    if not repeated:
        return [found]
    return [s for s in repeated if s.kind in _ALTERNATIVES]


_ALTERNATIVES = frozenset({Kind.FUNCTION, Kind.CLASS})
# languages whose namesakes in one scope are alternatives (branches, `#[cfg(...)]`), not
# overloads or an Elixir function's clauses
_BRANCHING = frozenset({"python", "ruby", "lua", "rust"})


def _go_field(symbol: Symbol) -> bool:
    """A Go field, which no type written in its struct names: an embedded field is named
    after the type it embeds (the struct's base), `Foo Foo` after its type."""
    return symbol.kind is Kind.FIELD and symbol.language == "go"


def _top_level(top: dict[str, Symbol], name: str, entry: FileEntry) -> Symbol | None:
    """The file's top-level definition a bare name stands for. In JavaScript a member
    assigned at top level (``axios.Axios = Axios``) is never a bare name: the
    ``Axios`` written there is the import, or a definition elsewhere."""
    found = top.get(name)
    if found is not None and found.kind in Kind.MEMBERS and family(entry.language) == "javascript":
        return None
    return found


def implementable(
    found: list[_R], kind: RefKind, entry: FileEntry, qualifier: str = ""
) -> list[_R]:
    """``found`` for a reference of ``kind`` in ``entry``; what a Rust ``impl`` implements
    is a trait (serde's ``Deserializer``, not serde_json's struct ``de::Deserializer``
    that its suffix names, nor an impl's associated type); a Go type written alone is
    never a field (another struct's embedded ``int8``; ``c.handlers[c.index](c)``, which
    the grammar reads as a generic type, is the field it spells)."""
    if kind is RefKind.IMPLEMENT and entry.language == "rust":
        return [r for r in found if r[0].kind is Kind.TRAIT]
    if kind in TYPED and entry.language == "go" and not qualifier:
        return [r for r in found if not _go_field(r[0])]
    return found


def attribute_candidates(candidates: list[Symbol], kind: RefKind, group: str) -> list[Symbol]:
    """Of the definitions an attribute's name (``order.total``) has, with its value's type
    unknown: the members, when one is so named; in Python only a class's members (a test's
    ``response.status_code`` is no fixture function ``status_code`` of conftest, and
    ``f.read()`` no function ``read`` nested in a test)."""
    members = [c for c in candidates if c.parent is not None]
    if group == "python":  # a class's (a nested function is no attribute of anything)
        return [c for c in members if c.kind in Kind.MEMBERS or c.kind in Kind.TYPES]
    return members or candidates


def a_modules_global(name: str, kind: RefKind, entry: FileEntry) -> bool:
    """A value a JavaScript or TypeScript module names without defining, binding or
    importing it: a global (the runtime's, a test framework's), never another module's
    top-level definition (a file with no import may be a script sharing its globals)."""
    return (
        kind in (RefKind.REFERENCE, RefKind.CALL)
        and family(entry.language) == "javascript"
        and bool(imported_names(entry))
    )
