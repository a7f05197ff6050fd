"""A call's number of arguments chooses among a method's overloads (issue 36).

``el.text()`` where ``Element`` declares ``text(String)`` and inherits ``Node.text()``
is ``Node.text``: the call passes no argument (recorded at extraction,
:mod:`symfuse.indexer.extract.arguments`), and of the methods a call of ``text`` on an
``Element`` may reach only ``Node.text()`` takes none
(:func:`~symfuse.indexer.link.chained.parameter_count`). A method whose count the
signature does not say (varargs, defaults) may take any number: it stays a candidate.
When none or several may be called so, the paths that ask keep what they did before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry
from symfuse.indexer.link import inherit, receivers
from symfuse.indexer.link.chained import parameter_count
from symfuse.indexer.link.inherit import MAX_BASE_HOPS
from symfuse.indexer.model import Kind, RefKind, Symbol

if TYPE_CHECKING:
    from symfuse.indexer.link.resolve import Resolver

# the families whose methods overload by their number of parameters
OVERLOADING = frozenset({"java", "csharp", "kotlin", "c", "javascript"})


def by_arguments(levels: list[list[Symbol]], args: int) -> Symbol | None:
    """The one method a call passing ``args`` arguments may be, of the same-named
    methods per class of a type's hierarchy (``levels``, nearest first); None when the
    count is unknown (``args`` < 0), or none or several may be it (:func:`callable_with`).
    A name with one method has no overloads to choose among: None too."""
    matching = callable_with(levels, args)
    return matching[0] if len(matching) == 1 else None


def callable_with(levels: list[list[Symbol]], args: int) -> list[Symbol]:
    """Of the same-named methods per class of a type's hierarchy (``levels``, nearest
    first), those a call passing ``args`` arguments may be: [] when the count is
    unknown (``args`` < 0) or the name has one method (no overloads to choose among).
    An inherited method taking as many parameters as a nearer one is overridden by it,
    not a candidate."""
    if args < 0 or sum(len(level) for level in levels) < 2:
        return []
    nearer: set[int] = set()
    matching: list[Symbol] = []
    for level in levels:
        counts: set[int] = set()
        for method in level:
            count = parameter_count(method)
            if count is not None and count in nearer:
                continue  # overridden
            if count is not None:
                counts.add(count)
            if count is None or count == args:
                matching.append(method)
        nearer |= counts
    return _one_per_member(matching)


def _one_per_member(methods: list[Symbol]) -> list[Symbol]:
    """``methods`` without the declarations whose definition is among them: C++'s
    ``void push_back(const log_msg &msg);`` in its class and ``void
    backtracer::push_back(const log_msg &msg) {...}`` out of line are one method."""
    defined = {(m.fqn, parameter_count(m)) for m in methods if not m.prototype}
    if len(defined) == len(methods):
        return methods
    return [m for m in methods if not m.prototype or (m.fqn, parameter_count(m)) not in defined]


def same_named(resolver: Resolver, owner: Symbol, name: str, kind: RefKind) -> list[list[Symbol]]:
    """The members called ``name`` of ``owner`` and of each class it extends, nearest
    first (breadth first, as :meth:`Resolver.member` looks); methods alone for a call
    (Java's field ``childNodes`` is not the method ``childNodes()``). Remembered for
    the resolver's pass: a class's methods are called by name again and again."""

    key = (owner.symbol_id, name, kind is RefKind.CALL)
    known = resolver.same_named.get(key)
    if known is not None:
        return known
    levels: list[list[Symbol]] = []
    queue, seen = [owner], {owner.symbol_id}
    for _ in range(MAX_BASE_HOPS):
        if not queue:
            break
        current = queue.pop(0)
        own = receivers.members_named(resolver.index, current, name)
        if kind is RefKind.CALL:
            own = [m for m in own if m.kind in Kind.CALLABLES]
        if own:
            levels.append(own)
        for base in inherit.bases(resolver, current):
            if base.symbol_id not in seen:
                seen.add(base.symbol_id)
                queue.append(base)
    resolver.same_named[key] = levels
    return levels


def chosen(resolver: Resolver, owner: Symbol, name: str, args: int) -> Symbol | None:
    """The overload of ``owner``'s method ``name`` (its own or inherited) that a call
    passing ``args`` arguments is; None unless the type has several methods of that
    name and exactly one of them may be called so."""
    matching = possible(resolver, owner, name, args)
    return matching[0] if len(matching) == 1 else None


def possible(resolver: Resolver, owner: Symbol, name: str, args: int) -> list[Symbol]:
    """The overloads of ``owner``'s method ``name`` (its own or inherited) that a call
    passing ``args`` arguments may be (:func:`callable_with`); [] in a language without
    overloads."""
    if args < 0 or family(owner.language) not in OVERLOADING:
        return []
    return callable_with(same_named(resolver, owner, name, RefKind.CALL), args)


def in_scope(resolver: Resolver, found: Symbol, args: int) -> list[Symbol]:
    """A method a call reaches through its scope (``text(s)``, ``this.text(s)``), or
    the overloads of it the call's number of arguments allows: the one, or each of
    several taking as many (``CalculateSize(int)`` and ``CalculateSize(BsonToken)``
    for ``CalculateSize(t)``: the types would choose, which the index does not know)."""
    if args < 0 or found.kind not in Kind.CALLABLES:
        return [found]
    home = resolver.index.files.get(found.file)
    if home is None:
        return [found]
    owner = home.lookups().by_id.get(found.parent) if found.parent is not None else None
    if owner is None or owner.kind not in Kind.TYPES:
        return _free_overloads(found, home, args)
    return possible(resolver, owner, found.name, args) or [found]


def _free_overloads(found: Symbol, home: FileEntry, args: int) -> list[Symbol]:
    """C++'s functions of ``found``'s name in its namespace that a call passing ``args``
    arguments may be (``encode_types<Context, T...>()`` of two templates taking none)."""
    if found.language not in inherit.OUT_OF_LINE:
        return [found]
    repeated = home.lookups().repeated.get((found.parent or "", found.name), [])
    callable_so = [
        s for s in repeated if s.kind in Kind.CALLABLES and parameter_count(s) in (None, args)
    ]
    return _one_per_member(callable_so) if len(callable_so) > 1 else [found]


def of_enclosing(
    resolver: Resolver, name: str, enclosing: str | None, entry: FileEntry, args: int
) -> Symbol | None:
    """``text(value, null)`` inside ``text(String value)``: a bare call of the enclosing
    method's own name, which the scopes skip (a bare name is not the definition it is
    written in), is the overload of it that the call's arguments say, or itself."""
    if args < 0 or enclosing is None or family(entry.language) not in OVERLOADING:
        return None
    by_id = entry.lookups().by_id
    method = by_id.get(enclosing)
    if method is None or method.name != name or method.kind not in Kind.CALLABLES:
        return None
    owner = by_id.get(method.parent) if method.parent else None
    if owner is None or owner.kind not in Kind.TYPES:
        return None
    return chosen(resolver, owner, name, args)
