"""``symfuse.indexer.link.pagerank.pagerank`` against ``networkx.pagerank`` (the reference).

Both run with a tight tolerance, so the vectors must agree to far better than
the differences that matter for ranking. The graphs cover what the index
produces: weighted edges, parallel edges (several references between the same
two definitions add up), self-loops (recursion), dangling nodes (definitions
that reference nothing) and isolated nodes.
"""

from __future__ import annotations

import networkx as nx
import numpy as np
import numpy.typing as npt
import pytest

from symfuse.indexer.link.pagerank import pagerank

TIGHT = 1e-13
ATOL = 1e-10


def _reference(
    n: int,
    src: npt.NDArray[np.int64],
    dst: npt.NDArray[np.int64],
    weight: npt.NDArray[np.float64] | None,
    damping: float = 0.85,
) -> npt.NDArray[np.float64]:
    """networkx on a MultiDiGraph: parallel edges' weights are summed, as in ours."""
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(range(n))
    w = np.ones(len(src)) if weight is None else weight
    for s, d, x in zip(src.tolist(), dst.tolist(), w.tolist(), strict=True):
        graph.add_edge(s, d, weight=x)
    ranks = nx.pagerank(graph, alpha=damping, tol=TIGHT, max_iter=10_000, weight="weight")
    return np.asarray([ranks[i] for i in range(n)])


def _ours(
    n: int,
    src: npt.NDArray[np.int64],
    dst: npt.NDArray[np.int64],
    weight: npt.NDArray[np.float64] | None,
    damping: float = 0.85,
) -> npt.NDArray[np.float64]:
    return pagerank(n, src, dst, weight, damping=damping, tol=TIGHT, max_iter=10_000)


def _edges(pairs: list[tuple[int, int]]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    src = np.asarray([p[0] for p in pairs], dtype=np.int64)
    dst = np.asarray([p[1] for p in pairs], dtype=np.int64)
    return src, dst


def test_small_hand_graph_with_dangling_and_isolated_nodes() -> None:
    # 0 -> 1 -> 2 -> 0 is a cycle; 3 points into it and nothing points to 3;
    # 4 is dangling (in-edges only); 5 is isolated.
    src, dst = _edges([(0, 1), (1, 2), (2, 0), (3, 0), (3, 4), (1, 4)])
    ours = _ours(6, src, dst, None)
    ref = _reference(6, src, dst, None)
    np.testing.assert_allclose(ours, ref, rtol=0, atol=ATOL)
    assert ours.sum() == pytest.approx(1.0, abs=1e-12)
    # The isolated node and the source-only node get the teleport share plus
    # the spread of dangling rank, and nothing else: they tie.
    assert ours[5] == pytest.approx(ours[3], abs=1e-12)


def test_parallel_edges_add_their_weights() -> None:
    # Three unit edges 0 -> 1 weigh as much as one edge of weight 3.
    src, dst = _edges([(0, 1), (0, 1), (0, 1), (0, 2), (2, 0)])
    ours = _ours(3, src, dst, None)
    single_src, single_dst = _edges([(0, 1), (0, 2), (2, 0)])
    collapsed = _ours(3, single_src, single_dst, np.asarray([3.0, 1.0, 1.0]))
    np.testing.assert_allclose(ours, collapsed, rtol=0, atol=ATOL)
    np.testing.assert_allclose(ours, _reference(3, src, dst, None), rtol=0, atol=ATOL)


def test_self_loops_and_weights() -> None:
    src, dst = _edges([(0, 0), (0, 1), (1, 2), (2, 1), (2, 2), (3, 3)])
    weight = np.asarray([5.0, 1.0, 0.5, 2.0, 0.25, 1.0])
    np.testing.assert_allclose(
        _ours(4, src, dst, weight), _reference(4, src, dst, weight), rtol=0, atol=ATOL
    )


def test_no_edges_is_uniform_and_empty_graph_is_empty() -> None:
    empty = np.zeros(0, dtype=np.int64)
    np.testing.assert_allclose(_ours(4, empty, empty, None), np.full(4, 0.25), atol=1e-15)
    np.testing.assert_allclose(_reference(4, empty, empty, None), np.full(4, 0.25), atol=1e-15)
    assert _ours(0, empty, empty, None).shape == (0,)


@pytest.mark.parametrize("damping", [0.5, 0.85, 0.95])
def test_damping_factor_matches(damping: float) -> None:
    src, dst = _edges([(0, 1), (1, 2), (2, 3), (3, 1), (4, 1), (2, 5)])
    np.testing.assert_allclose(
        _ours(6, src, dst, None, damping),
        _reference(6, src, dst, None, damping),
        rtol=0,
        atol=ATOL,
    )


@pytest.mark.parametrize("seed", range(8))
def test_random_weighted_multigraphs(seed: int) -> None:
    """Random graphs shaped like a reference graph: sparse, skewed, many dangling nodes."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(20, 400))
    m = int(rng.integers(n // 2, n * 4))
    # Preferential targets (a few popular definitions) and a share of nodes with no out-edges.
    popularity = rng.pareto(1.5, n) + 1e-3
    dst = rng.choice(n, size=m, p=popularity / popularity.sum()).astype(np.int64)
    senders = rng.choice(n, size=max(1, n * 2 // 3), replace=False)
    src = rng.choice(senders, size=m).astype(np.int64)
    # Duplicate some edges outright to get parallel edges for sure.
    dup = rng.choice(m, size=m // 5)
    src = np.concatenate([src, src[dup]])
    dst = np.concatenate([dst, dst[dup]])
    weight = rng.choice([0.25, 0.5, 1.0, 2.0, 3.0], size=len(src)).astype(np.float64)
    ours = _ours(n, src, dst, weight)
    ref = _reference(n, src, dst, weight)
    assert len(set(range(n)) - set(src.tolist())) > 0  # dangling nodes are present
    np.testing.assert_allclose(ours, ref, rtol=0, atol=ATOL)
    # The ordering that ranking consumes agrees too, top 10 included.
    top = 10
    assert np.argsort(-ours, kind="stable")[:top].tolist() == (
        np.argsort(-ref, kind="stable")[:top].tolist()
    )


def test_unweighted_equals_unit_weights() -> None:
    rng = np.random.default_rng(42)
    n, m = 150, 600
    src = rng.integers(0, n, m).astype(np.int64)
    dst = rng.integers(0, n, m).astype(np.int64)
    np.testing.assert_allclose(
        _ours(n, src, dst, None), _ours(n, src, dst, np.ones(m)), rtol=0, atol=1e-15
    )
    np.testing.assert_allclose(_ours(n, src, dst, None), _reference(n, src, dst, None), atol=ATOL)


def test_default_tolerance_is_close_to_reference() -> None:
    """The defaults the indexer uses (not only the tight test setting) are accurate.

    The default stops when the L1 change falls below ``n * 1e-10``: each rank is
    then within a few parts per million of the fixed point, far below what
    changes an ordering that matters.
    """
    rng = np.random.default_rng(7)
    n, m = 2000, 8000
    src = rng.integers(0, n, m).astype(np.int64)
    dst = (rng.pareto(1.2, m) * 10).astype(np.int64) % n
    ours = pagerank(n, src, dst)
    np.testing.assert_allclose(ours, _reference(n, src, dst, None), rtol=1e-5, atol=0)
