"""The fuzzy channel: typo-tolerant name matching.

Candidates are names whose trigram sets are similar enough to the query's
(both lower-cased and without separators, so ``getCacheKye`` meets ``get_cache_key``),
by Jaccard similarity ``|A & B| / |A | B|`` (``fuzzy_threshold``, default 0.3),
computed for every name at once from a sparse (names x trigrams) matrix. They
are kept when their optimal-string-alignment distance (Levenshtein with
adjacent transpositions as one edit: "chrage" is one edit from "charge") to the
query is within ``max_edit_distance`` (default 3) and ranked by that distance,
then by the distance of the name as written, then by Jaccard similarity. Names
with the query's first letter and a length within the bound need only 0.6 of
the Jaccard threshold: a transposition in a short name breaks most of its
trigrams. Names are lower-cased once, at index time; distances are rapidfuzz's,
against the name and against its separator-free form (the better counts).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.tokens import whole
from symfuse.ranking.channels.topk import Ranking
from symfuse.ranking.prepared.columns import Coding, Columns
from symfuse.ranking.prepared.sparse_rows import Rows, Vocabulary

if TYPE_CHECKING:
    pass


MAX_CANDIDATES = 2000  # best by Jaccard, checked for edit distance
RELAXED = 0.6  # share of the Jaccard threshold enough for a name with the query's first letter


def trigram_rows(wholes: list[str], lower: list[str], vocabulary: Vocabulary) -> Rows:
    """Each name's distinct trigrams (of its separator-free form), as vocabulary ids."""
    grams: list[str] = []
    counts: list[int] = []
    for name, low in zip(wholes, lower, strict=True):
        key = name or low
        found = _GRAMS.get(key)
        if found is None:
            found = tuple(sorted(set(trigrams(key))))  # sorted: the same in every process
            if len(_GRAMS) < 500_000:
                _GRAMS[key] = found
        grams.extend(found)
        counts.append(len(found))
    ids = vocabulary.add(grams)
    rows = np.repeat(np.arange(len(wholes), dtype=np.int64), counts)
    return Rows.sized(rows, ids, np.ones(ids.shape[0]), len(wholes))


# A name's distinct trigrams (names repeat): a memo of a pure function of the name, the same
# for every index, so it may be shared by all (bounded, like the memos of tokens.py).
_GRAMS: dict[str, tuple[str, ...]] = {}


def trigrams(text: str) -> list[str]:
    """Character trigrams of a word padded like PostgreSQL's pg_trgm: two marks before, one after.

    The padding gives the first letters more weight, where typos are rarest.
    """
    padded = f"\x02\x02{text}\x03"
    return [padded[i : i + 3] for i in range(len(padded) - 2)]


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class TrigramIndex:
    matrix: Columns  # names x trigrams, 0/1
    sizes: npt.NDArray[np.float64]  # distinct trigrams per name
    trigram_ids: dict[str, int]
    lower: list[str]
    wholes: list[str]
    first: npt.NDArray[np.int32]  # code point of each separator-free name's first letter
    length: npt.NDArray[np.int32]  # length of each separator-free name

    @classmethod
    def build(cls, names: list[str]) -> TrigramIndex:
        vocabulary = Vocabulary()
        lower = [n.lower() for n in names]
        wholes = [whole(n) for n in names]
        return cls.of(trigram_rows(wholes, lower, vocabulary), vocabulary, lower, wholes)

    @classmethod
    def of(
        cls, rows: Rows, vocabulary: Vocabulary, lower: list[str], wholes: list[str]
    ) -> TrigramIndex:
        """From the (names x trigram ids) rows of :func:`trigram_rows`, stacked."""

        matrix = Columns.coded(rows.matrix(len(vocabulary)), Coding())  # 0/1: a byte each
        return cls.of_columns(matrix, vocabulary, lower, wholes)

    @classmethod
    def of_columns(
        cls, matrix: Columns, vocabulary: Vocabulary, lower: list[str], wholes: list[str]
    ) -> TrigramIndex:
        """From the (names x trigram ids) matrix as stored by column (a warm start maps it
        from the ranking file rather than convert the rows on the heap)."""
        sizes = np.bincount(matrix.indices, minlength=matrix.shape[0]).astype(np.float64)
        wholes = [w or low for w, low in zip(wholes, lower, strict=True)]
        n = len(wholes)
        first = np.fromiter((ord(w[0]) if w else 0 for w in wholes), dtype=np.int32, count=n)
        length = np.fromiter(map(len, wholes), dtype=np.int32, count=n)
        return cls(matrix, sizes, dict(vocabulary.ids), lower, wholes, first, length)

    def jaccard(self, query: str) -> npt.NDArray[np.float64]:
        """Trigram Jaccard similarity of every name to ``query``, both separator-free."""
        grams = set(trigrams(whole(query) or query.lower()))
        shared = np.zeros(self.matrix.shape[0], dtype=np.float64)
        for g in grams:
            col = self.trigram_ids.get(g)
            if col is not None and col < self.matrix.shape[1]:
                start, end = self.matrix.indptr[col], self.matrix.indptr[col + 1]
                shared[self.matrix.indices[start:end]] += 1.0
        union = self.sizes + len(grams) - shared
        return np.divide(shared, union, out=np.zeros_like(shared), where=union > 0)


