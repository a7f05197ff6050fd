"""The public API of a Ruby gem: the methods its users may call.

A root declares a gem when it holds a ``*.gemspec``; the gem ships ``lib/``. A class,
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
    rel = symbol.file.split("/", 1)[1] if len(index.roots) > 1 else symbol.file
    if not rel.startswith("lib/") or symbol.root not in _gems(index):
        return None
    parent = index.get(symbol.parent) if symbol.parent is not None else None
    if _hidden(paths.read_lines(index, symbol.file), symbol, parent.line if parent else 1):
        return None
    return "public in the gem's lib/: its users may call it"


def _gems(index: Index) -> frozenset[str]:
    """The roots (aliases) with a gemspec at their top."""
    return index.derived("ruby: gem roots", lambda: frozenset(_gem_roots(index)))


def _gem_roots(index: Index) -> set[str]:
    found: set[str] = set()
    for alias, root in index.roots.items():
        if any(Path(root).glob("*.gemspec")):
            found.add(alias)
    return found


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
