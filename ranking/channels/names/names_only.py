"""The quick name ranking: no prepared structures needed (see :mod:`.editor` for its use).

:func:`quick_search` needs no prepared structures, only name forms that cost
one pass over the symbols per file, cached per file entry, so a new index
generation (an edited buffer) rebuilds only the changed files' forms. Order:

1. the name-match tiers of :func:`symfuse.ranking.channels.identity.rank` (exact,
   case-insensitive, fqn suffix, prefix, sub-token segment, camel humps,
   substring), within a tier names closer in length first, then PageRank;
2. when fewer than ``limit`` names matched and the query has three or more
   letters, names within a small optimal-string-alignment distance of it
   (both lower-cased, separators dropped), closest first, then PageRank.
   Distances come from one rapidfuzz ``process.extract`` call (C, no Python
   loop over the symbols); the bound is :func:`edit_bound`. A shorter query
   gets the names containing it instead, central first (one ``str.find``
   scan over all names joined).

Filters (kinds, languages, file globs) are the masks of
:class:`symfuse.ranking.search.filters.FilterTable`, as in the fused search.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels import identity
from symfuse.ranking.channels.identity import MatchTier, NameForms, NameTable
from symfuse.ranking.channels.tokens import whole
from symfuse.ranking.prepared.per_index import drop, per_index
from symfuse.ranking.query.search_request import (
    SearchRequest,
)
from symfuse.ranking.search.filters import FilterCodes, FilterTable

T = TypeVar("T")

MIN_FUZZY_LENGTH = 3  # shorter queries match too many names one edit away
MAX_FORM_CACHE = 200_000  # file entries whose name forms stay cached


def edit_bound(length: int) -> int:
    """Edits allowed between a query of ``length`` letters and a name: 1 up to 4, 2 up to 7, else 3.

    One typo per four letters or so, capped at the fuzzy channel's default of 3;
    a looser bound drowns short queries in unrelated names.
    """
    return 1 if length <= 4 else 2 if length <= 7 else 3


@dataclass(frozen=True, slots=True)
class QuickHit:
    """One match: where the symbol is in ``Index.symbols``, how its name matched, a score.

    ``tier`` is the identity tier (``MatchTier.NONE`` for a fuzzy match) and
    ``distance`` the edit distance of a fuzzy match (0 for a name match). The
    score is ``(NONE - tier) / NONE`` for a name match, as in the identity
    channel, and ``(1 - distance / (bound + 1)) / NONE`` for a fuzzy one, so
    every fuzzy match scores below every name match.
    """

    position: int
    symbol: Symbol
    tier: MatchTier
    distance: int
    score: float


@dataclass(frozen=True, slots=True)
class QuickTable:
    """What :func:`quick_search` needs of one index generation."""

    generation: int
    names: NameTable
    wholes: npt.NDArray[np.object_]  # separator-free lower-case names, for rapidfuzz
    whole_length: npt.NDArray[np.int32]

    @classmethod
    def of(cls, generation: int, forms: NameForms) -> QuickTable:
        wholes = [w or low for w, low in zip(forms.wholes, forms.lower, strict=True)]
        return cls(
            generation=generation,
            names=NameTable.of(forms),
            wholes=np.asarray(wholes, dtype=object),
            whole_length=np.fromiter(map(len, wholes), dtype=np.int32, count=len(wholes)),
        )


class QuickCache:
    """What quick search keeps for one index and its snapshots (see :mod:`.companion`):
    name forms and filter codes per file, valid while the file's entry object is the
    same, and the tables of each index object, valid while its generation holds."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.forms: dict[str, tuple[FileEntry, NameForms]] = {}  # file key -> (entry, forms)
        self.codes: dict[str, tuple[FileEntry, FilterCodes]] = {}  # file key -> (entry, codes)
        self.tables: weakref.WeakKeyDictionary[Index, QuickTable] = weakref.WeakKeyDictionary()
        self.filters: weakref.WeakKeyDictionary[Index, tuple[int, FilterTable]] = (
            weakref.WeakKeyDictionary()
        )


