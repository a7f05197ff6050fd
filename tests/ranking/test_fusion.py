"""Fusion: weighted reciprocal rank by hand, normalization, scaling, the exact-name guard;
the structural channel; top-k."""

from __future__ import annotations

import numpy as np
import pytest

from symfuse.ranking.channels import structural
from symfuse.ranking.channels.topk import Ranking, top_k
from symfuse.ranking.fusion.rrf import K, fuse, guard_first, normalized_weights
from symfuse.ranking.query.search_request import Channel, FusionWeights


def ranking(*positions: int) -> Ranking:
    return Ranking(np.asarray(positions, dtype=np.int64), np.ones(len(positions)))


def test_weighted_reciprocal_rank_by_hand() -> None:
    weights = FusionWeights(lexical=0.4, structural=0.25, similarity=0.2, identity=0.15)
    rankings = {
        Channel.LEXICAL: ranking(7, 3, 5),
        Channel.IDENTITY: ranking(3),
        Channel.STRUCTURAL: ranking(5, 3, 7),
    }
    fused = fuse(rankings, weights)
    share = {
        c: w / 0.8
        for c, w in [(Channel.LEXICAL, 0.4), (Channel.IDENTITY, 0.15), (Channel.STRUCTURAL, 0.25)]
    }  # similarity did not run: normalized over the other three
    expected = {
        7: share[Channel.LEXICAL] / (K + 1) + share[Channel.STRUCTURAL] / (K + 3),
        3: share[Channel.LEXICAL] / (K + 2)
        + share[Channel.IDENTITY] / (K + 1)
        + share[Channel.STRUCTURAL] / (K + 2),
        5: share[Channel.LEXICAL] / (K + 3) + share[Channel.STRUCTURAL] / (K + 1),
    }
    assert fused.positions.tolist() == sorted(expected, key=lambda p: -expected[p])
    for i, p in enumerate(fused.positions.tolist()):
        assert fused.scores[i] == pytest.approx(expected[p] * (K + 1))
        total = sum(fused.contributions[c][i] for c in fused.contributions)
        assert total == pytest.approx(fused.scores[i])
    at = fused.positions.tolist().index(3)
    assert fused.ranks[Channel.LEXICAL][at] == 2
    assert fused.ranks[Channel.IDENTITY][at] == 1
    assert fused.weights[Channel.LEXICAL] == pytest.approx(0.5)


def test_first_everywhere_scores_one() -> None:
    fused = fuse({Channel.LEXICAL: ranking(1, 2), Channel.IDENTITY: ranking(1)}, FusionWeights())
    assert fused.scores[0] == pytest.approx(1.0)
    assert np.all((fused.scores > 0) & (fused.scores <= 1))


def test_empty_channels_do_not_count() -> None:
    fused = fuse({Channel.LEXICAL: ranking(4), Channel.FUZZY: Ranking.empty()}, FusionWeights())
    assert fused.weights == {Channel.LEXICAL: 1.0}
    assert fuse({}, FusionWeights()).positions.size == 0


def test_normalized_weights() -> None:
    w = normalized_weights(FusionWeights(), [Channel.LEXICAL, Channel.SIMILARITY])
    assert w[Channel.LEXICAL] == pytest.approx(2 / 3)
    assert sum(w.values()) == pytest.approx(1.0)
    zero = FusionWeights(lexical=0, similarity=0)
    assert normalized_weights(zero, [Channel.LEXICAL, Channel.SIMILARITY])[Channel.LEXICAL] == 0.5


def test_guard_puts_lower_levels_first_and_keeps_scores_monotone() -> None:
    fused = fuse({Channel.LEXICAL: ranking(10, 11, 12, 13)}, FusionWeights())
    level = np.asarray([2, 2, 0, 1], dtype=np.int8)  # 12 is exact, 13 case-insensitive
    guarded, lifted = guard_first(fused, level)
    assert guarded.positions.tolist() == [12, 13, 10, 11]
    assert np.all(np.diff(guarded.scores) <= 0)
    assert lifted.tolist() == [True, True, False, False]
    assert guarded.ranks[Channel.LEXICAL].tolist() == [3, 4, 1, 2]


def test_structural_ranks_candidates_by_pagerank() -> None:
    pagerank = np.asarray([0.1, 0.5, 0.2, 0.2])
    result = structural.rank(pagerank, np.asarray([3, 0, 1, 2, 3], dtype=np.int64))
    assert result.positions.tolist() == [1, 2, 3, 0]
    assert structural.rank(pagerank, np.zeros(0, dtype=np.int64)).positions.size == 0


def test_top_k() -> None:
    scores = np.asarray([0.0, 3.0, 1.0, 3.0, 2.0, -1.0])
    assert top_k(scores, 3).tolist() == [1, 3, 4]
    assert top_k(scores, 10).tolist() == [1, 3, 4, 2]
    assert top_k(np.zeros(4), 2).size == 0
