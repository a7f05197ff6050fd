"""Exact lookups for ``mode: get`` and the scope of ``mode: drill``.

A target is, in this order: a symbol id; a symbol id without its ``#kind``;
a file (its key, or a path suffix such as ``models/base.py``), optionally
with ``:line`` to pick the innermost definition around that line; a
directory; a fully qualified name.
"""

from __future__ import annotations

import re
from collections import deque

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.ranking.channels.topk import distinct
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.search.filters import UNIT_CODES

_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::\d+)?$")


def _file_positions(
    prepared: Prepared, files: list[int], *, units: bool = False
) -> npt.NDArray[np.int64]:
    """The symbols of ``files``: their definitions, and with ``units`` the files' own units."""
    filters = prepared.filters
    chosen = np.isin(filters.file, np.asarray(files, dtype=np.int32))
    if not units:
        chosen &= ~np.isin(filters.kind, UNIT_CODES)
    return np.flatnonzero(chosen)


def _matching_files(prepared: Prepared, path: str) -> list[int]:
    path = path.strip().removeprefix("./")
    files = prepared.filters.files
    exact = [i for i, f in enumerate(files) if f == path]
    if exact:
        return exact
    return [i for i, f in enumerate(files) if f.endswith("/" + path)]


def _under_directory(prepared: Prepared, path: str) -> list[int]:
    prefix = path.strip().rstrip("/") + "/"
    return [i for i, f in enumerate(prepared.filters.files) if f.startswith(prefix)]


def lookup(index: Index, prepared: Prepared, target: str) -> npt.NDArray[np.int64]:
    """Positions of the symbols ``target`` names, in source order; empty when none."""
    target = target.strip()
    at = index.position.get(target)
    if at is not None:
        return np.asarray([at], dtype=np.int64)
    if "::" in target and "#" not in target:
        ids = (f"{target}#{kind.value}" for kind in Kind)
        found = sorted(index.position[i] for i in ids if i in index.position)
        if found:
            return np.asarray(found, dtype=np.int64)
    match = _LINE.match(target)
    if match is not None:
        files = _matching_files(prepared, match.group("path"))
        if files:
            held = _file_positions(prepared, files, units=True)  # a line outside definitions
            return _enclosing(index, held, int(match.group("line")))
    files = _matching_files(prepared, target)
    if files:
        return _file_positions(prepared, files)
    files = _under_directory(prepared, target)
    if files:
        return _file_positions(prepared, files)
    dotted = "." + target.lower().replace("::", ".").replace("#", ".")
    return distinct(prepared.names.fqn_text.equal(dotted))


def _enclosing(index: Index, positions: npt.NDArray[np.int64], line: int) -> npt.NDArray[np.int64]:
    """The innermost definition of ``positions`` whose span contains ``line``."""
    symbols = index.symbols
    best: int | None = None
    best_span = 0
    for p in positions:
        s = symbols[int(p)]
        if s.line <= line <= s.end_line:
            span = s.end_line - s.line
            if best is None or span <= best_span:
                best, best_span = int(p), span
    return np.asarray([] if best is None else [best], dtype=np.int64)


def scope(index: Index, prepared: Prepared, drill_from: str) -> npt.NDArray[np.bool_] | None:
    """Mask of a drill scope: a symbol and its descendants, or the symbols of a path."""
    n = prepared.size
    mask = np.zeros(n, dtype=np.bool_)
    root = index.position.get(drill_from.strip())
    if root is not None:
        children = index.children
        symbols = index.symbols
        queue = deque([root])
        while queue:
            p = queue.popleft()
            mask[p] = True
            queue.extend(children.get(symbols[p].symbol_id, ()))
        return mask
    files = _matching_files(prepared, drill_from) or _under_directory(prepared, drill_from)
    if not files:
        return None
    mask[_file_positions(prepared, files, units=True)] = True
    return mask
