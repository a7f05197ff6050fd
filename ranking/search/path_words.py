"""A prose answer's definitions whose file path says what the query says rank higher.

Code is filed by what it does: ``source/types/options.ts`` holds the request options'
types, ``src/Exception/ConnectException.php`` a connection failure. Within the head of a
keyword or sentence answer, each definition gains :data:`LIFT` times the head's best
score, times the share of the query's content words that its file's stem and folder
hold; the head is re-sorted. A word matches a path part that it starts, or that starts
it, from :data:`PREFIX` letters on (``type`` / ``types``, ``decod`` / ``decoding``).
The learned re-ranking also reads the path's words (exact tokens over the whole path);
this step adds prefixes and the stem's weight. Nothing below the head moves (every page
length shares the head, see ``rrf.extended``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import PurePosixPath

import numpy as np

from symfuse.indexer.model import Symbol
from symfuse.ranking.channels.tokens import text_tokens
from symfuse.ranking.channels.translation import content_words
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.query.responses import Change

# Measured on the findability set's tune half (tests/bench/findability_bench.py): 0 0.753,
# 0.05 0.761, 0.1 0.760, 0.2 0.745 (before named types: 0.3 0.743, 0.4 0.743).
LIFT = 0.05
PREFIX = 3


def path_lifted(
    fused: Fused, symbols: Sequence[Symbol], query: str, head: int, lift: float = LIFT
) -> Fused:
    """``fused`` with its first ``head`` items lifted by their files' share of the query's
    content words (:data:`LIFT`), the head re-sorted (stable)."""
    head = min(head, len(fused))
    words = {w for w in content_words(query) if len(w) >= PREFIX}
    if head < 2 or not words or not lift:
        return fused
    top = float(fused.scores[:head].max())
    shares: dict[str, float] = {}
    scores = fused.scores.copy()
    for i, p in enumerate(fused.positions[:head].tolist()):
        file = symbols[p].file
        share = shares.get(file)
        if share is None:
            share = shares[file] = _share(words, file)
        scores[i] += lift * top * share
    if (scores == fused.scores).all():
        return fused
    order = np.concatenate(
        [np.argsort(-scores[:head], kind="stable"), np.arange(head, len(fused))]
    ).astype(np.int64)
    why = "its file's name or folder holds the query's words"
    return fused.adjusted(order, scores[order], Change.OTHER, why)


def _share(words: set[str], file: str) -> float:
    """The share of ``words`` that the stem or the folder of ``file`` holds."""
    parts = _parts(file)
    held = sum(1 for w in words if any(_matches(w, p) for p in parts))
    return held / len(words)


@lru_cache(maxsize=1 << 14)  # a head's files recur from query to query
def _parts(file: str) -> frozenset[str]:
    """The tokens of the stem and the folder of ``file``."""
    path = PurePosixPath(file)
    return frozenset(text_tokens(path.stem)) | frozenset(text_tokens(path.parent.name))


def _matches(word: str, part: str) -> bool:
    if word == part:
        return True
    short, long = (word, part) if len(word) <= len(part) else (part, word)
    return len(short) >= PREFIX and long.startswith(short)