def _per_file(
    cache: dict[str, tuple[FileEntry, T]], index: Index, make: Callable[[list[Symbol]], T]
) -> list[T]:
    """``make(entry.symbols)`` for every file of ``index`` in key order, cached per entry."""
    out: list[T] = []
    for key in sorted(index.files):  # the order of Index.symbols
        entry = index.files[key]
        found = cache.get(key)
        if found is None or found[0] is not entry:
            found = (entry, make(entry.symbols))
            if len(cache) < MAX_FORM_CACHE:
                cache[key] = found
        out.append(found[1])
    for stale in cache.keys() - index.files.keys():
        del cache[stale]
    return out


def quick_cache(index: Index) -> QuickCache:
    """The quick-search cache ``index`` and its snapshots own."""
    return per_index(index, QuickCache)


def quick_table(index: Index) -> QuickTable:
    """The quick-search table of ``index`` (cached per index object and generation).

    Name forms are cached per file entry; an index snapshot shares the entries
    of unchanged files, so only changed files are read again.
    """
    cache = quick_cache(index)
    with cache.lock:
        found = cache.tables.get(index)
        if found is not None and found.generation == index.generation:
            return found
        forms = NameForms.join(_per_file(cache.forms, index, NameForms.of))
        table = QuickTable.of(index.generation, forms)
        cache.tables[index] = table
        return table


def filter_table(index: Index) -> FilterTable:
    """The filter codes of ``index`` (built on the first filtered query of a generation)."""
    cache = quick_cache(index)
    with cache.lock:
        found = cache.filters.get(index)
        if found is not None and found[0] == index.generation:
            return found[1]
        table = FilterTable.of(_per_file(cache.codes, index, FilterCodes.of))
        cache.filters[index] = (index.generation, table)
        return table


def forget(index: Index) -> None:
    """Drop the cached tables and forms of ``index`` and its snapshots: once its ranking
    structures are ready, a server answers from them (tests drop them too)."""
    drop(index, QuickCache)


def mask_of(
    index: Index,
    kinds: Sequence[Kind],
    languages: Sequence[str],
    file_pattern: Sequence[str],
) -> npt.NDArray[np.bool_] | None:
    if not (kinds or languages or file_pattern):
        return None
    request = SearchRequest.model_construct(
        query="",
        kind=tuple(kinds),
        language=tuple(x.lower() for x in languages),
        file_pattern=tuple(file_pattern),
    )
    return filter_table(index).mask(request)


def quick_search(
    index: Index,
    query: str,
    *,
    limit: int,
    kinds: Sequence[Kind] = (),
    languages: Sequence[str] = (),
    file_pattern: Sequence[str] = (),
) -> list[QuickHit]:
    """Symbols whose name matches ``query``, best first, at most ``limit`` (see the module doc).

    An empty query lists the symbols the filters select, in index order (none
    when there are no filters).
    """
    return quick_ranked(
        index, query, limit=limit, kinds=kinds, languages=languages, file_pattern=file_pattern
    )[0]


def quick_ranked(
    index: Index,
    query: str,
    *,
    limit: int,
    kinds: Sequence[Kind] = (),
    languages: Sequence[str] = (),
    file_pattern: Sequence[str] = (),
) -> tuple[list[QuickHit], int]:
    """:func:`quick_search`'s hits, and how many symbols matched in all (at least the hits)."""
    text = " ".join(query.split())
    symbols = index.symbols
    if limit <= 0 or not symbols:
        return [], 0
    table = quick_table(index)
    mask = mask_of(index, kinds, languages, file_pattern)
    if not text:
        if mask is None:
            return [], 0
        chosen = np.flatnonzero(mask)
        hits = [QuickHit(int(i), symbols[i], MatchTier.NONE, 0, 0.0) for i in chosen[:limit]]
        return hits, len(chosen)
    pagerank = np.asarray(index.pagerank, dtype=np.float64)
    return _rank(table, symbols, pagerank, mask, text, limit)


def _rank(
    table: QuickTable,
    symbols: list[Symbol],
    pagerank: npt.NDArray[np.float64],
    mask: npt.NDArray[np.bool_] | None,
    text: str,
    limit: int,
) -> tuple[list[QuickHit], int]:
    """Name tiers, then names containing a short query or a few edits from a longer one;
    and how many matched in all (every name-tier match, plus the others found)."""
    ranking, tier = identity.rank(table.names, text, pagerank, mask, limit)
    hits = [
        QuickHit(int(i), symbols[i], MatchTier(int(tier[i])), 0, float(score))
        for i, score in zip(ranking.positions, ranking.scores, strict=True)
    ]
    matched = len(ranking.matched)
    if len(hits) < limit:
        more = _short(table, text, pagerank, mask, tier, symbols, limit - len(hits))
        more = more or _fuzzy(table, text, pagerank, mask, tier, symbols, limit - len(hits))
        hits.extend(more)
        matched += len(more)
    return hits, matched


