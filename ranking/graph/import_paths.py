"""The workspace files an import names by path or by package, per language, for
:mod:`~symfuse.ranking.graph.dependencies` (Python modules and re-exports are resolved there,
through the index's resolver).

- JavaScript/TypeScript: a relative module as Node and TypeScript find it
  (``./mod`` -> ``mod.ts``, ``./lib`` -> ``lib/index.js``);
- C family: ``#include "x.h"`` beside the file, then in the include folders
  (:mod:`~symfuse.ranking.graph.include_paths`: ``-I`` of a ``compile_commands.json``,
  folders named ``include``), else the one workspace file so named; ``<x.h>`` in the
  include folders only;
- Go: an import path under a ``go.mod``'s module path names the package folder: its
  ``.go`` files (tests left out);
- Rust: ``mod foo;`` names ``foo.rs`` or ``foo/mod.rs`` beside the module;
  ``use crate::a::b``, ``use super::x``, ``use self::x`` the deepest module file of the path;
- Java: ``import a.b.C`` the file ``C.java`` in a folder ending ``a/b``; a package import
  (``a.b.*``) every ``.java`` file of that folder;
- Kotlin: as Java, with ``.kt`` files (a class in a file of another name is found
  through the resolver, by its definition);
- C#: ``using A.B;`` the files that declare namespace ``A.B``;
- Ruby: ``require_relative`` beside the file, ``require`` on a ``lib/`` load path.

Each resolver is a few lines of path arithmetic on the index's file keys: layouts that
stray from the conventions (Java sources outside their package folders, Rust
``#[path]``) are not followed.
"""

from __future__ import annotations

import posixpath
import re
from collections import defaultdict
from pathlib import Path

from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import Kind, Reference
from symfuse.ranking.graph.include_paths import include_dirs
from symfuse.ranking.text.paths import real_path

_SCRIPTS = frozenset({"javascript", "typescript", "tsx", "vue", "svelte"})
_SCRIPT_SUFFIXES = ("", ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".vue", ".svelte")
_C_FAMILY = frozenset({"c", "cpp", "objc", "cuda", "glsl", "hlsl"})
_GO_MODULE = re.compile(r"^module\s+(\S+)", re.MULTILINE)
_RUST_ROOTS = ("lib.rs", "main.rs")


