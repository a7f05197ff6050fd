"""What a new agent meets (issue 37, items 1 and 2), through the SDK's ClientSession: a
default tool list sized for a context window, every tool one setting away, one
vocabulary across the tools with the old argument names still accepted, and the
advanced arguments reachable in ``options``.

Tokens are estimated as characters / 4 (:func:`symfuse.server.common.present.estimate_tokens`,
the estimate every answer budget uses; tiktoken is not a dependency), over what
``tools/list`` gives an agent to read: each tool's name, description and input schema.
"""

from __future__ import annotations

import json
import os
import subprocess

import pytest
from mcp_types import Tool

from symfuse.server.common.present import estimate_tokens
from symfuse.server.mcp.toolset import DEFAULT_TOOLS, ENVIRONMENT, TOOL_NAMES
from tests.support.mcp import (
    SYMFUSE,
    Workspace,
    call,
    call_error,
    mcp_session,
    mcp_stdio_session,
)

DEFAULT_LIST_BUDGET = 3000  # tokens an agent reads at the start of every session


def list_tokens(tools: list[Tool]) -> int:
    """What ``tools`` cost an agent: names, descriptions and input schemas, as JSON."""
    listed = [
        {"name": t.name, "description": t.description, "inputSchema": t.input_schema} for t in tools
    ]
    return estimate_tokens(json.dumps(listed, separators=(",", ":")))


async def test_the_default_list_fits_its_budget_and_all_lists_every_tool(
    workspace: Workspace,
) -> None:
    async with mcp_session(workspace, tools="default") as session:
        default = (await session.list_tools()).tools
    async with mcp_session(workspace, tools="all") as session:
        every = (await session.list_tools()).tools
    async with mcp_session(workspace, tools="search,get_symbol") as session:
        two = (await session.list_tools()).tools
    full, lean = list_tokens(every), list_tokens(default)
    message = f"tools/list: all {len(every)} tools {full} tokens, default {len(default)} {lean}"
    print(message)
    assert lean <= DEFAULT_LIST_BUDGET, message
    assert [t.name for t in default] == list(DEFAULT_TOOLS)
    assert [t.name for t in every] == list(TOOL_NAMES)  # the names --tools checks against
    assert [t.name for t in two] == ["search", "get_symbol"]
    # Few listed arguments; the rest are named in `options`, not each given a schema.
    search = next(t for t in default if t.name == "search").input_schema
    assert list(search["properties"]) == [
        *("query", "kind", "file_pattern", "limit", "offset", "options")
    ]
    assert search["required"] == ["query"]
    for advanced in ("fuzzy", "semantic", "drill_from", "max_tokens", "output_format"):
        assert advanced in search["properties"]["options"]["description"]


async def test_one_vocabulary_and_the_old_names_still_work(workspace: Workspace) -> None:
    order_total = "shop/models.py::Order.total#method"
    async with mcp_session(workspace, tools="default") as session:
        text_new = await call(session, "search_text", query="compute_total", limit=50)
        text_old = await call(session, "search_text", pattern="compute_total", limit=50)
        get_new = await call(session, "get_symbol", target=order_total)
        get_old = await call(session, "get_symbol", symbol_id=order_total)
        outline_new = await call(session, "get_symbol", target="shop/models.py")
        outline_old = await call(session, "get_symbol", path="shop/models.py")
        uses_new = await call(session, "find_usages", target="Order", kind="inherit")
        uses_old = await call(session, "find_usages", name="Order", kinds=["inherit"])
        read_new = await call(session, "read_file", target="shop/models.py:1-5")
        read_old = await call(session, "read_file", path="shop/models.py:1-5")
        deps = await call(session, "file_dependencies", target="shop/models.py")
        flat = await call(session, "search", query="total", fuzzy=True, detail_level="minimal")
        nested = await call(
            session, "search", query="total", options={"fuzzy": True, "detail_level": "minimal"}
        )
        as_text = await call(session, "search", query="total", options='{"limit": 2}')
    assert text_new["query"] == "compute_total"
    assert text_new["hits"] == text_old["hits"]
    assert text_new["total"] > 0
    assert get_new["symbol"]["source"] == get_old["symbol"]["source"]
    assert outline_new["outline"] == outline_old["outline"]
    assert uses_new["usages"] == uses_old["usages"]
    assert uses_new["total"] == 1
    assert read_new["content"] == read_old["content"]
    assert read_new["end_line"] == 5
    assert deps["file"] == "shop/models.py"
    assert flat["items"] == nested["items"]
    assert len(as_text["items"]) == 2


