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
import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING

from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry
from symfuse.indexer.link import chained, go_scope, inherit, overloads, receivers
from symfuse.indexer.link.overloads import same_named
from symfuse.indexer.model import Kind, RefKind, Symbol

if TYPE_CHECKING:
    from symfuse.indexer.link.resolve import Resolution, Resolver


def by_receiver(
    resolver: Resolver,
    name: str,
    qualifier: str,
    enclosing: str | None,
    entry: FileEntry,
    kind: RefKind = RefKind.CALL,
    args: int = -1,
) -> list[Resolution] | None:
    """The member ``qualifier.name`` names when the receiver's declared type says it;
    None when the code does not say the type (then other rules guess). ``args``: the
    number of arguments a call passes, which chooses among overloads (-1: unknown)."""
    variable = receivers.variable_of(qualifier)
    if variable is None:
        if family(entry.language) in receivers.CHAINING_FAMILIES:
            return _by_result(resolver, (name, kind, args), qualifier, enclosing, entry)
        # a literal (`{"http": 80}.get(scheme)`, `"a,b".split(",")`, `[x].map(f)`) is
        # a builtin value: none of its members are ours
        if entry.language == "ruby":  # `%w[a b].include?(k)`, `:sym.to_proc`, `3.times`
            literal = qualifier[:1] in _RUBY_LITERALS and qualifier[:2] != "::"  # `::File`
            return [] if literal else None
        literal = family(entry.language) in receivers.RETURNING_FAMILIES
        return [] if literal and qualifier[:1] in _LITERALS else None
    if variable[0] not in resolver.declared_variables(entry):  # no scope of the file says
        return _inherited_field(resolver, (name, kind, args), variable, enclosing, entry)
    from symfuse.indexer.link.resolve import TYPE, Resolution

    key = (entry.path, enclosing, variable[0])
    declared = _declared_type(resolver, entry, variable[0], enclosing, variable[1])
    if declared is None or declared.name in _ANY or key in resolver.typing:
        return None  # not said, or `node = node.next()`: a type said by itself
    resolver.typing.add(key)
    try:
        said_by = RefKind.CALL if declared.returned else RefKind.TYPE
        hits = resolver.resolve_name(declared.name, declared.qualifier, said_by, enclosing, entry)
        said = _types_of(resolver, declared, entry, hits)
    finally:
        resolver.typing.discard(key)
    if said is None or said[0] < 0.5:
        return None  # not said, or a guess among same-named types: the name guesses
    confidence, types = said
    if not types:  # a type from outside the workspace: none of its members are ours
        return extensions(resolver, name, declared.name, entry, confidence)
    methods_apart = family(entry.language) in receivers.CHAINING_FAMILIES
    call = kind is RefKind.CALL
    for owner in types:
        if methods_apart:  # Java's field `size` is not the method `size()`
            levels = same_named(resolver, owner, name, kind)
            matching = overloads.callable_with(levels, args) if call else []
            first = levels[0][:1] if levels else []
        else:  # `add(1, 2)` of C++'s `add(int)` and `add(int, int)`
            matching = overloads.possible(resolver, owner, name, args) if call else []
            member = resolver.member(owner, name)
            first = [member] if member is not None else []
        found = matching or first  # several taking as many arguments: each, as a guess
        if found:
            share = confidence if len(found) == 1 else round(min(confidence, 0.5) / len(found), 3)
            return [Resolution(method, share, TYPE) for method in found]
    return None


def _inherited_field(
    resolver: Resolver,
    member: tuple[str, RefKind, int],
    variable: tuple[str, bool],
    enclosing: str | None,
    entry: FileEntry,
) -> list[Resolution] | None:
    """``Serializer.GetMatchingConverter(t)`` in a class whose base declares the field or
    property ``Serializer`` (in another file; Java, C#, Kotlin), or C++'s
    ``tracer_.enable(n)`` in a member defined outside its class (the header declares
    ``tracer_``): a ``member`` (name, kind of use, arguments) of the type it is declared
    with there; None when no base does."""
    if not (family(entry.language) in receivers.CHAINING_FAMILIES or inherit.member_scope(entry)):
        return None
    field = inherit.inherited(resolver, variable[0], False, enclosing, entry)
    if field is None or field.kind not in Kind.VALUES or field.file == entry.path:
        return None
    home = resolver.index.files.get(field.file)
    if home is None or variable[0] not in resolver.declared_variables(home):
        return None
    name, kind, args = member
    return by_receiver(resolver, name, variable[0], field.parent, home, kind, args)


