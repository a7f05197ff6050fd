"""Slow work never holds up quick work over HTTP: with more slow regex scans in flight
from one session than there are threads for them, another session's searches are
answered before any scan ends (issue 38, item 4). Tools run in bounded thread pools by
lane (:mod:`symfuse.server.mcp.pools`); in one shared pool the waiting scans took every
thread and the searches queued behind them."""

from __future__ import annotations

import anyio
import pytest
from mcp import ClientSession

from symfuse.server.mcp.pools import SCAN_THREADS
from symfuse.server.mcp.server import TEXT_SCANS
from tests.server.mcp.test_http_sessions import SLOW_LINES, SLOW_PATTERN, regex_worker_started
from tests.support.mcp import Workspace, call, mcp_http_server, mcp_http_session

pytestmark = pytest.mark.slow  # symfuse mcp over HTTP, in its own process

# More than the 40 threads of the SDK's shared pool, where each waiting scan held one.
SCANS = 45


async def test_searches_are_answered_while_scans_fill_their_pool(workspace: Workspace) -> None:
    assert SCANS > SCAN_THREADS + TEXT_SCANS
    (workspace.root / "slow.txt").write_text(SLOW_LINES, encoding="utf-8")
    finished: list[str] = []
    async with mcp_http_server(workspace) as server, mcp_http_session(server.url) as searcher:
        await call(searcher, "search", query="checkout", limit=3)  # the index is ready

        async def scan(scanner: ClientSession) -> None:
            arguments = {"pattern": SLOW_PATTERN, "regex": True, "timeout": 30}
            await scanner.call_tool("search_text", arguments)
            finished.append("scan")

        async with (
            mcp_http_session(server.url) as scanner,
            anyio.create_task_group() as group,
        ):
            for _ in range(SCANS):
                group.start_soon(scan, scanner)
            await regex_worker_started(server.process.pid)  # a scan runs
            for query in ("checkout", "PaymentGateway", "compute total"):
                answer = await call(searcher, "search", query=query, limit=3)
                assert answer["items"], query
                finished.append("search")
            assert finished == ["search"] * 3  # before any scan ended
            group.cancel_scope.cancel()
