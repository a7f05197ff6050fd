"""Global statistics: a part of a corpus scores as the whole corpus scores it.

Checked against the reference computation, BM25 over the union of the parts'
documents (:class:`LexicalIndex` built on all of them): the head lengths a part
recovers from its normalized counts, and a part's BM25F scores re-weighed by the
summed statistics.
"""

from __future__ import annotations

import numpy as np
import pytest

from symfuse.indexer.link.pagerank import pagerank
from symfuse.ranking.channels import lexical
from symfuse.ranking.channels.documents import build_documents
from symfuse.ranking.shards.global_stats import (
    CorpusStats,
    head_lengths,
    lexical_stats,
    lexical_with,
    pagerank_scale,
    pagerank_weight,
)
from tests.support.symbols import make_symbol

SMALL = [
    make_symbol("send_mail", doc="Deliver a message to the admins."),
    make_symbol("Order", doc="A customer order with lines."),
]
LARGE = [
    make_symbol("mail_admins", doc="Send an e-mail to every administrator."),
    make_symbol("render", doc="Render a template.", file="pkg/mail/render.py"),
    make_symbol("order_total", doc="The total of an order, taxes included."),
    make_symbol("OrderLine", doc="One line of an order."),
    make_symbol("compute_tax", doc="Tax of an invoice."),
]


def test_head_lengths_are_recovered_from_the_normalized_counts() -> None:
    documents = build_documents(LARGE)
    index = lexical.LexicalIndex.build(documents)
    assert head_lengths(index.head) == pytest.approx(documents.head_length, rel=1e-5)


def test_a_part_with_the_summed_statistics_scores_as_the_whole() -> None:
    whole = lexical.LexicalIndex.build(build_documents(SMALL + LARGE))
    parts = [lexical.LexicalIndex.build(build_documents(p)) for p in (SMALL, LARGE)]
    stats = CorpusStats.merged(lexical_stats(p) for p in parts)
    assert stats.documents == len(SMALL + LARGE)
    differs = 0
    for query in ("mail", "order total", "send_mail", "tax invoice"):
        terms = lexical.QueryTerms.parse(query)
        expected, _ = whole.scores(terms)
        got = np.concatenate([lexical_with(p, stats).scores(terms)[0] for p in parts])
        alone = np.concatenate([p.scores(terms)[0] for p in parts])
        assert got == pytest.approx(expected, rel=1e-5)
        differs += alone != pytest.approx(expected, rel=1e-5)
    assert differs == 4  # each part's own statistics score otherwise


def test_shard_pagerank_scaled_is_the_pagerank_of_the_union_of_disjoint_graphs() -> None:
    """Three graphs of different sizes and dangling shares: each one's ranks alone, times
    :func:`pagerank_scale`, are the ranks of their union (computed directly); the share
    of the nodes (``n / N``) is not."""
    rng = np.random.default_rng(40)
    graphs = []
    for n, edges, sinks in ((5, 6, 3), (40, 120, 5), (200, 300, 150)):
        src = rng.integers(0, n - sinks, edges)  # the last ``sinks`` nodes have no out-edge
        graphs.append((n, src, rng.integers(0, n, edges)))
    parts, own = [], []
    for n, src, dst in graphs:
        ranks = pagerank(n, src, dst)
        weight = pagerank_weight(ranks, np.zeros(n, dtype=np.bool_), (src, dst))
        parts.append(ranks)
        own.append(CorpusStats(n, 0.0, 0.0, {}, {}, weight))
    offsets = np.cumsum([0] + [n for n, _s, _d in graphs])
    union = pagerank(
        int(offsets[-1]),
        np.concatenate([s + o for (_n, s, _d), o in zip(graphs, offsets, strict=False)]),
        np.concatenate([d + o for (_n, _s, d), o in zip(graphs, offsets, strict=False)]),
    )
    total = CorpusStats.merged(own)
    scaled = np.concatenate([r * pagerank_scale(o, total) for r, o in zip(parts, own, strict=True)])
    assert scaled == pytest.approx(union, rel=1e-6)
    shares = np.concatenate(
        [r * o.documents / total.documents for r, o in zip(parts, own, strict=True)]
    )
    assert shares != pytest.approx(union, rel=1e-3)