def rank(
    index: TrigramIndex,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    limit: int,
    *,
    threshold: float = 0.3,
    max_edit_distance: int = 3,
) -> Ranking:
    """Names within the trigram and edit-distance bounds, closest first.

    Scores are ``1 - distance / (max_edit_distance + 1)``.
    """
    q = query.strip().lower()
    if not q:
        return Ranking.empty()
    cutoff = max_edit_distance
    similarity = index.jaccard(query.strip())
    q_whole = whole(query.strip()) or q
    found = _candidates(index, similarity, q_whole, threshold, cutoff, mask)
    if not found.shape[0]:
        return Ranking.empty()
    distance, near = _distances(index, q, q_whole, found, cutoff)
    within = distance <= cutoff
    found, distance, near = found[within], distance[within], near[within]
    # Closest first; between equally close names, the one closer as written
    # ("_quote_anme": "_quote_name" before "quote_name"), then by trigram overlap.
    order = np.lexsort((found, -similarity[found], near, distance))[:limit]
    chosen = found[order].astype(np.int64)
    scores = 1.0 - distance[order].astype(np.float64) / (cutoff + 1)
    return Ranking(chosen, scores, found.astype(np.int64))


def tie_keys(
    index: TrigramIndex, query: str, found: npt.NDArray[np.int64], max_edit_distance: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """What :func:`rank` orders equally close names of ``found`` by: the distance as
    written, then trigram overlap (a shard sends them so that names of many shards
    order as in one index)."""
    q = query.strip().lower()
    if not q or not found.shape[0]:
        return np.zeros(found.shape[0], np.int64), np.zeros(found.shape[0])
    q_whole = whole(query.strip()) or q
    _distance, near = _distances(index, q, q_whole, found, max_edit_distance)
    return near, index.jaccard(query.strip())[found]


def _candidates(
    index: TrigramIndex,
    similarity: npt.NDArray[np.float64],
    q_whole: str,
    threshold: float,
    cutoff: int,
    mask: npt.NDArray[np.bool_] | None,
) -> npt.NDArray[np.int64]:
    """Names similar enough to the query by trigrams; at most the :data:`MAX_CANDIDATES` most
    similar."""
    # Short names have few trigrams, and one transposition breaks two or three of them
    # ("chrage" shares 3 of 11 with "charge"): names with the same first letter and a
    # length within the edit bound need only RELAXED times the threshold.
    keep = similarity >= max(threshold, 1e-9)
    keep |= (
        (similarity >= max(RELAXED * threshold, 1e-9))
        & (index.first == ord(q_whole[0]))
        & (np.abs(index.length - len(q_whole)) <= cutoff)
    )
    if mask is not None:
        keep &= mask
    found = np.flatnonzero(keep)
    if found.shape[0] > MAX_CANDIDATES:
        best = np.argpartition(-similarity[found], MAX_CANDIDATES - 1)[:MAX_CANDIDATES]
        found = found[best]
    return found


def _distances(
    index: TrigramIndex, q: str, q_whole: str, found: npt.NDArray[np.int64], cutoff: int
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Each candidate's OSA distance to the query, the better of the name as written and its
    separator-free form; and the distance as written alone (both capped past ``cutoff``)."""
    from rapidfuzz import process  # here: a search that looks for no typo never loads it
    from rapidfuzz.distance import OSA

    near = process.cdist(
        [q], [index.lower[i] for i in found], scorer=OSA.distance, score_cutoff=cutoff + 1
    )[0].astype(np.int64)
    near_whole = process.cdist(
        [q_whole],
        [index.wholes[i] for i in found],
        scorer=OSA.distance,
        score_cutoff=cutoff,
    )[0]
    return np.minimum(near, near_whole).astype(np.int64), near
