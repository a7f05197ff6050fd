"""A learned re-ranking of a prose query's first answers.

Fusion ranks each channel by itself; what it cannot weigh is evidence about a
candidate against the others: how well the translation model (:mod:`.translation`)
says its code matches the query compared with the rest, whether it has a doc of its
own (a definition with none is only found through its code), its kind and length,
and the query's words in its name and file path (reference 001's module scope).
The first :data:`CANDIDATES` fused answers get the :data:`FEATURES` and are
re-ordered by ``WEIGHTS . x``; the rest keep their order below them, and scores keep
their values in the new order (they never increase down the list). The model never
moves down an answer that both text channels rank in their first :data:`AGREED`, has no
doc and is not nested in a routine: it was trained where a doc and a long body mark the
answers (docstring queries, commits' edits), and such an answer is pushed below longer,
documented ones the channels rank lower (a 3-line ``MarkFlagFilename``, first in both,
fell to 8th behind 250-line shell-completion templates).

The weights are a linear model trained pairwise (RankNet's logistic loss, Burges et al.
2005) by tests/bench/nl_combiner.py on corpora no benchmark uses: docstring queries of
six sdists (requests, flask, werkzeug, jinja2, httpx, rich) and commit subjects of
seven repositories in five languages; the docstring queries' share of the loss and
the L2 weight were chosen on the benchmarks' tuning halves. Its figures are in
tests/bench/README.md (nl_combiner.py). The bench collects features with the
re-ranking off (``WEIGHTS = None``) through this module's :func:`features`, so that
training and serving read the same numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.tokens import name_tokens, text_tokens
from symfuse.ranking.channels.translation import Translation, content_words
from symfuse.ranking.fusion.rrf import Fused, K
from symfuse.ranking.fusion.tuning import TUNING
from symfuse.ranking.query.responses import Change
from symfuse.ranking.query.search_request import Channel

CANDIDATES = TUNING.rerank_candidates  # fused answers the model re-orders
AGREED = TUNING.rerank_agreed  # both text channels' first places an answer keeps
RERANKED = "reranked"  # the boost an answer shows when its score is its new place's
FEATURES = (
    "fused_score",
    "fused_rr",  # 1 / rank in the fused list
    "lexical_rr",  # (K + 1) / (K + rank) in the channel, as fusion reads it; 0: not ranked
    "similarity_rr",
    "identity_rr",
    "translation",  # the candidate's translation score over the best candidate's
    "translation_rr",  # its rank among the candidates by that score
    "undocumented_translation_rr",  # ... among the candidates without a doc
    "documented",
    "documented_translation",  # documented x translation
    "type",  # class, interface, struct, enum
    "log_lines",
    "name_words",  # share of the query's content words among the name's tokens
    "path_words",  # ... among the file path's tokens (without the extension)
)
# tests/bench/nl_combiner.py's choice (doc share 0.3, L2 0.001), in FEATURES' order
WEIGHTS: tuple[float, ...] | None = (
    3.57, 0.37, -1.93, 1.43, 0.37, 2.12, 0.49, 0.23, 0.38, -1.16, -1.23, 0.57, -0.39, 0.70,
)  # fmt: skip
TYPES = frozenset({Kind.CLASS, Kind.INTERFACE, Kind.STRUCT, Kind.ENUM})
_CHANNELS = (Channel.LEXICAL, Channel.SIMILARITY, Channel.IDENTITY)


def reranked(
    fused: Fused,
    symbols: Sequence[Symbol],
    query: str,
    translation: Translation | None,
    ids: Sequence[int],
    head: int = CANDIDATES,
    fixed: npt.NDArray[np.bool_] | None = None,
) -> Fused:
    """``fused`` with its first ``head`` items re-ordered by the learned weights (``ids``:
    the query's content words' term ids); as it is without a translation model (a
    shard's candidates) or weights. The items ``fixed`` marks (aligned with ``fused``)
    keep their places: demoted side code, which the model, blind to the demotion, would
    lift back (fmt's ``TEST`` bodies x5.5, from 69th to first)."""
    head = min(head, len(fused))
    if WEIGHTS is None or translation is None or head < 2:
        return fused
    x = features(fused, symbols, query, translation, ids, head)
    score = x @ np.asarray(WEIGHTS, dtype=np.float64)
    order = np.lexsort((np.arange(head), -score)).astype(np.int64)
    held = _agreed(fused, symbols, x[:, FEATURES.index("documented")] > 0, order)
    if held.any():
        fixed = held if fixed is None else fixed[:head] | held
    if fixed is not None and fixed[:head].any():  # the others take the free places in turn
        keep = fixed[:head]
        free = order[~keep[order]]
        order = np.arange(head, dtype=np.int64)
        order[~keep] = free
    order = np.concatenate([order, np.arange(head, len(fused), dtype=np.int64)])
    why = f"the learned re-ranking of the first {head} answers"
    out = fused.adjusted(order, fused.scores.copy(), Change.RERANK, why)
    if held.any():  # they kept their places: say why (fusion_debug)
        which = np.concatenate([held, np.zeros(len(fused) - head, dtype=np.bool_)])
        out = out.adjusted(None, out.scores, Change.RERANK, HELD, which=which)
    return replace(out, rescored=out.scores != fused.scores[order])


HELD = f"kept its place: first {AGREED} in both text channels, with no doc for the model"
_ROUTINE_IDS = tuple(f"#{kind.value}" for kind in Kind.CALLABLES)  # a parent id's ending


def _agreed(
    fused: Fused,
    symbols: Sequence[Symbol],
    documented: npt.NDArray[np.bool_],
    order: npt.NDArray[np.int64],
) -> npt.NDArray[np.bool_]:
    """Of the first ``len(order)`` items of ``fused`` (re-ranked into ``order``), those the
    re-ranking would move down that the lexical and the similarity channel both rank in
    their first :data:`AGREED`, that have no doc (``documented``, aligned) and that are
    not nested in a routine (a closure shares its function's words)."""
    head = order.shape[0]
    lexical, similar = fused.ranks.get(Channel.LEXICAL), fused.ranks.get(Channel.SIMILARITY)
    if lexical is None or similar is None:
        return np.zeros(head, dtype=np.bool_)
    first = np.minimum(lexical[:head], similar[:head])
    last = np.maximum(lexical[:head], similar[:head])
    both = (first > 0) & (last <= AGREED) & ~documented
    place = np.empty(head, dtype=np.int64)
    place[order] = np.arange(head)
    held = both & (place > np.arange(head))
    for i in np.flatnonzero(held).tolist():
        parent = symbols[int(fused.positions[i])].parent
        held[i] = parent is None or not parent.endswith(_ROUTINE_IDS)
    return held


def features(
    fused: Fused,
    symbols: Sequence[Symbol],
    query: str,
    translation: Translation,
    ids: Sequence[int],
    head: int = CANDIDATES,
) -> npt.NDArray[np.float64]:
    """The :data:`FEATURES` of ``fused``'s first ``head`` items, one row each."""
    head = min(head, len(fused))
    at = fused.positions[:head]
    chosen = [symbols[int(p)] for p in at.tolist()]
    x = np.zeros((head, len(FEATURES)))
    x[:, 0] = fused.scores[:head]
    x[:, 1] = 1.0 / np.arange(1, head + 1)
    for column, channel in enumerate(_CHANNELS, start=2):
        rank = fused.ranks.get(channel)
        if rank is not None:
            r = rank[:head].astype(np.float64)
            x[:, column] = np.where(r > 0, (K + 1) / (K + r), 0.0)
    documented = np.fromiter((bool(s.doc) for s in chosen), dtype=np.bool_, count=head)
    x[:, 5:8] = _translation_features(translation.scores(ids, at), documented)
    x[:, 8] = documented
    x[:, 9] = x[:, 8] * x[:, 5]
    x[:, 10] = [s.kind in TYPES for s in chosen]
    x[:, 11] = [math.log(max(1, s.end_line - s.line + 1)) for s in chosen]
    x[:, 12:14] = _word_shares(query, chosen)
    return x


def _translation_features(
    scores: npt.NDArray[np.float64], documented: npt.NDArray[np.bool_]
) -> npt.NDArray[np.float64]:
    """Per candidate: its score over the best one's, its reciprocal rank among the
    candidates, and among the undocumented ones (0 for a documented one or no evidence)."""
    out = np.zeros((scores.shape[0], 3))
    if not scores.shape[0] or scores.max() <= 0:
        return out
    out[:, 0] = scores / scores.max()
    for column, among in ((1, np.ones_like(documented)), (2, ~documented)):
        ranked = np.where(among, scores, -1.0)
        rank = np.empty(scores.shape[0])
        rank[np.argsort(-ranked, kind="stable")] = np.arange(1, scores.shape[0] + 1)
        out[:, column] = np.where(among & (scores > 0), (K + 1) / (K + rank), 0.0)
    return out


def _word_shares(query: str, symbols: Sequence[Symbol]) -> npt.NDArray[np.float64]:
    """Per symbol: the share of the query's content words among its name's tokens, and
    among its file path's (without the extension)."""
    words = set(content_words(query))
    out = np.zeros((len(symbols), 2))
    if not words:
        return out
    for row, s in enumerate(symbols):
        out[row, 0] = len(words & _name_words(s.name)) / len(words)
        out[row, 1] = len(words & _path_words(s.file)) / len(words)
    return out


# a candidate's name and file recur from query to query: their tokens are kept
@lru_cache(maxsize=1 << 15)
def _name_words(name: str) -> frozenset[str]:
    return frozenset(name_tokens(name))


@lru_cache(maxsize=1 << 14)
def _path_words(file: str) -> frozenset[str]:
    return frozenset(text_tokens(file.rsplit(".", 1)[0]))