class ImportPaths:
    """Resolves one index's imports by path or package (made once per import graph)."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.by_name: dict[str, list[str]] = defaultdict(list)
        self.by_folder: dict[str, list[str]] = defaultdict(list)
        self.namespaces: dict[str, set[str]] = defaultdict(set)
        for key, entry in index.files.items():
            self.by_name[posixpath.basename(key)].append(key)
            self.by_folder[posixpath.dirname(key)].append(key)
            if entry.language == "csharp":
                for s in entry.symbols:
                    if s.kind is Kind.NAMESPACE:
                        self.namespaces[s.fqn].add(key)
        self._go_modules: dict[str, tuple[str, str] | None] = {}
        self._include_dirs: list[str] | None = None

    def files(self, key: str, entry: FileEntry, ref: Reference) -> set[str]:
        """The files the import ``ref`` of file ``key`` names."""
        language = entry.language
        spec = ref.qualifier or ref.name
        if language in _SCRIPTS:
            return self._script(key, spec) if spec.startswith(".") else set()
        if language in _C_FAMILY:
            return self._include(key, spec) if spec else set()
        if language == "go":
            return self._go(key, ref.name)
        if language == "rust":
            return self._rust_use(key, [*ref.qualifier.split("::"), ref.name])
        if language in ("java", "kotlin"):
            dotted = f"{ref.qualifier}.{ref.name}" if ref.qualifier else ref.name
            return self._java(dotted, ".java" if language == "java" else ".kt")
        if language == "ruby":
            return self._ruby(key, ref.name)
        if language == "csharp":
            return set(self.namespaces.get(f"{ref.qualifier}.{ref.name}".strip("."), ()))
        return set()

    def _script(self, key: str, spec: str) -> set[str]:
        base = posixpath.normpath(posixpath.join(posixpath.dirname(key), spec))
        for candidate in (
            *(base + s for s in _SCRIPT_SUFFIXES),
            *(f"{base}/index{s}" for s in _SCRIPT_SUFFIXES[1:]),
        ):
            if candidate in self.index.files:
                return {candidate}
        return set()

    def _include(self, key: str, spec: str) -> set[str]:
        """``"x.h"``: beside the file, then in the include folders, else the one
        workspace file whose path ends so; ``<x.h>``: in the include folders only."""
        system = spec.startswith("<")
        spec = spec.strip("<>")
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(key), spec))
        if not system and beside in self.index.files:
            return {beside}
        if self._include_dirs is None:
            self._include_dirs = include_dirs(self.index, set(self.by_folder))
        for folder in self._include_dirs:
            found = posixpath.join(folder, spec) if folder else spec
            if found in self.index.files:
                return {found}
        if system:
            return set()
        named = self.by_name.get(posixpath.basename(spec), [])
        ending = [f for f in named if f.endswith("/" + spec) or f == spec]
        return set(ending) if len(ending) == 1 else set()

    # -- Go ------------------------------------------------------------------------------

    def _go(self, key: str, spec: str) -> set[str]:
        module = self._go_module(key)
        if module is None:
            return set()
        path, folder = module
        if spec != path and not spec.startswith(path + "/"):
            return set()
        package = posixpath.normpath(posixpath.join(folder, spec[len(path) + 1 :]))
        package = "" if package == "." else package
        return {
            f
            for f in self.by_folder.get(package, ())
            if f.endswith(".go") and not f.endswith("_test.go")
        }

    def _go_module(self, key: str) -> tuple[str, str] | None:
        """(module path, the folder of its go.mod) of the nearest go.mod above ``key``."""
        real = real_path(self.index, key)
        if real is None:
            return None
        folder, disk = posixpath.dirname(key), Path(real).parent
        seen: list[str] = []
        found: tuple[str, str] | None = None
        for _ in range(key.count("/") + 1):
            if folder in self._go_modules:
                found = self._go_modules[folder]
                break
            seen.append(folder)
            match = _read_module(disk / "go.mod")
            if match is not None:
                found = (match, folder)
                break
            folder, disk = posixpath.dirname(folder), disk.parent
        for each in seen:
            self._go_modules[each] = found
        return found

    # -- Rust ----------------------------------------------------------------------------

    def rust_mod(self, key: str, name: str) -> set[str]:
        """``mod name;`` in file ``key``: ``name.rs`` or ``name/mod.rs`` in its module folder."""
        found = self._rust_child(_rust_folder(key), name)
        return {found} if found else set()

    def _rust_child(self, folder: str, name: str) -> str | None:
        for candidate in (f"{folder}/{name}.rs", f"{folder}/{name}/mod.rs"):
            if candidate.lstrip("/") in self.index.files:
                return candidate.lstrip("/")
        return None

    def _rust_use(self, key: str, path: list[str]) -> set[str]:
        head, rest = path[0], path[1:]
        if head == "crate":
            folder, file = self._rust_crate(key)
        elif head == "self":
            folder, file = _rust_folder(key), key
        elif head == "super":
            folder = posixpath.dirname(_rust_folder(key))
            while rest and rest[0] == "super":
                folder, rest = posixpath.dirname(folder), rest[1:]
            file = self._rust_module_file(folder)
        else:
            return set()  # another crate, or std
        for segment in rest:
            child = self._rust_child(folder, segment)
            if child is None:
                break
            folder, file = posixpath.join(folder, segment), child
        return {file} if file and file != key else set()

    def _rust_crate(self, key: str) -> tuple[str, str | None]:
        folder = posixpath.dirname(key)
        while True:
            for root in _RUST_ROOTS:
                candidate = posixpath.join(folder, root)
                if candidate in self.index.files:
                    return folder, candidate
            if not folder:
                return "", None
            folder = posixpath.dirname(folder)

    def _rust_module_file(self, folder: str) -> str | None:
        """The file of the module whose children live in ``folder``."""
        for candidate in (*(posixpath.join(folder, r) for r in _RUST_ROOTS), f"{folder}/mod.rs"):
            if candidate in self.index.files:
                return candidate
        return f"{folder}.rs" if f"{folder}.rs" in self.index.files else None

    # -- Java ----------------------------------------------------------------------------

    def _ruby(self, key: str, spec: str) -> set[str]:
        """``require_relative "x"`` beside the file; ``require "shop/x"`` on the load path
        (a ``lib/`` folder), else the one file whose path ends so."""
        spec = spec if spec.endswith(".rb") else spec + ".rb"
        beside = posixpath.normpath(posixpath.join(posixpath.dirname(key), spec))
        if beside in self.index.files:
            return {beside}
        ending = [f for f in self.by_name.get(posixpath.basename(spec), ()) if f.endswith(spec)]
        on_path = [f for f in ending if f == "lib/" + spec or f.endswith("/lib/" + spec)]
        found = on_path or ending
        return set(found) if len(found) == 1 else set()

    def _java(self, dotted: str, suffix: str = ".java") -> set[str]:
        """``a.b.C`` (the class's file), else ``a.b`` as a package (``a.b.*``), else
        ``a.b.C.m`` (a static import: C's file). Kotlin (``suffix`` ``.kt``) alike: a
        file not named after its class is found through the definitions instead."""
        parts = [p for p in dotted.split(".") if p and p != "*"]
        for cut in (len(parts), len(parts) - 1):
            if cut < 1:
                break
            package, name = "/".join(parts[: cut - 1]), parts[cut - 1]
            classes = [
                f
                for f in self.by_name.get(f"{name}{suffix}", ())
                if _in_folder(posixpath.dirname(f), package)
            ]
            if classes:
                return set(classes)
            if cut == len(parts):
                folder = "/".join(parts)
                members = {
                    f
                    for folder_key, files in self.by_folder.items()
                    if _in_folder(folder_key, folder)
                    for f in files
                    if f.endswith(suffix)
                }
                if members:
                    return members
        return set()


def _in_folder(folder: str, package: str) -> bool:
    return folder == package or folder.endswith("/" + package) or (not package and not folder)


def _rust_folder(key: str) -> str:
    """The folder that holds the child modules of the module in file ``key``."""
    folder, name = posixpath.split(key)
    if name in (*_RUST_ROOTS, "mod.rs"):
        return folder
    return posixpath.join(folder, name[: -len(".rs")])


def _read_module(go_mod: Path) -> str | None:
    try:
        match = _GO_MODULE.search(go_mod.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return None
    return match.group(1) if match else None
