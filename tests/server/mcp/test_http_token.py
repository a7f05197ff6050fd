"""``symfuse mcp --transport http --token-file PATH`` through real HTTP clients: the SDK's
streamable HTTP client with the token gets answers; a request without the token, or with
another one, gets 401 (issue 38, item 4)."""

from __future__ import annotations

import subprocess
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx2
import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from symfuse.server.mcp.http import TOKEN_VARIABLE
from tests.support.mcp import (
    HEADERS,
    INITIALIZE,
    READ_TIMEOUT,
    SYMFUSE,
    Workspace,
    call,
    mcp_http_server,
)

pytestmark = pytest.mark.slow  # symfuse mcp over HTTP, in its own process

TOKEN = "a-token-chosen-by-the-user-0123456789"


@pytest.fixture
def token_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    path = tmp_path / "mcp-token"
    path.write_text(TOKEN + "\n", encoding="utf-8")
    return path


@asynccontextmanager
async def session(url: str, token: str) -> AsyncIterator[ClientSession]:
    """A ready SDK client session that sends ``Authorization: Bearer <token>``."""
    headers = {"authorization": f"Bearer {token}"}
    async with (
        httpx2.AsyncClient(headers=headers, timeout=READ_TIMEOUT) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write, read_timeout_seconds=READ_TIMEOUT) as opened,
    ):
        await opened.initialize()
        yield opened


async def test_the_token_from_the_file_is_accepted(workspace: Workspace, token_file: Path) -> None:
    async with (
        mcp_http_server(workspace, "--token-file", str(token_file)) as server,
        session(server.url, TOKEN) as client,
    ):
        answer = await call(client, "search", query="checkout", limit=3)
    assert answer["items"][0]["symbol_id"] == "shop/service.py::checkout#function"


async def test_a_request_without_the_token_or_with_another_is_refused(
    workspace: Workspace, token_file: Path
) -> None:
    async with (
        mcp_http_server(workspace, "--token-file", str(token_file)) as server,
        httpx2.AsyncClient(timeout=READ_TIMEOUT) as http,
    ):
        missing = await http.post(server.url, json=INITIALIZE, headers=HEADERS)
        wrong = await http.post(
            server.url, json=INITIALIZE, headers={**HEADERS, "authorization": "Bearer nope"}
        )
        not_bearer = await http.post(
            server.url, json=INITIALIZE, headers={**HEADERS, "authorization": TOKEN}
        )
        right = await http.post(
            server.url, json=INITIALIZE, headers={**HEADERS, "authorization": f"Bearer {TOKEN}"}
        )
    assert [missing.status_code, wrong.status_code, not_bearer.status_code] == [401, 401, 401]
    assert missing.headers["www-authenticate"].startswith("Bearer")
    assert right.status_code == 200


async def test_an_unreadable_token_file_stops_the_server_with_one_line(
    workspace: Workspace, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such-token"
    serve = ("--transport", "http", "--port", "1", "--token-file", str(missing))
    done = subprocess.run(
        [str(SYMFUSE), *workspace.args(*serve)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 1
    assert (
        done.stderr.strip()
        .splitlines()[-1]
        .endswith(f"--token-file {missing}: cannot be read (No such file or directory)")
    )
