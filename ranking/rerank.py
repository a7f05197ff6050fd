"""Re-ranking signals for prose queries, applied to the fused head of the answer.

Reference 001 re-ranks a semantic search with a few cheap signals. Each is kept
here only with a weight the natural-language benchmarks justify
(tests/bench/nl_bench.py); a weight of 0 switches a signal off:

- module scope (:data:`MODULE_SCOPE`): the query's words that name the hit's
  module (its path: ``termui`` in ``prompt ... on the terminal ui``); a
  definition in a module named for the topic is more likely the answer;
- documented (:data:`DOCUMENTED`): a definition with a docstring is a complete,
  intended entry point more often than an undocumented helper.

Scores are multiplied by ``1 + weight * signal`` (signals in 0..1) and the head
(:data:`HEAD` items) re-sorted; the tail keeps its order below it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from symfuse.indexer.model import Symbol
from symfuse.ranking.fusion import Fused
from symfuse.ranking.tokens import STOPWORDS, text_tokens

HEAD = 50  # how many fused items the signals may reorder
MODULE_SCOPE = 0.0  # weight of the share of the query's words found in the hit's path
DOCUMENTED = 0.0  # weight of having a docstring


def reranked(fused: Fused, symbols: Sequence[Symbol], query: str) -> Fused:
    """``fused`` with its head re-scored by the signals whose weight is not 0."""
    if not len(fused) or (MODULE_SCOPE == 0 and DOCUMENTED == 0):
        return fused
    head = min(HEAD, len(fused))
    words = {t for t in text_tokens(query) if t not in STOPWORDS}
    factor = np.ones(head)
    paths: dict[str, set[str]] = {}
    for i in range(head):
        symbol = symbols[int(fused.positions[i])]
        if MODULE_SCOPE and words:
            found = paths.get(symbol.file)
            if found is None:
                found = paths[symbol.file] = set(text_tokens(symbol.file.rsplit(".", 1)[0]))
            factor[i] += MODULE_SCOPE * len(words & found) / len(words)
        if DOCUMENTED and symbol.doc:
            factor[i] += DOCUMENTED
    scores = fused.scores.copy()
    scores[:head] = scores[:head] * factor
    scores /= max(1.0, float(scores.max()))  # scores stay in 0..1
    order = np.concatenate([np.argsort(-scores[:head], kind="stable"), np.arange(head, len(fused))])
    order = order.astype(np.int64)
    return fused.reorder(order, scores[order])
