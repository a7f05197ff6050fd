"""The public API of a published Java or Kotlin library: what its users may call.

A module publishes its code when its Maven ``pom.xml`` builds a jar (any packaging but
``pom``, the parent of modules) or its Gradle build applies a publishing plugin
(``maven-publish``, ``com.vanniktech.maven.publish``, a ``publishing {}`` block). Its
main source sets (``src/main/``, Kotlin Multiplatform's ``src/commonMain/``,
``src/jvmMain/``...) are what it ships: there a Java ``public`` or ``protected``
declaration, or a Kotlin one neither ``private`` nor ``internal``, is API, though
nothing in the repository calls it (gson's ``FieldAttributes.getAnnotations``, okio's
``ClassLoader.asResourceFileSystem``). Packages named ``internal`` or ``impl`` are not.
"""

from __future__ import annotations

import re
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol

_SHIPPED = frozenset(
    {Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR, Kind.CLASS, Kind.INTERFACE, Kind.PROPERTY}
)
_JAVA_VISIBLE = re.compile(r"(?:^|\s)(?:public|protected)\s")
_KOTLIN_HIDDEN = re.compile(r"(?:^|\s)(?:private|internal)\s")
_GRADLE_PUBLISHES = re.compile(r"maven-publish|vanniktech|\bpublishing\s*\{")
_MAIN_SET = re.compile(r"^src/(?:main|\w+Main)/")
_HIDDEN_PACKAGES = frozenset({"internal", "impl"})
_BUILDS = ("pom.xml", "build.gradle", "build.gradle.kts")


def public_api(index: Index, symbol: Symbol) -> str | None:
    """Why users of the root's published library may call ``symbol``, or None."""
    if symbol.language not in ("java", "kotlin") or symbol.kind not in _SHIPPED:
        return None
    modules = _published(index).get(symbol.root)
    if not modules:
        return None
    rel = symbol.file.split("/", 1)[1] if len(index.roots) > 1 else symbol.file
    module = next(
        (m for m in modules if rel.startswith(m) and _MAIN_SET.match(rel[len(m) :])), None
    )
    if module is None or _HIDDEN_PACKAGES.intersection(rel.split("/")[:-1]):
        return None
    if symbol.language == "java" and not _JAVA_VISIBLE.search(symbol.signature):
        return None
    if symbol.language == "kotlin" and _KOTLIN_HIDDEN.search(symbol.signature):
        return None
    return f"public in a published library ({module or './'}): its users may call it"


def _published(index: Index) -> dict[str, tuple[str, ...]]:
    """Root alias -> the folders (``""`` for the root, ``"gson/"``) of its published modules."""
    return index.derived("jvm: published modules", lambda: _read(index))


def _read(index: Index) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    for alias, root in index.roots.items():
        base = Path(root)
        folders = [base, *sorted(p for p in _children(base) if not p.name.startswith("."))]
        modules = [
            "" if folder == base else f"{folder.name}/"
            for folder in folders
            if any(_publishes(folder / build) for build in _BUILDS)
        ]
        if modules:
            found[alias] = tuple(modules)
    return found


def _children(folder: Path) -> list[Path]:
    try:
        return [p for p in folder.iterdir() if p.is_dir()]
    except OSError:
        return []


def _publishes(build: Path) -> bool:
    try:
        text = build.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    if build.name == "pom.xml":
        return "<packaging>pom</packaging>" not in text
    return _GRADLE_PUBLISHES.search(text) is not None
