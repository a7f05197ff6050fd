"""Shards built as Dask tasks and searched by fan-out, against one multi-root index."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from symfuse.ranking.query import operations
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.server.common.present import group, search_grouping
from symfuse.server.shards.build import build_shards
from symfuse.server.shards.cluster import ClusterOptions, check_bind
from symfuse.server.shards.fleet import Fleet
from symfuse.server.shards.manifest import read_manifest
from tests.server.shards.conftest import Sharded

# Seen only under heavy load: an unconnected socket (laddr 0.0.0.0:0) left to the collector,
# by a Dask connection attempt as far as we can tell (we open no socket ourselves).
pytestmark = [
    pytest.mark.slow,  # a Dask cluster of worker processes (conftest.py)
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

NAME_QUERIES = ("Order", "total", "compute_total", "Invoice", "SearchIndex", "order", "refund")


def _combined(sharded: Sharded, **fields: object) -> SearchResponse:
    answer = operations.search(
        sharded.combined, SearchRequest.from_mapping(fields), directory=sharded.combined_dir
    )
    assert isinstance(answer, SearchResponse)
    return answer


def _ids(response: SearchResponse) -> list[str]:
    return [i.symbol.symbol_id for i in response.items]


def _exact_first(response: SearchResponse, query: str) -> set[str]:
    """The hits named exactly ``query`` that lead the answer."""
    lead: set[str] = set()
    for item in response.items:
        if item.symbol.name != query:
            break
        lead.add(item.symbol.symbol_id)
    return lead


@pytest.fixture(scope="module")
def fleet(sharded: Sharded) -> Fleet:
    fleet = Fleet(sharded.out, sharded.client)
    assert fleet.warm() == []
    return fleet


@pytest.mark.parametrize("query", NAME_QUERIES)
def test_a_sharded_answer_equals_the_multi_root_answer(
    sharded: Sharded, fleet: Fleet, query: str
) -> None:
    fields = {"query": query, "limit": 10, "semantic": "off"}
    merged = fleet.search(SearchRequest.from_mapping(fields))
    combined = _combined(sharded, **fields)
    assert merged.errors == ()
    # The same top 10. Not always in the same order here: these repositories call
    # each other's names (``order.total()``), which a combined index resolves by name
    # across repositories (PageRank, borrowed docstrings) and a shard cannot;
    # test_global_ranking checks the order over repositories that do not.
    assert set(_ids(merged)) == set(_ids(combined))
    assert merged.total == combined.total
    assert _exact_first(merged, query) == _exact_first(combined, query)


def test_snippets_and_sources_come_from_the_shards_holding_the_hits(
    sharded: Sharded, fleet: Fleet
) -> None:
    # "Order" is defined in all three repositories: one call per group reads them all
    fields = {"query": "Order", "limit": 10, "semantic": "off", "snippet_lines": 2}
    merged = fleet.search(SearchRequest.from_mapping(fields))
    combined = {i.symbol.symbol_id: i for i in _combined(sharded, **fields).items}
    assert merged.errors == ()
    assert len({i.symbol.root for i in merged.items}) == 3
    for item in merged.items:
        assert item.snippet is not None
        assert item.snippet == combined[item.symbol.symbol_id].snippet
    full = fleet.search(SearchRequest.from_mapping(fields | {"detail_level": "full"}))
    assert all(i.source for i in full.items)


def test_name_routing_asks_only_the_shards_defining_the_name(sharded: Sharded) -> None:
    routed = Fleet(sharded.out, route_names=True)  # holders here: only who is asked matters
    found = routed.search(SearchRequest.from_mapping({"query": "Invoice", "semantic": "off"}))
    assert routed.asked == 1  # only billing defines a name starting with "invoice"
    assert found.items[0].symbol.symbol_id == "billing/billing/invoice.py::Invoice#class"
    routed.search(SearchRequest.from_mapping({"query": "Orde"}))
    assert routed.asked == 1 + 3  # Order in all three
    routed.search(SearchRequest.from_mapping({"query": "Invioce"}))
    assert routed.asked == 4 + 3  # a typo names no shard: every shard is asked
    routed.close()


def test_per_repo_spreads_the_limit_over_the_shards(sharded: Sharded, fleet: Fleet) -> None:
    fields = {"query": "total", "limit": 3, "aggregation_mode": "per_repo", "semantic": "off"}
    merged = fleet.search(SearchRequest.from_mapping(fields))
    assert sorted(i.symbol.root for i in merged.items) == ["billing", "search", "shop"]
    assert set(_ids(merged)) == set(_ids(_combined(sharded, **fields)))


def test_grouped_answers_group_by_repository(fleet: Fleet) -> None:
    request = SearchRequest.from_mapping(
        {"query": "Order", "response_format": "grouped", "semantic": "off"}
    )
    response = fleet.search(request)
    grouping = search_grouping(response)
    assert grouping is not None
    groups = group(response.to_dict(), "items", grouping)["results_by_repo"]
    assert set(groups) == {"shop", "billing", "search"}
    assert groups["shop"]["items"][0]["symbol_id"] == "shop/shop/orders.py::Order#class"


def test_repository_filters_ask_only_the_selected_shards(fleet: Fleet) -> None:
    request = SearchRequest.from_mapping({"query": "Order", "repository": ["bill*"]})
    assert {i.symbol.root for i in fleet.search(request).items} == {"billing"}


def test_a_shard_deleted_or_corrupted_while_serving_is_reported(
    sharded: Sharded, tmp_path: Path
) -> None:
    out = tmp_path / "copy"
    shutil.copytree(sharded.out, out)
    fleet = Fleet(out, sharded.client)
    request = SearchRequest.from_mapping({"query": "Order", "semantic": "off"})
    assert {i.symbol.root for i in fleet.search(request).items} == {"shop", "billing", "search"}
    shutil.rmtree(out / "billing")
    (out / "search" / "shard.json").write_text("{not json")
    answer = fleet.search(request)
    reasons = {e.repository: e.reason for e in answer.errors}
    assert set(reasons) == {"billing", "search"}
    assert "deleted" in reasons["billing"]
    assert "corrupt" in reasons["search"]
    assert {i.symbol.root for i in answer.items} == {"shop"}
    assert "errors" in answer.to_dict()
    fleet.close()


def test_an_incremental_rebuild_touches_only_the_changed_repository(
    sharded: Sharded, tmp_path: Path
) -> None:
    out = tmp_path / "copy"
    shutil.copytree(sharded.out, out)
    before = {a: (out / a / "shard.json").read_bytes() for a in sharded.roots}
    assert {r.outcome for r in build_shards(sharded.roots, out, client=sharded.client)} == {
        "unchanged"
    }
    changed = Path(sharded.roots["billing"]) / "billing" / "credit.py"
    changed.write_text("class CreditNote:\n    pass\n")
    try:
        results = build_shards(sharded.roots, out, client=sharded.client)
    finally:
        changed.unlink()
    assert {r.alias: r.outcome for r in results} == {
        "shop": "unchanged",
        "search": "unchanged",
        "billing": "built",
    }
    for alias in ("shop", "search"):
        assert (out / alias / "shard.json").read_bytes() == before[alias]
    assert read_manifest(out / "billing").counts["files"] == 3


def test_a_failed_repository_is_reported_and_the_others_complete(
    sharded: Sharded, tmp_path: Path
) -> None:
    roots = {**sharded.roots, "gone": str(tmp_path / "no-such-repository")}
    results = {r.alias: r for r in build_shards(roots, tmp_path / "out", client=sharded.client)}
    assert results["gone"].outcome == "failed"
    assert results["gone"].error
    assert {results[a].outcome for a in sharded.roots} == {"built"}


def test_call_graph_questions_name_the_limitation(fleet: Fleet) -> None:
    from symfuse.indexer.errors import InvalidRequest

    with pytest.raises(InvalidRequest, match="not answered over shards"):
        fleet.search(SearchRequest.from_mapping({"query": "who calls compute_total"}))


def test_binding_beyond_loopback_warns(capsys: pytest.CaptureFixture[str]) -> None:
    check_bind(ClusterOptions(workers=1, bind="0.0.0.0"))
    assert "beyond this machine" in capsys.readouterr().err
    check_bind(ClusterOptions(workers=1))
    assert capsys.readouterr().err == ""


def test_the_manifest_records_alias_revision_formats_and_counts(sharded: Sharded) -> None:
    data = json.loads((sharded.out / "shop" / "shard.json").read_text())
    assert data["alias"] == "shop"
    assert data["revision"] is None  # not a git repository: the files digest stands for it
    assert set(data["formats"]) == {"format", "extractor", "linker"}
    assert data["counts"]["files"] == 2
