"""File units, regions and ``group_by: file`` through the MCP client (issue 35), on
tests/fixtures/file_units: a file with no definition is a search hit of kind file, and a
grouped answer comes file by file; on tests/fixtures/regions: a route table beside a
function is a hit of kind region."""

from __future__ import annotations

from pathlib import Path

from tests.support.mcp import Workspace, call, fixture_workspace, hits, mcp_session


def units_workspace(tmp_path: Path) -> Workspace:
    return fixture_workspace(tmp_path, "file_units")


async def test_search_answers_with_a_file_and_groups_by_file(tmp_path: Path) -> None:
    async with mcp_session(units_workspace(tmp_path), tools="default") as session:
        prose = await call(
            session, "search", query="which middleware compresses responses and keeps the session"
        )
        grouped = await call(
            session, "search", query="order paid", options={"group_by": "file"}, limit=2
        )
        flat = await call(session, "search", query="order paid", limit=30)
    (found,) = [row for row in hits(prose) if row["file"] == "server/middleware.js"]
    assert found["kind"] == "file"  # the file has no definition: the file is the answer
    assert found["symbol_id"] == "server/middleware.js::middleware.js#file"
    assert found["line"] == 1
    assert "items" not in grouped
    files = [entry["file"] for entry in grouped["files"]]
    in_order = list(dict.fromkeys(row["file"] for row in hits(flat)))
    assert files == in_order[:2]
    assert grouped["total"] == len(in_order)
    for entry in grouped["files"]:
        assert 1 <= len(entry["items"]) <= 3
        assert all(row["symbol_id"].startswith(entry["file"] + "::") for row in entry["items"])


async def test_search_answers_with_a_region_of_code_outside_definitions(tmp_path: Path) -> None:
    async with mcp_session(fixture_workspace(tmp_path, "regions"), tools="default") as session:
        prose = await call(session, "search", query="mail the daily sales report from cron")
        listed = await call(session, "search", query="routes", options={"kind": "region"})
        used = await call(session, "find_usages", target="requireLogin")
    first = hits(prose)[0]
    assert (first["kind"], first["file"], first["line"]) == ("region", "shop/nightly.py", 13)
    assert first["symbol_id"] == "shop/nightly.py::13-17#region"
    assert [row["symbol_id"] for row in hits(listed)] == ["server/routes.js::14-18#region"]
    # the route table that passes requireLogin is where it is used from
    assert [(u["line"], u["enclosing"]) for u in used["usages"]] == [
        (16, "server/routes.js::14-18#region"),
        (17, "server/routes.js::14-18#region"),
    ]
