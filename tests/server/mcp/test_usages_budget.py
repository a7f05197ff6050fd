"""A much-used definition through the SDK's ClientSession: the default page under the
token budget carries usages, names the files with the most of the rest, and pages on."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.graph.usages import MAX_SHOWN_FILES
from tests.support.mcp import Workspace, call, mcp_session

FILES = 120  # each calls the helper twice: more files than any budget can name


def busy_workspace(tmp_path: Path) -> Workspace:
    root = tmp_path / "ws"
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("")
    (root / "app" / "core.py").write_text("def helper(value):\n    return value\n")
    for n in range(FILES):
        (root / "app" / f"user_{n:03}.py").write_text(
            "from app.core import helper\n\n\n"
            f"def use_{n}():\n    return helper({n}) + helper({n + 1})\n"
        )
    (tmp_path / "home").mkdir()
    return Workspace(root, tmp_path / "index", tmp_path / "home", tmp_path / "stderr.log")


async def test_a_page_of_a_much_used_definition_carries_usages(tmp_path: Path) -> None:
    async with mcp_session(busy_workspace(tmp_path)) as session:
        first = await call(session, "find_usages", target="app/core.py::helper#function")
        second = await call(
            session,
            "find_usages",
            target="app/core.py::helper#function",
            offset=first["next_offset"],
        )
    assert first["total"] == 3 * FILES  # an import and two calls in each file
    assert first["truncated"]
    assert first["usages"], "the summary crowded out every row"
    # the files with the most usages left, most first, and how many files are past them
    counts = list(first["by_file"].values())
    assert len(counts) == MAX_SHOWN_FILES
    assert counts == sorted(counts, reverse=True)
    assert first["other_files"] > 0
    seen = {(u["file"], u["line"]) for u in first["usages"]}
    assert second["usages"]
    assert seen.isdisjoint((u["file"], u["line"]) for u in second["usages"])


async def test_a_row_leaves_out_what_every_row_would_repeat(tmp_path: Path) -> None:
    """One root, one target: no row names the root's alias or the target's id, and the
    target is its id, line and signature (the id holds its file, name and kind)."""
    async with mcp_session(busy_workspace(tmp_path)) as session:
        answer = await call(session, "find_usages", target="helper")
    assert answer["targets"] == [
        {"symbol_id": "app/core.py::helper#function", "line": 1, "signature": "def helper(value)"}
    ]
    assert answer["usages"]
    assert all("repository" not in u and "target" not in u for u in answer["usages"])
    assert all(u["file"].startswith("app/user_") for u in answer["usages"])
