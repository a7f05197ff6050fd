"""Which symbols a navigation query is about, and the resolver that links names to them.

A query names its subject by ``symbol_id`` (from a search result or an
outline) or by name, optionally within a file; the errors say which argument
was wrong and where ids come from. The resolver is built once per index
generation and shared by usages, positions and the call graph.
"""

from __future__ import annotations

import re
import threading
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.extract.texts import binds_an_import, is_extension
from symfuse.indexer.files import languages
from symfuse.indexer.index import Index
from symfuse.indexer.link.resolve import Resolver
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.names.namesakes import declares_only
from symfuse.ranking.graph.named import find_targets
from symfuse.ranking.text import paths

if TYPE_CHECKING:
    from symfuse.ranking.query.requests import TargetRequest

DECLARATION = "definition"  # the usage kind (and definition ``via``) of a target's own definition


# --- a resolver per index generation ------------------------------------------------------

_RESOLVERS: weakref.WeakKeyDictionary[Index, tuple[int, Resolver]] = weakref.WeakKeyDictionary()
_RESOLVERS_LOCK = threading.Lock()


def resolver_for(index: Index) -> Resolver:
    """A Resolver for the index as it is now, reused until the index changes."""
    with _RESOLVERS_LOCK:
        cached = _RESOLVERS.get(index)
        if cached is not None and cached[0] == index.generation:
            return cached[1]
    resolver = Resolver(index)
    with _RESOLVERS_LOCK:
        _RESOLVERS[index] = (index.generation, resolver)
    return resolver


def warm(index: Index) -> None:
    """Pay the first-query costs now: the resolver's tables and every file's references
    (a server calls this in the background after loading, so that no query waits)."""
    resolver_for(index)
    for entry in list(index.files.values()):
        entry.references()


def require_symbol(index: Index, symbol_id: str, *, argument: str = "symbol_id") -> Symbol:
    if not isinstance(symbol_id, str) or not symbol_id:
        raise InvalidRequest(argument, "give a symbol_id")
    symbol = index.get(symbol_id)
    if symbol is None:
        raise NotFound(
            f"{argument}: unknown symbol {symbol_id!r}; ids come from search results, "
            "or from a file's outline"
        )
    return symbol


def resolve_one(
    index: Index,
    symbol_id: str | None,
    name: str | None,
    file: str | None = None,
    *,
    prefer: frozenset[Kind] = frozenset(),
) -> Symbol:
    """The one symbol a graph query is about, by id or by target (:func:`resolve_target`)."""
    if symbol_id is not None and name is not None:
        raise InvalidRequest("name", "give either symbol_id or name, not both")
    if symbol_id is not None:
        return require_symbol(index, symbol_id)
    if name is None:
        raise InvalidRequest("target", GIVE_A_TARGET)
    found = resolve_target(index, name, file, prefer=prefer)
    assert isinstance(found, Symbol)  # files=False: a symbol or an error
    return found


def request_target(
    index: Index, request: TargetRequest, *, prefer: frozenset[Kind] = frozenset()
) -> Symbol:
    """The one symbol a request is about; an error listing the candidates when ambiguous
    (a name naming one symbol of a ``prefer`` kind and others means that one)."""
    if request.symbol_id is not None:
        return resolve_one(index, request.symbol_id, None)
    target = request.target if request.target is not None else request.name
    return resolve_one(index, None, target, request.file, prefer=prefer)


def request_type(index: Index, request: TargetRequest) -> Symbol:
    """The type a request is about (:func:`request_target` preferring types); of one type
    in several declarations (a class and its companion object, Kotlin's ``expect`` and
    ``actual`` classes) the most linked class."""
    try:
        return request_target(index, request, prefer=Kind.TYPES)
    except AmbiguousTarget as exc:
        return most_linked_overload(index, exc, Kind.TYPES)[0]


def request_overloads(index: Index, request: TargetRequest) -> list[str]:
    """The symbol id a request gives, or those of every overload its name gives
    (:func:`resolve_overloads`)."""
    named = request.target if request.target is not None else request.name
    return resolve_overloads(index, request.symbol_id, named, request.file)


