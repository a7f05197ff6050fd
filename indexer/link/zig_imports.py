"""Zig's modules: a file is a struct, and ``const posix = @import("posix.zig");`` binds
it to a name. ``posix.listen(fd, 128)`` is the top-level ``listen`` of posix.zig next
to the importing file, ``http.Protocol.HTTP11`` a member of its ``Protocol``. Before,
a call through a module name was left to a guess by name, which in Zig finds no member
and links nothing (http.zig's ``posix.socket``, ``posix.listen``: `dead` listed them).

A name bound to ``@import("std")`` or ``@import("builtin")`` reaches nothing of the
workspace (``std.mem`` is not http.zig's ``const mem = std.mem;``). A package's module
(``@import("httpz")``, which build.zig maps to a file) is left to the guesses by name.
"""

from __future__ import annotations

import posixpath
from typing import TYPE_CHECKING

from symfuse.indexer.index import FileEntry
from symfuse.indexer.model import Kind, RefKind, Symbol
from symfuse.indexer.store.rows import REF_KIND_CODE

if TYPE_CHECKING:
    from symfuse.indexer.link.resolve import Resolution, Resolver

_IMPORT_CODE = REF_KIND_CODE[RefKind.IMPORT]
# the modules the Zig toolchain provides: none of their members are the workspace's
_TOOLCHAIN = frozenset({"std", "builtin"})


def member(
    resolver: Resolver, name: str, qualifier: str, kind: RefKind, entry: FileEntry
) -> list[Resolution] | None:
    """What ``qualifier.name`` names when the qualifier starts with a name the file binds
    to an ``@import``: the module file's definition ([] for a module from outside the
    workspace); None when the qualifier's head is no such name. A field read on anything
    but a workspace type (``buf.len``, ``Ast.Node.Index``; not ``Protocol.HTTP11``) names
    nothing: a guess among every field of its name (zls has twelve ``len``, fourteen
    ``Index``) says nothing."""
    from symfuse.indexer.link.resolve import IMPORT, Resolution

    head, _, rest = qualifier.partition(".")
    spec = imported(resolver, entry).get(head)
    if spec is None:
        return [] if kind is RefKind.REFERENCE and not _names_a_type(resolver, head) else None
    if not (spec.endswith(".zig") or spec in _TOOLCHAIN):
        return None  # a package (`@import("httpz")`: perhaps the workspace's)
    module = _module(resolver, entry, spec)
    if module is None:
        return []  # `std`, `builtin`, a path outside the root
    found = _walk(resolver, module, [*(part for part in rest.split(".") if part), name])
    return [Resolution(found, 1.0, IMPORT)] if found is not None else []


def _names_a_type(resolver: Resolver, head: str) -> bool:
    """Whether a qualifier's head is the name of a Zig struct, enum or union of the
    workspace (``TestDummyHandler.reqQuery``), not a value's (``buf.len``) nor an alias
    of the standard library's (``const Ast = std.zig.Ast;`` for ``Ast.Node.Index``)."""
    symbols = resolver.index.symbols
    return any(
        symbols[at].kind in Kind.TYPES and symbols[at].language == "zig"
        for at in resolver.index.by_name.get(head, ())
    )


def imported(resolver: Resolver, entry: FileEntry, linked: bool = True) -> dict[str, str]:
    """The names ``entry`` binds to ``@import``s, with what each imports (``posix.zig``);
    ``linked``: ``entry`` is the file being linked (else its groups are decoded apart)."""
    found: dict[str, dict[str, str]] = resolver.index.derived("zig imports", dict)
    known = found.get(entry.path)
    if known is None:
        groups = resolver.link_groups(entry) if linked else entry.link_groups()
        known = found[entry.path] = {
            alias: name.strip('"')
            for name, _, code, alias, _, _ in groups
            if code == _IMPORT_CODE and alias
        }
    return known


def _module(resolver: Resolver, entry: FileEntry, spec: str) -> FileEntry | None:
    if not spec.endswith(".zig"):
        return None
    path = posixpath.normpath(posixpath.join(posixpath.dirname(entry.rel), spec))
    files = resolver.index.derived(
        "zig files",
        lambda: {(e.root, e.rel): e for e in resolver.index.files.values() if e.language == "zig"},
    )
    return files.get((entry.root, path))


def _walk(resolver: Resolver, module: FileEntry, parts: list[str]) -> Symbol | None:
    """The definition ``parts`` name from ``module``'s top level down its members, into
    a module the walk's module imports under the name (windows.zig's ``pub const ws2_32
    = @import("ws2_32.zig");`` for ``windows.ws2_32.SD_BOTH``)."""
    while len(parts) > 1:
        spec = imported(resolver, module, linked=False).get(parts[0])
        inner = _module(resolver, module, spec) if spec is not None else None
        if inner is None:
            break
        module, parts = inner, parts[1:]
    found = module.lookups().top.get(parts[0])
    for part in parts[1:]:
        if found is None:
            return None
        found = resolver.member(found, part)
    return found
