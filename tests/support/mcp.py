"""Clients for the MCP tests: a copied fixture workspace and a live ``ClientSession``.

Two ways to reach the same server, both through the SDK's ``ClientSession``:

- ``mcp_session`` builds the server in-process with ``build_mcp_server`` and talks
  to it over the SDK's in-memory transport (``mcp.Client`` in legacy mode: the
  initialize handshake and JSON-RPC messages, as over stdio, without a process);
- ``mcp_stdio_session`` runs the installed ``symfuse mcp`` as a subprocess over
  stdio, for the end-to-end tests of the real entry point.

The fixture workspace is copied to a temporary directory and the index lives in
another one, never in the user's cache. What the server logs goes to
``Workspace.stderr`` either way (the subprocess's stderr, or a log handler).
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, TextContent

from symfuse.indexer.config import IndexConfig
from symfuse.server.common.present import DEFAULT_MAX_TOKENS
from symfuse.server.common.service import IndexService
from symfuse.server.mcp.server import MCPOptions, build_mcp_server
from tests.support.paths import FIXTURES

FIXTURE = FIXTURES / "mcp_workspace"
SYMFUSE = Path(sys.executable).with_name("symfuse")
READ_TIMEOUT = 60  # seconds: only turns a hung server into a failure
# A raw MCP initialize request over HTTP, and the headers streamable HTTP asks for.
INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


@dataclass
class Workspace:
    root: Path
    index_dir: Path
    home: Path
    stderr: Path

    def args(self, *extra: str) -> list[str]:
        return ["mcp", str(self.root), "--index-dir", str(self.index_dir), *extra]

    def config(self) -> IndexConfig:
        """The IndexConfig ``symfuse mcp ROOT --index-dir DIR`` builds."""
        return IndexConfig(roots=(self.root.resolve(),), index_dir=self.index_dir, progress=False)

    def service(self) -> IndexService:
        """The index service an in-process server runs on, for a test to wait on."""
        return IndexService(self.config())


def fixture_workspace(tmp_path: Path, name: str) -> Workspace:
    """A copy of tests/fixtures/``name``, an empty home and an index dir under tmp_path."""
    root = shutil.copytree(FIXTURES / name, tmp_path / "ws")
    home = tmp_path / "home"
    home.mkdir()
    return Workspace(root, tmp_path / "index", home, tmp_path / "server-stderr.log")


def copy_workspace(tmp_path: Path) -> Workspace:
    """A copy of tests/fixtures/mcp_workspace, an empty home and an index dir under tmp_path."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    home = tmp_path / "home"
    home.mkdir()
    return Workspace(root, tmp_path / "index", home, tmp_path / "server-stderr.log")


@asynccontextmanager
async def mcp_session(
    ws: Workspace,
    *,
    ready_timeout: float = 20.0,
    watch: bool = True,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    service: IndexService | None = None,
    warm: bool = True,
    history: bool = False,
    tools: str = "all",
) -> AsyncIterator[ClientSession]:
    """A ready client session against an in-process server for ``ws`` (the CLI's defaults);
    ``service``, one from :meth:`Workspace.service`, to wait on its changes; ``warm=False``
    builds ranking structures only when a search asks (the index changes only on edits);
    ``history``: as ``--history`` (the history tools wait for its build); ``tools``: as
    ``--tools`` (every tool unless a test asks for the default set)."""
    options = MCPOptions(
        ready_timeout=ready_timeout,
        watch=watch,
        default_max_tokens=max_tokens,
        warm=warm,
        history=history,
        tools=tools,
    )
    server = build_mcp_server(ws.config(), options, service=service)
    with _server_log(ws.stderr):
        async with Client(server, mode="legacy", read_timeout_seconds=READ_TIMEOUT) as client:
            yield client.session


@asynccontextmanager
async def mcp_stdio_session(
    ws: Workspace, *extra: str, env: dict[str, str] | None = None, tools: str | None = "all"
) -> AsyncIterator[ClientSession]:
    """A ready client session against ``symfuse mcp`` serving ``ws`` over stdio
    (``env``: more environment variables for the server; ``tools``: its ``--tools``,
    every tool unless a test asks for another set, None for none given)."""
    if tools is not None:
        extra = ("--tools", tools, *extra)
    env = {
        "HOME": str(ws.home),
        "XDG_CACHE_HOME": str(ws.home / ".cache"),
        "PYTHONWARNINGS": "error",
        "SYMFUSE_SEMANTIC_MODEL": "off",  # as without the extra, unless ``env`` names one
        **(env or {}),
    }
    params = StdioServerParameters(command=str(SYMFUSE), args=ws.args(*extra), env=env)
    with ws.stderr.open("a") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=READ_TIMEOUT) as session,
        ):
            await session.initialize()
            yield session


