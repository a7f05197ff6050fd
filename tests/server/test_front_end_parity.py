"""Every field of every request model reaches the CLI and MCP, with the same default and bounds.

(On the command line, but for the fields a model marks as a server's alone, with
the reason: :class:`symfuse.ranking.query.fields.ServerOnly`.)

The CLI options and the MCP tool schemas are generated from the query layer's
request models; this test reads what each front end actually publishes (the
parsed command line, the tools the MCP server lists) and compares it with the
models, so a field added to a model and missing from a front end fails here.
"""

from __future__ import annotations

import argparse
import re
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.ranking.query.fields import bounds, for_agents, is_primary, server_only
from symfuse.ranking.query.operations import OPERATIONS
from symfuse.server.cli.common import CommandParser
from symfuse.server.cli.main import build_parser
from symfuse.server.mcp.server import MCPOptions, build_mcp_server

MCP_TOOLS = {
    "search": "search",
    "usages": "find_usages",
    "text": "search_text",
    "get": "get_symbol",
    "callers": "callers",
    "callees": "callees",
    "hierarchy": "type_hierarchy",
    "deps": "file_dependencies",
    "repos": "list_repositories",
    "dead": "dead_code",
    "impact": "impact",
    "read": "read_file",
    "history": "search_history",
    "status": "index_status",
    "reindex": "reindex",
}
CLI_COMMANDS = {
    "search": "search",
    "usages": "usages",
    "text": "text",
    "get": "get",
    "callers": "callers",
    "callees": "callees",
    "hierarchy": "hierarchy",
    "deps": "deps",
    "repos": "repos",
    "dead": "dead",
    "impact": "impact",
    "read": "read",
    "history": "history",
    "status": "stats",
    "reindex": "index",
}


def test_every_operation_has_a_command_and_a_tool() -> None:
    assert set(CLI_COMMANDS) == set(MCP_TOOLS) == {op.name for op in OPERATIONS}


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = sub.choices[command]
    if isinstance(found, CommandParser):
        found.complete()  # the options a command adds on first need (symfuse index)
    return found


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@pytest.mark.parametrize("operation", sorted(CLI_COMMANDS))
def test_every_request_field_is_a_command_line_option(operation: str) -> None:
    model = next(op.request for op in OPERATIONS if op.name == operation)
    command = CLI_COMMANDS[operation]
    parser = _subparser(command)
    by_dest = {a.dest: a for a in parser._actions}
    for name, info in model.model_fields.items():
        if server_only(model, name) is not None:
            assert name not in by_dest, f"symfuse {command}: {name} is for servers only"
            continue
        assert name in by_dest, f"symfuse {command}: no option for {name}"
        action = by_dest[name]
        if is_primary(model, name):
            assert not action.option_strings, f"{name} should be positional"
            continue
        assert action.option_strings[0] == f"--{name.replace('_', '-')}"
        assert action.default is None  # unset options take the model's default
        base = info.annotation
        if isinstance(base, type) and issubclass(base, Enum):
            assert action.choices == [m.value for m in base]
        low, high = bounds(model, name)
        if low is not None and high is not None:
            assert f"between {low:g} and {high:g}" in (action.help or "")


# One vocabulary across the tools: a model field published under another name.
PUBLISHED_AS = {
    ("text", "pattern"): "query",
    ("read", "path"): "target",
    ("usages", "kinds"): "kind",
}
# Older ways of naming what `target` names: accepted, listed neither in the schema nor in options.
OLDER_TARGETS = {"symbol_id", "name", "path"}


async def test_every_request_field_is_an_mcp_argument(tmp_path: Path) -> None:
    """Every field is a listed argument (with the model's bounds, the agents' cap and the
    model's required fields), or named in the tool's ``options``, or an older way to name
    the target."""
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def a():\n    return 1\n")
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "index")
    server = build_mcp_server(config, MCPOptions(tools="all"))
    tools = {tool.name: tool for tool in await server.list_tools()}
    for op in OPERATIONS:
        model, schema = op.request, tools[MCP_TOOLS[op.name]].input_schema
        properties = schema["properties"]
        options = properties["options"]["description"]
        for name, info in model.model_fields.items():
            public = PUBLISHED_AS.get((op.name, name), name)
            if public not in properties:
                assert re.search(rf"\b{public}\b", options) or (
                    name in OLDER_TARGETS and "target" in properties
                ), f"{MCP_TOOLS[op.name]}: {name} is neither listed nor in options"
                continue
            prop = properties[public]
            if info.is_required():
                assert public in schema.get("required", ()), (op.name, name)
            low, high = bounds(model, name)
            agents = for_agents(model, name)
            if agents is not None and agents.cap is not None:
                high = agents.cap
            if low is not None:
                assert prop.get("minimum", prop.get("exclusiveMinimum")) == low, (op.name, name)
            if high is not None:
                assert prop.get("maximum") == high, (op.name, name)
        assert "max_tokens" in options or "max_tokens" in model.model_fields
        assert "output_format" in options
