"""search_history and get_symbol's evolution through the MCP ClientSession, over a real
git repository (tests/support/history.py): every parameter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mcp import Client, ClientSession

from symfuse.indexer.config import IndexConfig
from symfuse.server.mcp.server import MCPOptions, build_mcp_server
from tests.support.history import CAROL, HistoryRepo, commit, git, make_history_repo
from tests.support.mcp import (
    READ_TIMEOUT,
    Workspace,
    call,
    call_error,
    hits,
    mcp_session,
    mcp_stdio_session,
)


@pytest.fixture
def repo(tmp_path: Path) -> HistoryRepo:
    return make_history_repo(tmp_path / "repo")


@pytest.fixture
def ws(tmp_path: Path, repo: HistoryRepo) -> Workspace:
    home = tmp_path / "home"
    home.mkdir()
    return Workspace(repo.root, tmp_path / "index", home, tmp_path / "server-stderr.log")


async def _hashes(session: ClientSession, **arguments: Any) -> list[str]:
    found = await call(session, "search_history", **arguments)
    return [item["commit"] for item in hits(found)]


async def test_without_a_history_index_the_error_says_how_to_build_it(ws: Workspace) -> None:
    async with mcp_session(ws) as session:
        message = await call_error(session, "search_history", query="discount")
        evolution = await call_error(
            session, "get_symbol", target="Order.total", show_evolution=True
        )
    assert "--history" in message
    assert "--history" in evolution
    async with mcp_session(ws) as session:
        await call(session, "reindex")
        without = await call(session, "list_repositories")
    assert [r["history"] for r in without["repositories"]] == [False]


async def test_list_repositories_says_which_have_history(ws: Workspace) -> None:
    async with mcp_session(ws, history=True) as session:
        await call(session, "search_history", query="discount")  # the history is built
        listed = await call(session, "list_repositories")
    assert [r["history"] for r in listed["repositories"]] == [True]


async def test_search_history_ranks_messages_and_diffs(ws: Workspace, repo: HistoryRepo) -> None:
    c = repo.commits
    async with mcp_session(ws, history=True) as session:
        found = await call(session, "search_history", query="discount")
        by_message = await _hashes(session, query="cents", chunk_type="commit_message")
        by_diff = await _hashes(session, query="rate", chunk_type="commit_diff")
        not_in_messages = await _hashes(session, query="rate", chunk_type="commit_message")
        toon = await session.call_tool(
            "search_history", {"query": "discount", "output_format": "toon"}
        )
    top = hits(found)[0]
    assert top["commit"] == c[1]
    assert (top["author"], top["email"]) == ("Bob Builder", "bob@builders.test")
    assert top["date"] == "2024-02-15T12:00:00Z"
    assert top["subject"] == "Price-based totals and a discount"
    assert top["repository"] == "repo"
    symbols = {(s["name"], s["change"]): s for s in top["symbols"]}
    assert set(symbols) == {
        ("Order", "modified"),
        ("Order.total", "modified"),
        ("discount", "added"),
    }
    assert "+def discount(order, rate):" in symbols[("discount", "added")]["diff"]
    assert symbols[("Order.total", "modified")]["diff"].startswith("@@ -6,1 +6,1 @@")
    assert by_message == [c[4]]
    assert by_diff == [c[1]]
    assert not_in_messages == []
    assert not toon.is_error


async def test_search_history_filters(ws: Workspace, repo: HistoryRepo) -> None:
    c = repo.commits
    async with mcp_session(ws, history=True) as session:
        spring = await _hashes(session, time_range="2024-02-01..2024-03-20")
        since_april = await _hashes(session, time_range="2024-04-01..")
        until_jan = await _hashes(session, time_range="..2024-01-31")
        bob = await _hashes(session, author="bob")
        carol = await _hashes(session, author="CAROL@example.org")
        deleted = await _hashes(session, diff_type="deleted")
        renamed = await _hashes(session, diff_type="renamed")
        binary = await _hashes(session, diff_type="binary")
        added_or_deleted = await _hashes(session, diff_type="added,deleted")
        mine = await _hashes(session, repository="repo")
        pattern = await _hashes(session, repository="re*")
        other = await _hashes(session, repository="elsewhere")
        listed = await _hashes(session, repository=["elsewhere", "repo"])
        excluded = await _hashes(session, exclude_repository="re*")
        first = await call(session, "search_history", limit=1)
        second = await call(session, "search_history", limit=1, offset=1)
        bad_range = await call_error(session, "search_history", time_range="last week")
        bad_type = await call_error(session, "search_history", diff_type="moved")
        bad_chunk = await call_error(session, "search_history", chunk_type="commit_title")
    newest_first = list(reversed(c))
    assert spring == [c[2], c[1]]  # the last day is included
    assert since_april == [c[4], c[3]]
    assert until_jan == [c[0]]
    assert bob == [c[4], c[1]]
    assert carol == [c[3]]
    assert deleted == [c[2]]
    assert renamed == [c[3]]
    assert binary == [c[3], c[0]]
    assert added_or_deleted == [c[2], c[1], c[0]]
    assert mine == pattern == newest_first
    assert other == excluded == []
    assert listed == newest_first
    assert ([i["commit"] for i in hits(first)], first["total"]) == ([c[4]], 5)
    assert [i["commit"] for i in hits(second)] == [c[3]]
    assert "time_range" in bad_range
    assert "diff_type" in bad_type
    assert "chunk_type" in bad_chunk


async def test_search_history_cuts_hunks_to_max_tokens(ws: Workspace, repo: HistoryRepo) -> None:
    async with mcp_session(ws, history=True) as session:
        small = await call(session, "search_history", query="order model", limit=1, max_tokens=270)
        large = await call(session, "search_history", query="order model", limit=1)
    assert hits(small)[0]["commit"] == hits(large)[0]["commit"] == repo.commits[0]

    def diffs(answer: dict[str, Any]) -> list[str]:
        return [s["diff"] for s in hits(answer)[0]["symbols"]]

    assert sum(map(len, diffs(small))) < sum(map(len, diffs(large)))
    assert any(d.endswith("... (cut to max_tokens)") for d in diffs(small)), diffs(small)
    assert not any("cut to max_tokens" in d for d in diffs(large))


async def test_get_symbol_shows_its_evolution_across_a_rename(
    ws: Workspace, repo: HistoryRepo
) -> None:
    c = repo.commits
    async with mcp_session(ws, history=True) as session:
        by_name = await call(session, "get_symbol", target="Order.total", show_evolution=True)
        by_id = await call(
            session,
            "get_symbol",
            symbol_id="shop/orders.py::Order.total#method",
            show_evolution=True,
            evolution_limit=2,
        )
        deleted_is_gone = await call(session, "get_symbol", target="shop/orders.py")
        plain = await call(session, "get_symbol", symbol_id="shop/orders.py::Order.total#method")
    entries = by_name["evolution"]
    assert [e["commit"] for e in entries] == [c[4], c[1], c[0]]
    assert [e["file"] for e in entries] == ["shop/orders.py", "shop/models.py", "shop/models.py"]
    assert [e["change"] for e in entries] == ["modified", "modified", "added"]
    assert entries[0]["subject"] == "Round totals to cents"
    assert entries[0]["author"] == "Bob Builder"
    assert entries[0]["date"] == "2024-05-30T08:15:00Z"
    assert "+        return round(sum(item.price for item in self.items), 2)" in entries[0]["diff"]
    assert "-        return sum(item.price for item in self.items)" in entries[0]["diff"]
    assert [e["commit"] for e in by_id["evolution"]] == [c[4], c[1]]
    assert "evolution" not in plain
    assert "helper" not in str(deleted_is_gone["outline"])


@pytest.mark.slow  # symfuse mcp over stdio
async def test_symfuse_mcp_with_history_builds_it_in_the_background(
    ws: Workspace, repo: HistoryRepo
) -> None:
    async with mcp_stdio_session(ws, "--history") as session:
        found = await call(session, "search_history", query="helper", diff_type="deleted")
    assert [item["commit"] for item in hits(found)] == [repo.commits[2]]
    assert (ws.index_dir / "history" / "repo" / "head.msgpack").exists()


async def test_get_symbol_at_a_commit_and_removed_definitions(
    ws: Workspace, repo: HistoryRepo
) -> None:
    c = repo.commits
    async with mcp_session(ws, history=True) as session:
        then = await call(
            session,
            "get_symbol",
            symbol_id="shop/orders.py::Order.total#method",
            at_commit="HEAD~1",
        )
        by_tagless_hash = await call(
            session, "get_symbol", target="shop/models.py::helper#function", at_commit=c[0]
        )
        removed = await call(session, "get_symbol", target="helper", include_removed=True)
        gone = await call_error(session, "get_symbol", target="helper")
        bad_ref = await call_error(
            session, "get_symbol", target="Order.total", at_commit="no-such-tag"
        )
    assert then["symbol"]["source"].strip() == (
        "def total(self):\n        return sum(item.price for item in self.items)"
    )
    assert then["symbol"]["at_commit"] == c[3]
    assert then["symbol"]["is_removed"] is False
    assert "return x * 2" in by_tagless_hash["symbol"]["source"]
    assert by_tagless_hash["symbol"]["is_removed"] is True
    assert removed["symbol"]["is_removed"] is True
    assert removed["symbol"]["at_commit"] == c[1]  # the parent of the commit deleting it
    assert removed["symbol"]["symbol_id"] == "shop/models.py::helper#function"
    assert "helper" in gone
    assert "at_commit" in bad_ref


async def test_two_repositories_answer_with_their_alias(tmp_path: Path, repo: HistoryRepo) -> None:
    other = tmp_path / "tools"
    other.mkdir()
    git(other, "init", "-q", "-b", "main")
    (other / "cli.py").write_text("def main():\n    return 0\n")
    tool_commit = commit(other, "Add the discount command line", CAROL, "2024-07-01T00:00:00Z")
    config = IndexConfig(roots=(repo.root, other), index_dir=tmp_path / "index2", progress=False)
    server = build_mcp_server(config, MCPOptions(history=True, tools="all"))
    async with Client(server, mode="legacy", read_timeout_seconds=READ_TIMEOUT) as client:
        session = client.session
        both = await call(session, "search_history", query="discount")
        tools_only = await call(session, "search_history", query="discount", repository="tools")
        evolution = await call(
            session, "get_symbol", target="Order.total", show_evolution=True, evolution_limit=1
        )
    assert {(i["repository"], i["commit"]) for i in hits(both)} >= {
        ("repo", repo.commits[1]),
        ("tools", tool_commit),
    }
    assert [(i["repository"], i["commit"]) for i in hits(tools_only)] == [("tools", tool_commit)]
    assert [(e["repository"], e["commit"]) for e in evolution["evolution"]] == [
        ("repo", repo.commits[4])
    ]


async def test_search_at_a_commit_and_with_removed_definitions(
    ws: Workspace, repo: HistoryRepo
) -> None:
    c = repo.commits
    async with mcp_session(ws, history=True) as session:
        now = await call(session, "search", query="helper", detail_level="minimal")
        then = await call(session, "search", query="helper", at_commit=c[0], limit=5)
        before_rename = await call(session, "search", query="Order", at_commit="HEAD~2")
        removed = await call(session, "search", query="helper", include_removed=True)
        bad = await call_error(session, "search", query="helper", at_commit="no-such-tag")
    assert all(item["name"] != "helper" for item in hits(now))
    assert then["at_commit"] == c[0]
    assert hits(then)[0]["symbol_id"] == "shop/models.py::helper#function"
    assert {i["file"] for i in hits(before_rename)} == {"shop/models.py"}
    gone = [i for i in hits(removed) if i.get("is_removed")]
    assert [(i["name"], i["file"], i["removed_in"]) for i in gone] == [
        ("helper", "shop/models.py", c[2])
    ]
    assert "at_commit" in bad


async def test_a_commit_made_while_serving_is_searchable(ws: Workspace, repo: HistoryRepo) -> None:
    async with mcp_session(ws, history=True) as session:
        before = await _hashes(session, query="refund")
        (repo.root / "shop" / "refunds.py").write_text("def refund(order):\n    return 0\n")
        new = commit(repo.root, "Refunds for cancelled orders", CAROL, "2024-06-30T10:00:00Z")
        after = await _hashes(session, query="refund")
    assert before == []
    assert after == [new]