@dataclass(frozen=True, slots=True)
class HttpServer:
    process: subprocess.Popen[bytes]
    url: str  # its MCP endpoint


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@asynccontextmanager
async def mcp_http_server(ws: Workspace, *extra: str) -> AsyncIterator[HttpServer]:
    """``symfuse mcp --transport http --tools all`` serving ``ws`` on a free port of
    127.0.0.1, once it accepts connections; terminated when the block ends."""
    port = free_port()
    serve = ("--transport", "http", "--port", str(port), "--tools", "all", *extra)
    args = [str(SYMFUSE), *ws.args(*serve)]
    with ws.stderr.open("a") as errlog:
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=errlog)
    try:
        # The server says nothing when it listens: try to connect until it does (or dies).
        with anyio.fail_after(READ_TIMEOUT):
            while True:
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=1).close()
                    break
                except OSError:
                    assert process.poll() is None, server_log(ws)
                    await anyio.sleep(0.05)
        yield HttpServer(process, f"http://127.0.0.1:{port}/mcp")
    finally:
        process.terminate()
        process.wait(timeout=READ_TIMEOUT)


@asynccontextmanager
async def mcp_http_session(url: str) -> AsyncIterator[ClientSession]:
    """A ready client session over streamable HTTP (the SDK's client) to ``url``."""
    async with (
        streamable_http_client(url) as (read, write_stream),
        ClientSession(read, write_stream, read_timeout_seconds=READ_TIMEOUT) as session,
    ):
        await session.initialize()
        yield session


@contextmanager
def _server_log(path: Path) -> Iterator[None]:
    """Write what the in-process server logs (warnings and up, with tracebacks) to ``path``,
    as ``symfuse mcp`` writes it to stderr."""
    handler = logging.FileHandler(path, encoding="utf-8")
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("symfuse: %(levelname)s: %(name)s: %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        yield
    finally:
        root.removeHandler(handler)
        handler.close()


def text_of(result: CallToolResult) -> str:
    parts = [c.text for c in result.content if isinstance(c, TextContent)]
    assert parts, result
    return "\n".join(parts)


async def call(session: ClientSession, tool: str, **arguments: Any) -> dict[str, Any]:
    """Call a tool that must succeed; its structured content (which the text mirrors)."""
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    assert not result.is_error, text_of(result)
    data = result.structured_content
    assert isinstance(data, dict)
    if arguments.get("output_format", "json") == "json":
        assert json.loads(text_of(result)) == data
    return data


async def call_error(session: ClientSession, tool: str, **arguments: Any) -> str:
    """Call a tool that must fail with a tool error; the message the model reads."""
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    assert result.is_error, f"expected an error from {tool}, got {text_of(result)[:300]}"
    return text_of(result)


def hits(answer: dict[str, Any], key: str = "items") -> list[dict[str, Any]]:
    """``answer``'s rows with the file, name and kind their symbol_id says
    (``path::Qualified.name#kind``): a search row leaves them out unless detail_level is
    full, and a test reads them by name."""
    rows: list[dict[str, Any]] = []
    for row in answer.get(key) or []:
        if "symbol_id" in row:
            path, _, rest = row["symbol_id"].partition("::")
            qualified, _, kind = rest.rpartition("#")
            said = {"file": path, "name": qualified.rsplit(".", 1)[-1], "kind": kind}
            rows.append({**said, **row})
        else:
            rows.append(row)
    return rows


def dead_rows(answer: dict[str, Any]) -> list[dict[str, Any]]:
    """A dead_code answer's rows, each with its group's confidence and reason."""
    return [
        {"confidence": g["confidence"], "reason": g["reason"], **row}
        for g in answer["groups"]
        for row in g["items"]
    ]


def server_log(ws: Workspace) -> str:
    return ws.stderr.read_text() if ws.stderr.exists() else ""


def write(path: Path, text: str) -> None:
    """Write a file and move its mtime forward, so size+mtime checks see a change."""
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
