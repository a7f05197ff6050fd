"""Every field of every request model reaches the CLI and MCP, with the same default and bounds.

The CLI options and the MCP tool schemas are generated from the query layer's
request models; this test reads what each front end actually publishes (the
parsed command line, the tools the MCP server lists) and compares it with the
models, so a field added to a model and missing from a front end fails here.
"""

from __future__ import annotations

import argparse
from enum import Enum
from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.ranking.query.fields import bounds, for_agents, is_primary
from symfuse.ranking.query.operations import OPERATIONS
from symfuse.server.cli.main import build_parser
from symfuse.server.mcp.server import build_mcp_server

MCP_TOOLS = {
    "search": "search",
    "usages": "find_usages",
    "text": "search_text",
    "get": "get_symbol",
    "callers": "callers",
    "callees": "callees",
    "hierarchy": "type_hierarchy",
}
CLI_COMMANDS = ("search", "usages", "text", "get", "callers", "callees", "hierarchy")


def _subparser(command: str) -> argparse.ArgumentParser:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return sub.choices[command]


def _plain(value: Any) -> Any:
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


@pytest.mark.parametrize("command", CLI_COMMANDS)
def test_every_request_field_is_a_command_line_option(command: str) -> None:
    model = next(op.request for op in OPERATIONS if op.name == command)
    parser = _subparser(command)
    by_dest = {a.dest: a for a in parser._actions}
    for name, info in model.model_fields.items():
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


async def test_every_request_field_is_an_mcp_parameter(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "a.py").write_text("def a():\n    return 1\n")
    server = build_mcp_server(IndexConfig(roots=(root,), index_dir=tmp_path / "index"))
    tools = {tool.name: tool for tool in await server.list_tools()}
    for op in OPERATIONS:
        if op.name not in MCP_TOOLS:
            continue
        model, schema = op.request, tools[MCP_TOOLS[op.name]].input_schema
        properties = schema["properties"]
        for name, info in model.model_fields.items():
            assert name in properties, f"{MCP_TOOLS[op.name]}: no parameter {name}"
            prop = properties[name]
            # An optional number is published as anyOf [number with bounds, null].
            bounded = next(
                (s for s in prop.get("anyOf", ()) if "type" in s and s["type"] != "null"), prop
            )
            agents = for_agents(model, name)
            expected_default = info.default
            if agents is not None and agents.default is not None:
                expected_default = agents.default
            if info.is_required():
                assert name in schema.get("required", ())
            elif name != "fusion_weights":  # a weights object: its default is the defaults
                assert prop.get("default") == _plain(expected_default), (op.name, name)
            low, high = bounds(model, name)
            if agents is not None and agents.cap is not None:
                high = agents.cap
            if low is not None:
                found = bounded.get("minimum", bounded.get("exclusiveMinimum"))
                assert found == low, (op.name, name)
            if high is not None:
                assert bounded.get("maximum") == high, (op.name, name)
        assert {"output_format", "max_tokens"} <= set(properties)
