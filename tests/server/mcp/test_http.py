"""The HTTP transport's guard: DNS-rebinding protection on every bind, a bearer token
beyond loopback, and a bound on open sessions, on the ASGI app ``symfuse mcp --transport
http`` serves (no socket)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from starlette.testclient import TestClient

from symfuse.server.mcp.http import (
    TOKEN_VARIABLE,
    SessionLimits,
    guard_for,
    guarded_app,
    http_app,
    is_loopback,
)
from symfuse.server.mcp.server import MCPOptions, build_mcp_server
from tests.support.mcp import HEADERS, INITIALIZE, Workspace

PORT = 8765


@pytest.fixture
def no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)


@contextmanager
def client(workspace: Workspace, host: str) -> Iterator[tuple[TestClient, str | None]]:
    guard = guard_for(host, PORT, ["symfuse.internal"])
    server = build_mcp_server(workspace.config(), MCPOptions(watch=False))
    app = server.streamable_http_app(transport_security=guard.security, host=host)
    with TestClient(guarded_app(app, guard), base_url=f"http://127.0.0.1:{PORT}") as http:
        yield http, guard.token


def post(http: TestClient, host: str, token: str | None = None) -> Any:
    headers = {**HEADERS, "host": host}
    if token is not None:
        headers["authorization"] = f"Bearer {token}"
    return http.post("/mcp", json=INITIALIZE, headers=headers)


def test_loopback_needs_no_token_but_refuses_foreign_hosts(
    workspace: Workspace, no_token: None
) -> None:
    assert is_loopback("127.0.0.1")
    assert is_loopback("::1")
    assert not is_loopback("0.0.0.0")
    with client(workspace, "127.0.0.1") as (http, token):
        assert token is None
        assert post(http, f"127.0.0.1:{PORT}").status_code == 200
        assert post(http, f"localhost:{PORT}").status_code == 200
        assert post(http, "symfuse.internal").status_code == 200  # --allowed-host
        # A page on a foreign site whose name resolves here (DNS rebinding).
        assert post(http, "attacker.example").status_code == 421


def test_beyond_loopback_a_bearer_token_is_required(workspace: Workspace, no_token: None) -> None:
    with client(workspace, "0.0.0.0") as (http, token):
        assert token is not None
        assert len(token) >= 32  # generated, printed to stderr at start-up
        refused = post(http, f"127.0.0.1:{PORT}")
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")
        assert post(http, f"127.0.0.1:{PORT}", "wrong").status_code == 401
        assert post(http, f"127.0.0.1:{PORT}", token).status_code == 200
        assert post(http, "attacker.example", token).status_code == 421


def test_a_token_from_the_environment_is_required_on_loopback_too(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, "s3cret-token-from-the-environment")
    with client(workspace, "127.0.0.1") as (http, token):
        assert token == "s3cret-token-from-the-environment"
        assert post(http, f"127.0.0.1:{PORT}").status_code == 401
        assert post(http, f"127.0.0.1:{PORT}", token).status_code == 200


def test_open_sessions_are_bounded(workspace: Workspace, no_token: None) -> None:
    """At the bound a new session is refused (503) until one ends; the open ones go on."""
    guard = guard_for("127.0.0.1", PORT)
    server = build_mcp_server(workspace.config(), MCPOptions(watch=False))
    app = http_app(server, guard, "127.0.0.1", SessionLimits(most=3))
    host = f"127.0.0.1:{PORT}"
    with TestClient(app, base_url=f"http://{host}") as http:
        opened = [post(http, host) for _ in range(3)]
        assert [answer.status_code for answer in opened] == [200, 200, 200]
        assert post(http, host).status_code == 503
        ids = [answer.headers["mcp-session-id"] for answer in opened]
        assert len(set(ids)) == 3
        ended = http.delete("/mcp", headers={**HEADERS, "host": host, "mcp-session-id": ids[0]})
        assert ended.status_code == 200
        assert post(http, host).status_code == 200  # room again
        still = {**HEADERS, "host": host, "mcp-session-id": ids[1]}
        ping = {"jsonrpc": "2.0", "id": 2, "method": "ping"}
        assert http.post("/mcp", json=ping, headers=still).status_code == 200
