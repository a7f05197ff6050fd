"""Identity channel: the match tiers, their order, and the camel-hump reading of queries."""

from __future__ import annotations

import numpy as np
import pytest

from symfuse.ranking.channels import identity
from symfuse.ranking.channels.identity import MatchTier, NameTable
from symfuse.ranking.channels.names import humps
from tests.support.symbols import make_symbol

NAMES = [
    "getUserById",
    "get_user_by_id",
    "GetUserByID",
    "getUser",
    "getUserByIdOrNone",
    "userById",
    "forgetUserByIdentity",
    "save",
    "Model",
    "ModelForm",
    "budget",
]


@pytest.fixture(scope="module")
def table() -> NameTable:
    symbols = [make_symbol(n) for n in NAMES]
    symbols.append(make_symbol("save", fqn="django.db.models.base.Model.save", file="m.py"))
    return NameTable.build(symbols)


def tier_of(table: NameTable, query: str) -> dict[str, MatchTier]:
    tiers = identity.tiers(table, query)
    return {
        ([*NAMES, "Model.save"])[i]: MatchTier(int(t))
        for i, t in enumerate(tiers)
        if t < MatchTier.NONE
    }


def test_exact_and_case_insensitive(table: NameTable) -> None:
    found = tier_of(table, "getUserById")
    assert found["getUserById"] is MatchTier.EXACT
    assert found["GetUserByID"] is MatchTier.CASE_INSENSITIVE
    assert found["get_user_by_id"] is MatchTier.CASE_INSENSITIVE  # separators ignored
    assert found["getUserByIdOrNone"] is MatchTier.PREFIX
    assert found["forgetUserByIdentity"] is MatchTier.SUBSTRING


def test_words_typed_with_spaces_find_the_identifier(table: NameTable) -> None:
    found = tier_of(table, "get user by id")
    assert found["getUserById"] is MatchTier.CASE_INSENSITIVE
    assert found["get_user_by_id"] is MatchTier.CASE_INSENSITIVE


def test_fqn_suffix(table: NameTable) -> None:
    found = tier_of(table, "Model.save")
    assert found == {"Model.save": MatchTier.FQN_SUFFIX}


def test_prefix_segment_and_substring(table: NameTable) -> None:
    assert tier_of(table, "getUser")["getUserById"] is MatchTier.PREFIX
    assert tier_of(table, "user_by")["getUserById"] is MatchTier.SEGMENT
    assert tier_of(table, "serBy")["getUserById"] is MatchTier.SUBSTRING
    assert tier_of(table, "dget")["budget"] is MatchTier.SUBSTRING


@pytest.mark.parametrize("query", ["gUBI", "gubi", "getUsBI", "GUBI"])
def test_camel_hump(table: NameTable, query: str) -> None:
    found = tier_of(table, query)
    assert found["getUserById"] is MatchTier.CAMEL_HUMP
    assert found["get_user_by_id"] is MatchTier.CAMEL_HUMP
    assert "save" not in found


def test_camel_humps_must_start_consecutive_sub_tokens(table: NameTable) -> None:
    assert "getUserById" not in tier_of(table, "gBI")
    assert tier_of(table, "UBI")["getUserById"] is MatchTier.CAMEL_HUMP  # from any sub-token


def test_humps() -> None:
    assert humps.humps("gUBI") == ["g", "U", "B", "I"]
    assert humps.humps("getUsBI") == ["get", "Us", "B", "I"]
    assert humps.humps("get_user by") == ["get", "user", "by"]
    assert humps.humps("gOO404") == ["g", "O", "O", "404"]  # digits: a sub-token alone
    assert humps.humps("goo404") == ["goo404"]  # one lower-case word: read letter by letter


@pytest.mark.parametrize("query", ["gOO404", "getObjOr404", "goo404", "gOOr4"])
def test_camel_humps_with_digits(query: str) -> None:
    names = ["get_object_or_404", "GZipMiddleware", "Http404", "getObjectOrNone"]
    table = NameTable.build([make_symbol(n) for n in names])
    found = identity.tiers(table, query)
    assert MatchTier(int(found[0])) is MatchTier.CAMEL_HUMP
    assert found[1:].tolist() == [MatchTier.NONE] * 3


def test_rank_orders_by_tier_then_length_then_pagerank(table: NameTable) -> None:
    n = len(table)
    pagerank = np.ones(n) / n
    ranking, _tiers = identity.rank(table, "getUserById", pagerank, None, 20)
    names = [([*NAMES, "Model.save"])[i] for i in ranking.positions]
    assert names[0] == "getUserById"
    assert set(names[1:3]) == {"GetUserByID", "get_user_by_id"}
    assert names.index("getUserByIdOrNone") < names.index("forgetUserByIdentity")
    assert ranking.scores[0] == 1.0
    assert np.all(np.diff(ranking.scores) <= 0)
    mask = np.zeros(n, dtype=np.bool_)
    mask[1] = True
    masked, _ = identity.rank(table, "getUserById", pagerank, mask, 20)
    assert masked.positions.tolist() == [1]


