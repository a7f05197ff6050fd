"""A suffix array finds what ``str.find`` finds, in the same order, by binary search."""

from __future__ import annotations

import numpy as np
import pytest

from symfuse.ranking.channels.names.scans import Joined

ASCII = ["get_user_by_id", "table", "TableClause", "x", "table table", "tabletop", ""]
MIXED = [*ASCII, "tablé", "éa", "naïve_table", "日本table"]


@pytest.mark.parametrize("strings", [ASCII, MIXED], ids=["ascii", "non-ascii"])
@pytest.mark.parametrize(
    "needle", ["table", "ta", "e", "é", "able t", "日本", "zz", "top", "tabletop", "table table x"]
)
def test_the_suffix_array_finds_what_find_finds(strings: list[str], needle: str) -> None:
    scanned = Joined.of(strings)
    indexed = Joined.of(strings)
    indexed.index_suffixes()
    assert indexed.suffixes.ready
    assert not scanned.suffixes.ready
    for limit in (1, 2, 1000):
        expected = scanned.contains(needle, limit)
        found = indexed.contains(needle, limit)
        assert np.array_equal(found, expected), (needle, limit, found, expected)


def test_a_needle_across_strings_or_empty_is_left_to_find() -> None:
    indexed = Joined.of(ASCII)
    indexed.index_suffixes()
    assert indexed.suffixes.find("table\nTable", 10) is None
    assert indexed.suffixes.find("", 10) is None
    assert list(indexed.contains("table\nTable")) == [1]


def test_building_twice_keeps_the_first_array() -> None:
    indexed = Joined.of(ASCII)
    indexed.index_suffixes()
    first = indexed.suffixes._built
    indexed.index_suffixes()
    assert indexed.suffixes._built is first
