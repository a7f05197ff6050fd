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
from tests.server.shards.conftest import combined_index
from tests.support.cli import write_tree

pytestmark = pytest.mark.slow  # a Dask cluster of worker processes (conftest.py)

WORDS = ("order", "total", "invoice", "render", "payment", "ledger", "report", "query")


def _module(repo: str, at: int, count: int) -> str:
    """``count`` definitions whose names and docs mix the shared words (no imports, so
    no repository references another: PageRank is then exact per shard)."""
    lines = []
    for i in range(count):
        a, b = WORDS[(at + i) % len(WORDS)], WORDS[(at * 3 + i * 5) % len(WORDS)]
        name = f"{a}_{b}" if i % 3 else f"{a.title()}{b.title()}"
        if i % 3 == 0:
            lines.append(f"class {name}:\n    '''The {a} of a {b} in {repo}.'''\n")
            lines.append(f"    def {b}(self) -> int:\n        return {a}_{b}_{i}()\n")
        else:
            lines.append(f"def {name}() -> int:\n    '''{a} {b} {b}.'''\n    return {i}\n")
        lines.append(f"def {a}_{b}_{i}() -> int:\n    return {name}() if False else 0\n")
    return "\n".join(lines)


def _repository(base: Path, repo: str, modules: int, per_module: int) -> str:
    files = {f"{repo}/m{at}.py": _module(repo, at, per_module) for at in range(modules)}
    return str(write_tree(base / repo, files))


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> tuple[Fleet, dict[str, str], Path]:
    base = tmp_path_factory.mktemp("global")
    roots = {
        "tiny": _repository(base / "repos", "tiny", 1, 2),
        "middle": _repository(base / "repos", "middle", 4, 5),
        "large": _repository(base / "repos", "large", 10, 8),
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
