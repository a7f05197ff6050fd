"""A sentence's answer from names and paths alone, while the ranking structures build.

A large workspace's first ranking structures take seconds to build (SQLAlchemy: about
six). A name query is answered meanwhile by the quick name ranking (:mod:`.names_only`);
this answers a sentence or a few keywords the same way, from what the index holds
already: each content word of the query (stop words dropped, lightly stemmed as the
lexical channel stems) is looked up as the start of a name's sub-token (``engine`` meets
``create_engine``, ``EngineEvents``, ``engines``) and of a path part (``pool`` meets
``pool/impl.py``), in one C-level scan per word over the names and paths joined.

A definition scores the inverse name frequency of each word its name holds, and half
that for each word only its file's path holds, so names that say more of the query come
first; its PageRank breaks ties, and test, example and benchmark code follows product
code, as in the fused search. No bodies, docstrings or word model are read: the answer
is marked ``names_only`` and the fused ranking replaces it once the structures exist.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.names.names_only import (
    QuickHit,
    filter_table,
    mask_of,
    quick_table,
)
from symfuse.ranking.channels.names.scans import Joined
from symfuse.ranking.channels.tokens import STOPWORDS, stem, text_tokens

PATH_SHARE = 0.5  # a word only the file's path holds counts half a word of the name
SIDE_CODE = 0.5  # tests, examples and benchmarks: as the prose plan demotes them
MAX_WORDS = 12  # a long text's first content words; the rest add little to a name scan
_SCAN_LIMIT = 1 << 30  # every match of a word (a common one matches most names)


def query_words(query: str) -> list[str]:
    """The stems of ``query``'s content words, each once, in order."""
    stems = (stem(t) for t in text_tokens(query) if t not in STOPWORDS and not t.isdigit())
    return list(dict.fromkeys(s for s in stems if len(s) >= 2))[:MAX_WORDS]


def word_ranked(
    index: Index,
    query: str,
    *,
    limit: int,
    kinds: Sequence[Kind] = (),
    languages: Sequence[str] = (),
    file_pattern: Sequence[str] = (),
) -> tuple[list[QuickHit], int]:
    """The definitions whose names (then paths) hold the most of ``query``'s words, and
    how many hold any (see the module doc)."""
    words = query_words(query)
    symbols = index.symbols
    if limit <= 0 or not symbols or not words:
        return [], 0
    distinct = quick_table(index).names.distinct
    filters = filter_table(index)
    names = len(distinct.starts) - 1
    paths = Joined.of([" " + " ".join(_path_parts(f)) + " " for f in filters.files])
    score = np.zeros(len(symbols), dtype=np.float64)
    for word in words:
        pattern = re.compile(" " + re.escape(word))
        named = np.unique(distinct.spaced_text.search(pattern, _SCAN_LIMIT))
        if not named.shape[0]:
            continue
        weight = math.log(1.0 + names / named.shape[0])
        in_name = np.zeros(len(symbols), dtype=np.bool_)
        in_name[distinct.symbols(named)] = True
        in_path = _held(paths, len(filters.files), pattern)[filters.file] & ~in_name
        score += weight * in_name + PATH_SHARE * weight * in_path
    mask = mask_of(index, kinds, languages, file_pattern)
    if mask is not None:
        score[~mask] = 0.0
    found = np.flatnonzero(score > 0.0)
    ranked = _ordered(found, score, np.asarray(index.pagerank), filters.side_code(found))
    top = float(ranked[1][0]) if found.shape[0] else 1.0
    hits = [
        QuickHit(int(i), symbols[int(i)], MatchTier.NONE, 0, float(s) / top)
        for i, s in zip(ranked[0][:limit].tolist(), ranked[1][:limit].tolist(), strict=True)
    ]
    return hits, int(found.shape[0])


def _ordered(
    found: npt.NDArray[np.int64],
    score: npt.NDArray[np.float64],
    pagerank: npt.NDArray[np.float64],
    side: npt.NDArray[np.bool_],
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
    """``found`` best first: score (side code's scaled down), then PageRank, then position."""
    scores = score[found] * np.where(side, SIDE_CODE, 1.0)
    order = np.lexsort((found, -pagerank[found], -scores))
    return found[order], scores[order]


def _held(paths: Joined, count: int, pattern: re.Pattern[str]) -> npt.NDArray[np.bool_]:
    """Per file, whether a part of its path starts with the word ``pattern`` looks for."""
    held = np.zeros(count, dtype=np.bool_)
    held[paths.search(pattern, _SCAN_LIMIT)] = True
    return held


def _path_parts(path: str) -> list[str]:
    """A path's words: each folder and the file's stem, split as identifiers are."""
    return text_tokens(path.rsplit(".", 1)[0].replace("/", " "))