def most_linked_overload(
    index: Index, ambiguous: AmbiguousTarget, prefer: frozenset[Kind] = frozenset()
) -> tuple[Symbol, list[str]]:
    """Of the overloads an ambiguous name gives (:func:`resolve_overloads`), the most
    linked (PageRank; of a ``prefer`` kind first, a class before its companion object, a
    definition with a body before a declaration) and the others' ids; ``ambiguous``
    again for a name of several things."""
    if len({_overload_key(index, c) for c in ambiguous.candidates}) > 1:
        raise _one_per_thing(index, ambiguous)
    ids = [c.symbol_id for c in ambiguous.candidates]
    ranks = index.pagerank_of(ids)
    keys = [  # a body before its declaration (a C++ header's `void enable(int);`)
        (c.kind in prefer and c.kind != Kind.OBJECT, not declares_only(symbol), rank)
        for c, symbol, rank in zip(
            ambiguous.candidates, (require_symbol(index, i) for i in ids), ranks, strict=True
        )
    ]
    best = ids[keys.index(max(keys))]
    return require_symbol(index, best), [i for i in ids if i != best]


def resolve_changed(index: Index, target: str, file: str | None) -> list[Symbol] | str:
    """What a change to ``target`` changes: its definition, every overload its name
    gives (``Gson.toJson``), or a file (its key)."""
    try:
        found = resolve_target(index, target, file, files=True)
    except AmbiguousTarget as exc:
        first, others = most_linked_overload(index, exc)
        return [first, *(require_symbol(index, i) for i in others)]
    return [found] if isinstance(found, Symbol) else found


def resolve_overloads(
    index: Index, symbol_id: str | None, name: str | None, file: str | None = None
) -> list[str]:
    """:func:`resolve_one`'s symbol id, or the ids of every overload a name gives (one
    qualified name and kind in one file: ``Gson.toJson``'s eight, an Elixir function's
    arities; in C++, in any file: ``vformat`` for wide strings in ``xchar.h``, for
    colours in ``color.h``), for a question asked of them together (usages, callers:
    each says which it reaches); names of different things stay ambiguous."""
    try:
        return [resolve_one(index, symbol_id, name, file).symbol_id]
    except AmbiguousTarget as exc:
        if len({_overload_key(index, c) for c in exc.candidates}) > 1:
            raise _one_per_thing(index, exc) from None
        return [c.symbol_id for c in exc.candidates]


def _one_per_thing(index: Index, ambiguous: AmbiguousTarget) -> AmbiguousTarget:
    """``ambiguous`` with one candidate per thing (overloads, Kotlin's per-platform
    declarations of one member: okio's ``ByteString.utf8`` was eight choices, a property
    and a method in four source sets; now two, each its ``expect`` declaration)."""
    kept: dict[tuple[str, str, str], Candidate] = {}
    for c in ambiguous.candidates:
        key = _overload_key(index, c)
        if key not in kept or per_platform(index, index.get(c.symbol_id), _EXPECT):
            kept[key] = c
    if len(kept) == len(ambiguous.candidates):
        return ambiguous
    return AmbiguousTarget(ambiguous.name, tuple(kept.values()))


# Languages whose overloads span files: a namespace's functions over C++ headers, a
# type's methods over Swift extensions and C# partial classes. Elsewhere a name defined
# in two files names two things (C's static helpers), but for Kotlin's `expect` and
# `actual` declarations of one thing per platform.
_OVERLOADED_ACROSS_FILES = frozenset({"cpp", "cuda", "swift", "csharp", "ruby"})
_PLATFORMS = re.compile(r"\b(?:expect|actual)\s")
_EXPECT = re.compile(r"\bexpect\s")
# A Scala or Kotlin class and its companion object are one name's type.
_COMPANIONS = frozenset({"scala", "kotlin"})


def _overload_key(index: Index, candidate: Candidate) -> tuple[str, str, str]:
    symbol = index.get(candidate.symbol_id)
    if symbol is None:
        return candidate.qualified_name, candidate.kind, candidate.file
    across = symbol.language in _OVERLOADED_ACROSS_FILES or per_platform(index, symbol)
    kind = candidate.kind
    if symbol.language in _COMPANIONS and symbol.kind in Kind.CONTAINERS:
        kind = "type"
    return candidate.qualified_name, kind, "" if across else candidate.file


def per_platform(index: Index, symbol: Symbol | None, words: re.Pattern[str] = _PLATFORMS) -> bool:
    """A Kotlin ``expect`` or ``actual`` declaration, or a member of one (of an
    ``expect`` one alone with ``words`` ``_EXPECT``)."""
    while symbol is not None and symbol.language == "kotlin":
        if words.search(symbol.signature):
            return True
        symbol = index.get(symbol.parent) if symbol.parent else None
    return False


