"""Every search mode over shards on a real Dask LocalCluster equals one multi-root index,
and a failing or slow shard is named in ``errors`` while the others answer.

The cluster is the package's (``conftest.py``): two worker processes bound to 127.0.0.1,
the shards' holders actors on them. The repositories mix the same words at very
different sizes and do not reference each other, so every figure a shard reads of the
corpus comes from the global statistics, and its PageRank is exact: the sharded answer
is the combined one, hit for hit, in order, score for score.
"""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.ranking.query import operations
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.server.shards.build import build_shards
from symfuse.server.shards.fleet import Fleet
from tests.server.shards.conftest import combined_index, word_repository
from tests.support.cli import write_tree

pytestmark = [
    pytest.mark.slow,  # a Dask cluster of worker processes (conftest.py)
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

MODES: dict[str, dict[str, Any]] = {
    "single": {"query": "order_total"},
    "single_name": {"query": "OrderTotal"},
    "tiered": {"query": "render_report", "mode": "tiered"},
    "flat": {"query": "invoice ledger", "mode": "flat"},
    "flat_min_score": {"query": "invoice ledger", "mode": "flat", "min_score": 0.5},
    "min_score": {"query": "payment", "min_score": 0.3},
    "drill": {"query": "total", "mode": "drill", "drill_from": "large/large/m3.py"},
    "drill_empty": {"query": "", "mode": "drill", "drill_from": "middle/middle/m1.py"},
    "get_path": {"query": "large/large/m2.py"},
    "get_suffix": {"query": "m0.py", "limit": 30},
    "get_qualified": {"query": "large.m1.TotalRender.render", "mode": "get"},
    "get_symbol_id": {"query": "large/large/m1.py::TotalRender.render#method"},
    "per_repo": {"query": "render", "aggregation_mode": "per_repo", "limit": 9},
    "page_two": {"query": "ledger", "offset": 10},
}


class Corpus:
    def __init__(self, out: Path, index: Index, directory: Path) -> None:
        self.out, self.index, self.directory = out, index, directory

    def combined(self, request: SearchRequest) -> SearchResponse:
        answer = operations.search(self.index, request, directory=self.directory)
        assert isinstance(answer, SearchResponse)
        return answer


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, cluster: Any) -> Corpus:
    base = tmp_path_factory.mktemp("modes")
    roots = {
        "tiny": word_repository(base / "repos", "tiny", 1, 2),
        "middle": word_repository(base / "repos", "middle", 4, 5),
        "large": word_repository(base / "repos", "large", 10, 8),
    }
    results = build_shards(roots, base / "out", client=cluster)
    assert sorted(r.outcome for r in results) == ["built"] * 3
    return Corpus(base / "out", combined_index(roots, base / "combined"), base / "combined")


@pytest.fixture(scope="module")
def fleet(corpus: Corpus, cluster: Any) -> Fleet:
    fleet = Fleet(corpus.out, cluster)
    assert fleet.warm() == []
    return fleet


def _hits(response: SearchResponse) -> list[tuple[str, float]]:
    return [(i.symbol.symbol_id, round(i.score, 4)) for i in response.items]


def _ids(response: SearchResponse) -> list[str]:
    return [i.symbol.symbol_id for i in response.items]


@pytest.mark.parametrize("mode", list(MODES))
def test_every_mode_over_shards_equals_the_combined_index(
    corpus: Corpus, fleet: Fleet, mode: str
) -> None:
    request = SearchRequest.from_mapping({"limit": 10, "semantic": "off", **MODES[mode]})
    merged, combined = fleet.search(request), corpus.combined(request)
    assert merged.errors == ()
    assert combined.items, "a mode that finds nothing proves nothing"
    assert _ids(merged) == _ids(combined)
    # scores to 0.5 %: a shard re-weighs its stored head counts (float32) by the global
    # statistics, which moves a file unit's BM25 in the third digit
    assert [i.score for i in merged.items] == pytest.approx(
        [i.score for i in combined.items], rel=5e-3
    )
    assert merged.total == combined.total
    assert merged.search_mode == combined.search_mode


@pytest.mark.parametrize("semantic", ["off", "on"])
@pytest.mark.parametrize(
    "query",
    ["order total", "render the invoice ledger report", "how is the ledger report rendered"],
)
def test_keywords_over_shards_equal_the_combined_index(
    corpus: Corpus, fleet: Fleet, query: str, semantic: str
) -> None:
    # prose is re-ranked by the translation model and, with ``semantic``, ranked by word
    # vectors: both learned once over every shard, as the combined index learns them; a
    # question's files are voted for by every shard's best pieces of text, merged
    request = SearchRequest.from_mapping({"query": query, "semantic": semantic})
    assert _hits(fleet.search(request)) == _hits(corpus.combined(request))


