"""Freshness and start-up: edits show up without a restart, the first index is waited for.

Also the streamable HTTP transport, driven by the SDK's HTTP client.
"""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import ClientSession

from symfuse.server.common.service import IndexService
from tests.support.index import index_writer_busy
from tests.support.mcp import (
    SYMFUSE,
    Workspace,
    call,
    call_error,
    hits,
    mcp_http_server,
    mcp_http_session,
    mcp_session,
    server_log,
    write,
)
from tests.support.processes import ended, group_members

BIG = 40  # generated files on top of the fixture, the last one searched for
SAFETY = 30.0  # seconds: only turns a change that never shows up into a failure


async def wait_for(
    session: ClientSession, service: IndexService, query: str, present: bool
) -> dict[str, Any]:
    """Search until ``query``'s exact name is (or is no longer) found; the last answer.

    The watcher re-indexes in the background and the server sends no notification
    when it is done, so between searches this waits for the next change of the
    server's index service (bounded only so that "never" fails).
    """
    with anyio.fail_after(SAFETY):
        while True:
            seen = service.version
            answer = await call(session, "search", query=query, detail_level="minimal")
            if any(item["name"] == query for item in hits(answer)) == present:
                return answer
            await anyio.to_thread.run_sync(service.wait_change, seen, SAFETY)


async def built(service: IndexService) -> None:
    """Wait on the service's changes until its index has ranking structures."""
    with anyio.fail_after(SAFETY):
        while service.prepared_for(service.current()) is None:
            await anyio.to_thread.run_sync(service.wait_change, service.version, SAFETY)


async def test_edits_on_disk_show_up_in_search_without_a_restart(workspace: Workspace) -> None:
    pricing = workspace.root / "shop" / "pricing.py"
    service = workspace.service()
    async with mcp_session(workspace, service=service) as session:
        await call(session, "reindex")  # the first index is complete
        before = await call(session, "search", query="apply_coupon")
        assert all(item["name"] != "apply_coupon" for item in hits(before))

        write(pricing, pricing.read_text() + "\n\ndef apply_coupon(amount, code):\n    return 0\n")
        answer = await wait_for(session, service, "apply_coupon", present=True)
        assert hits(answer)[0]["file"] == "shop/pricing.py"

        (workspace.root / "shop" / "refunds.py").write_text("def refund_order(order):\n    ...\n")
        await wait_for(session, service, "refund_order", present=True)

        (workspace.root / "shop" / "payments.py").unlink()
        await wait_for(session, service, "CardGateway", present=False)

        usages = await call(session, "find_usages", name="apply_coupon", include_declaration=True)
        assert [u["kind"] for u in usages["usages"]] == ["definition"]
        status = await call(session, "index_status")
        assert status["files"] == 7  # six source files and README.md
        assert status["stale"] is False
        assert status["stale_files"] == []
    assert "Traceback" not in server_log(workspace)


async def test_a_slow_reader_blocks_no_other_tool(workspace: Workspace) -> None:
    """Reads hold no lock: while one reader keeps the index (as a long regex scan or a
    slow agent's call would), every tool still answers, and a change still lands."""
    service = workspace.service()
    async with mcp_session(workspace, service=service) as session:
        await call(session, "reindex")  # the first index is complete
        with service.live.reading():
            answer = await call(session, "search", query="checkout", limit=3)
            assert hits(answer)[0]["name"] == "checkout"
            usages = await call(session, "find_usages", name="compute_total")
            assert usages["total"] >= 1
            pricing = workspace.root / "shop" / "pricing.py"
            write(pricing, pricing.read_text() + "\n\ndef added_while_read(x):\n    return x\n")
            await wait_for(session, service, "added_while_read", present=True)


def generated_workspace(root: Path, files: int) -> None:
    """Generated Python modules next to the fixture's (the last one is searched for)."""
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
    generated_workspace(workspace.root, BIG)
    last = f"gen{(BIG - 1) // 100:02d}/module_{BIG - 1}.py::function_{BIG - 1}_5#function"
    answers: list[dict[str, Any]] = []
    # Held from before the server starts, the lock keeps the first index from finishing.
    with index_writer_busy(workspace.index_dir) as release:
        async with mcp_session(workspace, ready_timeout=120) as session:

            async def search_last() -> None:
                answers.append(await call(session, "search", query=f"function_{BIG - 1}_5"))

            async with anyio.create_task_group() as tg:
                status = await call(session, "index_status")  # never waits
                assert status["ready"] is False
                assert status["stale"] is True
                tg.start_soon(search_last)
                # Sent after the search on the same stream: answered while the search waits.
                status = await call(session, "index_status")
                assert status["ready"] is False
                assert answers == []
                release()  # the first index completes and the waiting search answers
            [answer] = answers
            assert hits(answer)[0]["symbol_id"] == last
            assert answer["stale"] is False  # it did wait for the whole index
            status = await call(session, "index_status")
            assert status["ready"] is True
            assert status["files"] == BIG + 7


