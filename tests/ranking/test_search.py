"""search(index, request) end to end on the fixture workspace: the exact-name guarantee,
modes, filters, detail levels, debug output, validation, intent and persistence."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import (
    Channel,
    SearchMode,
    SearchRequest,
    SearchResponse,
    call_query,
    is_path_shaped,
    prepare,
    search,
)
from symfuse.ranking.prepared import build as prepare_module
from symfuse.ranking.query.responses import Change
from symfuse.ranking.search import pipeline as search_module
from symfuse.ranking.search.cancel import Stopped, stoppable
from symfuse.ranking.search.plans import DESCRIBED_KINDS
from tests.support.index import index_of_tree
from tests.support.paths import FIXTURES

WORKSPACE = FIXTURES / "workspace"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    directory = tmp_path_factory.mktemp("index")
    built, _ = update_index(IndexConfig(roots=(WORKSPACE,), index_dir=directory, progress=False))
    return built


def run(index: Index, **fields: Any) -> SearchResponse:
    return search(index, SearchRequest.from_mapping(fields))


def names(response: SearchResponse) -> list[str]:
    return [i.symbol.name for i in response.items]


# --- the exact-name guarantee ------------------------------------------------------------


def test_every_name_is_found_exactly_first(index: Index) -> None:
    # (a file unit's name is its file name: a path, which auto mode answers with get)
    for name in sorted({s.name for s in index.symbols if s.kind not in Kind.UNITS}):
        response = run(index, query=name, limit=50)
        got = names(response)
        exact = got.count(name)
        assert exact == min(50, len(index.by_name[name])), name
        assert got[:exact] == [name] * exact, name


def test_exact_names_stay_first_when_the_weights_favour_others(index: Index) -> None:
    weights = {"lexical": 0, "identity": 0, "structural": 1, "similarity": 1}
    response = run(index, query="get", fusion_weights=weights, fusion_debug=True, limit=30)
    got = names(response)
    exact = got.count("get")
    assert exact == len(index.by_name["get"])
    assert got[:exact] == ["get"] * exact
    assert any(i.boost == "exact_name" for i in response.items)
    scores = [i.score for i in response.items]
    assert scores == sorted(scores, reverse=True)


def test_camel_hump_typo_partial_and_sentence(index: Index) -> None:
    assert names(run(index, query="gUBI", limit=3))[:3].count("get_user_by_id") == 1
    assert "getUserById" in names(run(index, query="gubi", limit=3))
    assert names(run(index, query="get_usre_by_id", limit=5))[0] == "get_user_by_id"
    assert names(run(index, query="calcTotal", limit=5))[0] == "calculate_total"
    assert "process_payment" in names(run(index, query="charge the order total", limit=5))
    assert "slugify" in names(run(index, query="url fragment from a title", limit=5))


# --- channels, fusion, semantic, fuzzy ---------------------------------------------------------


def test_response_says_which_channels_ran(index: Index) -> None:
    words = "payment gateway"
    response = run(index, query=words)
    assert response.channels == (
        Channel.LEXICAL,
        Channel.STRUCTURAL,
        Channel.SIMILARITY,
        Channel.IDENTITY,
    )
    assert run(index, query=words, semantic="off").channels == (
        Channel.LEXICAL,
        Channel.STRUCTURAL,
        Channel.IDENTITY,
    )
    assert Channel.SIMILARITY not in run(index, query=words, semantic_weight=0).channels
    assert Channel.STRUCTURAL not in run(index, query=words, fusion=False).channels


def test_an_identifier_is_ranked_without_similarity_unless_asked(index: Index) -> None:
    assert Channel.SIMILARITY not in run(index, query="payment").channels
    assert Channel.SIMILARITY not in run(index, query="PaymentGateway").channels
    weighed = run(index, query="payment", semantic_weight=0.8, fusion_debug=True)
    assert Channel.SIMILARITY in weighed.channels  # the plan's 0 is the default's, not a choice
    assert weighed.to_dict()["weights"]["similarity"] > 0
    assert run(index, query="payment", semantic="only").channels == (Channel.SIMILARITY,)
    chosen = run(index, query="payment", fusion_weights={"similarity": 0.5, "lexical": 0.5})
    assert Channel.SIMILARITY in chosen.channels


def test_fuzzy_runs_when_nothing_matched_or_when_asked(index: Index) -> None:
    assert Channel.FUZZY in run(index, query="proces_paymnet").channels
    assert Channel.FUZZY not in run(index, query="process_payment").channels
    assert Channel.FUZZY in run(index, query="process_payment", fuzzy=True).channels
    assert Channel.FUZZY not in run(index, query="proces_paymnet", fuzzy=False).channels
    strict = run(index, query="proces_paymnet", max_edit_distance=0, semantic="off")
    assert "process_payment" not in names(strict)
    assert (
        run(index, query="proces_paymnet", fuzzy_threshold=1.0).total
        < run(index, query="proces_paymnet").total
    )


def test_fusion_debug_explains_every_score(index: Index) -> None:
    response = run(index, query="send email", fusion_debug=True, limit=5)
    for item in response.items:
        assert item.channels
        total = sum(hit.contribution for hit in item.channels.values())
        assert total == pytest.approx(item.score, abs=1e-9) or item.boost
    row = response.to_dict()["items"][0]
    for channel in Channel:
        assert f"{channel.value}_rank" in row
        assert f"{channel.value}_contribution" in row
    weights = response.to_dict()["weights"]
    assert sum(weights.values()) == pytest.approx(1.0, abs=1e-5)


def test_scores_are_between_zero_and_one(index: Index) -> None:
    for query in ("order", "User", "send the welcome mail", "gUBI"):
        scores = [i.score for i in run(index, query=query, limit=100).items]
        assert all(0 < s <= 1 for s in scores)
        assert scores == sorted(scores, reverse=True)


def test_semantic_weight_moves_the_ranking(index: Index) -> None:
    lexical_only = names(run(index, query="money back for a transaction", semantic_weight=0))
    semantic_only = names(run(index, query="money back for a transaction", semantic_weight=1))
    assert lexical_only != semantic_only


def test_without_fusion_identity_order_comes_first(index: Index) -> None:
    got = names(run(index, query="getUser", fusion=False, limit=5))
    assert got[0] == "getUserById"


# --- modes ---------------------------------------------------------------------------------------


def test_auto_mode_picks_get_for_paths_and_ids(index: Index) -> None:
    assert run(index, query="shop/models.py").search_mode is SearchMode.GET
    assert run(index, query="Order").search_mode is SearchMode.SINGLE
    assert is_path_shaped("shop/models.py::Order#class")
    assert is_path_shaped("models.py:12")
    assert not is_path_shaped("os.path")
    assert not is_path_shaped("send welcome mail")


def test_get_by_id_path_line_and_fqn(index: Index) -> None:
    by_id = run(index, query="shop/models.py::Order.add_item#method", mode="get")
    assert names(by_id) == ["add_item"]
    without_kind = run(index, query="shop/models.py::Order.add_item", mode="get")
    assert names(without_kind) == ["add_item"]
    whole_file = run(index, query="shop/utils/text.py", mode="get", limit=100)
    assert names(whole_file) == [
        "_SPACES",
        "slugify",
        "normalize_whitespace",
        "parse_http_header",
        "truncate_words",
    ]
    suffix = run(index, query="utils/text.py", mode="get", limit=100)
    assert names(suffix) == names(whole_file)
    at_line = run(index, query="shop/models.py:99", mode="get")
    assert names(at_line) == ["add_item"]
    by_fqn = run(index, query="shop.services.payment.process_payment", mode="get")
    assert names(by_fqn) == ["process_payment"]
    with pytest.raises(NotFound, match="query"):
        run(index, query="shop/nowhere.py", mode="get")


def test_drill_scopes_to_a_subtree(index: Index) -> None:
    response = run(
        index, query="get", mode="drill", drill_from="shop/repository.py::UserRepository#class"
    )
    assert response.items
    assert all(i.symbol.fqn.startswith("shop.repository.UserRepository") for i in response.items)
    assert names(response)[0] == "get"
    listing = run(
        index, query="", mode="drill", drill_from="shop/services/payment.py::FakeGateway#class"
    )
    assert names(listing) == ["FakeGateway", "__init__", "charge", "refund"]
    by_dir = run(index, query="charge", mode="drill", drill_from="shop/services", limit=50)
    assert {i.symbol.file for i in by_dir.items} <= {
        "shop/services/payment.py",
        "shop/services/email.py",
    }
    with pytest.raises(NotFound, match="drill_from"):
        run(index, query="x", mode="drill", drill_from="nowhere/at/all.py")


def test_flat_mode_is_raw_lexical(index: Index) -> None:
    response = run(index, query="order total", mode="flat", fusion_debug=True)
    assert response.channels == (Channel.LEXICAL,)
    assert response.items[0].score == 1.0
    assert names(response)[0] in {"calculate_total", "order_total"} or "total" in names(response)[0]


def test_tiered_mode_cuts_by_score(index: Index) -> None:
    response = run(index, query="payment gateway", mode="tiered", limit=40)
    data = response.to_dict()
    assert "tiers" not in data  # one flat page; the front ends group it by tier
    assert [row["tier"] for row in data["items"]] == [
        i.tier.value for i in response.items if i.tier
    ]
    top = response.items[0].score
    for item in response.items:
        expected = (
            "high" if item.score >= 0.85 * top else "medium" if item.score >= 0.6 * top else "low"
        )
        assert item.tier is not None
        assert item.tier.value == expected
    assert data["items"][0]["name"] == "PaymentGateway"
    assert data["items"][0]["tier"] == "high"


def test_limit_and_offset_page_through_one_ranking(index: Index) -> None:
    everything = names(run(index, query="user", limit=40))
    page = names(run(index, query="user", limit=5, offset=5))
    assert page == everything[5:10]
    assert run(index, query="user", limit=5).total == run(index, query="user", limit=40).total


# --- filters -------------------------------------------------------------------------------------


def test_kind_and_language_filters(index: Index) -> None:
    response = run(index, query="user", kind=["class", "interface"], limit=50)
    assert {i.symbol.kind.value for i in response.items} <= {"class", "interface"}
    assert "User" in names(response)
    ts = run(index, query="user", language="typescript", limit=50)
    assert ts.items
    assert {i.symbol.language for i in ts.items} == {"typescript"}
    go = run(index, query="server", language=["go"], limit=50)
    assert names(go)[0] == "Server"


def test_file_pattern_and_exclude_path(index: Index) -> None:
    only = run(index, query="charge", file_pattern="shop/services/*.py", limit=50)
    assert {i.symbol.file for i in only.items} <= {
        "shop/services/payment.py",
        "shop/services/email.py",
    }
    by_name = run(index, query="user", file_pattern="*.ts", limit=50)
    assert {i.symbol.file for i in by_name.items} == {"web/client.ts"}
    excluded = run(index, query="user", exclude_path=["web", "shop/api/*"], limit=100)
    assert not any(i.symbol.file.startswith(("web/", "shop/api/")) for i in excluded.items)


def test_extends_implements_decorator(index: Index) -> None:
    sub = run(index, query="user", extends="User", limit=50)
    assert names(sub) == ["AdminUser"]
    models = run(index, query="order", extends="BaseModel", limit=50)
    assert set(names(models)) == {"Order", "User"} or names(models)[0] == "Order"
    gateways = run(index, query="gateway", implements="PaymentGateway", limit=50)
    assert set(names(gateways)) == {"StripeGateway", "FakeGateway"}
    ts = run(index, query="user service", implements="UserService", limit=50)
    assert names(ts) == ["HttpUserService"]
    guarded = run(index, query="user", decorator="login_required", limit=50)
    assert set(names(guarded)) <= {"list_users", "checkout", "get"}
    assert "list_users" in names(guarded)
    routed = run(index, query="register", decorator="@route", limit=50)
    assert set(names(routed)) <= {"register_user", "list_users", "checkout"}
    assert names(routed)[0] == "register_user"
    cached = run(index, query="user", decorator="cached", limit=50)
    assert names(cached) == ["get_user_by_id"]


# --- output shape ------------------------------------------------------------------------------


def test_detail_levels(index: Index) -> None:
    minimal = run(index, query="Order", detail_level="minimal").to_dict()["items"][0]
    assert list(minimal) == ["symbol_id", "name", "kind", "file", "line", "repository"]
    default = run(index, query="Order").to_dict()
    assert list(default["items"][0]) == [
        "symbol_id",
        "name",
        "kind",
        "fqn",
        "signature",
        "file",
        "line",
        "score",
        "repository",
    ]
    assert {"items", "total", "search_mode", "channels"} <= set(default)
    full = run(index, query="User", detail_level="full", kind="class").to_dict()["items"]
    admin = next(i for i in full if i["name"] == "User")
    assert admin["extends"] == "BaseModel"
    assert admin["doc"] == "A customer account with login credentials."
    assert {"decorators", "implements", "language", "end_line", "parent"} <= set(admin)


def test_every_item_has_every_field(index: Index) -> None:
    for detail in ("minimal", "default", "full"):
        items = run(index, query="user", detail_level=detail, fusion_debug=True).to_dict()["items"]
        assert len({tuple(i) for i in items}) == 1


# --- query understanding ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("who calls process_payment", ("callers", "process_payment")),
        ("Who calls `Order.add_item`?", ("callers", "Order.add_item")),
        ("callers of send_welcome_email", ("callers", "send_welcome_email")),
        ("what calls slugify()", ("callers", "slugify")),
        ("where is checkout called", ("callers", "checkout")),
        ("callees of checkout", ("callees", "checkout")),
        ("what does checkout call", ("callees", "checkout")),
        ("process payment", None),
        ("caller", None),
    ],
)
def test_call_queries_are_recognised(query: str, expected: tuple[str, str] | None) -> None:
    found = call_query(query)
    assert (None if found is None else (found.direction, found.target)) == expected


def test_a_call_question_searches_for_its_target(index: Index) -> None:
    response = run(index, query="who calls process_payment")
    assert response.intent is not None
    assert response.intent.target == "process_payment"
    assert names(response)[0] == "process_payment"
    assert response.to_dict()["intent"] == {"direction": "callers", "target": "process_payment"}


# --- validation ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"query": ""}, "query"),
        ({"query": 3}, "query"),
        ({"query": "x", "kind": "klass"}, "kind"),
        ({"query": "x", "language": 5}, "language"),
        ({"query": "x", "file_pattern": {"a": 1}}, "file_pattern"),
        ({"query": "x", "implements": 1}, "implements"),
        ({"query": "x", "extends": []}, "extends"),
        ({"query": "x", "decorator": 2.5}, "decorator"),
        ({"query": "x", "exclude_path": 7}, "exclude_path"),
        ({"query": "x", "fuzzy": "yes"}, "fuzzy"),
        ({"query": "x", "fuzzy_threshold": 1.5}, "fuzzy_threshold"),
        ({"query": "x", "max_edit_distance": -1}, "max_edit_distance"),
        ({"query": "x", "semantic": "maybe"}, "semantic"),
        ({"query": "x", "semantic_weight": "high"}, "semantic_weight"),
        ({"query": "x", "fusion": 1}, "fusion"),
        ({"query": "x", "fusion_weights": {"lexical": -1}}, "fusion_weights.lexical"),
        ({"query": "x", "fusion_weights": {"speed": 1}}, "fusion_weights.speed"),
        (
            {
                "query": "x",
                "fusion_weights": {
                    "lexical": 0,
                    "identity": 0,
                    "structural": 0,
                    "similarity": 0,
                    "fuzzy": 0,
                },
            },
            "fusion_weights",
        ),
        ({"query": "x", "fusion_debug": "on"}, "fusion_debug"),
        ({"query": "x", "limit": 0}, "limit"),
        ({"query": "x", "limit": 2.5}, "limit"),
        ({"query": "x", "offset": -3}, "offset"),
        ({"query": "x", "mode": "fast"}, "mode"),
        ({"query": "x", "mode": "drill"}, "drill_from"),
        ({"query": "x", "drill_from": 3}, "drill_from"),
        ({"query": "x", "detail_level": "huge"}, "detail_level"),
        ({"query": "x", "output_format": "xml"}, "output_format"),
        ({"query": "x", "colour": "red"}, "colour"),
    ],
)
def test_invalid_requests_name_the_field(fields: dict[str, Any], field: str) -> None:
    with pytest.raises(InvalidRequest) as caught:
        SearchRequest.from_mapping(fields)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: ")


def test_defaults_follow_the_contract() -> None:
    request = SearchRequest.from_mapping({"query": " Order "})
    assert request.query == "Order"
    assert (request.limit, request.offset, request.fuzzy_threshold) == (20, 0, 0.3)
    assert (request.max_edit_distance, request.semantic_weight) == (3, 0.5)
    weights = request.fusion_weights
    assert (weights.lexical, weights.structural, weights.similarity, weights.identity) == (
        0.4,
        0.25,
        0.2,
        0.15,
    )


# --- precomputation and persistence ----------------------------------------------------------


def test_prepared_data_is_persisted_and_reloaded(index: Index, tmp_path: Path) -> None:
    prepare_module.forget(index)
    first = prepare(index, tmp_path)
    stored = tmp_path / f"ranking-{index.generation}.npz"
    assert stored.exists()
    assert not first.loaded
    assert prepare(index, tmp_path) is first  # cached in memory
    prepare_module.forget(index)  # as in a new process
    second = prepare(index, tmp_path)
    assert second.loaded
    assert second.fingerprint == first.fingerprint
    a = search(index, SearchRequest.from_mapping({"query": "send mail"}), prepared=first)
    b = search(index, SearchRequest.from_mapping({"query": "send mail"}), prepared=second)
    assert a.to_dict() == b.to_dict()
    np.testing.assert_array_equal(
        second.similarity.doc_vectors.codes, first.similarity.doc_vectors.codes
    )
    np.testing.assert_array_equal(
        second.similarity.doc_vectors.scales, first.similarity.doc_vectors.scales
    )


def test_a_damaged_ranking_file_is_rebuilt(
    index: Index, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    stored = tmp_path / f"ranking-{index.generation}.npz"
    stored.write_bytes(b"PK\x03\x04 not really a zip")
    prepare_module.forget(index)
    with caplog.at_level(logging.WARNING):
        rebuilt = prepare(index, tmp_path)
    assert not rebuilt.loaded
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1, warnings  # one message naming the file
    assert str(stored) in warnings[0]
    prepare_module.forget(index)
    assert prepare(index, tmp_path).loaded


def test_a_new_generation_is_prepared_again(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "a.py").write_text("def alpha_function():\n    pass\n")
    config = IndexConfig(roots=(workspace,), index_dir=tmp_path / "idx", progress=False)
    built, _ = update_index(config)
    assert names(search(built, SearchRequest.from_mapping({"query": "alpha"}))) == [
        "alpha_function"
    ]
    (workspace / "b.py").write_text("def alpha_beta():\n    pass\n")
    updated, _ = update_index(config, index=built)
    found = names(search(updated, SearchRequest.from_mapping({"query": "alpha"})))
    assert set(found) == {"alpha_function", "alpha_beta"}


@pytest.mark.parametrize("typo", ["prcoess_payment", "proces_payment", "procss_payment"])
def test_a_typo_finds_the_name_first(index: Index, typo: str) -> None:
    assert "process_payment" in index.by_name
    assert names(run(index, query=typo, limit=5))[0] == "process_payment"


def test_sentence_queries_take_the_prose_plan(index: Index) -> None:
    response = run(index, query="send a welcome message to a new user", fusion_debug=True)
    assert response.shape == "sentence"
    assert response.weights is not None
    identifier = run(index, query="send_welcome", fusion_debug=True)
    assert identifier.shape == "identifier"
    assert identifier.weights is not None
    # Prose leans on BM25F over bodies; names and centrality say little about it.
    assert response.weights.lexical > identifier.weights.lexical
    assert response.weights.identity < identifier.weights.identity
    assert response.weights.structural < identifier.weights.structural


def test_sentence_queries_look_among_callables_and_types(index: Index) -> None:
    """A described behaviour ranks functions, methods and classes in the text channels;
    a constant still comes back through its name, or when a kind filter asks for it."""
    query = "the maximum number of items allowed in one order"
    response = run(index, query=query, fusion_debug=True, limit=30)
    for item in response.items:
        if not {Channel.IDENTITY, Channel.FUZZY} & item.channels.keys():
            assert item.symbol.kind in DESCRIBED_KINDS, item
    constants = run(index, query=query, kind=["constant"], limit=5)
    assert "MAX_ORDER_ITEMS" in names(constants)


def test_long_names_are_looked_for_two_edits_away_even_when_a_word_matched(
    tmp_path: Path,
) -> None:
    # "update" matches as typed, so fuzzy does not run on its own; a query of 8 or more
    # characters still looks two edits away ("idx" -> "index" is two insertions).
    (tmp_path / "work.py").write_text(
        "class UpdateReport:\n    pass\n\n\ndef update_index(config):\n    return config\n"
    )
    built, _ = update_index(
        IndexConfig(roots=(tmp_path,), index_dir=tmp_path / ".index", progress=False)
    )
    response = run(built, query="update_idx", fusion_debug=True, limit=3)
    assert names(response)[0] == "update_index"
    assert Channel.FUZZY in response.items[0].channels


@pytest.mark.parametrize("query", ["send an email to the customer", "order", "payment"])
def test_a_longer_page_keeps_the_order_of_a_short_one(
    index: Index, query: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Channels rank MIN_DEPTH candidates for a short page and more for a long one; the
    # deeper lists must not reorder the head (here MIN_DEPTH is cut so that the fixture
    # workspace is deeper than it).
    monkeypatch.setattr(search_module, "MIN_DEPTH", 4)
    short = run(index, query=query, limit=4, fusion_debug=True)
    long = run(index, query=query, limit=60, fusion_debug=True)
    assert [i.symbol.symbol_id for i in long.items[:4]] == [i.symbol.symbol_id for i in short.items]
    assert [i.score for i in long.items[:4]] == [i.score for i in short.items]
    scores = [i.score for i in long.items]
    assert scores == sorted(scores, reverse=True)
    assert len(long.items) > len(short.items)


@pytest.mark.parametrize("query", ["(((", "***", "::", "#", "..."])
def test_a_query_without_words_or_name_characters_finds_nothing(index: Index, query: str) -> None:
    # It used to list the first symbols of the index: no required term was read as
    # every symbol holding all (none) of them.
    response = run(index, query=query)
    assert names(response) == []
    assert response.total == 0
    assert names(run(index, query="__"))  # a name fragment of symbols alone still matches


def test_languages_are_checked_and_comma_lists_split_inside_repeated_values(index: Index) -> None:
    with pytest.raises(InvalidRequest, match=r"unknown language 'klingon'; one of .*python"):
        SearchRequest.from_mapping({"query": "order", "language": "klingon"})
    request = SearchRequest.from_mapping(
        {"query": "order", "language": ["Python,go"], "kind": ["class, method"]}
    )
    assert request.language == ("python", "go")
    assert {k.value for k in request.kind} == {"class", "method"}
    found = run(index, query="order", language=["go,python"], limit=50)
    assert {i.symbol.language for i in found.items} <= {"go", "python"}
    assert names(found)


def test_the_most_linked_of_many_namesakes_comes_first(tmp_path: Path) -> None:
    """Exact-name ties are ordered by the identity channel (length, then PageRank), not by
    BM25 and similarity, which prefer short local classes over a long central one."""
    root = tmp_path / "ws"
    (root / "lib").mkdir(parents=True)
    body = "\n".join(f"    def method_{i}(self):\n        return {i}\n" for i in range(60))
    (root / "lib" / "base.py").write_text(f"class Model:\n    '''The base of models.'''\n{body}")
    users = "\n".join(f"class User{i}(Model):\n    pass\n" for i in range(12))
    (root / "lib" / "users.py").write_text(f"from lib.base import Model\n\n{users}")
    (root / "tests").mkdir()
    for i in range(6):
        local = f"def test_{i}():\n    class Model:\n        'A model model.'\n    return Model\n"
        (root / "tests" / f"test_{i}.py").write_text(local)
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    index, _ = update_index(config)
    found = run(index, query="Model", limit=10).items
    assert [i.symbol.name for i in found[:7]] == ["Model"] * 7
    assert found[0].symbol.symbol_id == "lib/base.py::Model#class"


# --- stopping a running search -----------------------------------------------------------


def test_a_search_stops_between_channels_once_its_caller_gives_up(index: Index) -> None:
    request = SearchRequest.from_mapping({"query": "compute total", "fuzzy": True})
    asked: list[bool] = []

    def never() -> bool:
        asked.append(False)
        return False

    with stoppable(never):
        kept = search(index, request)
    checks = len(asked)
    assert checks >= 4  # before the channels, and between lexical, identity, fuzzy, structural
    assert names(kept) == names(search(index, request))
    for stop_at in range(1, checks + 1):
        asked.clear()

        def at_check(n: int = stop_at) -> bool:
            asked.append(len(asked) + 1 >= n)
            return asked[-1]

        with pytest.raises(Stopped), stoppable(at_check):
            search(index, request)
        assert asked == [False] * (stop_at - 1) + [True]  # stopped at the first "yes"


# --- words that spell a name ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("send welcome email", "send_welcome_email"),
        ("order item", "OrderItem"),  # MAX_ORDER_ITEMS and __init__ came first as words
        ("get user by id", "get_user_by_id"),  # snake first; getUserById just after
        ("mark   paid", "mark_paid"),
    ],
)
def test_lower_case_words_that_spell_a_name_put_it_first(
    index: Index, query: str, expected: str
) -> None:
    response = run(index, query=query, fusion_debug=True)
    assert names(response)[0] == expected
    assert response.items[0].symbol.name == expected


def test_words_inside_a_sentence_that_spell_a_name_lead_the_identity_channel(
    index: Index,
) -> None:
    # A sentence is not a name: no guard, but the spelled definition leads its channel.
    query = "where do we send welcome email to a new user after signing up"
    response = run(index, query=query, fusion_debug=True, limit=10)
    first = [i for i in response.items if Channel.IDENTITY in i.channels]
    assert first
    best = min(first, key=lambda i: i.channels[Channel.IDENTITY].rank)
    assert best.symbol.name == "send_welcome_email"
    assert best.channels[Channel.IDENTITY].rank == 1
    assert not any(a.change is Change.GUARD for i in response.items for a in i.adjustments)


def test_words_that_spell_no_name_lift_nothing(index: Index) -> None:
    spelled = run(index, query="payment error", fusion_debug=True, limit=5)
    assert names(spelled)[0] == "PaymentError"
    assert any(a.change is Change.GUARD for i in spelled.items for a in i.adjustments)
    plain = run(index, query="welcome email sender", fusion_debug=True, limit=5)
    assert plain.items
    assert not any(a.change is Change.GUARD for i in plain.items for a in i.adjustments)


def test_a_whole_bug_report_is_a_query(index: Index) -> None:
    frame = '  File "shop/services/payment.py", line 60, in process_payment\n    gateway.charge()\n'
    report = "Checkout fails when the card is declined. " * 40 + "Traceback:\n" + frame * 150
    assert len(report) > 10_000
    response = run(index, query=report)
    assert "process_payment" in names(response)[:3]


def test_words_spell_a_name_in_any_case_and_the_products_first(tmp_path: Path) -> None:
    """ "to json" spells aeson's `ToJSON` as well as a benchmark's `ToJson`: lower-case words
    say no case, and the product's class comes before the benchmark's."""
    tree = {
        "src/Types/ToJSON.py": "class ToJSON:\n    def encode(self):\n        return 1\n",
        "benchmarks/compare/builder.py": "class ToJson:\n    def encode(self):\n        return 2\n",
    }
    index = index_of_tree(tmp_path, tree)
    response = run(index, query="to json", limit=3)
    assert (response.items[0].symbol.name, response.items[0].symbol.file) == (
        "ToJSON",
        "src/Types/ToJSON.py",
    )
