"""The first answers of a server (issue 39, item 1): on a workspace it has never indexed,
the right definition of a name at once; once the service has answered one query of each
ranked shape ahead, a client's first query of those shapes builds nothing (call questions
and usages build their own tables on first use: the largest, resident)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from symfuse.indexer.update.early import EARLY, HOLD
from symfuse.indexer.update.first_index import SMALL_SOURCE
from symfuse.server.common import turns as turns_module
from symfuse.server.common.service import IndexService
from symfuse.server.mcp.tools.search import NAMES_ONLY
from tests.support.lazy import lazy_tables
from tests.support.mcp import Workspace, call, hits, mcp_session, mcp_stdio_session, server_log

SAFETY = 30.0  # seconds: only turns a change that never comes into a failure


async def warmed(service: IndexService) -> None:
    """Wait on the service's changes until it reports its first queries answered ahead."""
    with anyio.fail_after(SAFETY):
        while not service.status().warmed:
            await anyio.to_thread.run_sync(service.wait_change, service.version, SAFETY)


async def test_no_first_query_of_any_shape_builds_anything_once_warmed(
    workspace: Workspace,
) -> None:
    service = workspace.service()
    async with mcp_session(workspace, service=service) as session:
        assert await call(session, "search", query="checkout")  # the first answer lets
        await warmed(service)  # the work ahead start (a server holds it until then)
        assert (await call(session, "index_status"))["warmed"] is True
        index = service.current()
        prepared = service.prepared_for(index)
        assert prepared is not None
        before = lazy_tables(index)
        for query in ("checkout", "CG", "pay an order by card", "Fix rounding of prices"):
            assert hits(await call(session, "search", query=query))
        assert service.current() is index
        assert service.prepared_for(index) is prepared
        after = lazy_tables(index)
        assert after.keys() == before.keys()
        assert all(after[name] is table for name, table in before.items())
        assert await call(session, "search", query="who calls compute_total")
        usages = await call(session, "find_usages", target="shop/pricing.py::round_price#function")
        assert usages


async def test_a_client_polling_the_status_does_not_hold_the_work_ahead_off(
    workspace: Workspace, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The work ahead waits for a pause in the clients' queries; a client asking
    index_status back to back until it says warmed makes none of them (a status reads no
    index), so warmed comes, with no cap on that wait to lean on."""
    monkeypatch.setattr(turns_module, "MAX_WAIT", 10 * SAFETY)
    service = workspace.service()
    async with mcp_session(workspace, service=service) as session:
        assert await call(session, "search", query="checkout")  # the first answer
        with anyio.fail_after(SAFETY):
            while not (await call(session, "index_status"))["warmed"]:
                pass


async def test_a_fresh_start_answers_a_name_with_its_definition_then_in_full(
    workspace: Workspace,
) -> None:
    """``symfuse mcp`` where no index is stored: a forked process builds the index while the
    server starts, and the first search waits for it. A name that one definition carries is
    answered with that definition, by names alone when the ranking structures are not built
    yet (the server builds them after its first answer); a name with namesakes waits for
    them, and from then on every answer is the fused one."""
    assert not workspace.index_dir.exists()
    checkout = "shop/service.py::checkout#function"
    async with mcp_stdio_session(workspace, "--log-level", "info") as session:
        first = await call(session, "search", query="checkout")
        assert hits(first)[0]["symbol_id"] == checkout
        charged = await call(session, "search", query="charge")  # three methods of the name
        assert "names_only" not in charged
        assert {row["name"] for row in hits(charged)[:3]} == {"charge"}
        again = await call(session, "search", query="checkout")
        assert "names_only" not in again
        assert hits(again)[0]["symbol_id"] == checkout
    assert "the first index was built by a forked process" in server_log(workspace)


async def test_a_fresh_start_answers_from_the_files_parsed_while_the_build_goes_on(
    workspace: Workspace, tmp_path: Path
) -> None:
    """While the forked build of a large workspace's first index is still going (held once it has
    parsed every file: :data:`symfuse.indexer.update.early.HOLD`), a search that has
    waited ``partial_after`` is answered by names over the definitions parsed so far,
    marked stale, with a hint that it is partial; a question names cannot answer waits
    for the whole index, and from then on the answers are whole."""
    padded(workspace.root, SMALL_SOURCE)  # a large workspace: a small one is built whole first
    hold = tmp_path / "hold"
    hold.touch()
    early = workspace.index_dir / EARLY
    checkout = "shop/service.py::checkout#function"
    async with mcp_stdio_session(workspace, env={HOLD: str(hold)}) as session:
        with anyio.fail_after(SAFETY):
            while not any(early.glob("*.early")):  # the build has written what it parsed
                await anyio.sleep(0.01)
        first = await call(session, "search", query="checkout")
        assert first["stale"] is True
        assert first["hint"].startswith("partial: the first index is still being built")
        assert hits(first)[0]["symbol_id"] == checkout
        hold.unlink()  # the build goes on
        callers = await call(session, "search", query="who calls checkout")
        assert "hint" not in callers
        whole = await call(session, "search", query="checkout")
        # (stale until the loaded index's check of the files ends); by names alone while
        # the ranking structures are built, and then said so
        assert whole.get("hint") == (NAMES_ONLY if whole.get("names_only") else None)
        assert hits(whole)[0]["symbol_id"] == checkout
    assert not early.exists()


def padded(root: Path, size: int) -> None:
    """Python modules of comments and one function each under ``root/pad``, ``size`` bytes
    in all: a workspace that large, whose files parse at once."""
    folder = root / "pad"
    folder.mkdir()
    line = "# " + "padding " * 12 + "\n"
    body = line * (25_000 // len(line))
    for i in range(size // len(body) + 1):
        (folder / f"pad_{i}.py").write_text(f"{body}\ndef padded_{i}():\n    return {i}\n")
