"""The public API of a Ruby gem: the methods its users may call.

A folder declares a gem when it holds a ``*.gemspec``; the gem ships its ``lib/`` (a
repository of several gems, as rails or sinatra with sinatra-contrib, has one per
folder). A class,
a module or a method there is public API unless a bare ``private`` or ``protected`` line
above it (at its indentation, in its class) or a ``private :name`` below it hides it:
rack's ``Request#delete?``, which nothing in the repository calls, is still a method its
users may call. Methods of other folders (``test/``, ``examples/``) ship in no gem.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.text import paths

_SHIPPED = frozenset({Kind.METHOD, Kind.FUNCTION, Kind.CLASS, Kind.MODULE})
_SECTION = re.compile(r"^(\s*)(private|protected|public)\s*(?:#.*)?$")


def public_api(index: Index, symbol: Symbol) -> str | None:
    """Why users of the root's gem may call ``symbol``, or None."""
    if symbol.language != "ruby" or symbol.kind not in _SHIPPED:
        return None
    if not _shipped(index, symbol.file):
        return None
    parent = index.get(symbol.parent) if symbol.parent is not None else None
    if _hidden(paths.read_lines(index, symbol.file), symbol, parent.line if parent else 1):
        return None
    return "public in the gem's lib/: its users may call it"


def _shipped(index: Index, file: str) -> bool:
    """``file`` is under the ``lib/`` of a folder that holds a gemspec."""
    return ships_lib(index, file, "ruby", "*.gemspec")


def ships_lib(index: Index, file: str, language: str, marker: str) -> bool:
    """``file`` is under the ``lib/`` of a folder that holds a file matching ``marker``
    (a gemspec, Mix's ``mix.exs``): a package's shipped code."""
    key = f"{language}: folders with {marker}"
    folders = index.derived(key, lambda: frozenset(_package_folders(index, language, marker)))
    return any(folder in folders for folder in _lib_owners(file))


def _lib_owners(file: str) -> list[str]:
    """The folders ``file`` is under the ``lib/`` of, as index paths (``""`` for a
    one-root index's top)."""
    parts = file.split("/")
    return ["/".join(parts[:at]) for at, part in enumerate(parts[:-1]) if part == "lib"]


def _package_folders(index: Index, language: str, marker: str) -> set[str]:
    folders = {
        owner
        for key, entry in index.files.items()
        if entry.language == language
        for owner in _lib_owners(key)
    }
    return {f for f in folders if any(Path(paths.key_path(index, f)).glob(marker))}


def _hidden(lines: Sequence[str], symbol: Symbol, opens: int) -> bool:
    """A ``private``/``protected`` section the definition is in (its class opening at
    line ``opens``), or ``private :name``."""
    at = symbol.line - 1
    if at >= len(lines):
        return False
    indent = len(lines[at]) - len(lines[at].lstrip())
    if re.match(r"\s*(private|protected)\s", lines[at]):  # `private def name`
        return True
    for line in reversed(lines[opens - 1 : at]):
        section = _SECTION.match(line)
        if section and len(section.group(1)) == indent:
            return section.group(2) != "public"
    after = re.compile(rf"^\s*(private|protected)\b[^\n#]*:{re.escape(symbol.name)}\b")
    return any(after.match(line) for line in lines[at:])
