"""Metrics and the query cache through the MCP client: ``elapsed_ms`` on every answer, the
``stats``, ``cache_stats`` and ``cache_clear`` tools, and a cache that never outlives its
index (an edit, ``cache_clear``, or ``symfuse cache clear`` from another process)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.cli import run_symfuse
from tests.support.mcp import Workspace, call, call_error, mcp_session, write

USAGES = {"name": "Order", "limit": 5}


def _same_answer(first: dict[str, Any], second: dict[str, Any]) -> bool:
    timing = {"elapsed_ms", "cache_hit", "index_age_seconds"}
    return {k: v for k, v in first.items() if k not in timing} == {
        k: v for k, v in second.items() if k not in timing
    }


async def test_a_repeated_request_is_answered_from_the_cache_until_the_index_changes(
    workspace: Workspace,
) -> None:
    async with mcp_session(workspace, watch=False, warm=False) as session:
        await call(session, "reindex")
        first = await call(session, "find_usages", **USAGES)
        again = await call(session, "find_usages", **USAGES)
        assert "cache_hit" not in first
        assert again["cache_hit"] is True
        assert _same_answer(first, again)
        assert first["elapsed_ms"] >= 0
        assert again["elapsed_ms"] >= 0

        other_format = await call(session, "find_usages", **USAGES, output_format="toon")
        assert "cache_hit" not in other_format  # how the answer is written is in the key

        models = workspace.root / "shop" / "models.py"
        write(models, models.read_text() + "\n\ndef make_order():\n    return Order('x')\n")
        await call(session, "reindex")
        after_edit = await call(session, "find_usages", **USAGES)
        assert "cache_hit" not in after_edit
        assert after_edit["total"] == first["total"] + 1

        stats = await call(session, "cache_stats")
        assert stats["cache"]["hits"] == 1
        assert stats["cache"]["entries"] == 1  # the edit dropped the older entries
        assert stats["recorded"]["hits"] == 1

        cleared = await call(session, "cache_clear")
        assert cleared["entries_dropped"] == 1
        assert "cache_hit" not in await call(session, "find_usages", **USAGES)


@pytest.mark.slow  # the installed symfuse command
async def test_symfuse_cache_clear_empties_a_running_servers_cache(workspace: Workspace) -> None:
    async with mcp_session(workspace, watch=False, warm=False) as session:
        await call(session, "reindex")
        await call(session, "find_usages", **USAGES)
        assert (await call(session, "find_usages", **USAGES))["cache_hit"] is True
        cli = ["cache", "clear", str(workspace.root), "--index-dir", str(workspace.index_dir)]
        assert "empty its query cache" in run_symfuse(cli).stdout
        assert "cache_hit" not in await call(session, "find_usages", **USAGES)


async def test_stats_reports_every_tool_with_errors_and_percentiles(workspace: Workspace) -> None:
    async with mcp_session(workspace, watch=False, warm=False) as session:
        await call(session, "reindex")
        # The first search has the ranking structures built: a new index generation.
        for query in ("item", "order", "total", "order"):
            await call(session, "search", query=query)
        await call_error(session, "find_usages", symbol_id="shop/nowhere.py::Nothing#class")
        report = await call(session, "stats")
        narrowed = await call(session, "stats", since="1h", front_end="mcp")
        none_from_lsp = await call(session, "stats", front_end="lsp")
        bad = await call_error(session, "stats", since="soon")

    rows = {row["operation"]: row for row in report["operations"]}
    assert rows["search"]["requests"] == 4
    assert rows["search"]["errors"] == 0
    assert rows["search"]["cache_hit_rate"] == 0.25
    assert 0 <= rows["search"]["p50_ms"] <= rows["search"]["p95_ms"] <= rows["search"]["p99_ms"]
    assert rows["find_usages"] == {**rows["find_usages"], "requests": 1, "errors": 1}
    assert rows["reindex"]["requests"] == 1
    assert report["index"]["size_bytes"] > 0
    assert report["index"]["age_seconds"] is not None
    assert {r["operation"] for r in narrowed["operations"]} >= {"search", "find_usages", "stats"}
    assert none_from_lsp["operations"] == []
    assert none_from_lsp["requests"] == 0
    assert "since" in bad
    assert "24h" in bad


@pytest.mark.slow  # the installed symfuse command
def test_cli_queries_are_recorded_and_stats_latency_prints_them(workspace: Workspace) -> None:
    where = [str(workspace.root), "--index-dir", str(workspace.index_dir)]
    run_symfuse(["search", "order", *where])
    run_symfuse(["usages", "Order", "--root", str(workspace.root), "--index-dir", *where[2:]])
    failed = run_symfuse(["get", "shop/nowhere.py", "--root", *where], check=False)
    assert failed.returncode == 1

    table = run_symfuse(["stats", "--latency", *where]).stdout
    assert table.splitlines()[0].split()[:3] == ["OPERATION", "REQUESTS", "ERRORS"]
    rows = {line.split()[0]: line.split() for line in table.splitlines()[1:-1]}
    assert set(rows) == {"search", "usages", "get"}
    assert rows["get"][1:3] == ["1", "1"]  # one request, one error
    assert "3 requests, 1 errors" in table

    only_lsp = run_symfuse(["stats", "--latency", "--front-end", "lsp", "-f", "json", *where])
    assert '"requests": 0' in only_lsp.stdout
    recorded = run_symfuse(["cache", "stats", *where]).stdout
    assert "0 cache hits in 3 recorded queries" in recorded