@pytest.mark.parametrize("query", ["render report", "total ledger", "invoice payment"])
def test_words_that_spell_a_name_lead_over_shards_as_in_the_combined_index(
    corpus: Corpus, fleet: Fleet, query: str
) -> None:
    # the exact-name guard puts the names the words spell (render_report, RenderReport)
    # first in one index; over shards it must see that some shard's names are spelled
    request = SearchRequest.from_mapping({"query": query, "semantic": "off"})
    combined = corpus.combined(request)
    assert any(i.boost is not None for i in combined.items), "the guard lifted nothing"
    assert _hits(fleet.search(request)) == _hits(combined)


def test_per_repo_returns_every_repository_that_matches(corpus: Corpus, fleet: Fleet) -> None:
    request = SearchRequest.from_mapping(
        {"query": "order", "aggregation_mode": "per_repo", "limit": 6, "semantic": "off"}
    )
    merged = fleet.search(request)
    assert {i.symbol.root for i in merged.items} == {"tiny", "middle", "large"}
    assert _hits(merged) == _hits(corpus.combined(request))


def test_a_lookup_no_shard_holds_is_not_found_as_in_one_index(fleet: Fleet) -> None:
    for fields in (
        {"query": "nowhere/at_all.py"},
        {"query": "total", "mode": "drill", "drill_from": "large/large/none.py"},
    ):
        with pytest.raises(NotFound):
            fleet.search(SearchRequest.from_mapping(fields))


def test_a_failing_shard_is_reported_and_the_others_answer_in_every_mode(
    corpus: Corpus, cluster: Any, tmp_path: Path
) -> None:
    out = tmp_path / "copy"
    shutil.copytree(corpus.out, out)
    fleet = Fleet(out, cluster)
    (out / "middle" / "shard.json").write_text("{not json")
    for mode, fields in MODES.items():
        if mode in ("drill_empty", "get_path") or "drill" in mode:
            continue  # their target is in one shard: see the slow-shard test
        answer = fleet.search(SearchRequest.from_mapping({"semantic": "off", **fields}))
        assert [e.repository for e in answer.errors] == ["middle"], mode
        assert "corrupt" in answer.errors[0].reason
        roots = {i.symbol.root for i in answer.items}
        assert roots, mode
        assert "middle" not in roots, mode
    fleet.close()


def test_a_slow_shard_is_reported_when_the_deadline_passes(
    corpus: Corpus, cluster: Any, tmp_path: Path
) -> None:
    """A shard whose manifest hangs when read (a FIFO no one writes yet: a hung mount)
    does not hold the answer past the deadline; released, it answers again."""
    out = tmp_path / "copy"
    shutil.copytree(corpus.out, out)
    fleet = Fleet(out, cluster, timeout=2.0)
    request = SearchRequest.from_mapping({"query": "order total", "semantic": "off"})
    manifest = out / "tiny" / "shard.json"
    text = manifest.read_bytes()
    manifest.unlink()
    os.mkfifo(manifest)  # same inode from now on: the holder reloads, and blocks reading it
    try:
        answer = fleet.search(request)
        assert [e.repository for e in answer.errors] == ["tiny"]
        assert "timed out" in answer.errors[0].reason
        assert {i.symbol.root for i in answer.items} == {"middle", "large"}
        again = fleet.search(request)  # still hung: named at once, not waited for again
        assert [e.repository for e in again.errors] == ["tiny"]
        assert "not finished an earlier call" in again.errors[0].reason
        assert {i.symbol.root for i in again.items} == {"middle", "large"}
    finally:
        _release(manifest, text)
    fleet.close()


def _release(fifo: Path, text: bytes) -> None:
    """Give the blocked reader its bytes (and any later reader until the fifo is gone)."""
    done = threading.Event()

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(text)
        done.set()

    threading.Thread(target=write, daemon=True).start()
    assert done.wait(30), "the shard's reader never opened its manifest"
    fifo.unlink()


