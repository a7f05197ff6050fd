"""Receiver types in Python through the MCP client (issue 36, item 2): find_usages of
`Client.get` and `AsyncClient.send` on the httpx-like fixture hold no `dict.get` and
no generator's `.send()`, guesses included."""

from __future__ import annotations

from pathlib import Path

from tests.support.mcp import call, fixture_workspace, mcp_session


async def test_find_usages_follows_the_receivers_type(tmp_path: Path) -> None:
    ws = fixture_workspace(tmp_path, "usages_truth/python")
    async with mcp_session(ws) as session:
        get = await call(session, "find_usages", target="Client.get", min_confidence=0)
        send = await call(session, "find_usages", target="AsyncClient.send", min_confidence=0)
    assert sorted((u["file"], u["line"]) for u in get["usages"]) == [
        ("app/service.py", 7),
        ("app/service.py", 32),
        ("tests/test_client.py", 11),
    ]
    assert {u["resolution"] for u in get["usages"]} == {"type"}
    assert sorted((u["file"], u["line"]) for u in send["usages"]) == [
        ("app/service.py", 23),
        ("minihttp/_client.py", 29),
    ]
