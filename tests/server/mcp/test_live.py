"""Freshness and start-up: edits show up without a restart, the first index is waited for.

Also the streamable HTTP transport, driven by the SDK's HTTP client.
"""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from pathlib import Path

from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from tests.support.mcp import (
    SYMFUSE,
    Workspace,
    call,
    call_error,
    mcp_session,
    server_log,
    write,
)

FRESH_WITHIN = 1.0  # seconds from a write on disk to a search that shows it
BIG = 300  # generated files: a first index that takes a moment
# A first index that surely outlasts a 0.05 s wait plus the session's start-up, however
# fast indexing gets (300 files were once enough, until a faster build finished first).
SLOW = 3000


async def wait_for(session: ClientSession, query: str, present: bool) -> tuple[float, dict]:
    """Search until ``query``'s exact name is (or is no longer) found; seconds it took."""
    started = time.monotonic()
    while True:
        answer = await call(session, "search", query=query, detail_level="minimal")
        found = any(item["name"] == query for item in answer["items"])
        elapsed = time.monotonic() - started
        if found == present or elapsed > 10:
            return elapsed, answer
        await asyncio.sleep(0.02)


async def test_edits_on_disk_show_up_in_search_within_a_second(workspace: Workspace) -> None:
    pricing = workspace.root / "shop" / "pricing.py"
    async with mcp_session(workspace) as session:
        await call(session, "reindex")  # the first index is complete
        before = await call(session, "search", query="apply_coupon")
        assert all(item["name"] != "apply_coupon" for item in before["items"])

        write(pricing, pricing.read_text() + "\n\ndef apply_coupon(amount, code):\n    return 0\n")
        elapsed, answer = await wait_for(session, "apply_coupon", present=True)
        assert elapsed < FRESH_WITHIN, f"edit took {elapsed:.2f} s to show up"
        assert answer["items"][0]["file"] == "shop/pricing.py"

        (workspace.root / "shop" / "refunds.py").write_text("def refund_order(order):\n    ...\n")
        elapsed, _ = await wait_for(session, "refund_order", present=True)
        assert elapsed < FRESH_WITHIN, f"new file took {elapsed:.2f} s to show up"

        (workspace.root / "shop" / "payments.py").unlink()
        elapsed, _ = await wait_for(session, "CardGateway", present=False)
        assert elapsed < FRESH_WITHIN, f"deletion took {elapsed:.2f} s to show up"

        usages = await call(session, "find_usages", name="apply_coupon", include_declaration=True)
        assert [u["kind"] for u in usages["usages"]] == ["definition"]
        status = await call(session, "index_status")
        assert status["files"] == 6
        assert status["stale"] is False
        assert status["stale_files"] == []
    assert "Traceback" not in server_log(workspace)


def big_workspace(root: Path, files: int) -> None:
    """Enough generated Python to make the first index take a few seconds."""
    for i in range(files):
        package = root / f"gen{i // 100:02d}"
        package.mkdir(exist_ok=True)
        body = "\n\n".join(
            f"def function_{i}_{j}(value):\n"
            f'    """Generated function {j} of module {i}."""\n'
            f"    return helper_{i}_{j}(value) + {j}\n\n\n"
            f"class Model_{i}_{j}(Base):\n"
            f"    def method_{j}(self):\n"
            f"        return function_{i}_{j}(self)"
            for j in range(6)
        )
        (package / f"module_{i}.py").write_text(body + "\n")


async def test_tools_called_during_the_first_index_wait_then_answer(
    workspace: Workspace,
) -> None:
    big_workspace(workspace.root, BIG)
    async with mcp_session(workspace, "--ready-timeout", "120") as session:
        status = await call(session, "index_status")  # never waits
        assert status["ready"] is False
        assert status["stale"] is True
        started = time.monotonic()
        answer = await call(session, "search", query=f"function_{BIG - 1}_5")
        waited = time.monotonic() - started
        last = f"gen{(BIG - 1) // 100:02d}/module_{BIG - 1}.py::function_{BIG - 1}_5#function"
        assert answer["items"][0]["symbol_id"] == last
        assert answer["stale"] is False
        status = await call(session, "index_status")
        assert status["ready"] is True
        assert status["files"] == BIG + 6
    assert waited > 0.2  # it did wait for the index


async def test_past_the_ready_timeout_the_answer_says_to_retry(workspace: Workspace) -> None:
    big_workspace(workspace.root, SLOW)
    async with mcp_session(workspace, "--ready-timeout", "0.05") as session:
        message = await call_error(session, "search", query="function_1_1")
        assert "still being built" in message
        assert "retry" in message
        status = await call(session, "index_status")
        assert status["ready"] is False


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_streamable_http_transport(workspace: Workspace) -> None:
    port = free_port()
    args = [str(SYMFUSE), *workspace.args("--transport", "http", "--port", str(port))]
    with workspace.stderr.open("a") as errlog:
        process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=errlog)
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                assert time.monotonic() < deadline, server_log(workspace)
                assert process.poll() is None, server_log(workspace)
                await asyncio.sleep(0.1)
        async with (
            streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write_stream),
            ClientSession(read, write_stream) as session,
        ):
            await session.initialize()
            answer = await call(session, "search", query="checkout", limit=3)
            assert answer["items"][0]["symbol_id"] == "shop/service.py::checkout#function"
    finally:
        process.terminate()
        process.wait(timeout=10)
