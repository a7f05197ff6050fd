"""Several repositories in one index, through the MCP client and the installed CLI: every hit
names its repository, the repository filters (names, lists, wildcards, exclusions),
``per_repo`` aggregation, the ``grouped`` format, ``list_repositories``, and a root that
disappears while the server runs."""

from __future__ import annotations

import json
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from mcp import Client, ClientSession

from symfuse.indexer.config import IndexConfig
from symfuse.server.mcp.server import MCPOptions, build_mcp_server
from tests.support.cli import run_symfuse, write_tree
from tests.support.mcp import call, call_error, hits

REPOS = {"svc-orders": "orders", "svc-billing": "billing", "shared-lib": "shared"}


def _repositories(tmp_path: Path) -> dict[str, Path]:
    """Three repositories, each with five ``handle_*`` functions and one of its own."""
    roots: dict[str, Path] = {}
    for alias, word in REPOS.items():
        files = {
            f"{word}/m{i}.py": f"def handle_{word}_{i}(event):\n    return {i}\n" for i in range(5)
        }
        files[f"{word}/own.py"] = f"class {word.title()}Only:\n    pass\n"
        roots[alias] = write_tree(tmp_path / "checkouts" / f"{word}-checkout", files)
    return roots


@asynccontextmanager
async def _session(roots: dict[str, Path], index_dir: Path) -> AsyncIterator[ClientSession]:
    config = IndexConfig(
        roots=tuple(roots.values()), names=tuple(roots), index_dir=index_dir, progress=False
    )
    server = build_mcp_server(config, MCPOptions(watch=False, warm=False, tools="all"))
    async with Client(server, mode="legacy", read_timeout_seconds=60) as client:
        await call(client.session, "reindex")
        yield client.session


async def test_hits_name_their_repository_and_filters_select_repositories(
    tmp_path: Path,
) -> None:
    roots = _repositories(tmp_path)
    async with _session(roots, tmp_path / "index") as session:
        every = await call(session, "search", query="handle", limit=30)
        assert {i["repository"] for i in hits(every)} == set(REPOS)
        assert all(i["file"].startswith(i["repository"] + "/") for i in hits(every))

        one = await call(session, "search", query="handle", repository="shared-lib", limit=30)
        assert {i["repository"] for i in hits(one)} == {"shared-lib"}
        assert one["total"] == len(hits(one))
        # its five handle_* functions first (a weak similarity match may follow them)
        assert all(h["name"].startswith("handle_") for h in hits(one)[:5])
        services = await call(session, "search", query="handle", repository="svc-*", limit=30)
        assert {i["repository"] for i in hits(services)} == {"svc-orders", "svc-billing"}
        listed = await call(
            session, "search", query="handle", repository=["shared-lib", "svc-billing"], limit=30
        )
        assert {i["repository"] for i in hits(listed)} == {"shared-lib", "svc-billing"}
        rest = await call(session, "search", query="handle", exclude_repository="svc-*", limit=30)
        assert {i["repository"] for i in hits(rest)} == {"shared-lib"}

        spread = await call(
            session, "search", query="handle", limit=10, aggregation_mode="per_repo"
        )
        counts = {a: sum(i["repository"] == a for i in hits(spread)) for a in REPOS}
        assert sorted(counts.values()) == [3, 3, 4]  # the limit is spread, not multiplied

        grouped = await call(session, "search", query="handle", limit=30, response_format="grouped")
        assert "items" not in grouped
        by_repo = grouped["results_by_repo"]
        assert set(by_repo) == set(REPOS)
        assert all(group["count"] == len(hits(group)) for group in by_repo.values())
        handlers = [[h["name"][:7] for h in hits(g)].count("handle_") for g in by_repo.values()]
        assert handlers == [5, 5, 5]

        declared = await call(session, "find_usages", target="OrdersOnly", include_declaration=True)
        assert [u["repository"] for u in declared["usages"]] == ["svc-orders"]  # several roots
        assert declared["targets"][0]["repository"] == "svc-orders"
        text = await call(session, "search_text", query="OrdersOnly")
        assert {h["repository"] for h in text["hits"]} == {"svc-orders"}  # several roots

        repos = await call(session, "list_repositories")
        rows = {r["repository"]: r for r in repos["repositories"]}
        assert set(rows) == set(REPOS)
        assert rows["svc-orders"]["path"] == str(roots["svc-orders"].resolve())
        assert rows["svc-orders"]["files"] == 6
        assert rows["svc-orders"]["symbols"] == 6
        assert rows["svc-orders"]["languages"] == {"python": 6}