GIVE_A_TARGET = (
    "give a symbol id (from search), a name, a qualified name (Client.send, pkg.mod.func) "
    "or path:line"
)
# path::Qualified.name#kind (~2 for a second of one name), as ids are written
_ID_SHAPE = re.compile(r"^\S+::\S+#(\w+)(?:~\d+)?$")
_KINDS = frozenset(k.value for k in Kind)


def _is_id(text: str) -> bool:
    """Whether ``text`` is written as a symbol id: a kind after its ``#`` (Ruby's
    ``Rack::Request#params`` names a method)."""
    shape = _ID_SHAPE.match(text)
    return shape is not None and shape[1] in _KINDS


_PATH_LINE = re.compile(r"^(.+):(\d+)$")


def resolve_target(
    index: Index,
    target: str,
    file: str | None = None,
    *,
    prefer: frozenset[Kind] = frozenset(),
    files: bool = False,
) -> Symbol | str:
    """What a target names, for every operation that takes one: a symbol id; ``path:line``
    (the innermost definition containing the line); with ``files``, an indexed file (its
    key); else a name or a qualified name (``Client.send``, ``pkg.mod.func``), narrowed
    to ``file``. Of several namesakes, the one of a ``prefer`` kind is taken when it is
    the only such (a type hierarchy asked for ``Render``: the type, not the methods). A
    name several definitions answer to raises :class:`AmbiguousTarget`."""
    text = target.strip() if isinstance(target, str) else ""
    if not text:
        raise InvalidRequest("target", GIVE_A_TARGET)
    if index.get(text) is not None or _is_id(text):
        return require_symbol(index, text, argument="target")
    place = _PATH_LINE.match(text)
    if place is not None and _file_key(index, place.group(1)) is not None:
        from symfuse.ranking.graph.positions import symbol_at

        home = paths.resolve_file(index, place.group(1), argument="target")
        found = symbol_at(index, home, int(place.group(2)))
        if found is None:
            raise NotFound(
                f"target: no definition contains line {place.group(2)} of {home}; "
                "its outline (the path alone) lists its definitions"
            )
        return found
    key = _file_key(index, text)
    if key is not None and files:
        return key
    try:
        named = one_of(find_targets(index, text, file), prefer, index)
    except NotFound:
        if key is not None:
            raise NotFound(f"target: {text!r} is a file; {GIVE_A_TARGET}") from None
        path = text.rsplit(":", 1)[0]
        if "/" in text or languages.detect(path) is not None:  # a file's (`\` is PHP's too)
            paths.resolve_file(index, path, argument="target")
        where = f" in {file}" if file else ""
        raise NotFound(
            f"target: no definition named {text!r}{where}; find it by searching words or text"
        ) from None
    if len(named) > 1:
        raise AmbiguousTarget(text, tuple(candidate(index, s) for s in named))
    return named[0]


def _file_key(index: Index, path: str) -> str | None:
    try:
        return paths.resolve_file(index, path)
    except (NotFound, InvalidRequest):
        return None


def one_of(
    found: list[Symbol], prefer: frozenset[Kind], index: Index | None = None
) -> list[Symbol]:
    """The definitions a name means: a class and its constructor are the class, a type
    and its Rust ``impl`` blocks the type, C's ``typedef struct ctx {...} ctx;`` the
    struct (which its uses resolve to), code rather than a document's heading or key
    (``DBConnection`` is the module, not the README's title), a definition rather than
    the variables that bind it where it is imported (Zig's ``const DocumentStore =
    @import(...)`` in each user file, CommonJS's ``var f = require('./m').f``) or the
    Swift and Dart extensions that add to it (``extension RequestInterceptor``), one form
    of a file compiled or declared in several (:func:`_one_form`), types at the top level
    over members of their name (a Rust enum over its impls' associated types); of several,
    those of a ``prefer`` kind when there are such."""
    types = {s.symbol_id for s in found if s.kind in Kind.TYPES and s.kind is not Kind.OBJECT}
    code = any(s.kind not in Kind.DOCUMENTS for s in found)
    tagged = {s.file for s in found if s.kind in _TAGGED}
    bindings = {s.symbol_id for s in found if binds_an_import(s) or is_extension(s)}
    defined = len(bindings) < len(found)
    found = [
        s
        for s in found
        if not (defined and s.symbol_id in bindings)
        and not (s.kind is Kind.CONSTRUCTOR and s.parent in types)
        and not (s.kind is Kind.OBJECT and types and s.language == "rust")
        and not (code and s.kind in Kind.DOCUMENTS)
        and not (s.kind is Kind.TYPE and s.file in tagged)
    ]
    found = _one_form(found, index)
    top = [s for s in found if s.parent is None and s.kind in Kind.TYPES]
    if top and all(s.parent is not None for s in found if s not in top):
        found = top  # serde_json's `Value`, not each impl's `type Value = ...`
    preferred = [s for s in found if s.kind in prefer]
    return preferred if preferred and len(found) > 1 else found


