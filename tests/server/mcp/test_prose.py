"""Prose queries through the SDK's ClientSession: the shape in fusion_debug, test code
ranked lower unless asked for, include_tests, and the snippets an agent gets by default."""

from __future__ import annotations

import shutil
from pathlib import Path

from symfuse.ranking.query.search_request import AGENT_SNIPPET_LINES
from tests.support.mcp import Workspace, call, call_error, hits, mcp_session
from tests.support.paths import FIXTURES

PASSWORD = "prompt the user for a password and hide the input"


def prose_workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "prose_workspace", root)
    (tmp_path / "home").mkdir()
    return Workspace(root, tmp_path / "index", tmp_path / "home", tmp_path / "stderr.log")


def _files(data: dict[str, object]) -> list[str]:
    items = hits(data)
    assert isinstance(items, list)
    return [str(item["file"]) for item in items]


async def test_prose_search_demotes_tests_and_carries_snippets(tmp_path: Path) -> None:
    async with mcp_session(prose_workspace(tmp_path)) as session:
        answer = await call(session, "search", query=PASSWORD, fusion_debug=True, limit=5)
        only = await call(session, "search", query=PASSWORD, include_tests="only")
        left_out = await call(session, "search", query=PASSWORD, include_tests=False)
        asked = await call(session, "search", query="test for a password prompt that hides input")
        bare = await call(session, "search", query=PASSWORD, snippet_lines=0, limit=3)
        bad = await call_error(session, "search", query=PASSWORD, include_tests="maybe")
    assert answer["shape"] == "sentence"
    first = hits(answer)[0]
    assert (first["name"], first["file"]) == ("prompt", "termkit/termui.py")
    # The agent default: a few lines of each hit, so it can choose without another call.
    assert first["snippet"].count("\n") == AGENT_SNIPPET_LINES - 1
    assert "getpass" in hits(answer)[0]["snippet"] or "Ask the user" in first["snippet"]
    assert set(answer["items"][0]) >= {"symbol_id", "line", "signature", "score", "snippet"}
    assert all(f.startswith(("tests/", "examples/")) for f in _files(only))
    assert not any(f.startswith(("tests/", "examples/")) for f in _files(left_out))
    assert _files(asked)[0] == "tests/test_termui.py"
    assert "snippet" not in hits(bare)[0]
    assert "include_tests" in bad


async def test_usages_put_code_first_and_count_what_was_cut(tmp_path: Path) -> None:
    async with mcp_session(prose_workspace(tmp_path)) as session:
        every = await call(session, "find_usages", name="prompt", kinds="call")
        cut = await call(session, "find_usages", name="prompt", kinds="call", limit=2)
        no_tests = await call(session, "find_usages", name="prompt", include_tests=False)
        only_examples = await call(
            session, "find_usages", name="prompt", kinds="call", file_pattern="examples/**"
        )
    files = [u["file"] for u in every["usages"]]
    # All of prompt's callers are tests or examples; the file that calls it most leads.
    assert files == ["tests/test_termui.py"] * 3 + ["examples/password.py"]
    assert cut["truncated"]
    assert cut["by_file"] == {"tests/test_termui.py": 1, "examples/password.py": 1}
    assert no_tests["total"] == 0
    assert [u["file"] for u in only_examples["usages"]] == ["examples/password.py"]
