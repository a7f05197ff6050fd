"""Names everywhere, through the installed command (issue 36, item 5): every command
that takes a symbol takes an id, a name, a qualified name or path:line, resolved one
way; an ambiguous name is answered alike by each, in the CLI's own words."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command

RAISE = "minihttp/_models.py::Response.raise_for_status#method"
CLIENT_SEND = "minihttp/_client.py::Client.send#method"


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("targets")
    root = shutil.copytree(FIXTURES / "usages_truth" / "python", base / "ws")
    return root, base / "index"


def run(ws: tuple[Path, Path], *args: str, code: int = 0) -> Any:
    root, index = ws
    done = run_symfuse(
        [*args, "--root", str(root), "--index-dir", str(index), "-f", "json"], check=False
    )
    assert done.returncode == code, done.stderr
    return json.loads(done.stdout) if code == 0 else done.stderr.strip()


def test_get_takes_a_name(ws: tuple[Path, Path]) -> None:
    by_name = run(ws, "get", "raise_for_status")
    assert by_name["symbol_id"] == RAISE
    assert run(ws, "get", "Response.raise_for_status")["symbol_id"] == RAISE
    assert run(ws, "get", "minihttp/_models.py:17")["symbol_id"] == RAISE
    assert run(ws, "get", RAISE) == by_name


def test_every_command_takes_each_form_of_target(ws: tuple[Path, Path]) -> None:
    for command in ("usages", "callers", "callees", "impact"):
        answers = [
            run(ws, command, target)
            for target in (
                CLIENT_SEND,
                "Client.send",
                "_client.Client.send",
                "minihttp/_client.py:9",
            )
        ]
        assert all(a == answers[0] for a in answers[1:]), command
    hierarchy = [run(ws, "hierarchy", t) for t in ("Client", "minihttp/_client.py:4")]
    assert hierarchy[0] == hierarchy[1]
    assert [s["name"] for s in hierarchy[0]["subtypes"]] == ["FakeClient"]


def test_an_ambiguous_name_gets_one_answer_from_every_command(ws: tuple[Path, Path]) -> None:
    lines = {c: run(ws, c, "send", code=2) for c in ("get", "usages", "callers", "impact")}
    for command, line in lines.items():
        assert line.startswith("symfuse: error: TARGET: 'send' names 3 definitions; say which: ")
        assert (
            f"symfuse {command} Client.send (method minihttp._client.Client.send, "
            f"minihttp/_client.py:9, id {CLIENT_SEND})"
        ) in line
        assert f"symfuse {command} AsyncClient.send (" in line
        assert f"symfuse {command} FakeClient.send (" in line
        assert "symbol_id" not in line
        assert "add file" not in line
    suggested = run(ws, "callers", "AsyncClient.send")  # the argument offered works
    assert suggested["root"]["symbol_id"] == "minihttp/_client.py::AsyncClient.send#method"


def test_a_name_that_is_nothing_says_so(ws: tuple[Path, Path]) -> None:
    nothing = run(ws, "get", "no_such_thing", code=1)
    assert nothing.startswith("symfuse: error: target: no definition named 'no_such_thing'")
    unknown = run(ws, "callers", "minihttp/_client.py::Nope#class", code=1)
    assert unknown.startswith("symfuse: error: target: unknown symbol")
    for line in (nothing, unknown):  # the CLI's words, not the MCP tools'
        assert "search_text" not in line
        assert "get_symbol" not in line
    assert "is not an indexed file" in run(ws, "get", "minihttp/nothing.py", code=1)
    assert "is not an indexed file" in run(ws, "get", "nothing.py", code=1)  # no folder


def test_a_line_with_no_definition_says_so(ws: tuple[Path, Path]) -> None:
    line = run(ws, "callers", "minihttp/_client.py:2", code=1)
    assert line == (
        "symfuse: error: target: no definition contains line 2 of minihttp/_client.py; "
        "its outline (the path alone) lists its definitions"
    )
