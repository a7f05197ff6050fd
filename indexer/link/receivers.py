"""What the code says about a reference's qualifier, for the resolver.

- A variable's declared type (``c *Context``, ``Element copy = ...``, ``var outbox =
  new Outbox()``, ``let writer = Compact::new()``), which the queries write as a type
  reference (a call, for a constructor) whose ``alias`` is the variable: ``c.Next()``
  is ``Context.Next``, and ``d.get()`` with ``d: dict`` is no workspace method at all.
- A qualifier that names a type or a package (``Error::Syntax``, ``String::new()``,
  ``errors.New()`` in Go): a member of that type, or of that package's files; none
  when the type or package is not the workspace's.
- An import the file names by path where definitions are not qualified by it (Java
  ``import org.shop.nodes.Element``, Rust ``use crate::error::Error``): the definition
  of that name whose file sits at that path.
"""

from __future__ import annotations

import posixpath
import re
from typing import NamedTuple

from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import Kind, RefKind, Symbol
from symfuse.indexer.store.rows import REF_KIND_CODE, LinkGroup

# a declared type (`c *Context`), or a constructor call (`var outbox = new Outbox()`)
_DECLARING = frozenset({REF_KIND_CODE[RefKind.TYPE], REF_KIND_CODE[RefKind.CALL]})
_IMPORT_CODE = REF_KIND_CODE[RefKind.IMPORT]
_CALL_CODE = REF_KIND_CODE[RefKind.CALL]
# languages whose qualifiers follow the type-name convention (types capitalised,
# values and packages not) and whose definitions are not named by import path
TYPED_FAMILIES = frozenset({"go", "java", "csharp", "rust", "c", "kotlin", "scala", "swift"})
_PATH_ROOTS = frozenset({"crate", "self", "super", "std", "core", "alloc"})
_SPLIT = re.compile(r"::|\.|/")
_FILE_STEMS = ("mod", "lib", "main", "index", "__init__")

# languages whose variables hold the result of any call (`r = await c.send()`), typed
# by what the callee returns; their annotations and constructors as in the typed ones
RETURNING_FAMILIES = frozenset({"python", "javascript", "go"})
# languages whose chained calls' receivers (`cleaner.clean(dirty).text()`) and `var`
# variables (`var doc = cleaner.clean(dirty)`) are typed by what the callee returns
CHAINING_FAMILIES = frozenset({"java", "csharp", "kotlin"})
_MEMBER_OF_SELF = ("self.", "this.", "cls.")


class Declaration(NamedTuple):
    """What the code says a variable holds: a type (``name``, as written with its
    ``qualifier``), or, ``returned``, what the call of ``name`` returns."""

    name: str
    qualifier: str
    returned: bool


# (the enclosing symbol_id, or None at file level; the variable) -> its declaration
Declared = dict[tuple[str | None, str], Declaration]


def declared_types(entry: FileEntry, groups: list[LinkGroup]) -> Declared:
    """The types the file's variables are declared with, per scope (``groups``: the
    file's link groups, when decoded already). ``self.x = ...`` declares the member
    ``x`` in the enclosing class."""
    groups = groups or entry.link_groups()
    group = family(entry.language)
    if group not in TYPED_FAMILIES and group not in RETURNING_FAMILIES:
        return {}
    returning = group in RETURNING_FAMILIES or group in CHAINING_FAMILIES
    symbols = entry.symbols
    by_id = entry.lookups().by_id
    found: Declared = {}
    for name, qualifier, code, alias, enclosing, _ in groups:
        if code not in _DECLARING or not alias:
            continue
        member = alias.startswith(_MEMBER_OF_SELF)
        variable = alias.split(".", 1)[1] if member else alias
        declaration = Declaration(name, qualifier, returning and code == _CALL_CODE)
        for at in enclosing:
            owner = symbols[at] if at >= 0 else None
            if owner is not None and member:
                while owner is not None and not owner.kind.is_container:
                    owner = by_id.get(owner.parent) if owner.parent else None
            scope = owner.symbol_id if owner is not None else None
            if owner is not None and owner.name == variable and owner.kind in Kind.VALUES:
                scope = owner.parent  # a field or a package variable: its container's
            found.setdefault((scope, variable), declaration)
    return found


# a cast as a receiver: `((Element) child).accept()` (Java, C#), `(child as Element).x()`
_CAST = re.compile(
    r"\(\s*\(\s*([A-Z][\w.]*)\s*\??\s*\)\s*[\w.]+\s*\)"  # ((Element) child), ((Element?) child)
    r"|\(\s*[\w.]+\s+as\s+([A-Z][\w.]*)\s*\)"  # (child as Element)
)


def cast_type(qualifier: str) -> str | None:
    """The type a qualifier casts to (``((Element) child)``: ``Element``), else None."""
    found = _CAST.fullmatch(qualifier) if qualifier.startswith("(") else None
    return (found.group(1) or found.group(2)) if found is not None else None


