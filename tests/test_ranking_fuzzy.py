"""Fuzzy channel: trigram Jaccard candidates, Levenshtein bound, closest first."""

from __future__ import annotations

import numpy as np
import pytest
from rapidfuzz.distance import Levenshtein

from symfuse.ranking import fuzzy
from symfuse.ranking.fuzzy import TrigramIndex, trigrams

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
        distance = Levenshtein.distance("get_cahce_key", name.lower())
        assert distance <= 3
        assert score == pytest.approx(1 - distance / 4)


def test_edit_distance_bound_and_threshold(index: TrigramIndex) -> None:
    loose = fuzzy.rank(index, "get_cahce_key", None, 10, max_edit_distance=3)
    strict = fuzzy.rank(index, "get_cahce_key", None, 10, max_edit_distance=1)
    assert len(strict) < len(loose)
    assert fuzzy.rank(index, "get_cahce_key", None, 10, threshold=0.99).positions.size == 0


def test_camel_case_query_meets_snake_case_name(index: TrigramIndex) -> None:
    ranking = fuzzy.rank(index, "getCacheKye", None, 10)
    assert NAMES[int(ranking.positions[0])] == "get_cache_key"


def test_mask(index: TrigramIndex) -> None:
    mask = np.asarray([False, True, True, True, True, True])
    ranking = fuzzy.rank(index, "get_cahce_key", mask, 10)
    assert 0 not in ranking.positions.tolist()