def _by_result(
    resolver: Resolver,
    member: tuple[str, RefKind, int],
    qualifier: str,
    enclosing: str | None,
    entry: FileEntry,
) -> list[Resolution] | None:
    """``cleaner.clean(dirty).text()``: a ``member`` (name, kind of use, arguments) of what the call
    before it returns, when that call is one sure definition and its type is sure
    (:mod:`.chained`); None when the code does not say."""
    from symfuse.indexer.link.resolve import NAME

    call = chained.called(qualifier)
    key = (entry.path, enclosing, qualifier)
    if call is None or key in resolver.typing:
        return None
    kind = RefKind.CALL if call.returned else RefKind.TYPE
    resolver.typing.add(key)
    try:
        hits = resolver.resolve_name(call.name, call.qualifier, kind, enclosing, entry)
        one = len(hits) == 1 and (hits[0].how != NAME or hits[0].target.kind in Kind.TYPES)
        said = _types_of(resolver, call, entry, hits) if one or not hits else None
    finally:
        resolver.typing.discard(key)
    if said is None or said[0] < 0.5:
        return None  # not said, or a guess among same-named types: the name guesses
    confidence, types = said
    if not types:  # an outside type's members (`new StringBuilder().append(x)`), or a
        # workspace extension of it (`Read().ToAsync()` of `ToAsync(this bool value)`)
        return extensions(resolver, member[0], "", entry, confidence)
    for owner in types:
        found = _members_of(resolver, owner, member, confidence)
        if found:
            return found
    return None


def _members_of(
    resolver: Resolver, owner: Symbol, member: tuple[str, RefKind, int], confidence: float
) -> list[Resolution]:
    """``owner``'s members a use of ``member`` (name, kind of use, arguments) may be:
    the one, the overload the call's number of arguments says, or else each overload
    at an equal share (`text()` or `text(String)`); none when it has no such member."""
    from symfuse.indexer.link.resolve import TYPE, Resolution

    name, kind, args = member
    levels = same_named(resolver, owner, name, kind)
    one = overloads.by_arguments(levels, args) if kind is RefKind.CALL else None
    if one is not None:
        return [Resolution(one, confidence, TYPE)]
    found = chained.overloads(levels)
    if len(found) == 1:
        return [Resolution(found[0], confidence, TYPE)]
    return [Resolution(m, round(0.5 / len(found), 3), TYPE) for m in found]


_OWN = frozenset({"Self", "this"})  # a method's return type that is its own class
_LITERALS = frozenset("{[\"'`")
_RUBY_LITERALS = frozenset("{[\"'%:/0123456789")
# what an annotation says is no type at all
_ANY = frozenset({"Any", "object", "any", "unknown"})
# a wrapper whose first argument is the type: `Promise<Client>`, `Awaitable[Client]`
_WRAPPERS = frozenset({"Promise", "PromiseLike", "Awaitable", "Coroutine", "Optional"})
_RETURNS = {
    "python": re.compile(r"\)\s*->\s*(.+?)\s*:?\s*(?:#.*)?$"),  # `def f(x) -> Client:`
    "javascript": re.compile(r"\)\s*:\s*(.+)$"),  # `function f(x): Client`
    # `func New() *Engine`, `func (e *Engine) Group(p string) *Group`, `(*T, error)`
    "go": re.compile(r"\)\s+\(?\*?([A-Za-z_][\w.]*)(?:\s*,[^()]*\))?\s*$"),
}
_HEAD = re.compile(r"[A-Za-z_][\w.]*")
# the workspace types a declaration names (none: a type from outside), and how sure
Said = tuple[float, list[Symbol]]


def _declared_type(
    resolver: Resolver, entry: FileEntry, variable: str, enclosing: str | None, member: bool
) -> receivers.Declaration | None:
    """The variable's declared type, from the innermost scope that declares it;
    ``member`` (``this.x``): only containers' declarations count."""
    declared = resolver.declared(entry)
    if not declared:
        return None
    for scope in scopes_outward(entry.lookups().by_id, enclosing, containers_only=member):
        found = declared.get((scope, variable))
        if found is not None:
            return found
    return None if member else declared.get((None, variable))


def scopes_outward(
    by_id: Mapping[str, Symbol], enclosing: str | None, *, containers_only: bool = False
) -> Iterator[str]:
    """The ids of the definitions around a reference, innermost first (``enclosing`` and
    its parents within the file); with ``containers_only``, classes and the like alone."""
    scope = enclosing
    while scope is not None:
        owner = by_id.get(scope)
        if owner is None:
            return
        if not containers_only or owner.kind.is_container:
            yield scope
        scope = owner.parent