def _short(
    table: QuickTable,
    text: str,
    pagerank: npt.NDArray[np.float64],
    mask: npt.NDArray[np.bool_] | None,
    tier: npt.NDArray[np.int8],
    symbols: list[Symbol],
    wanted: int,
) -> list[QuickHit]:
    """For a query too short to look for typos (``e``), names containing it, central first.

    The identity channel leaves one-letter substrings out (they match most names);
    an editor still wants a page of candidates to narrow down as the user types.
    """
    q = text.lower()
    if len(whole(text) or q) >= MIN_FUZZY_LENGTH:
        return []
    distinct = table.names.distinct
    found = np.unique(distinct.symbols(np.unique(distinct.lower_text.contains(q))))
    found = found[tier[found] == MatchTier.NONE]
    if mask is not None:
        found = found[mask[found]]
    order = np.lexsort((found, -pagerank[found]))[:wanted]
    score = (MatchTier.NONE - MatchTier.SUBSTRING) / float(MatchTier.NONE)
    return [QuickHit(int(i), symbols[int(i)], MatchTier.SUBSTRING, 0, score) for i in found[order]]


def _fuzzy(
    table: QuickTable,
    text: str,
    pagerank: npt.NDArray[np.float64],
    mask: npt.NDArray[np.bool_] | None,
    tier: npt.NDArray[np.int8],
    symbols: list[Symbol],
    wanted: int,
) -> list[QuickHit]:
    """Names a few edits from ``text`` that matched no tier, closest first, then PageRank."""
    from rapidfuzz import process  # here: a names-only answer that finds a name never loads it
    from rapidfuzz.distance import OSA

    q = whole(text) or text.lower()
    if len(q) < MIN_FUZZY_LENGTH:
        return []
    bound = edit_bound(len(q))
    allowed = tier == MatchTier.NONE
    if mask is not None:
        allowed &= mask
    allowed &= np.abs(table.whole_length - len(q)) <= bound  # else more than `bound` edits
    candidates = np.flatnonzero(allowed)
    if not candidates.shape[0]:
        return []
    found = process.extract(
        q,
        table.wholes[candidates].tolist(),
        scorer=OSA.distance,
        score_cutoff=bound,
        limit=max(wanted * 4, 50),
    )
    if not found:
        return []
    positions = candidates[np.asarray([f[2] for f in found], dtype=np.int64)]
    distance = np.asarray([f[1] for f in found], dtype=np.int64)
    order = np.lexsort((positions, -pagerank[positions], distance))[:wanted]
    return [
        QuickHit(
            int(positions[o]),
            symbols[int(positions[o])],
            MatchTier.NONE,
            int(distance[o]),
            (1.0 - float(distance[o]) / (bound + 1)) / float(MatchTier.NONE),
        )
        for o in order
    ]


def quick_search_files(
    index: Index,
    query: str,
    changed: Sequence[str],
    *,
    limit: int,
    kinds: Sequence[Kind],
    languages: Sequence[str],
    file_pattern: Sequence[str],
) -> list[QuickHit]:
    """:func:`quick_search` over the symbols of the ``changed`` files of ``index`` only.

    Used right after an edit, while the prepared structures of the new index build.
    """
    entries = [index.files[k] for k in sorted(changed) if k in index.files]
    symbols = [s for entry in entries for s in entry.symbols]
    if not symbols:
        return []
    table = QuickTable.of(index.generation, NameForms.join([NameForms.of(symbols)]))
    mask = None
    if kinds or languages or file_pattern:
        request = SearchRequest.model_construct(
            query=query,
            kind=tuple(kinds),
            language=tuple(x.lower() for x in languages),
            file_pattern=tuple(file_pattern),
        )
        mask = FilterTable.build(symbols).mask(request)
    pagerank = np.asarray(index.pagerank_of([s.symbol_id for s in symbols]), dtype=np.float64)
    return _rank(table, symbols, pagerank, mask, " ".join(query.split()), limit)[0]
