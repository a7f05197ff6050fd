"""What a file's imports bind, and which file a module name or specifier names.

Python imports bind names to qualified names (``from django.db.models.base import
Model``); JavaScript/TypeScript relative imports bind names to module files
(``import { Order } from "./models"``), barrels re-exporting from others.
"""

from __future__ import annotations

import posixpath
from typing import NamedTuple

from symfuse.indexer.extract.texts import module_name
from symfuse.indexer.files.languages import family
from symfuse.indexer.files.layouts import python_layouts
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import RefKind, Symbol
from symfuse.indexer.store.rows import REF_KIND_CODE, LinkGroup

_IMPORT_CODE = REF_KIND_CODE[RefKind.IMPORT]


def python_module_of(index: Index, entry: FileEntry) -> str:
    """The module a Python file names, from its root's layout (``src/`` folders,
    a root that is a package: :mod:`~symfuse.indexer.files.layouts`)."""
    layouts = index.derived("python layouts", lambda: python_layouts(index.roots))
    layout = layouts.get(entry.root)
    return layout.module(entry.rel) if layout is not None else module_name(entry.rel)


def python_modules(index: Index) -> dict[str, FileEntry]:
    """Python module name (as its root's layout names it) -> the file; a module before
    its stub (``mod.py`` before ``mod.pyi``): what runs, whose imports say where a
    re-exported name is defined."""

    def build() -> dict[str, FileEntry]:
        found: dict[str, FileEntry] = {}
        for entry in index.files.values():
            if entry.language == "python":
                module = python_module_of(index, entry)
                if module not in found or found[module].path.endswith(".pyi"):
                    found[module] = entry
        return found

    return index.derived("python modules", build)


class Bindings(NamedTuple):
    """What a file's imports bring into its namespace."""

    names: dict[str, str]  # local name -> the qualified name it stands for
    stars: tuple[str, ...]  # modules it imports `*` from, in order
    # JavaScript/TypeScript: local name -> (relative module specifier, the name imported
    # from it; "" for `import * as m`), and the relative modules of `export * from`
    relative: dict[str, tuple[str, str]]
    relative_stars: tuple[str, ...]


def import_bindings(
    entry: FileEntry, groups: list[LinkGroup] | None = None, module: str | None = None
) -> Bindings:
    """What a file's imports bind (``groups``: its link groups, when already decoded;
    ``module``: the module the file names, which relative imports start from)."""
    table: dict[str, str] = {}
    stars: list[str] = []
    relative: dict[str, tuple[str, str]] = {}
    relative_stars: list[str] = []
    script = family(entry.language) == "javascript"
    for name, qualifier, code, alias, _, _ in groups if groups is not None else entry.link_groups():
        if code != _IMPORT_CODE:
            continue
        if script:
            if name == "*":  # export * from "./m"
                if qualifier.startswith(RELATIVE):
                    relative_stars.append(qualifier)
                continue
            if qualifier.startswith(RELATIVE):  # import { name as alias } from "./m"
                relative[alias or name] = (qualifier, name)
            elif name.startswith(RELATIVE) and alias:  # import * as alias from "./m"
                relative[alias] = (name, "")
        if name == "*":
            stars.append(import_fqn(name, qualifier, entry, module)[:-2])
            continue
        table[alias or name.rsplit(".", 1)[-1]] = import_fqn(name, qualifier, entry, module)
        if not alias and "." in name and not qualifier:
            table[name.split(".", 1)[0]] = name.split(".", 1)[0]
    return Bindings(table, tuple(stars), relative, tuple(relative_stars))


_NO_BINDINGS = Bindings({}, (), {}, ())
RELATIVE = ("./", "../")
# What a relative specifier may leave out: TypeScript's `./x.js` also names x.ts
_SCRIPT_ENDINGS = (
    "",
    ".ts",
    ".tsx",
    ".d.ts",
    ".js",
    ".jsx",
    ".mjs",
    ".cjs",
    "/index.ts",
    "/index.tsx",
    "/index.js",
    "/index.jsx",
)
_SCRIPT_SWAPS = {".js": (".ts", ".tsx"), ".jsx": (".tsx",), ".mjs": (".mts",), ".cjs": (".cts",)}