def test_a_lower_case_run_reads_across_sub_tokens() -> None:
    names = ["HexagonalTiling", "hexdump", "Hexagon", "tiling"]
    table = NameTable.build([make_symbol(n) for n in names])
    found = identity.tiers(table, "hextil")
    assert MatchTier(int(found[0])) is MatchTier.CAMEL_HUMP
    assert found[1:].tolist() == [MatchTier.NONE] * 3


def test_abbreviations_naming_every_sub_token_come_first() -> None:
    names = ["get_source_field_names", "get_serializer_formats", "GetLanguageInfoNode"]
    names += ["get_language_info"]
    table = NameTable.build([make_symbol(n) for n in names])
    pagerank = np.asarray([0.9, 0.1, 0.1, 0.9])  # centrality must not outweigh the fit
    ranking, _ = identity.rank(table, "gsf", pagerank, None, 5)
    assert names[int(ranking.positions[0])] == "get_serializer_formats"
    ranking, _ = identity.rank(table, "glin", pagerank, None, 5)
    assert names[int(ranking.positions[0])] == "GetLanguageInfoNode"


def test_a_name_borne_by_many_symbols_is_scanned_once_and_marks_each_of_them() -> None:
    names = ["get", "userById", "get", "getUser", "get", "userById", "Get"]
    table = NameTable.build([make_symbol(n, file=f"m{i}.py") for i, n in enumerate(names)])
    assert len(table.distinct) == 4  # Get, get, getUser, userById
    assert table.distinct.per_symbol(table.distinct.spaced_text)[1] == " user by id "
    substring = identity.tiers(table, "rbyi")  # a scanned tier: the separator-free text
    assert [MatchTier(int(t)) for t in substring] == [
        MatchTier.SUBSTRING if n == "userById" else MatchTier.NONE for n in names
    ]
    hump = identity.tiers(table, "uBI")  # the camel-hump regex over the spaced text
    assert [i for i, t in enumerate(hump) if t == MatchTier.CAMEL_HUMP] == [1, 5]
    exact = identity.tiers(table, "get")  # exact for the three, case-insensitive for "Get"
    assert [MatchTier(int(t)) for t in exact] == [
        MatchTier.EXACT,
        MatchTier.NONE,
        MatchTier.EXACT,
        MatchTier.PREFIX,
        MatchTier.EXACT,
        MatchTier.NONE,
        MatchTier.CASE_INSENSITIVE,
    ]


def test_names_spread_to_their_symbols_as_a_gather_would() -> None:
    """``spread`` sets the symbols of the few names that differ from the rest, and gathers
    when many do: either way each symbol gets its name's value."""
    names = [f"n{i % 37}" for i in range(500)]
    table = NameTable.build([make_symbol(n, file=f"m{i}.py") for i, n in enumerate(names)])
    distinct = table.distinct
    rng = np.random.default_rng(39)
    for share in (0.0, 0.02, 0.1, 0.5, 1.0):
        values = np.full(len(distinct), MatchTier.NONE, dtype=np.int8)
        chosen = rng.random(len(distinct)) < share
        values[chosen] = rng.integers(0, int(MatchTier.NONE), int(chosen.sum()))
        spread = distinct.spread(values, MatchTier.NONE)
        assert spread.dtype == values.dtype
        assert np.array_equal(spread, distinct.widened(values))


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        *[("AC", True), ("ACl", True), ("sP", True), ("ZO", True), ("gUB", True)],
        *[("ac", False), ("Ab", False), ("A", False), ("ACli", False), ("A.C", False)],
    ],
)
def test_short_humps(query: str, expected: bool) -> None:
    assert humps.short_humps(query) is expected


def test_short_humps_rank_above_names_that_merely_start_with_them() -> None:
    names = ["AsyncClient", "aclose", "ACCEPT", "AC_MODE", "Ac"]
    table = NameTable.build([make_symbol(n) for n in names])
    found = dict(zip(names, (MatchTier(int(t)) for t in identity.tiers(table, "AC")), strict=True))
    assert found["AsyncClient"] is MatchTier.CAMEL_HUMP
    assert found["aclose"] is MatchTier.SUBSTRING
    assert found["ACCEPT"] is MatchTier.SUBSTRING
    assert found["AC_MODE"] is MatchTier.SEGMENT  # "AC" is a whole sub-token of it
    assert found["Ac"] is MatchTier.CASE_INSENSITIVE
    # typed in lower case, the letters are a prefix again
    lower = dict(zip(names, (MatchTier(int(t)) for t in identity.tiers(table, "ac")), strict=True))
    assert lower["aclose"] is MatchTier.PREFIX
