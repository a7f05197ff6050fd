"""The honest contract (issue 19 item 7) through the SDK's ClientSession: totals that do
not depend on the page, every namesake of "who calls X", get_symbol paging that moves
on, unknown arguments refused by name, the new search filters, and reindex answers
that never show deleted symbols."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio

from tests.support.cli import write_tree
from tests.support.mcp import Workspace, call, call_error, hits, mcp_session

SAFETY = 30.0  # seconds: only turns a change that never happens into a failure


def workspace_of(tmp_path: Path, files: dict[str, str]) -> Workspace:
    root = write_tree(tmp_path / "ws", files)
    home = tmp_path / "home"
    home.mkdir()
    return Workspace(root, tmp_path / "index", home, tmp_path / "server-stderr.log")


def many_options() -> dict[str, str]:
    """Enough symbols that every channel matches more than a page ranks (100 a channel)."""
    return {
        f"pkg/mod{m}.py": "\n\n".join(
            f"def option_{m}_{j}(value):\n"
            f'    """Parse option {j} of group {m} from the command line."""\n'
            f"    return value + {j}\n\n\n"
            f"class Choice{m}x{j}:\n"
            f'    """A choice among the values of an option."""\n'
            for j in range(30)
        )
        for m in range(8)
    }


async def test_total_is_the_same_on_every_page_and_pages_reach_it(tmp_path: Path) -> None:
    ws = workspace_of(tmp_path, many_options())
    async with mcp_session(ws) as session:
        pages = [
            await call(session, "search", query="option", limit=limit, offset=offset)
            for limit, offset in ((5, 0), (20, 20), (50, 100), (10, 300))
        ]
        totals = {page["total"] for page in pages}
        assert len(totals) == 1, totals
        total = totals.pop()
        assert total > 200  # more than one channel's first 100
        seen: list[str] = []
        while len(seen) < total + 1:
            page = await call(
                session, "search", query="option", limit=200, offset=len(seen), max_tokens=50_000
            )
            assert page["total"] == total
            if not hits(page):
                break
            seen.extend(item["symbol_id"] for item in hits(page))
        assert len(seen) == len(set(seen)) == total


async def test_who_calls_lists_every_namesake_and_each_call_site_once(
    workspace: Workspace,
) -> None:
    async with mcp_session(workspace) as session:
        answer = await call(session, "search", query="who calls charge", limit=1)
    assert answer["search_mode"] == "callers"
    assert sorted(answer["targets"]) == [
        "shop/payments.py::CardGateway.charge#method",
        "shop/payments.py::InvoiceGateway.charge#method",
        "shop/payments.py::PaymentGateway.charge#method",
    ]
    assert len(hits(answer)) == 1
    sites = hits(answer)[0]["sites"].split()
    assert sites
    assert len(sites) == len(set(sites)), sites


LONG_DOC = "Explain the rule at length. " * 120  # about 3,400 characters


async def test_get_symbol_paging_always_moves_on(tmp_path: Path) -> None:
    body = "".join(f"    total = total + {i}  # step {i}\n" for i in range(60))
    source = f'def documented(total):\n    """{LONG_DOC}"""\n{body}    return total\n'
    ws = workspace_of(tmp_path, {"rules.py": source})
    symbol_id = "rules.py::documented#function"
    async with mcp_session(ws) as session:
        offset, read, pages = 0, [], 0
        with anyio.fail_after(SAFETY):
            while True:
                page = await call(
                    session, "get_symbol", symbol_id=symbol_id, offset=offset, max_tokens=200
                )
                pages += 1
                symbol: dict[str, Any] = page["symbol"]
                read.extend(symbol["source"].split("\n"))
                if page.get("next_offset") is None:
                    break
                assert page["next_offset"] > offset, page["hint"]
                offset = page["next_offset"]
    assert pages > 1
    assert "    return total" in read
    assert "    total = total + 59  # step 59" in read


async def test_unknown_arguments_are_named_with_the_accepted_ones(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        search = await call_error(session, "search", query="x", bogus_param=1)
        status = await call_error(session, "index_status", verbose=True)
        tools = (await session.list_tools()).tools
    assert "bogus_param" in search
    for accepted in ("query", "limit", "max_tokens"):
        assert accepted in search
    assert "verbose" in status
    assert "output_format" in status
    # The schemas list the common arguments and `options`; the server, not the schema,
    # refuses the rest by name (older argument names are still accepted, unlisted).
    assert all("options" in tool.input_schema["properties"] for tool in tools)


async def test_search_filters_min_score_language_and_extensions(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        every = await call(session, "search", query="order", limit=100)
        scores = sorted({item["score"] for item in hits(every)})
        threshold = scores[len(scores) // 2]  # a score some hits reach and some do not
        strong = await call(session, "search", query="order", min_score=threshold, limit=100)
        no_python = await call(
            session, "search", query="dispatch", exclude_language=["py", "markdown"]
        )
        java_files = await call(session, "search", query="dispatch", file_extensions="java")
        bad = await call_error(session, "search", query="order", min_score=1.5)
        bad_language = await call_error(session, "search", query="x", exclude_language="klingon")
    assert 0 < strong["total"] < every["total"]
    assert strong["total"] == len(hits(strong))
    assert all(item["score"] >= threshold for item in hits(strong))
    assert hits(no_python)
    assert all(i["file"].endswith(".java") for i in hits(no_python))
    assert hits(java_files) == hits(no_python)
    assert "min_score" in bad
    assert "exclude_language" in bad_language
    assert "klingon" in bad_language


async def test_search_after_reindex_never_shows_deleted_symbols(workspace: Workspace) -> None:
    service = workspace.service()
    async with mcp_session(workspace, service=service, watch=False) as session:
        before = await call(session, "search", query="CardGateway", detail_level="minimal")
        assert hits(before)[0]["name"] == "CardGateway"
        with anyio.fail_after(SAFETY):  # the ranking structures are built (in the background)
            while not service.status().ranking:
                await anyio.to_thread.run_sync(service.wait_change, service.version, SAFETY)
        (workspace.root / "shop" / "payments.py").unlink()
        await call(session, "reindex")
        after = await call(session, "search", query="CardGateway", detail_level="minimal")
    assert all(item["file"] != "shop/payments.py" for item in hits(after)), after
    assert after["stale"] is False