def script_module(index: Index, entry: FileEntry, spec: str) -> FileEntry | None:
    """The JavaScript/TypeScript file a relative module specifier of ``entry`` names
    (``./models``, ``../lib/order.js``), as Node and TypeScript would find it; remembered
    per folder and specifier (a barrel's ``export *`` is followed for every import)."""
    found: dict[tuple[str, str, str], FileEntry | None] = index.derived("script modules", dict)
    key = (entry.root, posixpath.dirname(entry.rel), spec)
    if key not in found:
        found[key] = _script_module(index, entry, spec)
    return found[key]


def _script_module(index: Index, entry: FileEntry, spec: str) -> FileEntry | None:
    base = posixpath.normpath(posixpath.join(posixpath.dirname(entry.rel), spec))
    if base.startswith("../") or base == "..":
        return None
    files = index.derived(
        "script files",
        lambda: {
            (e.root, e.rel): e for e in index.files.values() if family(e.language) == "javascript"
        },
    )
    for ending in _SCRIPT_ENDINGS:
        found = files.get((entry.root, base + ending))
        if found is not None:
            return found
    stem, extension = posixpath.splitext(base)
    for swapped in _SCRIPT_SWAPS.get(extension, ()):
        found = files.get((entry.root, stem + swapped))
        if found is not None:
            return found
    return None


def changed_bindings(old: FileEntry | None, new: FileEntry | None) -> set[str] | None:
    """Names a file's imports bind differently between two versions of it: files that
    use them may resolve through the file's module differently (a re-export added or
    dropped in a package's ``__init__.py``). None when its ``*`` imports changed: any
    name may then resolve differently, and everything is relinked."""
    before = import_bindings(old) if old is not None else _NO_BINDINGS
    after = import_bindings(new) if new is not None else _NO_BINDINGS
    if before.stars != after.stars or before.relative_stars != after.relative_stars:
        return None
    rebound: set[str] = set()
    if any(e is not None and e.language == "python" for e in (old, new)):
        # only Python modules are looked through by qualified name (python_modules)
        names = before.names.keys() | after.names.keys()
        rebound = {n for n in names if before.names.get(n) != after.names.get(n)}
    # script modules, by their relative imports and re-exports; a rebound namespace
    # (`import * as m`, "" imported) may change any `m.x`: its members are named apart
    relative = before.relative.keys() | after.relative.keys()
    for local in relative:
        old_bound, new_bound = before.relative.get(local), after.relative.get(local)
        if old_bound != new_bound:
            rebound.update(b[1] or local for b in (old_bound, new_bound) if b is not None)
            rebound.add(local)
    return rebound


def import_fqn(name: str, qualifier: str, entry: FileEntry, module: str | None = None) -> str:
    """The qualified name an import names; relative Python imports
    (``from .query import QuerySet``) are made absolute from the file's module
    (``module``; when not given, named from the file's key)."""
    if qualifier.startswith(".") and entry.language == "python":
        dots = len(qualifier) - len(qualifier.lstrip("."))
        package = (module if module is not None else module_name(entry.path)).split(".")
        if not entry.path.endswith("__init__.py"):
            package = package[:-1]
        package = package[: len(package) - (dots - 1)] if dots > 1 else package
        qualifier = ".".join(p for p in (*package, qualifier.lstrip(".")) if p)
    return f"{qualifier}.{name}" if qualifier else name


def exported_value(module: FileEntry, name: str) -> Symbol | None:
    """A definition of ``name`` assigned to ``module.exports`` (``module.exports = class
    Name {}``), which the file holds under its ``module.exports`` symbol."""
    lookups = module.lookups()
    exports = lookups.top.get("exports")
    return lookups.scoped.get((exports.symbol_id, name)) if exports is not None else None
