"""File dependencies: the workspace files a file imports, the files that import it, and
its imports from outside the workspace, read from the index's import references.

An import counts for a file when the resolver links it to definitions in another file
of its language family (``from shop.models import Order``, ``import { Foo } from
'./mod'``, re-exports followed; a Python stub stands for the module beside it), when,
in Python, the module it names is a file of the workspace (``import shop.models``,
``from shop import models``, ``from . import models``), or when it names files by path
or package (:mod:`~symfuse.ranking.graph.import_paths`: script paths, C includes, Go
packages, Rust ``mod``/``use``, Java and C# packages and namespaces). An import that
resolves to nothing in the workspace is ``external``, by the module it names. ``depth``
follows imports transitively; import cycles through the file are reported.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from symfuse.indexer.errors import NotFound
from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.link.bindings import import_fqn, python_module_of, python_modules
from symfuse.indexer.model import Kind, Reference
from symfuse.ranking.graph.import_paths import ImportPaths
from symfuse.ranking.graph.targets import resolver_for
from symfuse.ranking.query.records import Record


@dataclass(frozen=True, slots=True)
class FileLink(Record):
    """A file on the other end of an import, at ``depth`` hops, with the import lines
    (in the importing file) that make the link."""

    file: str
    depth: int
    lines: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ExternalImport(Record):
    module: str
    lines: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Dependencies(Record):
    file: str
    imports: tuple[FileLink, ...]
    importers: tuple[FileLink, ...]
    external: tuple[ExternalImport, ...]
    cycles: tuple[tuple[str, ...], ...]


class ImportGraph:
    """Per file: the files it imports (with lines), its external modules (with lines),
    the files that import it."""

    def __init__(
        self, imports: dict[str, dict[str, list[int]]], external: dict[str, dict[str, list[int]]]
    ) -> None:
        self.imports = imports
        self.external = external
        reverse: dict[str, dict[str, list[int]]] = defaultdict(dict)
        for source, targets in imports.items():
            for target, lines in targets.items():
                reverse[target][source] = lines
        self.importers = dict(reverse)


def import_graph(index: Index) -> ImportGraph:
    """The import graph of ``index`` (made once per index generation)."""
    return index.derived("import graph", lambda: _build(index))


def _build(index: Index) -> ImportGraph:
    resolver = resolver_for(index)
    modules = _runtime_modules(index)
    paths = ImportPaths(index)
    imports: dict[str, dict[str, list[int]]] = {}
    external: dict[str, dict[str, list[int]]] = {}
    for key, entry in index.files.items():
        found: dict[str, list[int]] = defaultdict(list)
        outside: dict[str, list[int]] = defaultdict(list)
        mine = family(entry.language)
        own = python_module_of(index, entry) if entry.language == "python" else None
        for ref in entry.imports():
            hits = resolver.resolve(ref, entry)
            files = {
                _runtime(index, h.target.file) for h in hits if family(h.target.language) == mine
            }
            if own is not None:
                files |= _module_files(own, entry, ref, modules)
            files |= paths.files(key, entry, ref)
            files.discard(key)
            for file in files:
                _add(found[file], ref.line)
            if not files:
                _add(outside[_module_name(ref.qualifier, ref.name)], ref.line)
        if entry.language == "rust":
            _rust_mods(paths, key, entry, found)
        imports[key] = {file: sorted(set(lines)) for file, lines in found.items()}
        external[key] = dict(outside)
    return ImportGraph(imports, external)


def _rust_mods(paths: ImportPaths, key: str, entry: FileEntry, found: dict[str, list[int]]) -> None:
    """Rust's ``mod foo;``: a module declared here whose body is another file."""
    for symbol in entry.symbols:
        if symbol.kind is Kind.MODULE and symbol.signature.rstrip().endswith(";"):
            for file in paths.rust_mod(key, symbol.name):
                _add(found[file], symbol.line)


def _runtime(index: Index, file: str) -> str:
    """A Python stub (``mod.pyi``) stands for the module beside it when there is one:
    the file that runs, and the one an agent opens."""
    twin = file[:-1] if file.endswith(".pyi") else ""
    return twin if twin and twin in index.files else file


def _runtime_modules(index: Index) -> dict[str, str]:
    """Python module name -> its file, the module before its stub; also the unique
    trailing names of two parts or more (``user_commands.utils`` for Django's
    ``tests.user_commands.utils``: test apps import each other with tests/ on the path)."""
    exact = {name: _runtime(index, entry.path) for name, entry in python_modules(index).items()}
    tails: dict[str, str | None] = {}
    for name, file in exact.items():
        parts = name.split(".")
        for start in range(1, len(parts) - 1):
            tail = ".".join(parts[start:])
            tails[tail] = file if tail not in tails else None
    return {**{tail: file for tail, file in tails.items() if file is not None}, **exact}


