"""Fuzzy channel: trigram Jaccard candidates, an edit-distance bound (OSA), closest first."""

from __future__ import annotations

import numpy as np
import pytest
from rapidfuzz.distance import OSA

from symfuse.ranking.channels import fuzzy
from symfuse.ranking.channels.fuzzy import TrigramIndex, trigrams

NAMES = ["get_cache_key", "get_cache", "set_cache_key", "CacheHandler", "parse_header", "Model"]


@pytest.fixture(scope="module")
def index() -> TrigramIndex:
    return TrigramIndex.build(NAMES)


def test_jaccard_matches_a_set_computation(index: TrigramIndex) -> None:
    q = set(trigrams("getcahcekey"))
    forms = [n.lower().replace("_", "") for n in NAMES]
    expected = [len(q & set(trigrams(f))) / len(q | set(trigrams(f))) for f in forms]
    query = "get_cahce_key"
    assert index.jaccard(query) == pytest.approx(expected)


def test_typo_finds_the_name_closest_first(index: TrigramIndex) -> None:
    ranking = fuzzy.rank(index, "get_cahce_key", None, 10)
    names = [NAMES[i] for i in ranking.positions]
    assert names[0] == "get_cache_key"
    assert "parse_header" not in names
    for name, score in zip(names, ranking.scores, strict=True):
        distance = min(
            OSA.distance("get_cahce_key", name.lower()),
            OSA.distance("getcahcekey", name.lower().replace("_", "")),
        )
        assert distance <= 3
        assert score == pytest.approx(1 - distance / 4)


def test_edit_distance_bound_and_threshold(index: TrigramIndex) -> None:
    loose = fuzzy.rank(index, "get_cahce_kye", None, 10, max_edit_distance=3)
    strict = fuzzy.rank(index, "get_cahce_kye", None, 10, max_edit_distance=1)
    assert len(strict) < len(loose)
    assert fuzzy.rank(index, "get_cahce_key", None, 10, threshold=0.99).positions.size == 0


def test_camel_case_query_meets_snake_case_name(index: TrigramIndex) -> None:
    ranking = fuzzy.rank(index, "getCacheKye", None, 10)
    assert NAMES[int(ranking.positions[0])] == "get_cache_key"


def test_mask(index: TrigramIndex) -> None:
    mask = np.asarray([False, True, True, True, True, True])
    ranking = fuzzy.rank(index, "get_cahce_key", mask, 10)
    assert 0 not in ranking.positions.tolist()


def test_a_transposition_is_one_edit_even_below_the_trigram_threshold() -> None:
    names = ["charge", "change", "chart", "recharge", "discharge"]
    index = TrigramIndex.build(names)
    assert index.jaccard("chrage")[0] < 0.3  # too few shared trigrams to be a candidate
    ranking = fuzzy.rank(index, "chrage", None, 5)
    assert names[int(ranking.positions[0])] == "charge"
    assert ranking.scores[0] == pytest.approx(1 - 1 / 4)


def test_the_name_closer_as_written_wins_a_tie() -> None:
    names = ["quote_name", "_quote_name", "QuoteName"]
    index = TrigramIndex.build(names)
    ranking = fuzzy.rank(index, "_quote_anme", None, 3)
    assert names[int(ranking.positions[0])] == "_quote_name"
