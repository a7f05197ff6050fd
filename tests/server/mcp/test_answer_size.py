"""Answers sized to the question (issue 37, item 3), through the SDK's ClientSession: a
default search answer to a prose query, ten hits with their first lines of code, fits
800 tokens; get_symbol's next pages carry the source alone, so a small budget still reads
on by many lines a page.

Tokens are characters / 4 of the text the agent reads
(:func:`symfuse.server.common.present.estimate_tokens`, the estimate every answer budget
uses).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from symfuse.ranking.query.search_request import AGENT_SNIPPET_LINES
from symfuse.server.common.present import estimate_tokens
from tests.support.cli import write_tree
from tests.support.mcp import Workspace, call, mcp_session, text_of
from tests.support.paths import FIXTURES

PROSE = (
    "send an email to the customer when a payment fails",
    "save the user to the database",
    "format text for display",
    "check the password of a user",
    "charge a card through the payment gateway",
)
PROSE_ANSWER_BUDGET = 800
PAGE_TOKENS = 200
LINES_PER_PAGE = 15


def fixture_workspace(tmp_path: Path, files: dict[str, str] | None = None) -> Workspace:
    root = tmp_path / "ws"
    if files is None:
        shutil.copytree(FIXTURES / "workspace", root)
    else:
        write_tree(root, files)
    (tmp_path / "home").mkdir()
    return Workspace(root, tmp_path / "index", tmp_path / "home", tmp_path / "stderr.log")


async def test_a_default_prose_answer_of_ten_hits_fits_800_tokens(tmp_path: Path) -> None:
    sizes: dict[str, int] = {}
    async with mcp_session(fixture_workspace(tmp_path), tools="default") as session:
        for query in PROSE:
            result = await session.call_tool("search", {"query": query})
            answer: dict[str, Any] = result.structured_content or {}
            items = answer["items"]
            assert len(items) == 10, (query, len(items))  # the agents' default limit
            snippets = [item["snippet"] for item in items if item.get("snippet")]
            assert max(s.count("\n") + 1 for s in snippets) == AGENT_SNIPPET_LINES
            sizes[query] = estimate_tokens(text_of(result))
        full = await call(session, "search", query=PROSE[0], detail_level="full")
    print(f"prose answers, 10 hits with {AGENT_SNIPPET_LINES}-line snippets (tokens): {sizes}")
    assert max(sizes.values()) <= PROSE_ANSWER_BUDGET, sizes
    # A row is its id (file, name, kind), line, signature, score and snippet.
    row = items[0]
    assert set(row) == {"symbol_id", "line", "signature", "score", "snippet"}
    path, rest = row["symbol_id"].split("::")
    assert path.endswith((".py", ".ts", ".go"))
    assert "#" in rest
    # detail_level full gives every field back.
    assert {"name", "kind", "fqn", "file", "end_line", "repository"} <= set(full["items"][0])


async def test_get_symbol_next_pages_carry_the_source_alone(tmp_path: Path) -> None:
    body = "".join(f"    total = total + {i}  # step {i}\n" for i in range(120))
    doc = '    """Add the steps up, one by one."""\n'
    source = f"def long_sum(total):\n{doc}{body}    return total\n"
    ws = fixture_workspace(tmp_path, {"steps.py": source})
    target = "steps.py::long_sum#function"
    async with mcp_session(ws, tools="default") as session:
        first = await call(session, "get_symbol", target=target, max_tokens=PAGE_TOKENS)
        pages = [first]
        while pages[-1].get("next_offset") is not None and len(pages) < 20:
            offset = pages[-1]["next_offset"]
            pages.append(
                await call(
                    session, "get_symbol", target=target, offset=offset, max_tokens=PAGE_TOKENS
                )
            )
    assert first["symbol"]["signature"] == "def long_sum(total)"  # the record, once
    lines = [page["symbol"]["source"].count("\n") + 1 for page in pages]
    print(f"get_symbol, max_tokens {PAGE_TOKENS}: source lines per page {lines}")
    for page in pages[1:]:
        assert set(page["symbol"]) == {"symbol_id", "start_line", "source"}
    assert min(lines[1:-1]) >= LINES_PER_PAGE, lines
    read = "\n".join(page["symbol"]["source"] for page in pages).split("\n")
    assert read[0] == "def long_sum(total):"
    assert read[-1] == "    return total"
    assert len(read) == 123
    assert pages[1]["symbol"]["start_line"] == 1 + first["next_offset"]


async def test_get_symbol_cut_by_max_lines_says_so_and_reads_on(tmp_path: Path) -> None:
    """A source cut by ``max_lines`` (well within the budget) names that cause, not the
    token budget, and ``next_offset`` reads the next lines."""
    body = "".join(f"    total = total + {i}\n" for i in range(40))
    ws = fixture_workspace(
        tmp_path, {"steps.py": f"def long_sum(total):\n{body}    return total\n"}
    )
    target = "steps.py::long_sum#function"
    async with mcp_session(ws, tools="default") as session:
        first = await call(session, "get_symbol", target=target, max_lines=10)
        second = await call(
            session, "get_symbol", target=target, max_lines=10, offset=first["next_offset"]
        )
    assert first["hint"] == "lines 1-10 shown (max_lines); offset=10 reads on"
    assert second["symbol"]["start_line"] == 11
    assert second["symbol"]["source"].split("\n")[0] == "    total = total + 9"
