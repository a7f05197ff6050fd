"""The public API of a Python distribution: what projects that install it may import.

A root declares a distribution when it holds ``setup.py``, ``setup.cfg``, or a
``pyproject.toml`` with a ``[project]`` or ``[tool.poetry]`` table. The distribution
ships the top-level packages named as it is (``Flask`` -> ``flask``, ``typing-extensions``
-> ``typing_extensions``) and those in a source folder of its layout (``src/requests``).
A definition in such a package is public API when no part of its dotted name (package,
module, class, name) starts with an underscore: requests' ``utils.dict_to_sequence``,
which nothing in the repository calls, is still a function its users may call, while
flask's ``cli._path_is_ancestor`` is private. Tests, examples and documentation code
(``docs_src/``) ship in no package of the distribution's name.
"""

from __future__ import annotations

import re
from pathlib import Path

from symfuse.indexer.files.layouts import python_layouts
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol

# ``name = "Flask"`` (pyproject), ``name = requests`` (setup.cfg), ``name="attrs",``
# (setup.py); not ``name=about["__title__"]``
_TABLE = re.compile(r"^\[(?:project|tool\.poetry)\][^\n]*$(.*?)(?=^\[|\Z)", re.M | re.S)
_NAME = re.compile(r"""^\s*name\s*=\s*(["']?)([A-Za-z0-9._-]+)\1\s*(?:,|$)""", re.M)


def public_api(index: Index, symbol: Symbol) -> str | None:
    """Why users of the root's distribution may use ``symbol``, or None."""
    if symbol.language != "python":
        return None
    shipped = _shipped(index).get(symbol.file)
    if shipped is None or any(part.startswith("_") for part in symbol.fqn.split(".")):
        return None
    return f"public in the package {shipped} of the distribution: its users may import it"


def _shipped(index: Index) -> dict[str, str]:
    """Python file -> the shipped top-level package it is in (files of none left out)."""
    return index.derived("dead code: shipped python packages", lambda: _shipped_files(index))


def _shipped_files(index: Index) -> dict[str, str]:
    layouts = index.derived("python layouts", lambda: python_layouts(index.roots))
    names = {alias: _distribution(Path(real)) for alias, real in index.roots.items()}
    packages = {
        (entry.root, entry.rel.rpartition("/")[0])
        for entry in index.files.values()
        if entry.rel.endswith("__init__.py")
    }
    found: dict[str, str] = {}
    for key, entry in index.files.items():
        name = names.get(entry.root)
        if name is None or not entry.rel.endswith(".py"):
            continue
        folder = entry.rel.rpartition("/")[0]
        if (entry.root, folder) not in packages:
            continue  # a script or a namespace folder, not a package module
        layout = layouts.get(entry.root)
        sources = [f for f, _ in layout.folders] if layout is not None else []
        inside = next((f for f in sources if entry.rel.startswith(f)), "")
        top = entry.rel[len(inside) :].split("/", 1)[0]
        if inside or top == name:
            found[key] = top
    return found


def _distribution(root: Path) -> str | None:
    """The import name of the distribution ``root`` declares ("" when its name is not
    written plainly, as ``name=about["__title__"]``), or None when it declares none."""
    pyproject = _read(root / "pyproject.toml")
    table = re.search(
        r"^\[(?:project|tool\.poetry)\][^\n]*$(.*?)(?=^\[|\Z)", pyproject, re.M | re.S
    )
    if table is not None:
        return _import_name(table.group(1))
    for other in ("setup.cfg", "setup.py"):
        text = _read(root / other)
        if text:
            return _import_name(text)
    return None


def _import_name(text: str) -> str:
    found = _NAME.search(text)
    return found.group(2).lower().replace("-", "_").replace(".", "_") if found else ""


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
