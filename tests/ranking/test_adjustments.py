"""Every score change after fusion shows with fusion_debug: demotions (side code, documents),
the learned re-ranking's moves, the exact-name guard's order, a deeper list's scaled tail;
each goes through Fused.adjusted, and without fusion_debug nothing is recorded."""

from __future__ import annotations

import re
from dataclasses import FrozenInstanceError
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.channels.topk import Ranking
from symfuse.ranking.fusion import rerank, rrf
from symfuse.ranking.fusion.tuning import TUNING, Tuning
from symfuse.ranking.query.responses import Adjustment, Change, SearchItem, SearchResponse
from symfuse.ranking.query.search_request import Channel, FusionWeights
from symfuse.ranking.search import pipeline
from symfuse.ranking.search.plans import PLANS, Shape
from tests.support.cli import write_tree
from tests.support.paths import FIXTURES

PASSWORD = "prompt the user for a password and hide the input"
DOCUMENTS = {
    "README.md": "# Checkout\n\nHow an order is paid.\n",
    "config.yaml": "checkout:\n  retries: 3\n",
    "shop/pay.py": 'def checkout(order):\n    """Pay for an order."""\n    return order.total\n',
}


def _index(folder: Path, root: Path) -> Index:
    config = IndexConfig(roots=(root,), index_dir=folder / "index", progress=False)
    built, _ = update_index(config)
    return built


