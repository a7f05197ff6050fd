"""The letter masks only skip names a letter-by-letter camel hump cannot match."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from symfuse.ranking.channels import identity
from symfuse.ranking.channels.identity import NameTable
from symfuse.ranking.channels.names import hump_filter as letters
from symfuse.ranking.channels.names import humps
from tests.support.symbols import make_symbol

NAMES = [
    "getUserById", "get_user_by_id", "GetUserByID", "sessionmaker", "Session", "ses_sion",
    "SqlExpressionSession", "flush", "auto_flush", "_flush_all", "Base64Decoder", "x9_reader",
    "$scope", "naïve_date", "ColumnElement", "col_elem", "cElem", "HTTPRequest", "abc",
    "ab_bc", "a_b_c", "table", "TableClause", "tbl", "t_able",
]  # fmt: skip
WORDS = [
    "gubi", "sess", "session", "flush", "fl", "b64d", "x9r", "$s", "naïve", "nd", "colelem",
    "ce", "httpr", "abc", "table", "tc", "tb", "zz", "qq9",
    "gUBI", "getUser", "ColElem", "TableClause", "SqlExpr", "HTTPReq", "auto_flush", "x9Reader",
    "Base64Dec", "naïveDate", "get user", "Get_User_By_Id", "tAble",
]  # fmt: skip


@pytest.fixture(scope="module")
def table() -> NameTable:
    return NameTable.build([make_symbol(n, file=f"m{i}.py") for i, n in enumerate(NAMES)])


@pytest.mark.parametrize("word", WORDS)
def test_the_names_passing_the_masks_match_as_the_full_scan_does(
    table: NameTable, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(letters, "WORTH_IT", 1.0)  # always read the passing names apart
    distinct = table.distinct
    pattern = humps.camel_hump_pattern(word)
    assert pattern is not None
    letters_of = humps.hump_letters(word)
    assert letters_of is not None
    assert distinct.letters.candidates(*letters_of) is not None
    full = np.unique(distinct.spaced_text.search(pattern))
    assert np.array_equal(np.unique(distinct.camel_humps(word)), full), word


def test_the_masks_do_skip_names(table: NameTable) -> None:
    passing = table.distinct.letters.candidates("gubi", "g")
    assert passing is not None
    assert 0 < len(passing) < len(table.distinct) // 4


def test_every_two_letter_word_over_the_names_alphabet(
    table: NameTable, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(letters, "WORTH_IT", 1.0)
    distinct = table.distinct
    for pair in itertools.product("abcegilnstuy9$", repeat=2):
        word = "".join(pair)
        pattern = humps.camel_hump_pattern(word)
        assert pattern is not None
        full = np.unique(distinct.spaced_text.search(pattern))
        assert np.array_equal(np.unique(distinct.camel_humps(word)), full), word


@pytest.fixture(scope="module")
def indexed() -> NameTable:
    """The same names with a server's suffix arrays and initial pairs built."""
    built = NameTable.build([make_symbol(n, file=f"m{i}.py") for i, n in enumerate(NAMES)])
    built.index_suffixes()
    return built


@pytest.mark.parametrize("word", WORDS)
def test_with_suffix_arrays_and_pairs_the_humps_match_as_the_full_scan_does(
    indexed: NameTable, word: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(letters, "WORTH_IT", 1.0)
    distinct = indexed.distinct
    assert distinct.pairs.value is not None
    assert distinct.spaced_text.suffixes.ready
    pattern = humps.camel_hump_pattern(word)
    assert pattern is not None
    full = np.unique(distinct.spaced_text.search(pattern))
    assert np.array_equal(np.unique(distinct.camel_humps(word)), full), word


def test_initial_pairs_name_the_names_read_across_sub_tokens(indexed: NameTable) -> None:
    pairs = indexed.distinct.pairs.value
    assert pairs is not None
    spaced = indexed.distinct.per_symbol(indexed.distinct.spaced_text)
    holding = {spaced[int(p)] for p in indexed.distinct.symbols(pairs.holding("t", "a"))}
    assert holding == {" t able "}  # t_able: "t" then "able"; TableClause is " table clause "
    assert not len(pairs.holding("q", "q"))


@pytest.mark.parametrize("query", [*WORDS, "ble", "e", "_", "ïve", "Session", "get_user"])
def test_tiers_are_the_same_with_and_without_the_suffix_arrays(
    table: NameTable, indexed: NameTable, query: str
) -> None:
    assert not table.distinct.wholes_text.suffixes.ready
    assert np.array_equal(identity.tiers(table, query), identity.tiers(indexed, query)), query


def test_a_table_of_the_same_names_takes_the_previous_arrays(indexed: NameTable) -> None:
    same = NameTable.build([make_symbol(n, file=f"m{i}.py") for i, n in enumerate(NAMES)])
    assert same.index_suffixes(indexed)
    assert same.distinct.spaced_text.suffixes._built is indexed.distinct.spaced_text.suffixes._built
    assert same.distinct.pairs.value is indexed.distinct.pairs.value
    other = NameTable.build([make_symbol(n, file="m.py") for n in [*NAMES, "brandNew"]])
    assert other.index_suffixes(indexed)
    built = other.distinct.spaced_text.suffixes._built
    assert built is not None
    assert built is not indexed.distinct.spaced_text.suffixes._built
    for word in WORDS:
        assert np.array_equal(identity.tiers(same, word), identity.tiers(indexed, word)), word
        table = NameTable.build([make_symbol(n, file="m.py") for n in [*NAMES, "brandNew"]])
        assert np.array_equal(identity.tiers(other, word), identity.tiers(table, word)), word