async def test_past_the_ready_timeout_the_answer_says_to_retry(workspace: Workspace) -> None:
    with index_writer_busy(workspace.index_dir) as release:
        async with mcp_session(workspace, ready_timeout=0.05) as session:
            message = await call_error(session, "search", query="function_1_1")
            assert "still being built" in message
            assert "retry" in message
            status = await call(session, "index_status")
            assert status["ready"] is False
            release()  # the first index may finish before the server stops


@pytest.mark.slow  # symfuse mcp over HTTP
async def test_streamable_http_transport(workspace: Workspace) -> None:
    async with mcp_http_server(workspace) as server, mcp_http_session(server.url) as session:
        answer = await call(session, "search", query="checkout", limit=3)
        assert hits(answer)[0]["symbol_id"] == "shop/service.py::checkout#function"


@pytest.mark.slow  # symfuse mcp and its parser processes
@pytest.mark.parametrize("how", ["stdin closed", "SIGTERM"])
def test_a_stopped_server_leaves_no_process_behind(tmp_path: Path, how: str) -> None:
    """Stopped during its first index (parser processes at work), ``symfuse mcp`` exits
    and takes every process it started with it."""
    root = tmp_path / "ws"
    root.mkdir()
    generated_workspace(root, 300)  # past the parser pool's threshold
    args = [str(SYMFUSE), "mcp", str(root), "--index-dir", str(tmp_path / "index")]
    process = subprocess.Popen(
        args,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group: what is left of it can be found
    )
    assert process.stdin is not None
    if how == "SIGTERM":
        process.send_signal(signal.SIGTERM)
    else:
        process.stdin.close()
    process.wait(timeout=SAFETY)
    process.stdin.close()
    # Helpers that watch the server (the fork server, the resource tracker) end when it
    # does: wait for each to exit, however late.
    for pid in group_members(process.pid):
        assert ended(pid), f"process {pid} of the server's group outlived it"


async def test_a_cold_start_answers_a_name_by_names_until_the_structures_are_built(
    workspace: Workspace,
) -> None:
    # names_first=0: this small workspace is treated as a large one; quiet: only a query
    # starts the build of the ranking structures
    service = IndexService(workspace.config(), quiet=3600.0, names_first=0)
    async with mcp_session(workspace, service=service) as session:
        early = await call(session, "search", query="GiftOrder")
        assert early["names_only"] is True
        assert early["hint"].startswith("partial: ranked by names alone")
        assert hits(early)[0]["name"] == "GiftOrder"
        await built(service)  # the first answer let the build start
        prose = await call(session, "search", query="apply a discount to an amount")
        assert "names_only" not in prose
        assert "hint" not in prose
        assert hits(prose)[0]["name"] == "apply_discount"
        fused = await call(session, "search", query="GiftOrder")
        assert "names_only" not in fused  # not the cached names-only answer
        assert hits(fused)[0]["symbol_id"] == hits(early)[0]["symbol_id"]


async def test_a_cold_start_answers_a_sentence_by_names_and_who_calls_in_full(
    workspace: Workspace,
) -> None:
    service = IndexService(workspace.config(), quiet=3600.0, names_first=0)
    async with mcp_session(workspace, service=service) as session:
        early = await call(session, "search", query="apply a discount to an amount")
        assert early["names_only"] is True  # from the words of names and paths
        assert hits(early)[0]["name"] == "apply_discount"
        callers = await call(session, "search", query="who calls checkout")
        assert "names_only" not in callers  # the call graph needs no ranking structures
        assert [row["name"] for row in hits(callers)] == ["checkout_all"]
        await built(service)
        again = await call(session, "search", query="who calls checkout", limit=20)
        assert hits(again) == hits(callers)