def _types_of(
    resolver: Resolver, declared: receivers.Declaration, entry: FileEntry, hits: list[Resolution]
) -> Said | None:
    """The types a declaration names, from what its name resolves to (``hits``); None
    when it does not say (an outside function's result, a function that does not write
    what it returns)."""
    if not hits:
        # an outside type (`d: dict`, `new Map()`); an outside call's result is unknown,
        # and so is a script's name from a package (`@/lib/client` may be a path alias
        # into the workspace, which the resolver does not follow); a capitalised call is
        # a constructor, but on a receiver in C# and the like (`items.First()`) a method
        outside = not declared.returned or receivers.is_type_like(declared.name)
        if declared.qualifier and family(entry.language) in receivers.CHAINING_FAMILIES:
            outside = not declared.returned
        if outside and family(entry.language) == "javascript":
            head = (declared.qualifier or declared.name).split(".", 1)[0]
            outside = head not in resolver.file_imports(entry)
        # C++'s `Handler& handler` of `template <typename Handler>`: any type; `std::` is
        # outside
        outside = outside and (bool(declared.qualifier) or not inherit.member_scope(entry))
        return (1.0, []) if outside else None
    types = [h for h in hits if h.target.kind in Kind.TYPE_TARGETS]
    if types:
        best = max(h.confidence for h in types)
        chosen = [h.target for h in types if h.confidence == best]
        # Kotlin's `expect class Path` and its `actual` ones are one type
        return (1.0 if _one_multiplatform_type(chosen) else best), chosen
    if not declared.returned or len(hits) != 1 or hits[0].target.kind not in Kind.CALLABLES:
        return None
    callee = hits[0].target
    home = resolver.index.files.get(callee.file)
    if home is None:
        return None
    owner = home.lookups().by_id.get(callee.parent or "")
    if family(callee.language) in receivers.CHAINING_FAMILIES:
        returned = chained.returned_type(callee, owner)
    else:
        returned = returned_type(callee.signature, callee.language)
    if callee.kind is Kind.CONSTRUCTOR or (returned is not None and returned.name in _OWN):
        # `Client()` through its constructor; `-> Self`, `): this`: the method's class
        return (hits[0].confidence, [owner]) if owner is not None else None
    if returned is None or returned.name in _ANY:
        return None
    written = resolver.resolve_name(
        returned.name, returned.qualifier, RefKind.TYPE, callee.symbol_id, home
    )
    return _types_of(resolver, returned, home, written)


def returned_type(signature: str, language: str) -> receivers.Declaration | None:
    """The type a function's signature says it returns (``-> Response``, ``):
    Promise<Client>`` as ``Client``), as a declaration to resolve where it is written."""
    pattern = _RETURNS.get(family(language))
    written = pattern.search(signature.split("{", 1)[0].strip()) if pattern else None
    if written is None:
        return None
    text = written.group(1).strip().strip("\"'")
    head = _HEAD.match(text)
    while head is not None and head.group(0).rsplit(".", 1)[-1] in _WRAPPERS:
        text = text[head.end() :].lstrip("[< ")
        head = _HEAD.match(text)
    if head is None:
        return None
    qualifier, _, name = head.group(0).rpartition(".")
    return receivers.Declaration(name, qualifier, False)


def by_qualifier(
    resolver: Resolver, name: str, qualifier: str, entry: FileEntry, args: int = -1
) -> list[Resolution] | None:
    """A member of the type (capitalised) or the Go package the qualifier names; [] when
    that type or package is not the workspace's; None when the qualifier is neither.
    ``args``: a call's number of arguments, which names one of a method's overloads."""
    from symfuse.indexer.link.resolve import IMPORT, Resolution

    index = resolver.index
    if entry.language == "go" and "." not in qualifier:
        folders = receivers.go_package_files(index, entry, qualifier, resolver.link_groups(entry))
        if folders is not None:
            # another package's test files are its own (but for the folder's tests)
            tests = go_scope.is_test(entry.rel) and posixpath.dirname(entry.rel) in folders
            found = go_scope.package_definitions(index, name, folders, None, tests)
            if len(folders) == 1:  # one package: its same-named definitions are one
                return go_scope.as_one_declaration(found, IMPORT)
            return [Resolution(s, 1.0 if len(found) == 1 else 0.5, IMPORT) for s, _ in found]
    if receivers.outside_path(qualifier, resolver.file_imports(entry)):
        return []
    segment = receivers.last_segment(qualifier)
    if not receivers.is_type_like(segment):
        return None
    owners = _reachable(
        receivers.type_named(index, segment, entry.language), qualifier, entry, resolver
    )
    members: list[Symbol] = []
    for owner in owners:
        member = resolver.member(owner, name) if owner.kind is not Kind.MODULE else None
        if member is None and owner.kind in (Kind.MODULE, Kind.NAMESPACE):
            home = index.files.get(owner.file)
            member = home.lookups().scoped.get((owner.symbol_id, name)) if home else None
        # `Jsoup.parse(html, base)`: the overload it calls, or those it may be
        called = overloads.in_scope(resolver, member, args) if member is not None else []
        members.extend(m for m in called if m not in members)
    if not members:
        # `model.Items.AddRangeDistinct(x)`: a value's property (not `Math.Max(a, b)`,
        # an outside class's static method) of an outside type: an extension, if any
        through_value = not owners and "." in qualifier and qualifier[:1].islower()
        return extensions(resolver, name, "", entry, 1.0) if through_value else []
    confidence = 1.0 if len(members) == 1 else round(0.5 / len(members), 3)
    # one type's member, or the overloads the call may be; else a guess among types
    how = IMPORT if len(members) == 1 or len(owners) == 1 else "name"
    return [Resolution(m, confidence, how) for m in members]


