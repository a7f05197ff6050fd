"""One definition written twice: a use of either form is a use of both.

- A source and the file compiled from it, both indexed: luarocks ships each Teal module
  as ``x.tl`` and the ``x.lua`` made from it; callers reach the ``.lua`` form.
- Kotlin Multiplatform's ``expect`` declaration and its ``actual`` ones per platform
  (okio's ``expect class DeflaterSink`` in ``zlibMain`` and ``actual class DeflaterSink``
  in ``jvmMain`` and ``nativeMain``): ``deflaterSink.finishDeflate()`` reaches one of
  them, and the others declare the same member.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.graph.targets import per_platform

_TWINS = {".tl": ".lua", ".lua": ".tl"}
PlatformKey = tuple[str, str, str]  # qualified name, kind, file name


def twins(index: Index, used: set[str]) -> set[str]:
    """The ids of the other forms of the definitions ``used`` holds."""
    found: set[str] = set()
    platforms = index.derived("dead code: platform declarations", lambda: _platforms(index))
    for symbol_id in used:
        path, _, rest = symbol_id.partition("::")
        stem, dot, suffix = path.rpartition(".")
        twin = _TWINS.get(dot + suffix)
        if twin is not None and f"{stem}{twin}" in index.files:
            found.add(f"{stem}{twin}::{rest}")
        if platforms and path.endswith(".kt"):
            symbol = index.get(symbol_id)
            if symbol is not None:
                found.update(platforms.get(_key(symbol), ()))
    return found


def _platforms(index: Index) -> dict[PlatformKey, list[str]]:
    """Kotlin's per-platform declarations by qualified name, kind and file name, where a
    name is declared in more than one file."""
    by_key: defaultdict[PlatformKey, list[str]] = defaultdict(list)
    for symbol in index.symbols:
        if symbol.language == "kotlin" and per_platform(index, symbol):
            by_key[_key(symbol)].append(symbol.symbol_id)
    return {key: ids for key, ids in by_key.items() if len(ids) > 1}


def _key(symbol: Symbol) -> PlatformKey:
    return symbol.fqn, symbol.kind.value, posixpath.basename(symbol.file)
