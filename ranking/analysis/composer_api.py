"""The public API of a Composer library: what the projects that require it may call.

A root declares a library when its ``composer.json`` has a ``type`` other than
``project`` (Composer's default is ``library``). The library ships the folders and
files its ``autoload`` names (``psr-4``, ``psr-0``, ``classmap``, ``files``). A function,
class or ``public`` method there is public API: Guzzle's ``HandlerStack::hasHandler``
and ``GuzzleHttp\\headers_from_lines``, which nothing in the repository calls, are
still what its users may call. ``private`` and ``protected`` members are not.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol

_SHIPPED = frozenset({Kind.FUNCTION, Kind.METHOD, Kind.CLASS, Kind.INTERFACE, Kind.TRAIT})
_HIDDEN = re.compile(r"(?:^|\s)(?:private|protected)\s")


def public_api(index: Index, symbol: Symbol) -> str | None:
    """Why users of the root's Composer library may use ``symbol``, or None."""
    if symbol.language != "php" or symbol.kind not in _SHIPPED:
        return None
    shipped = _autoloaded(index).get(symbol.root)
    if not shipped or _HIDDEN.search(symbol.signature):
        return None
    rel = symbol.file.split("/", 1)[1] if len(index.roots) > 1 else symbol.file
    if not any(rel == path or rel.startswith(path.rstrip("/") + "/") for path in shipped):
        return None
    return "public in the Composer library's autoloaded code: its users may call it"


def _autoloaded(index: Index) -> dict[str, tuple[str, ...]]:
    """Root alias -> the paths its library's ``autoload`` names (none for a project)."""
    return index.derived("php: composer autoload", lambda: _read(index))


def _read(index: Index) -> dict[str, tuple[str, ...]]:
    found: dict[str, tuple[str, ...]] = {}
    for alias, root in index.roots.items():
        try:
            manifest = json.loads((Path(root) / "composer.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if not isinstance(manifest, dict) or manifest.get("type", "library") == "project":
            continue
        found[alias] = tuple(_paths(manifest.get("autoload")))
    return found


def _paths(autoload: object) -> list[str]:
    """The folders and files an ``autoload`` section names."""
    if not isinstance(autoload, dict):
        return []
    out: list[str] = []
    for scheme in ("psr-4", "psr-0"):
        for target in (autoload.get(scheme) or {}).values():
            out.extend(t for t in (target if isinstance(target, list) else [target]) if t)
    for scheme in ("classmap", "files"):
        out.extend(t for t in autoload.get(scheme) or [] if isinstance(t, str))
    return [p.lstrip("./") for p in out if isinstance(p, str)]