async def test_a_root_removed_while_serving_is_an_error_and_the_others_answer(
    tmp_path: Path,
) -> None:
    roots = _repositories(tmp_path)
    async with _session(roots, tmp_path / "index") as session:
        shutil.rmtree(roots["shared-lib"])
        answer = await call(session, "search", query="handle", limit=30)
        assert answer["errors"] == [
            {
                "repository": "shared-lib",
                "path": str(roots["shared-lib"].resolve()),
                "reason": "the root directory is gone",
            }
        ]
        assert {i["repository"] for i in hits(answer)} == {"svc-orders", "svc-billing"}
        repos = await call(session, "list_repositories")
        readable = {r["repository"]: r["readable"] for r in repos["repositories"]}
        assert readable == {"svc-orders": True, "svc-billing": True, "shared-lib": False}


@pytest.mark.slow  # the installed symfuse command
def test_the_cli_takes_aliases_and_answers_when_one_root_is_gone(tmp_path: Path) -> None:
    roots = _repositories(tmp_path)
    named = [f"{alias}={path}" for alias, path in roots.items()]
    where = ["--index-dir", str(tmp_path / "index")]
    listing = run_symfuse(["repos", *named, *where, "-f", "json"]).stdout
    assert [r["repository"] for r in json.loads(listing)["repositories"]] == list(REPOS)

    found = run_symfuse(
        ["search", "handle", *named, *where, "--repository", "svc-*", "-f", "json",
         "--response-format", "grouped", "--limit", "4", "--aggregation-mode", "per_repo"]
    )  # fmt: skip
    groups = json.loads(found.stdout)["results_by_repo"]
    assert {a: g["count"] for a, g in groups.items()} == {"svc-orders": 2, "svc-billing": 2}

    shutil.rmtree(roots["svc-billing"])
    partial = run_symfuse(["search", "handle", *named, *where, "-f", "json"])
    assert partial.returncode == 0
    errors = [line for line in partial.stderr.splitlines() if "error" in line]
    assert errors == [
        f"symfuse: error: workspace root {roots['svc-billing'].resolve()} is not a directory"
    ]
    assert {i["repository"] for i in json.loads(partial.stdout)["items"]} == {
        "svc-orders",
        "shared-lib",
    }


async def test_reindex_adds_and_removes_repositories_while_serving(tmp_path: Path) -> None:
    roots = _repositories(tmp_path)
    serving = {alias: roots[alias] for alias in ("svc-orders", "svc-billing")}
    async with _session(serving, tmp_path / "index") as session:
        before = await call(session, "search", query="handle", limit=30)
        assert {i["repository"] for i in hits(before)} == {"svc-orders", "svc-billing"}

        added = await call(session, "reindex", add_root=f"lib={roots['shared-lib']}")
        assert set(added["roots"]) == {"svc-orders", "svc-billing", "lib"}
        after = await call(session, "search", query="SharedOnly")
        assert hits(after)[0]["repository"] == "lib"
        assert hits(after)[0]["file"] == "lib/shared/own.py"

        removed = await call(session, "reindex", remove_root="svc-billing")
        assert set(removed["roots"]) == {"svc-orders", "lib"}
        left = await call(session, "search", query="handle", limit=30)
        assert {i["repository"] for i in hits(left)} == {"svc-orders", "lib"}
        repos = await call(session, "list_repositories")
        assert [r["repository"] for r in repos["repositories"]] == ["svc-orders", "lib"]

        bad = await call_error(session, "reindex", add_root="relative/path")
        assert "add_root" in bad
        unknown = await call_error(session, "reindex", remove_root="nope")
        assert "remove_root" in unknown
        assert "list_repositories" in unknown