@pytest.fixture(scope="module")
def prose(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return _index(tmp_path_factory.mktemp("prose"), FIXTURES / "prose_workspace")


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return _index(tmp_path_factory.mktemp("shop"), FIXTURES / "workspace")


def run(index: Index, **fields: Any) -> SearchResponse:
    return search(index, SearchRequest.from_mapping(fields))


def of(item: SearchItem, change: Change) -> list[Adjustment]:
    return [a for a in item.adjustments if a.change is change]


def test_a_test_files_item_shows_its_demotion_with_the_factor(prose: Index) -> None:
    response = run(prose, query=PASSWORD, fusion_debug=True, limit=10)
    side = [i for i in response.items if i.symbol.file.startswith(("tests/", "examples/"))]
    assert side
    for item in side:
        (demotion,) = of(item, Change.DEMOTION)
        assert demotion.factor == TUNING.side_code_share == 0.3
        assert "test, example or benchmark" in demotion.reason
    product = [i for i in response.items if i not in side]
    assert not any(of(i, Change.DEMOTION) for i in product)
    rows = response.to_dict()["items"]
    shown = [r for r in rows if r["file"].startswith(("tests/", "examples/"))]
    assert all("demotion x0.3" in r["adjustments"] for r in shown)


@pytest.mark.parametrize(
    ("where", "query", "limit"),
    [("prose", PASSWORD, 10), ("shop", "email", 20), ("shop", "send an email to the user", 20)],
)
def test_every_score_is_its_contributions_times_its_adjustments(
    prose: Index, shop: Index, where: str, query: str, limit: int
) -> None:
    index = prose if where == "prose" else shop
    response = run(index, query=query, fusion_debug=True, limit=limit)
    assert any(i.adjustments for i in response.items)
    for item in response.items:
        score = sum(hit.contribution for hit in item.channels.values())
        for adjustment in item.adjustments:
            score *= adjustment.factor if adjustment.factor is not None else 1.0
        assert item.score == pytest.approx(score, rel=1e-9)


@pytest.mark.parametrize("query", ["password prompt", "hidden input"])
def test_keyword_queries_rank_side_code_after_the_code_it_exercises(
    prose: Index, query: str
) -> None:
    response = run(prose, query=query, fusion_debug=True, limit=10)
    side = [i for i in response.items if i.symbol.file.startswith(("tests/", "examples/"))]
    assert side
    assert all(of(i, Change.DEMOTION) for i in side)
    files = [i.symbol.file for i in response.items]
    assert not files[0].startswith(("tests/", "examples/"))


def test_a_query_that_asks_for_tests_demotes_nothing(prose: Index) -> None:
    response = run(prose, query="test for a password prompt", fusion_debug=True)
    assert not any(of(i, Change.DEMOTION) for i in response.items)


def test_a_reranked_prose_answer_shows_its_move(prose: Index) -> None:
    assert PLANS[Shape.SENTENCE].reranked
    response = run(prose, query=PASSWORD, fusion_debug=True, limit=10)
    moved = [i for i in response.items if of(i, Change.RERANK)]
    assert moved
    for item in moved:
        (move,) = of(item, Change.RERANK)
        assert move.moved is not None
        assert move.moved[0] != move.moved[1]
        assert "learned re-ranking" in move.reason
    # every answer the re-ranking placed (boost "reranked") says from where to where
    assert all(of(i, Change.RERANK) for i in response.items if i.boost == "reranked")
    shown = [r["adjustments"] or "" for r in response.to_dict()["items"]]
    assert any(re.search(r"(^|; )rerank (x[\d.]+ )?#\d+->#\d+: the learned", s) for s in shown)


def test_a_guard_promotion_shows(shop: Index) -> None:
    response = run(shop, query="email", fusion_debug=True)
    first = response.items[0]
    assert (first.symbol.name, first.boost) == ("email", "exact_name")
    (guard,) = of(first, Change.GUARD)
    assert guard.moved is not None
    assert guard.moved[1] == 1 < guard.moved[0]  # fusion placed it lower
    assert guard.factor is not None
    assert guard.factor > 1  # its score was lifted to the place's
    assert "class 0: exact name" in guard.reason
    shown = response.to_dict()["items"][0]["adjustments"]
    assert re.fullmatch(rf"guard x1\.\d+ #{guard.moved[0]}->#1: exact-name guard.*", shown)
    # every item the guard lifted says so
    assert all(of(i, Change.GUARD) for i in response.items if i.boost)


def test_a_heading_and_a_key_show_their_demotion(tmp_path: Path) -> None:
    index = _index(tmp_path, write_tree(tmp_path / "ws", DOCUMENTS))
    response = run(index, query="checkout", fusion_debug=True)
    documents = [i for i in response.items if i.symbol.kind in Kind.DOCUMENTS]
    assert {i.symbol.kind for i in documents} == {Kind.HEADING, Kind.KEY}
    for item in documents:
        (demotion,) = of(item, Change.DEMOTION)
        assert demotion.factor == TUNING.document_share
        assert "heading or a key" in demotion.reason


def test_a_deeper_lists_tail_shows_its_scaling(
    shop: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Channels rank MIN_DEPTH candidates for every page; a longer one continues with the
    # deeper lists' order, scaled below the head (cut here so that the fixture is deeper).
    monkeypatch.setattr(pipeline, "MIN_DEPTH", 4)
    response = run(shop, query="order", fusion_debug=True, limit=60)
    tail = [i for i in response.items if of(i, Change.OTHER)]
    assert tail
    for item in tail:
        (scaled,) = of(item, Change.OTHER)
        assert scaled.factor is not None
        assert 0 < scaled.factor < 1
        assert scaled.moved is None
    assert not any(of(i, Change.OTHER) for i in response.items[:4])


@pytest.mark.parametrize("query", [PASSWORD, "email", "order", "checkout the cart"])
def test_without_fusion_debug_items_carry_nothing_new(
    prose: Index, shop: Index, query: str
) -> None:
    for index in (prose, shop):
        plain = run(index, query=query, limit=30)
        debug = run(index, query=query, limit=30, fusion_debug=True)
        assert all(i.adjustments == () for i in plain.items)
        assert all("adjustments" not in row for row in plain.to_dict()["items"])
        # and the debug answer ranks the same
        assert [(i.symbol.symbol_id, i.score, i.boost) for i in plain.items] == [
            (i.symbol.symbol_id, i.score, i.boost) for i in debug.items
        ]
        rows = debug.to_dict()["items"]
        assert all("adjustments" in row for row in rows)  # the same keys on every row


def _fused() -> rrf.Fused:
    rankings = {
        Channel.LEXICAL: Ranking(np.array([7, 3, 5]), np.array([3.0, 2.0, 1.0])),
        Channel.IDENTITY: Ranking(np.array([3]), np.array([1.0])),
    }
    return rrf.fuse(rankings, FusionWeights())


def test_adjusted_records_only_when_traced() -> None:
    fused = _fused()
    order = np.array([2, 0, 1], dtype=np.int64)
    scores = fused.scores[order] * np.array([1.0, 0.5, 0.5])
    plain = fused.adjusted(order, scores, Change.OTHER, "why")
    assert plain.notes is None
    assert plain.positions.tolist() == fused.reorder(order, scores).positions.tolist()
    traced = fused.traced().adjusted(order, scores, Change.DEMOTION, lambda i: f"item {i}")
    assert traced.notes is not None
    assert traced.positions.tolist() == plain.positions.tolist()
    assert traced.scores.tolist() == plain.scores.tolist()
    by_item = dict(zip(traced.positions.tolist(), traced.notes, strict=True))
    first, _, third = fused.positions.tolist()
    assert by_item[third] == (Adjustment(Change.DEMOTION, "item 2", 1.0, (3, 1)),)
    (note,) = by_item[first]
    assert (note.reason, note.moved) == ("item 0", (1, 2))
    assert note.factor == pytest.approx(0.5)  # its new score over its old one
    # notes follow the items through later reorders
    again = traced.reorder(np.array([2, 1, 0], dtype=np.int64), traced.scores[::-1])
    assert dict(zip(again.positions.tolist(), again.notes or (), strict=True)) == by_item
    assert Adjustment(Change.GUARD, "g", 1.25, (4, 1)).text() == "guard x1.25 #4->#1: g"
    assert Adjustment(Change.RERANK, "r", 1.0, (1, 2)).text() == "rerank #1->#2: r"


def test_the_constants_live_in_one_frozen_object() -> None:
    assert TUNING.rrf_k == rrf.K
    assert TUNING.rerank_candidates == rerank.CANDIDATES
    assert TUNING.near_typo_length == pipeline.NEAR_TYPO_LENGTH
    assert PLANS[Shape.SENTENCE].weights == TUNING.prose == FusionWeights.sentence()
    assert PLANS[Shape.KEYWORDS].weights == TUNING.names == FusionWeights()
    assert PLANS[Shape.IDENTIFIER].weights == TUNING.identifier
    assert TUNING.identifier == FusionWeights(similarity=0.0)
    with pytest.raises(FrozenInstanceError):
        TUNING.side_code_share = 1.0  # type: ignore[misc]
    assert Tuning() == TUNING
