"""Helpers for the MCP end-to-end tests: a copied fixture workspace and a live session.

Every test runs the installed ``symfuse mcp`` as a subprocess over stdio and
talks to it with the SDK's ``ClientSession``. The fixture workspace is copied
to a temporary directory and the index lives in another one, never in the
user's cache.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import CallToolResult, TextContent

from tests.support.paths import FIXTURES

FIXTURE = FIXTURES / "mcp_workspace"
SYMFUSE = Path(sys.executable).with_name("symfuse")


@dataclass
class Workspace:
    root: Path
    index_dir: Path
    home: Path
    stderr: Path

    def args(self, *extra: str) -> list[str]:
        return ["mcp", str(self.root), "--index-dir", str(self.index_dir), *extra]


def copy_workspace(tmp_path: Path) -> Workspace:
    """A copy of tests/fixtures/mcp_workspace, an empty home and an index dir under tmp_path."""
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    home = tmp_path / "home"
    home.mkdir()
    return Workspace(root, tmp_path / "index", home, tmp_path / "server-stderr.log")


@asynccontextmanager
async def mcp_session(ws: Workspace, *extra: str) -> AsyncIterator[ClientSession]:
    """A ready client session against ``symfuse mcp`` serving ``ws``."""
    env = {
        "HOME": str(ws.home),
        "XDG_CACHE_HOME": str(ws.home / ".cache"),
        "PYTHONWARNINGS": "error",
    }
    params = StdioServerParameters(command=str(SYMFUSE), args=ws.args(*extra), env=env)
    with ws.stderr.open("a") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=60) as session,
        ):
            await session.initialize()
            yield session


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


def server_log(ws: Workspace) -> str:
    return ws.stderr.read_text() if ws.stderr.exists() else ""


def write(path: Path, text: str) -> None:
    """Write a file and move its mtime forward, so size+mtime checks see a change."""
    path.write_text(text)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
