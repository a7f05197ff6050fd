"""``symfuse shards build`` / ``search --shards`` through the installed command, and
``symfuse mcp --shards`` through the MCP SDK's ClientSession, on the module's cluster."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import TextContent

from symfuse.ranking.api import editor_search, prepare
from tests.server.shards.conftest import Sharded, write_repos
from tests.support.cli import run_symfuse, symfuse_command
from tests.support.lsp import lsp_session

# Seen only under heavy load: an unconnected socket (laddr 0.0.0.0:0) left to the collector,
# by a Dask connection attempt as far as we can tell (we open no socket ourselves).
pytestmark = [
    pytest.mark.slow,  # the symfuse command, its servers and a Dask cluster
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]

READ_TIMEOUT = 60  # seconds: only turns a hung server into a failure


def test_the_cli_builds_shards_and_searches_them_like_a_multi_root_index(
    tmp_path: Path,
) -> None:
    roots = write_repos(tmp_path / "repos")
    named = [f"{alias}={path}" for alias, path in roots.items()]
    out = tmp_path / "shards"
    built = run_symfuse(["shards", "build", *named, "--out", str(out), "--output-format", "json"])
    assert {r["outcome"] for r in json.loads(built.stdout)["shards"]} == {"built"}
    assert built.stderr.count("symfuse: shards [") == 3  # one progress line per repository
    again = run_symfuse(["shards", "build", *named, "--out", str(out), "--output-format", "json"])
    assert {r["outcome"] for r in json.loads(again.stdout)["shards"]} == {"unchanged"}

    args = ["search", "Order", "--kind", "class", "--semantic", "off", "--output-format", "json"]
    sharded = json.loads(run_symfuse([*args, "--shards", str(out)]).stdout)
    index_dir = ["--index-dir", str(tmp_path / "combined")]
    combined = json.loads(run_symfuse([*args, *named, *index_dir]).stdout)
    assert {i["symbol_id"] for i in sharded["items"]} == {i["symbol_id"] for i in combined["items"]}
    # Python's classes, and Go's struct (a class filter matches structs too)
    assert {i["repository"] for i in sharded["items"]} == {"shop", "billing", "search"}


def test_shards_build_selects_files_as_symfuse_index_does(tmp_path: Path) -> None:
    roots = write_repos(tmp_path / "repos")
    named = [f"{alias}={path}" for alias, path in roots.items()]
    out = tmp_path / "shards"
    build = ["shards", "build", *named, "--out", str(out), "--output-format", "json"]
    chosen = ["--exclude", "ledger.py", "--languages", "python"]
    built = json.loads(run_symfuse([*build, *chosen]).stdout)["shards"]
    files = {r["repository"]: r["files"] for r in built}
    assert files == {"shop": 2, "billing": 1, "search": 1}  # no ledger.py, no query.go
    again = json.loads(run_symfuse([*build, *chosen]).stdout)["shards"]
    assert {r["outcome"] for r in again} == {"unchanged"}
    args = ["search", "Ledger", "--semantic", "off", "--output-format", "json"]
    found = json.loads(run_symfuse([*args, "--shards", str(out)]).stdout)["items"]
    assert "Ledger" not in {i["name"] for i in found}
    # Another selection is another shard: every repository is built again.
    everything = json.loads(run_symfuse(build).stdout)["shards"]
    assert {r["outcome"] for r in everything} == {"built"}
    assert {r["repository"]: r["files"] for r in everything}["search"] == 2
    found = json.loads(run_symfuse([*args, "--shards", str(out)]).stdout)["items"]
    assert "Ledger" in {i["name"] for i in found}


async def test_mcp_search_fans_out_over_the_shards(sharded: Sharded, tmp_path: Path) -> None:
    args = ["mcp", "--shards", str(sharded.out), "--scheduler", sharded.address, "--tools", "all"]
    env = {**os.environ, "HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    params = StdioServerParameters(command=symfuse_command()[0], args=args, env=env)
    with (tmp_path / "stderr.log").open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=READ_TIMEOUT) as session,
        ):
            await session.initialize()
            found = await session.call_tool(
                "search",
                {"query": "total", "aggregation_mode": "per_repo", "limit": 3},
            )
            assert not found.is_error, found.content
            data = found.structured_content
            assert data is not None
            assert sorted(i["repository"] for i in data["items"]) == ["billing", "search", "shop"]
            grouped = await session.call_tool(
                "search", {"query": "Order", "response_format": "grouped"}
            )
            assert grouped.structured_content is not None
            assert set(grouped.structured_content["results_by_repo"]) == {
                "shop",
                "billing",
                "search",
            }
            repos = await session.call_tool("list_repositories", {})
            assert repos.structured_content is not None
            listed = {r["repository"]: r for r in repos.structured_content["repositories"]}
            assert set(listed) == {"shop", "billing", "search"}
            assert listed["search"]["languages"] == {"go": 1, "python": 1}
            status = await session.call_tool("index_status", {})
            assert status.structured_content is not None
            assert status.structured_content["ready"] is True
            assert status.structured_content["files"] == 6
            refused = await session.call_tool("find_usages", {"target": "Order"})
            assert refused.is_error
            text = refused.content[0]
            assert isinstance(text, TextContent)
            assert "not answered over shards" in text.text


async def test_lsp_workspace_symbol_fans_out_over_the_shards(
    sharded: Sharded, tmp_path: Path
) -> None:
    args = ["--shards", str(sharded.out), "--scheduler", sharded.address]
    root = Path(sharded.roots["shop"])
    async with lsp_session(tmp_path, root=root, args=args, stdio=True) as session:
        found = await session.symbols("Order")
    by_uri = {(s.name, s.location.uri) for s in found if s.name == "Order"}
    expected = {
        ("Order", Path(sharded.roots[alias], rel).as_uri())
        for alias, rel in (
            ("shop", "shop/orders.py"),
            ("billing", "billing/invoice.py"),
            ("search", "search/query.go"),
        )
    }
    assert by_uri == expected


async def test_lsp_workspace_symbol_over_shards_keeps_the_names_as_one_index_does(
    sharded: Sharded, tmp_path: Path
) -> None:
    """An identifier of several parts lists what a name channel ranked, as the picker over
    one combined index does, not the definitions whose bodies hold one of its parts."""
    args = ["--shards", str(sharded.out), "--scheduler", sharded.address]
    root = Path(sharded.roots["shop"])
    queries = ("OrderTotal", "compute_refund", "Order")
    prepared = prepare(sharded.combined, sharded.combined_dir)
    async with lsp_session(tmp_path, root=root, args=args, stdio=True) as session:
        for query in queries:
            found = await session.symbols(query)
            one = editor_search(sharded.combined, query, limit=100, prepared=prepared)
            assert [s.name for s in found] == [s.name for s in one], query
