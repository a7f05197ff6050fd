"""PageRank by power iteration over edge arrays (numpy ``bincount``, no matrix).

The formula is the one of ``networkx.pagerank`` (Page et al. 1999) with a
uniform teleport vector: ``r = d * (M^T r + dangling(r) / n) + (1 - d) / n``,
where ``M`` is the row-normalized weighted adjacency matrix and the rank of
nodes without out-edges is spread uniformly. Iteration stops when the L1 change
falls below ``n * tol``, like networkx, but with a much tighter default
tolerance: networkx's default stops after a few iterations on large graphs.
``start`` warm-starts the iteration from earlier ranks (an incremental update
changes few of them), which saves most iterations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    import numpy.typing as npt

DAMPING = 0.85
TOLERANCE = 1e-10
MAX_ITERATIONS = 200


def pagerank(
    n: int,
    src: npt.NDArray[np.integer],
    dst: npt.NDArray[np.integer],
    weight: npt.NDArray[np.floating] | None = None,
    *,
    damping: float = DAMPING,
    tol: float = TOLERANCE,
    max_iter: int = MAX_ITERATIONS,
    start: npt.NDArray[np.floating] | None = None,
) -> npt.NDArray[np.float64]:
    """PageRank of ``n`` nodes given directed edges ``src -> dst`` (parallel edges add up)."""
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    src = np.asarray(src, dtype=np.int64)
    dst = np.asarray(dst, dtype=np.int64)
    w = np.ones(len(src), dtype=np.float64) if weight is None else weight.astype(np.float64)
    out_weight = np.bincount(src, weights=w, minlength=n)
    dangling = out_weight == 0
    # Each edge carries its share of the source's rank: w / out_weight(src).
    share = w / np.where(dangling, 1.0, out_weight)[src]
    rank = np.full(n, 1.0 / n) if start is None else _normalized(start, n)
    teleport = (1.0 - damping) / n
    for _ in range(max_iter):
        spread = rank[dangling].sum() / n
        inflow = np.bincount(dst, weights=share * rank[src], minlength=n)
        updated = damping * (inflow + spread) + teleport
        delta = np.abs(updated - rank).sum()
        rank = updated
        if delta < n * tol:
            break
    normalized: npt.NDArray[np.float64] = rank / rank.sum()
    return normalized


def _normalized(start: npt.NDArray[np.floating], n: int) -> npt.NDArray[np.float64]:
    """A warm start (ranks of an earlier graph), or uniform when it does not fit."""
    if start.shape != (n,) or not np.all(np.isfinite(start)) or start.sum() <= 0:
        return np.full(n, 1.0 / n)
    return np.asarray(start, dtype=np.float64) / float(start.sum())
