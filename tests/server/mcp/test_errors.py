"""Bad requests get tool errors naming the field and the fix; nothing outside the roots is read."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.support.mcp import (
    Workspace,
    call,
    call_error,
    mcp_session,
    mcp_stdio_session,
    server_log,
)


@pytest.mark.slow  # symfuse mcp over stdio
async def test_invalid_arguments_name_the_field(workspace: Workspace) -> None:
    async with mcp_stdio_session(workspace) as session:  # the real command
        cases = [
            ("search", {"query": "x", "limit": 0}, ["limit", "between 1 and 200"]),
            ("search", {"query": "x", "limit": "ten"}, ["limit", "integer between 1 and 200"]),
            ("search", {"query": "x", "semantic": "maybe"}, ["semantic"]),
            ("search", {"query": "x", "kind": "klass"}, ["kind", "'klass'", "class"]),
            ("search", {"query": ""}, ["query", "empty"]),
            ("search", {"query": "x", "fusion_weights": {"bogus": 1}}, ["fusion_weights.bogus"]),
            ("search", {"query": "x", "mode": "drill"}, ["drill_from", "required"]),
            ("search", {"query": "x", "max_tokens": 5}, ["max_tokens"]),
            ("search", {"query": "x", "output_format": "xml"}, ["output_format"]),
            ("search", {"limit": 3}, ["query", "is required", "a name"]),
            ("search", {"query": "x", "options": {"fuzzy": "yes"}}, ["fuzzy", "true or false"]),
            ("search", {"query": "x", "options": [1]}, ["options", "must be an object"]),
            ("search_text", {"query": "(a+)+$", "regex": True}, ["query", "nested"]),
            ("search_text", {"query": "x", "pattern": "y"}, ["query", "given twice", "pattern"]),
            ("search_text", {"regex": True}, ["query", "is required"]),
            ("search_text", {"pattern": "(", "regex": True}, ["query", "not a valid regular"]),
            (
                "search_text",
                {"query": "x", "edit_distance": 4},
                ["edit_distance", "between 0 and 3"],
            ),
            ("search_text", {"query": "x", "regex": True, "fuzzy": True}, ["regex"]),
            ("get_symbol", {}, ["target", "is required", "symbol_id"]),
            ("get_symbol", {"symbol_id": "a", "path": "b"}, ["path", "not both"]),
            ("get_symbol", {"path": "shop/models.py", "context_lines": 99}, ["context_lines"]),
            ("find_usages", {}, ["target", "is required", "symbol_id"]),
            ("find_usages", {"target": "checkout", "kind": ["calls"]}, ["kind", "call, reference"]),
            # a blank text is no argument (it raised a TypeError inside pydantic)
            ("find_usages", {"target": ""}, ["target", "give a symbol id or a name"]),
            ("find_usages", {"target": " ", "file": ""}, ["target", "give a symbol id"]),
            ("get_symbol", {"target": "  "}, ["target", "give a symbol_id, or a path"]),
            ("impact", {"target": ""}, ["target", "or a diff"]),
            ("impact", {"target": "checkout", "diff": "x"}, ["diff", "not both"]),
            ("callers", {"name": ""}, ["target", "give a symbol id or a name"]),
            (
                "callers",
                {"name": "total"},
                ["name", "2 definitions", "as the target", '"Order.total"'],
            ),
            ("callers", {"target": "total"}, ["target", "2 definitions", "as the target"]),
            ("callers", {"name": "checkout", "depth": 11}, ["depth"]),
            ("type_hierarchy", {"name": "Order", "direction": "up"}, ["direction"]),
            ("reindex", {"paths": [""]}, ["paths", "must not be empty"]),
            (
                "read_file",
                {"target": "README.md", "start_line": 0},
                ["start_line", "between 1 and 100000000"],
            ),
        ]
        for tool, arguments, expected in cases:
            message = await call_error(session, tool, **arguments)
            for fragment in expected:
                assert fragment in message, (tool, arguments, message)
            # One line in our words: no pydantic report, no doubled field names.
            assert "\n" not in message, message
            assert "pydantic" not in message, message
            assert not re.search(r": \w+: \w+: ", message), message
        # The server is still there and answers.
        status = await call(session, "index_status")
        assert status["files"] == 7  # six source files and README.md
    assert "Traceback" not in server_log(workspace)


async def test_unknown_symbol_ids_and_names(workspace: Workspace) -> None:
    bad = "shop/models.py::Nope#class"
    async with mcp_session(workspace) as session:
        for tool in ("get_symbol", "find_usages", "callers", "callees", "type_hierarchy"):
            message = await call_error(session, tool, symbol_id=bad)
            assert "symbol_id" in message, (tool, message)
            assert repr(bad) in message, (tool, message)
            assert "search" in message, (tool, message)  # the fix: find the id with search
        message = await call_error(session, "find_usages", name="no_such_thing")
        assert "name" in message
        message = await call_error(session, "get_symbol", path="shop/nothing.py")
        assert "path" in message
        assert "not an indexed file" in message
        message = await call_error(session, "get_symbol", path="shop/models.py:400")
        assert "line 400" in message
    assert "Traceback" not in server_log(workspace)


async def test_paths_outside_the_roots_are_refused_and_never_read(
    workspace: Workspace, tmp_path: Path
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.py").write_text('SECRET = "hunter2"\n\n\ndef secret_function():\n')
    os.symlink(outside, workspace.root / "escape")  # a directory symlink leading out
    os.symlink(outside / "secret.py", workspace.root / "shop" / "leak.py")  # a file symlink
    paths = [
        "../../etc/passwd",
        "/etc/passwd",
        str(outside / "secret.py"),
        "escape/secret.py",
        "shop/leak.py",
        "shop/../../outside/secret.py",
        "file:///etc/passwd",
    ]
    async with mcp_session(workspace) as session:
        for path in paths:
            message = await call_error(session, "get_symbol", path=path)
            assert message.startswith("Error executing tool get_symbol: path:"), message
            assert "outside the workspace" in message, message
            assert "relative to a workspace root" in message, message
        message = await call_error(session, "find_usages", name="checkout", file="/etc/passwd")
        assert "file:" in message
        assert "outside the workspace" in message
        message = await call_error(session, "reindex", paths=["shop/models.py", "../x.py"])
        assert "paths[1]" in message
        assert "outside the workspace" in message
        message = await call_error(
            session, "search", query="x", mode="drill", drill_from="../../etc"
        )
        assert "drill_from" in message
        # Nothing behind the symlinks was indexed or read.
        found = await call(session, "search", query="secret_function")
        assert found["items"] == []
        text = await call(session, "search_text", pattern="hunter2")
        assert text["total"] == 0
        status = await call(session, "index_status")
        assert status["files"] == 7  # six source files and README.md
    assert "Traceback" not in server_log(workspace)
