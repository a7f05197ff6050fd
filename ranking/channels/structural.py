"""The structural channel: how central a definition is in the reference graph.

PageRank is computed by the indexer (``Index.pagerank``). It says nothing about
the query, so this channel does not retrieve: it re-ranks the candidates the
other channels found, most central first, and fusion weighs that order like
any other.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.topk import Ranking, distinct


def rank(pagerank: npt.NDArray[np.float64], candidates: npt.NDArray[np.int64]) -> Ranking:
    """``candidates`` by PageRank, highest first (ties: lower position first)."""
    if not candidates.shape[0]:
        return Ranking.empty()
    unique = distinct(candidates)
    order = np.lexsort((unique, -pagerank[unique]))
    chosen = unique[order].astype(np.int64)
    return Ranking(chosen, pagerank[chosen])