def variable_of(qualifier: str) -> tuple[str, bool] | None:
    """The variable a qualifier names (``c``; ``this.counter`` or C++'s
    ``this->counter`` as ``counter``, a member), or None for an expression (``a.b()``, ``x[0]``)."""
    if qualifier.startswith("this->"):  # C++
        rest = qualifier[6:]
        return (rest, True) if rest.isidentifier() else None
    head, dot, rest = qualifier.partition(".")
    if dot:
        if head not in ("this", "self") or not rest.isidentifier():
            return None
        return rest, True
    return (qualifier, False) if qualifier.isidentifier() else None


_ANY_FOLDER = frozenset({"swift", "cpp", "cuda"})


def members_named(index: Index, owner: Symbol, name: str) -> list[Symbol]:
    """``owner``'s own members called ``name``: children, or (Go, Rust, C++) methods
    declared outside its body under its qualified name, in its folder (Swift: an
    ``extension`` of the type anywhere, a test target's too; C++: a source file of the
    repository, `src/` beside the header's `include/`)."""
    home = None if owner.language in _ANY_FOLDER else posixpath.dirname(owner.file)
    wanted = f"{owner.fqn}.{name}"
    found = []
    symbols = index.symbols
    owner_id = owner.symbol_id
    for at in index.by_name.get(name, ()):
        symbol = symbols[at]
        if symbol.parent == owner_id or (
            symbol.fqn == wanted
            and home in (None, posixpath.dirname(symbol.file))
            and symbol.language == owner.language
            and symbol.root == owner.root
        ):
            found.append(symbol)
    return found


def type_named(index: Index, name: str, language: str) -> list[Symbol]:
    """The workspace's types (and modules) called ``name`` in the language's family, and
    Scala's and Kotlin's singleton objects (``Walk.visitor()``)."""
    group = family(language)
    symbols = index.symbols
    return [
        s
        for s in (symbols[at] for at in index.by_name.get(name, ()))
        if (
            s.kind in Kind.TYPES
            or s.kind is Kind.MODULE
            or s.kind is Kind.NAMESPACE
            or (s.kind is Kind.OBJECT and s.language in _SINGLETONS)
        )
        and family(s.language) == group
    ]


_SINGLETONS = frozenset({"scala", "kotlin"})  # whose `object` declares one


_OUTSIDE_ROOTS = ("std", "core", "alloc")


def outside_path(qualifier: str, imports: dict[str, str]) -> bool:
    """A Rust path into the standard library (``std::result``), or through a name an
    import binds there (``fmt`` after ``use std::fmt``)."""
    head = _SPLIT.split(qualifier, 1)[0]
    bound = imports.get(head, head)
    return _SPLIT.split(bound, 1)[0] in _OUTSIDE_ROOTS


def split_path(qualifier: str) -> list[str]:
    """A qualifier's segments, whatever the language separates them with."""
    return [part.strip() for part in _SPLIT.split(qualifier)]


def last_segment(qualifier: str) -> str:
    return _SPLIT.split(qualifier)[-1].strip()


def is_type_like(segment: str) -> bool:
    """A capitalised name: a type by the convention of the typed families."""
    return bool(segment) and segment[0].isupper() and segment.isidentifier()


def go_package_files(
    index: Index, entry: FileEntry, head: str, groups: list[LinkGroup] | None = None
) -> list[str] | None:
    """The folders of the workspace package a Go qualifier names through the file's
    imports (``router`` from ``"example.com/shop/router"``); [] for an outside package
    (``errors``, ``net/http``); None when no import binds ``head``. ``groups``: the
    file's link groups when the caller has them decoded (a linker asks once a reference)."""
    for name, _, code, alias, _, _ in groups if groups is not None else entry.link_groups():
        if code != _IMPORT_CODE or (alias or name.rsplit("/", 1)[-1]) != head:
            continue
        return [
            folder
            for folder in _folders(index, entry)
            if folder and (name == folder or name.endswith("/" + folder))
        ]
    return None


def _folders(index: Index, entry: FileEntry) -> set[str]:
    return index.derived(
        "go folders",
        lambda: {
            posixpath.dirname(e.rel) for e in index.files.values() if e.language == entry.language
        },
    )


def import_by_path(index: Index, name: str, qualifier: str, entry: FileEntry) -> Symbol | None:
    """The top-level definition an import names by its path (``org.shop.nodes`` +
    ``Element``; ``crate::error`` + ``Error``): one of that name whose file's path ends
    with the qualifier's segments (the folder, or the folder and the file's stem)."""
    parts = [p for p in _SPLIT.split(qualifier) if p and p not in _PATH_ROOTS]
    group = family(entry.language)
    found = []
    symbols = index.symbols
    for at in index.by_name.get(name, ()):
        symbol = symbols[at]
        if symbol.parent is not None or family(symbol.language) != group:
            continue
        if symbol.kind is Kind.OBJECT:
            continue  # a Rust `impl Error` block is not the type it implements
        stem = posixpath.splitext(symbol.file)[0].split("/")
        if stem[-1] in _FILE_STEMS or stem[-1] == name:
            stem = stem[:-1]
        folder = posixpath.dirname(symbol.file).split("/")
        if _ends_with(stem, parts) or _ends_with(folder, parts):
            found.append(symbol)
    return found[0] if len(found) == 1 else None


def _ends_with(path: list[str], parts: list[str]) -> bool:
    return not parts or (len(path) >= len(parts) and path[-len(parts) :] == parts)