def _reachable(
    owners: list[Symbol], qualifier: str, entry: FileEntry, resolver: Resolver
) -> list[Symbol]:
    """The types ``qualifier`` may name from ``entry``: its own repository's, and another's
    only where an import binds the qualifier's head or the qualifier spells the type's
    whole path (``a.Util``): across repositories a name alone links nothing."""
    if all(owner.root == entry.root for owner in owners):
        return owners
    parts = [p for p in receivers.split_path(qualifier) if p]
    if parts and parts[0] in resolver.file_imports(entry):
        return owners
    return [owner for owner in owners if owner.root == entry.root or _spelled(owner, parts)]


def _spelled(owner: Symbol, parts: list[str]) -> bool:
    """Whether a qualifier of several segments spells ``owner``'s place: the folders of
    its file, then its qualified name (``a.Util`` for ``Util`` in ``src/a/Util.java``)."""
    if len(parts) < 2:
        return False
    place = [*posixpath.dirname(owner.file).split("/"), *receivers.split_path(owner.fqn)]
    return place[-len(parts) :] == parts


_MULTIPLATFORM = re.compile(r"\b(?:expect|actual)\b")


def _one_multiplatform_type(types: list[Symbol]) -> bool:
    """Kotlin Multiplatform's declaration of a type (``expect class Path``) and its
    implementations per platform (``actual class Path``), in one package's source sets
    (commonMain, jvmMain, nonJvmMain): one type, whose members are in any of them."""
    if len(types) < 2 or any(t.language != "kotlin" for t in types):
        return False
    if len({t.fqn for t in types}) != 1:
        return False
    return all(_MULTIPLATFORM.search(t.signature.split("{", 1)[0]) for t in types)


def extensions(
    resolver: Resolver, name: str, outside: str, entry: FileEntry, confidence: float
) -> list[Resolution]:
    """The workspace's extension functions ``name`` on the outside type ``outside``:
    Kotlin's ``fun String.utf8Size()`` for ``text.utf8Size()`` with ``text: String``, C#'s
    ``static IServiceCollection AddMediatR(this IServiceCollection services)`` for
    ``services.AddMediatR()``: the only workspace definitions a call on an outside type
    can reach; none in other languages."""
    from symfuse.indexer.link.resolve import TYPE, Resolution

    if entry.language not in _EXTENDING:
        return []
    index = resolver.index
    symbols = index.symbols
    named = [symbols[at] for at in index.by_name.get(name, ())]  # mostly none
    if name not in resolver.file_imports(entry):  # another repository's needs its import
        named = [symbol for symbol in named if symbol.root == entry.root]
    named = [symbol for symbol in named if symbol.language == entry.language]
    written = _EXTENDING[entry.language](outside, name) if outside else ()
    found = [symbol for symbol in named if any(w in symbol.signature for w in written)]
    if not found and entry.language == "csharp":
        # `list.ContainsValue(x)` of `ContainsValue(this IEnumerable<T> source, ...)`
        # with `list` an `IList<T>`: an outside type's own bases are not known, so an
        # extension of any outside type may be the one, as a guess
        found = [symbol for symbol in named if _extends_outside(resolver, symbol, entry)]
        confidence = min(confidence, 0.5)
    share = confidence if len(found) == 1 else round(0.5 / max(len(found), 1), 3)
    return [Resolution(symbol, share, TYPE) for symbol in found]


_THIS_TYPE = re.compile(r"\(\s*this\s+([A-Za-z_][\w.]*)")


def _extends_outside(resolver: Resolver, symbol: Symbol, entry: FileEntry) -> bool:
    """Whether ``symbol`` is a C# extension method of a type from outside the workspace."""
    this = _THIS_TYPE.search(symbol.signature)
    if this is None:
        return False
    segment = receivers.last_segment(this.group(1))
    return not receivers.type_named(resolver.index, segment, entry.language)


# how an extension function's signature names its receiver type, by language
_EXTENDING: dict[str, Callable[[str, str], tuple[str, ...]]] = {
    "kotlin": lambda outside, name: (f" {outside}.{name}(", f" {outside}?.{name}("),
    "csharp": lambda outside, name: (f"(this {outside} ", f"(this {outside}<"),
}
