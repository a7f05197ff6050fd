"""Shards rank as one index: the sharded top 10, in order, is the multi-root index's.

Three repositories of very different sizes (4, 40 and 160 definitions) share names
and words, so that each shard's own statistics (BM25's document frequencies and
lengths, PageRank over its own graph) and a rank-based merge of the shards' answers
would order them otherwise: a small shard's first hit is not the corpus's. With the
global statistics written at build time and one fusion of every shard's channel
lists, the order is the combined index's.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.ranking.query import operations
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.server.shards.build import build_shards
from symfuse.server.shards.fleet import Fleet
from tests.server.shards.conftest import combined_index, word_repository

pytestmark = pytest.mark.slow  # a Dask cluster of worker processes (conftest.py)


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> tuple[Fleet, dict[str, str], Path]:
    base = tmp_path_factory.mktemp("global")
    roots = {
        "tiny": word_repository(base / "repos", "tiny", 1, 2),
        "middle": word_repository(base / "repos", "middle", 4, 5),
        "large": word_repository(base / "repos", "large", 10, 8),
    }
    results = build_shards(roots, base / "out")
    assert sorted(r.outcome for r in results) == ["built"] * 3
    combined_index(roots, base / "combined")
    fleet = Fleet(base / "out")  # holders here: the order does not depend on placement
    return fleet, roots, base / "combined"


def _ids(response: SearchResponse) -> list[str]:
    return [i.symbol.symbol_id for i in response.items]


@pytest.mark.parametrize(
    "query", ["order_total", "OrderTotal", "total", "render", "invoice_report", "ledger"]
)
def test_the_sharded_top_10_is_the_multi_root_top_10_in_order(
    shards: tuple[Fleet, dict[str, str], Path], query: str
) -> None:
    fleet, roots, combined_dir = shards
    request = SearchRequest.from_mapping({"query": query, "limit": 10, "semantic": "off"})
    merged = fleet.search(request)
    index = combined_index(roots, combined_dir)
    combined = operations.search(index, request, directory=combined_dir)
    assert isinstance(combined, SearchResponse)
    assert merged.errors == ()
    assert _ids(merged) == _ids(combined)
    assert [i.score for i in merged.items] == pytest.approx([i.score for i in combined.items])
    assert merged.total == combined.total