def test_a_rebuilt_shard_reweighs_the_others_without_reading_their_index(
    tmp_path: Path,
) -> None:
    """One repository changes: only its shard is built and read again; the others keep
    their index and score by the new global statistics, exactly as if loaded afresh."""
    roots = {
        "tiny": word_repository(tmp_path / "repos", "tiny", 1, 2),
        "middle": word_repository(tmp_path / "repos", "middle", 4, 5),
        "large": word_repository(tmp_path / "repos", "large", 10, 8),
    }
    out = tmp_path / "out"
    build_shards(roots, out)
    fleet = Fleet(out)  # holders here: their loads are counted in this process
    request = SearchRequest.from_mapping({"query": "ledger", "semantic": "off"})
    before = dict(_hits(fleet.search(request)))
    (Path(roots["middle"]) / "middle" / "extra.py").write_text(
        "class LedgerNote:\n    '''A ledger's note on the ledger.'''\n"
    )
    outcomes = {r.alias: r.outcome for r in build_shards(roots, out)}
    assert outcomes == {"tiny": "unchanged", "middle": "built", "large": "unchanged"}
    after = fleet.search(request)
    assert {a: h.loads for a, h in fleet.holders.items()} == {"tiny": 1, "middle": 2, "large": 1}
    assert _hits(after) == _hits(Fleet(out).search(request))  # as loaded afresh
    moved = [k for k, v in _hits(after) if k.startswith("large/") and before.get(k, v) != v]
    assert moved, "the unchanged shard's scores follow the new global statistics"
    fleet.close()


# Each repository alone would choose its own best fit of a qualified name: ``cache`` its
# one ``__setstate__`` for ``C.__setstate__``, ``cli`` its one ``read`` for
# ``LimitedStream.read``; one index of all three chooses the ``C`` and the
# ``LimitedStream`` that exist, and nothing for ``Stream.read`` (several are written so).
QUALIFIED_REPOS = {
    "cache": {
        "cache/lru.py": (
            "class LRUCache:\n"
            "    def __setstate__(self, state: dict) -> None:\n        pass\n\n"
            "    def read(self) -> bytes:\n        return b''\n"
        ),
    },
    "cli": {
        "cli/testing.py": (
            "class EchoingStdin:\n    def read(self, n: int = -1) -> bytes:\n        return b''\n"
        ),
    },
    "web": {
        "web/wsgi.py": (
            "class LimitedStream:\n"
            "    '''A stream that reads no more than its limit.'''\n"
            "    def read(self, size: int = -1) -> bytes:\n        return b''\n"
        ),
        "web/tests/test_state.py": (
            "def test_detects_setstate() -> None:\n"
            "    class C:\n"
            "        def __setstate__(self, state: dict) -> None:\n            pass\n\n"
            "def test_copy_setstate() -> None:\n"
            "    class C:\n"
            "        def __setstate__(self, state: dict) -> None:\n            pass\n"
        ),
    },
}


@pytest.fixture(scope="module")
def qualified(tmp_path_factory: pytest.TempPathFactory, cluster: Any) -> tuple[Corpus, Fleet]:
    base = tmp_path_factory.mktemp("qualified")
    roots = {
        alias: str(write_tree(base / "repos" / alias, files))
        for alias, files in QUALIFIED_REPOS.items()
    }
    results = build_shards(roots, base / "out", client=cluster)
    assert sorted(r.outcome for r in results) == ["built"] * 3
    corpus = Corpus(base / "out", combined_index(roots, base / "combined"), base / "combined")
    fleet = Fleet(corpus.out, cluster)
    assert fleet.warm() == []
    return corpus, fleet


@pytest.mark.parametrize("mode", [{}, {"mode": "tiered"}, {"min_score": 0.3}])
@pytest.mark.parametrize(
    ("query", "first"),
    [
        ("C.__setstate__", "web/web/tests/test_state.py::test_detects_setstate.C.__setstate__"),
        ("LimitedStream.read", "web/web/wsgi.py::LimitedStream.read"),
        ("Stream.read", None),
        ("how C.__setstate__ restores a copy", None),
    ],
)
def test_a_qualified_name_is_chosen_over_every_shard_as_in_one_index(
    qualified: tuple[Corpus, Fleet], query: str, first: str | None, mode: dict[str, Any]
) -> None:
    corpus, fleet = qualified
    request = SearchRequest.from_mapping({"query": query, "semantic": "off", **mode})
    merged, combined = fleet.search(request), corpus.combined(request)
    assert merged.errors == ()
    if first is not None:
        assert _ids(combined)[0].startswith(first)
    assert _hits(merged) == _hits(combined)
    assert merged.total == combined.total