def _add(lines: list[int], line: int) -> None:
    if not lines or lines[-1] != line:
        lines.append(line)


def _module_files(own: str, entry: FileEntry, ref: Reference, modules: dict[str, str]) -> set[str]:
    """Python: the workspace file the import names as a module: ``import a.b`` and
    ``from a import b`` (``from . import b``) name ``a/b.py`` when it exists, else the
    package ``a`` (the deepest of ``a.b``'s packages that is in the workspace). ``own``:
    the module of ``entry``, the Python file that imports."""
    base = ""
    if ref.qualifier:
        base = import_fqn("_", ref.qualifier, entry, own)[:-2]
    dotted = f"{base}.{ref.name}" if base and ref.name != "*" else base or ref.name
    parts = dotted.split(".")
    while parts:
        target = modules.get(".".join(parts))
        if target is not None:
            return {target}
        parts.pop()
    return set()


def _module_name(qualifier: str, name: str) -> str:
    """What an unresolved import names: its module (``os.path`` of ``from os.path import
    join``; ``numpy`` of ``import numpy``; ``./mod`` of a script import)."""
    return qualifier or name


def dependencies(index: Index, target: str, depth: int = 1) -> Dependencies:
    """The dependencies of the file ``target`` (a workspace path, or a Python module)."""
    key = _file_of(index, target)
    graph = import_graph(index)
    importers = graph.importers
    return Dependencies(
        file=key,
        imports=_walk(graph.imports, key, depth),
        importers=_walk(importers, key, depth),
        external=tuple(
            ExternalImport(module, tuple(lines))
            for module, lines in sorted(graph.external.get(key, {}).items())
        ),
        cycles=_cycles(graph, key),
    )


def _file_of(index: Index, target: str) -> str:
    """The index key of the file ``target`` names: a path (``./`` before it or not; a
    folder of its own may start with a dot, ``.github/x.py``), or a Python module."""
    wanted = target.strip()
    while wanted.startswith("./"):
        wanted = wanted[2:]
    if wanted in index.files:
        return wanted
    module = python_modules(index).get(wanted)
    if module is not None:
        return module.path
    raise NotFound(f"target: no file or Python module {target!r} in the index")


def _walk(edges: dict[str, dict[str, list[int]]], start: str, depth: int) -> tuple[FileLink, ...]:
    """Files reached from ``start`` breadth first, up to ``depth`` hops; each with the
    lines of the import that first reached it."""
    seen = {start}
    frontier = [start]
    found: list[FileLink] = []
    for hop in range(1, depth + 1):
        following = []
        for file in frontier:
            for other, lines in sorted(edges.get(file, {}).items()):
                if other not in seen:
                    seen.add(other)
                    following.append(other)
                    found.append(FileLink(other, hop, tuple(lines)))
        frontier = following
    return tuple(found)


MAX_CYCLES = 20
CYCLE_HOPS = 8


def _cycles(graph: ImportGraph, key: str) -> tuple[tuple[str, ...], ...]:
    """Import cycles through ``key``: for each file it imports, the shortest way back
    (shortest first, at most :data:`MAX_CYCLES`). One breadth-first search back from
    ``key``, not an enumeration of every cycle of the component (Django has millions)."""
    imported = graph.imports.get(key)
    if not imported:
        return ()
    back = _paths_to(graph.importers, key, CYCLE_HOPS)
    found: set[tuple[str, ...]] = set()
    for first in sorted(imported):
        path = back.get(first)
        if path is not None:
            found.add((key, *path[:-1]))
    return tuple(sorted(found, key=lambda c: (len(c), c))[:MAX_CYCLES])


def _paths_to(
    importers: dict[str, dict[str, list[int]]], key: str, hops: int
) -> dict[str, list[str]]:
    """For each file that reaches ``key`` in at most ``hops`` imports, one shortest way
    there (the file first, ``key`` last): breadth first over the importers, each file's in
    the order they were found, the way ``networkx.single_target_shortest_path`` picks
    among equally short ones."""
    paths = {key: [key]}
    level = [key]
    for _ in range(hops):
        following = []
        for file in level:
            for other in importers.get(file, {}):
                if other not in paths:
                    paths[other] = [other, *paths[file]]
                    following.append(other)
        if not following:
            break
        level = following
    return paths
