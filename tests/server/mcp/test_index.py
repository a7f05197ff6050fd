"""index_status and reindex end to end: the installed ``symfuse mcp`` over stdio, so the
command line's root and --index-dir are what the status reports."""

from __future__ import annotations

import pytest

from tests.support.mcp import Workspace, call, mcp_stdio_session

pytestmark = pytest.mark.slow  # symfuse mcp over stdio


async def test_index_status_reports_roots_languages_and_channels(workspace: Workspace) -> None:
    async with mcp_stdio_session(workspace) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        status = tools["index_status"]
        assert status.annotations is not None
        assert status.annotations.read_only_hint is True
        assert status.output_schema is not None
        assert "stale" in status.output_schema["properties"]

        await call(session, "reindex")  # waits for the first index
        data = await call(session, "index_status")
    assert data["roots"] == {"ws": str(workspace.root.resolve())}
    assert data["ready"] is True
    languages = {row["language"]: row for row in data["languages"]}
    assert set(languages) == {"java", "markdown", "python"}
    assert languages["python"]["files"] == 5
    assert data["files"] == 7  # six source files and README.md
    assert data["symbols"] == sum(row["symbols"] for row in data["languages"])
    assert data["updated_at"] is not None
    assert data["stale"] is False
    assert data["stale_files"] == []
    assert data["channels"]["lexical"] is True
    assert data["index_dir"] == str(workspace.index_dir)
