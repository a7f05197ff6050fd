"""Editor-profile name ranking for ``workspace/symbol`` (fallback until ranking lands).

Tiers, best first: exact name (case-sensitive, then not), prefix, camel-hump or
sub-token initials, sub-token prefix, substring, then fuzzy (rapidfuzz ratio of the
lower-cased names). Within a tier: PageRank, then shorter names, then path.
The per-index tables are built once per index generation.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass

from rapidfuzz import fuzz, process

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.server.lsp_search import SymbolQuery

_SPLIT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")


@dataclass(frozen=True, slots=True)
class _Table:
    generation: int
    lower: list[str]
    initials: list[str]
    tokens: list[tuple[str, ...]]


_tables: dict[int, _Table] = {}
_lock = threading.Lock()


def _table(index: Index) -> _Table:
    key = id(index)
    found = _tables.get(key)
    if found is not None and found.generation == index.generation:
        return found
    lower: list[str] = []
    initials: list[str] = []
    tokens: list[tuple[str, ...]] = []
    for s in index.symbols:
        parts = tuple(p.lower() for p in _SPLIT.findall(s.name))
        lower.append(s.name.lower())
        initials.append("".join(p[0] for p in parts))
        tokens.append(parts)
    table = _Table(index.generation, lower, initials, tokens)
    with _lock:
        if len(_tables) > 4:
            _tables.clear()
        _tables[key] = table
    return table


def _allowed(s: Symbol, query: SymbolQuery) -> bool:
    from fnmatch import fnmatch

    if query.kinds and s.kind not in query.kinds:
        return False
    if query.languages and s.language not in query.languages:
        return False
    return not query.files or any(
        fnmatch(s.file, g) or fnmatch(s.file, f"*{g}*") for g in query.files
    )


def search(index: Index, query: SymbolQuery, limit: int) -> list[Symbol]:
    symbols = index.symbols
    if not symbols:
        return []
    text = query.text.replace(" ", "")
    if not text:
        picked = [s for s in symbols if _allowed(s, query)] if query.filtered else []
        return picked[:limit]
    table = _table(index)
    q = text.lower()
    best: dict[int, int] = {}
    for i, name in enumerate(table.lower):
        if q not in name and not table.initials[i].startswith(q):
            continue
        if symbols[i].name == text:
            tier = 0
        elif name == q:
            tier = 1
        elif name.startswith(q):
            tier = 2
        elif table.initials[i].startswith(q):
            tier = 3
        elif any(t.startswith(q) for t in table.tokens[i]):
            tier = 4
        else:
            tier = 5
        best[i] = tier
    if len(best) < limit and len(q) >= 3:
        for _, score, i in process.extract(
            q, table.lower, scorer=fuzz.ratio, limit=limit, score_cutoff=60
        ):
            best.setdefault(i, 6 + int((100 - score) // 10))
    pagerank = index.pagerank
    ranked = sorted(
        (i for i in best if _allowed(symbols[i], query)),
        key=lambda i: (best[i], -float(pagerank[i]), len(symbols[i].name), symbols[i].file),
    )
    return [symbols[i] for i in ranked[:limit]]
