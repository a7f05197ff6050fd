"""Many clients at once over streamable HTTP on 127.0.0.1, with the SDK's HTTP client:
every session is answered, and a slow text scan in one session holds up no other's
search (issue 15 item 5)."""

from __future__ import annotations

import signal

import anyio
import pytest

from tests.support.mcp import Workspace, call, mcp_http_server, mcp_http_session
from tests.support.processes import children, command_line, ended

pytestmark = pytest.mark.slow  # symfuse mcp over HTTP, in its own process

SESSIONS = 10
CALLS = 4
SAFETY = 30.0  # seconds: only turns a hang into a failure
# Risky (a backreference: only a backtracking engine runs it), so scanned in a worker; on
# SLOW_LINES, endless. Each line holds the pattern's literal "z" (a file without it is
# skipped), before the a's: a match fails only after trying every split of the a's.
SLOW_PATTERN = r"(a.*)\1z"
SLOW_LINES = ("z" + "a" * 1998 + "\n") * 50


async def test_concurrent_sessions_are_all_answered(workspace: Workspace) -> None:
    answers: dict[tuple[int, int], str] = {}

    async def one_session(url: str, n: int) -> None:
        async with mcp_http_session(url) as session:
            for k in range(CALLS):
                answer = await call(session, "search", query="checkout", limit=3)
                answers[n, k] = answer["items"][0]["symbol_id"]

    async with mcp_http_server(workspace) as server, anyio.create_task_group() as group:
        for n in range(SESSIONS):
            group.start_soon(one_session, server.url, n)
    assert len(answers) == SESSIONS * CALLS
    assert set(answers.values()) == {"shop/service.py::checkout#function"}


async def test_a_slow_regex_in_one_session_does_not_hold_up_another(
    workspace: Workspace,
) -> None:
    """... and a server stopped during the scan leaves at once, its worker with it."""
    (workspace.root / "slow.txt").write_text(SLOW_LINES, encoding="utf-8")
    async with mcp_http_server(workspace) as server, mcp_http_session(server.url) as searcher:
        await call(searcher, "search", query="checkout", limit=3)  # the index is ready
        regex_done = anyio.Event()

        async def slow_scan() -> None:
            async with mcp_http_session(server.url) as scanner:
                arguments = {"pattern": SLOW_PATTERN, "regex": True, "timeout": 30}
                await scanner.call_tool("search_text", arguments)
            regex_done.set()

        async with anyio.create_task_group() as group:
            group.start_soon(slow_scan)
            worker = await regex_worker_started(server.process.pid)
            for query in ("checkout", "PaymentGateway", "compute total"):
                answer = await call(searcher, "search", query=query, limit=3)
                assert answer["items"], query
            # Answered while the scan still runs: no lock or pool held them back.
            assert not regex_done.is_set()
            group.cancel_scope.cancel()  # the client gives up; the server's scan runs on
        # SIGTERM now: the server leaves without waiting for the scan's budget (30 s).
        assert worker in children(server.process.pid)
        server.process.terminate()
        code = await anyio.to_thread.run_sync(server.process.wait, SAFETY / 3)
        assert code == 128 + signal.SIGTERM
        assert await anyio.to_thread.run_sync(ended, worker), "the regex worker outlived it"


async def regex_worker_started(server_pid: int) -> int:
    """The server's regex worker process, once it runs one (the scan has begun)."""
    with anyio.fail_after(SAFETY):
        while True:
            found = [pid for pid in children(server_pid) if "regex_scan" in command_line(pid)]
            if found:
                return found[0]
            await anyio.sleep(0.02)