async def test_bad_arguments_are_one_line_naming_the_argument(workspace: Workspace) -> None:
    async with mcp_session(workspace, tools="default") as session:
        missing = await call_error(session, "search_text", regex=True)
        mistyped = await call_error(session, "search", query="x", limit="ten")
        unknown = await call_error(session, "get_symbol", target="x", symbol="y")
        twice = await call_error(session, "search_text", query="a", pattern="b")
        not_found = await call_error(session, "impact", target="no_such_name")
    assert missing == (
        "Error executing tool search_text: invalid argument query: is required: "
        "the text to find (a Python regular expression with regex)"
    )
    assert mistyped == (
        "Error executing tool search: invalid argument limit: must be an integer between 1 and 200"
    )
    assert unknown.startswith(
        "Error executing tool get_symbol: invalid argument symbol: not an argument of "
        "get_symbol; it takes target, offset, and in options: line, context_lines"
    )
    assert "query: given twice, as query and as pattern" in twice
    # The argument named once, not "target: name: ..."
    assert not_found.startswith("Error executing tool impact: target: no definition named")
    for message in (missing, mistyped, unknown, twice, not_found):
        assert "\n" not in message
        assert "pydantic" not in message


@pytest.mark.slow  # symfuse mcp over stdio
async def test_symfuse_mcp_tools_over_stdio(workspace: Workspace) -> None:
    async with mcp_stdio_session(workspace, tools="search,get_symbol") as session:
        named = [t.name for t in (await session.list_tools()).tools]
    async with mcp_stdio_session(workspace, tools=None) as session:
        default = [t.name for t in (await session.list_tools()).tools]
        unlisted = await call_error(session, "callers", target="compute_total")
    async with mcp_stdio_session(workspace, tools=None, env={ENVIRONMENT: "all"}) as session:
        every = [t.name for t in (await session.list_tools()).tools]
        await call(session, "index_status")
    assert named == ["search", "get_symbol"]
    assert default == list(DEFAULT_TOOLS)
    assert every == list(TOOL_NAMES)
    assert unlisted.startswith("callers is not among this server's tools; start symfuse mcp")


async def test_a_tool_left_out_of_the_list_says_how_to_list_it(workspace: Workspace) -> None:
    async with mcp_session(workspace, tools="default") as session:
        listed = {t.name for t in (await session.list_tools()).tools}
        unlisted = {
            name: await call_error(session, name, target="compute_total")
            for name in TOOL_NAMES
            if name not in listed
        }
        unknown = await call_error(session, "callerz", target="compute_total")
    assert set(unlisted) == set(TOOL_NAMES) - set(DEFAULT_TOOLS)
    for name, text in unlisted.items():
        assert "\n" not in text
        assert text == (
            f"{name} is not among this server's tools; start symfuse mcp with --tools all "
            f"(or --tools default,{name}), or set {ENVIRONMENT}=all in its environment"
        )
    assert unknown == "Unknown tool: callerz"  # not one of ours: the SDK's answer


@pytest.mark.slow  # symfuse mcp as a process
def test_an_unknown_tool_name_is_an_error_at_start(workspace: Workspace) -> None:
    env = {**os.environ, "HOME": str(workspace.home), ENVIRONMENT: "search,serch"}
    for extra in (("--tools", "search,nope"), ()):
        done = subprocess.run(
            [str(SYMFUSE), *workspace.args(*extra)],
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            check=False,
        )
        assert done.returncode != 0
        assert done.stdout == ""  # stdout belongs to the protocol
        where, name = ("--tools", "nope") if extra else (ENVIRONMENT, "serch")
        assert done.stderr.startswith(f"symfuse: error: {where}: unknown tool {name!r}; give all,")
        assert "find_usages" in done.stderr
        assert done.stderr.count("\n") == 1
