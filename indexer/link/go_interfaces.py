"""Go's implicit interfaces: a type whose method set covers an interface's implements it.

Go never writes ``implements``; the linker infers it. A named type (struct or other
non-interface type) implements an interface when it has a method of every name the
interface declares, each taking as many parameters: Go wants the same signature, so a
method of the name with another count (echo's ``Context.Render(code, name, data)`` beside
``Renderer.Render(c, w, templateName, data)``) implements nothing. The edge (type ->
interface, ``IMPLEMENTS``) carries a confidence:

- 1.0 when every count matches;
- 0.6 when some count could not be read (a signature cut short, or written over several
  lines where an interface's method keeps its first): the names alone match;
- halved when the interface embeds others the index cannot read (``io.Reader`` from
  outside the workspace), whose methods could not be checked.

An interface's unexported methods (``lower()``) can only be implemented in its own
package (folder); an interface with no method of its own (``any``) is implemented by
every type and gets no edges. Methods promoted from embedded struct fields are not
followed. The edges are kept with the type's file and recomputed over the whole index
whenever it is relinked (:func:`relink`), since a method in one file may complete a
type of another.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.link.edges import EdgeRow
from symfuse.indexer.model import EdgeKind, Kind, RefKind, Symbol

GO = "go"
FULL = 1.0  # names and parameter counts match
NAMES_ONLY = 0.6  # some parameter count differs
UNREAD_EMBEDDING = 0.5  # factor when embedded interfaces could not be read
_IMPLEMENTS = int(EdgeKind.IMPLEMENTS)
_TYPE_KINDS = frozenset({Kind.STRUCT, Kind.TYPE, Kind.CLASS})


@dataclass(slots=True)
class _Interface:
    symbol: Symbol
    package: str
    methods: dict[str, int | None] = field(default_factory=dict)  # name -> parameter count
    embedded: list[str] = field(default_factory=list)  # embedded type names, as written


@dataclass(slots=True)
class _Type:
    symbol: Symbol
    package: str
    methods: dict[str, int | None] = field(default_factory=dict)


def parameter_count(signature: str, receiver: bool) -> int | None:
    """Parameters in a Go signature (``func (o *T) Add(a, b int, s ...string) error``
    has 3; ``Add(a, b int) error``, as an interface lists it, 2); None when the
    signature stops before its parameters close (``Add(``: cut short, or continued on
    the next lines)."""
    groups = _paren_groups(signature)
    if groups is None:
        return None
    if receiver and groups:
        groups = groups[1:]
    if not groups:
        return None
    inside = groups[0].strip()
    if not inside:
        return 0
    depth = 0
    count = 1
    for ch in inside:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            count += 1
    return count


def _paren_groups(text: str) -> list[str] | None:
    """The top-level ``(...)`` groups of a signature, their insides; None when one is
    left open."""
    groups: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch == "(":
            if depth == 0:
                start = i + 1
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                groups.append(text[start:i])
    return None if depth else groups


def _package(symbol: Symbol) -> str:
    return symbol.file.rpartition("/")[0]


def _collect(entries: Iterable[FileEntry]) -> tuple[list[_Interface], dict[tuple[str, str], _Type]]:
    interfaces: dict[str, _Interface] = {}
    types: dict[tuple[str, str], _Type] = {}
    methods: list[Symbol] = []
    for entry in entries:
        for s in entry.symbols:
            if s.kind is Kind.INTERFACE and s.parent is None:
                interfaces[s.symbol_id] = _Interface(s, _package(s))
            elif s.kind in _TYPE_KINDS and s.parent is None:
                types.setdefault((_package(s), s.name), _Type(s, _package(s)))
            elif s.kind is Kind.METHOD:
                methods.append(s)
        if any(s.kind is Kind.INTERFACE for s in entry.symbols):
            for ref in entry.references():
                owner = interfaces.get(ref.enclosing or "")
                if ref.kind is RefKind.TYPE and owner is not None:
                    owner.embedded.append(ref.name)
    for m in methods:
        owner = interfaces.get(m.parent or "")
        if owner is not None:
            owner.methods[m.name] = parameter_count(m.signature, receiver=False)
            continue
        receiver, dot, _ = m.fqn.rpartition(".")
        found = types.get((_package(m), receiver)) if dot and m.parent is None else None
        if found is not None:
            found.methods[m.name] = parameter_count(m.signature, receiver=True)
    return list(interfaces.values()), types


def implicit_edges(index: Index) -> dict[str, list[EdgeRow]]:
    """Per file of a type, its ``IMPLEMENTS`` edges to the interfaces it satisfies."""
    go_files = [e for e in index.files.values() if e.language == GO]
    if not go_files:
        return {}
    interfaces, types = _collect(go_files)
    by_method: defaultdict[str, set[tuple[str, str]]] = defaultdict(set)
    for key, t in types.items():
        for name in t.methods:
            by_method[name].add(key)
    named = {(i.package, i.symbol.name): i for i in interfaces}
    edges: defaultdict[str, list[EdgeRow]] = defaultdict(list)
    for interface in interfaces:
        wanted = dict(interface.methods)
        unread = False
        for name in interface.embedded:  # method sets of embedded interfaces of the package
            inner = named.get((interface.package, name))
            if inner is None or inner is interface:
                unread = True
            else:
                for method, count in inner.methods.items():
                    wanted.setdefault(method, count)
        if not interface.methods:
            continue
        candidates: set[tuple[str, str]] | None = None
        for name in wanted:
            having = by_method.get(name, set())
            candidates = set(having) if candidates is None else candidates & having
            if not candidates:
                break
        for key in sorted(candidates or ()):
            t = types[key]
            if t.package != interface.package and not all(m[:1].isupper() for m in wanted):
                continue  # unexported methods: only within the package
            counts = [(t.methods[m], count) for m, count in wanted.items()]
            if any(a != b for a, b in counts if a is not None and b is not None):
                continue  # a method of the name with other parameters: another signature
            exact = all(a is not None and b is not None for a, b in counts)
            confidence = (FULL if exact else NAMES_ONLY) * (UNREAD_EMBEDDING if unread else 1.0)
            row = (t.symbol.symbol_id, interface.symbol.symbol_id, _IMPLEMENTS, confidence)
            edges[t.symbol.file].append(row)
    return dict(edges)


def relink(index: Index, relinked: Iterable[str]) -> set[str]:
    """Put the implicit-interface edges into ``index.edges_by_file``, replacing the old
    ones; the files (besides ``relinked``, whose edges were just made without them)
    whose edges changed."""
    fresh = set(relinked)
    new = implicit_edges(index)
    changed: set[str] = set()
    for key, entry in index.files.items():
        if entry.language != GO:
            continue
        current = list(index.edges_by_file.get(key, ()))
        kept = [row for row in current if row[2] != _IMPLEMENTS]
        mine = new.get(key, [])
        if key not in fresh and sorted(current) == sorted(kept + mine):
            continue  # unchanged: the stored rows stay as they are
        index.edges_by_file[key] = kept + mine
        if key not in fresh:
            changed.add(key)
    return changed