# what a same-named typedef beside it in one file names (C's struct tags)
_TAGGED = frozenset({Kind.STRUCT, Kind.UNION, Kind.ENUM})
_DECLARATIONS = (".d.ts", ".d.mts", ".d.cts", ".d.tl", ".pyi")


def _one_form(found: list[Symbol], index: Index | None) -> list[Symbol]:
    """Of one definition in several forms of one file (same qualified name and kind, same
    folder and stem: luarocks' ``fetch.tl`` and the ``fetch.lua`` compiled from it,
    ``fs.d.tl`` declaring what ``fs.lua`` implements, a ``.pyi`` stub), the one its uses
    reach (the highest PageRank: ``require("luarocks.util")`` loads ``util.lua``), else
    not a declaration."""
    groups: dict[tuple[str, Kind, str], list[Symbol]] = {}
    for s in found:
        folder, _, base = s.file.rpartition("/")
        groups.setdefault((s.fqn, s.kind, f"{folder}/{base.split('.', 1)[0]}"), []).append(s)
    if all(len({s.file for s in group}) == 1 for group in groups.values()):
        return found  # one file each (overloads stay together)
    left: set[str] = set()
    for group in groups.values():
        ranks = index.pagerank_of([s.symbol_id for s in group]) if index else [0.0] * len(group)
        keys = [(r, not s.file.endswith(_DECLARATIONS)) for s, r in zip(group, ranks, strict=True)]
        best = group[keys.index(max(keys))].file
        left.update(s.symbol_id for s in group if s.file != best)
    return [s for s in found if s.symbol_id not in left]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One definition an ambiguous target may mean, and the target that names it alone."""

    symbol_id: str
    qualified_name: str
    kind: str
    file: str
    line: int
    target: str


MAX_CANDIDATES_SHOWN = 8


class AmbiguousTarget(InvalidRequest):
    """A name several definitions answer to; each candidate says how to name it alone.
    Front ends word the choice in their own arguments (:attr:`candidates`)."""

    def __init__(self, name: str, candidates: tuple[Candidate, ...]) -> None:
        self.name = name
        self.candidates = candidates
        shown = "; ".join(
            f'"{c.target}" ({c.kind} {c.qualified_name} in {c.file}:{c.line}, id {c.symbol_id})'
            for c in candidates[:MAX_CANDIDATES_SHOWN]
        )
        more = len(candidates) - MAX_CANDIDATES_SHOWN
        tail = f"; and {more} more" if more > 0 else ""
        super().__init__(
            "target",
            f"{name!r} names {len(candidates)} definitions; pass one of them as the target: "
            f"{shown}{tail}",
        )


def candidate(index: Index, symbol: Symbol) -> Candidate:
    """``symbol`` with the shortest target that names it alone: its qualified name's
    last two or more parts (``Client.send``, ``service.main``), else ``path:line``,
    else its id."""
    parts = symbol.fqn.split(".") if symbol.fqn else [symbol.name]
    target = symbol.symbol_id
    for size in range(min(2, len(parts)), len(parts) + 1):
        text = ".".join(parts[-size:])
        if _names_alone(index, text, symbol):
            target = text
            break
    else:
        at_line = f"{symbol.file}:{symbol.name_line}"
        if _line_names(index, at_line, symbol):
            target = at_line
    return Candidate(
        symbol.symbol_id, symbol.fqn, symbol.kind.value, symbol.file, symbol.name_line, target
    )


def _names_alone(index: Index, text: str, symbol: Symbol) -> bool:
    try:
        found = one_of(find_targets(index, text), frozenset(), index)
    except NotFound:
        return False
    return len(found) == 1 and found[0].symbol_id == symbol.symbol_id


def _line_names(index: Index, at_line: str, symbol: Symbol) -> bool:
    from symfuse.ranking.graph.positions import symbol_at

    file, _, line = at_line.rpartition(":")
    found = symbol_at(index, file, int(line))
    return found is not None and found.symbol_id == symbol.symbol_id
