"""Where a Python project's modules start: the module a file under a root names.

A file's module name comes from its path under the folder its package tree starts
in, as the installed distribution names it:

- a root that is itself a package (``django/`` with an ``__init__.py``) puts its
  own name, and its parents', first (:func:`package_prefix`);
- a ``src/`` layout names ``src/click/utils.py`` ``click.utils``: the source
  folders come from ``pyproject.toml`` (``[tool.setuptools] package-dir``,
  ``[tool.setuptools.packages.find] where``, hatch's wheel ``packages`` and
  ``sources``, poetry's ``packages`` ``from``, pdm's ``package-dir``), from
  ``setup.cfg``'s ``[options] package_dir``, and failing those from the layout
  itself: a ``src/`` (or ``lib/``) folder that is no package but holds packages,
  namespace packages (no ``__init__.py``) included.

Only simple settings are read: a mapping of the root package (``"" = "src"``) or
of a named package to its folder. What is read is part of the index options
(:meth:`~symfuse.indexer.config.IndexConfig.options`), so a changed layout
re-extracts the workspace.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symfuse.indexer.extract.texts import module_name

_GUESSED = ("src", "lib")  # folders taken as source roots from the layout alone


@dataclass(frozen=True, slots=True)
class PythonLayout:
    """``package``: the package path a root sits in (``django/``); ``folders``: pairs
    (folder under the root, the package path its contents are named from), longest
    folder first: ``("src/", "")``, or ``("lib/", "mypkg/")`` for a renamed package."""

    package: str = ""
    folders: tuple[tuple[str, str], ...] = ()

    def module_path(self, rel: str) -> str:
        """The path module names are made from: ``src/click/utils.py`` ->
        ``click/utils.py``."""
        for folder, named in self.folders:
            if rel.startswith(folder):
                return self.package + named + rel[len(folder) :]
        return self.package + rel

    def module(self, rel: str) -> str:
        """The module a file names: ``src/click/__init__.py`` -> ``click``."""
        return module_name(self.module_path(rel))

    def describe(self) -> list[str]:
        """A plain form for the index options: ``["src/=", "lib/=mypkg/"]``."""
        return [f"{folder}={named}" for folder, named in self.folders]


NO_LAYOUT = PythonLayout()


def package_prefix(directory: str) -> str:
    """``a/b/`` when ``directory`` is package ``b`` inside package ``a`` (``__init__.py``)."""
    parts: list[str] = []
    current = Path(directory)
    while (current / "__init__.py").is_file() and current.name:
        parts.append(current.name)
        current = current.parent
    return "".join(f"{part}/" for part in reversed(parts))


def python_layout(directory: str) -> PythonLayout:
    """The layout of a root: its package prefix, or its declared or evident source
    folders."""
    package = package_prefix(directory)
    if package:
        return PythonLayout(package)
    root = Path(directory)
    folders = _declared(root) or _evident(root)
    ordered = sorted(set(folders), key=lambda pair: (-len(pair[0]), pair))
    return PythonLayout("", tuple(ordered))


def python_layouts(aliases: Mapping[str, str]) -> dict[str, PythonLayout]:
    """:func:`python_layout` of each root, by alias: looked up once per update."""
    return {alias: python_layout(real) for alias, real in aliases.items()}


def _folder(text: str) -> str:
    """``./src`` -> ``src/``; ``""`` or ``.`` -> ``""`` (the root itself)."""
    parts = [p for p in text.replace("\\", "/").split("/") if p not in ("", ".")]
    return "".join(f"{p}/" for p in parts)


def _pairs(mapping: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A package-dir mapping (``{"" = "src", "pkg" = "lib/pkg"}``) as folder pairs."""
    pairs: list[tuple[str, str]] = []
    for package, folder in mapping.items():
        if isinstance(package, str) and isinstance(folder, str) and _folder(folder):
            pairs.append((_folder(folder), _folder(package.replace(".", "/"))))
    return pairs


def _table(data: Mapping[str, Any], *path: str) -> Mapping[str, Any]:
    for key in path:
        found = data.get(key)
        if not isinstance(found, Mapping):
            return {}
        data = found
    return data


def _declared(root: Path) -> list[tuple[str, str]]:
    """Source folders that pyproject.toml or setup.cfg declare."""
    import tomllib  # here, not at the top: a query on a stored index reads no layout

    folders: list[tuple[str, str]] = []
    try:
        project = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        project = {}
    setuptools = _table(project, "tool", "setuptools")
    package_dir = setuptools.get("package-dir")
    if isinstance(package_dir, Mapping):
        folders += _pairs(package_dir)
    where = _table(setuptools, "packages", "find").get("where")
    for folder in where if isinstance(where, list) else []:
        if isinstance(folder, str) and _folder(folder):
            folders.append((_folder(folder), ""))
    wheel = _table(project, "tool", "hatch", "build", "targets", "wheel")
    for package in wheel.get("packages") or []:
        if isinstance(package, str) and "/" in package.strip("/"):
            folders.append((_folder(package.strip("/").rpartition("/")[0]), ""))
    sources = wheel.get("sources")
    if isinstance(sources, Mapping):
        folders += _pairs({v: k for k, v in sources.items() if isinstance(v, str)})
    elif isinstance(sources, list):
        folders += [(_folder(s), "") for s in sources if isinstance(s, str) and _folder(s)]
    for package in _table(project, "tool", "poetry").get("packages") or []:
        source = package.get("from") if isinstance(package, Mapping) else None
        if isinstance(source, str) and _folder(source):
            folders.append((_folder(source), ""))
    pdm = _table(project, "tool", "pdm", "build").get("package-dir")
    if isinstance(pdm, str) and _folder(pdm):
        folders.append((_folder(pdm), ""))
    return folders + _setup_cfg(root)


def _setup_cfg(root: Path) -> list[tuple[str, str]]:
    """``[options] package_dir`` of setup.cfg: ``=src`` or lines ``pkg = lib``."""
    import configparser

    parser = configparser.ConfigParser()
    try:
        parser.read(root / "setup.cfg", encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return []
    text = parser.get("options", "package_dir", fallback="")
    mapping: dict[str, str] = {}
    for line in text.replace(";", "\n").splitlines():
        package, equals, folder = line.partition("=")
        if equals:
            mapping[package.strip()] = folder.strip()
    return _pairs(mapping)


def _evident(root: Path) -> list[tuple[str, str]]:
    """``src/`` or ``lib/`` when it is no package itself but holds one (a folder of
    ``.py`` files, so namespace packages count too)."""
    folders: list[tuple[str, str]] = []
    for name in _GUESSED:
        folder = root / name
        if not folder.is_dir() or (folder / "__init__.py").exists():
            continue
        if any(_holds_python(child) for child in _subfolders(folder)):
            folders.append((f"{name}/", ""))
    return folders


def _subfolders(folder: Path) -> list[Path]:
    try:
        return [c for c in folder.iterdir() if c.is_dir() and c.name.isidentifier()]
    except OSError:
        return []


def _holds_python(folder: Path, depth: int = 2) -> bool:
    """A package, or a namespace package a level or two down."""
    if (folder / "__init__.py").is_file() or any(folder.glob("*.py")):
        return True
    return depth > 0 and any(_holds_python(c, depth - 1) for c in _subfolders(folder))
