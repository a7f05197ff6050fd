"""The installed ``symfuse`` command: usages, text, get, callers, callees, hierarchy and errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import toon_format

from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command

FIXTURE = FIXTURES / "navigation"
ORDER = "shop/models.py::Order#class"
FORMAT_PRICE = "shop/util.py::format_price#function"


def _command() -> list[str]:
    script = Path(sys.executable).with_name("symfuse")
    found = str(script) if script.exists() else shutil.which("symfuse")
    if found is None:
        pytest.fail("the symfuse command is not installed; run `pip install -e .[test]`")
    return [found]


@pytest.fixture(scope="module")
def nav_ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cli") / "navigation"
    shutil.copytree(FIXTURE, root)
    (root / "big.py").write_text('BIG = "' + "a" * 5000 + '"\n', encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def nav_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-index")


def symfuse(
    ws: Path, index_dir: Path, *args: str, fmt: str = "json", rg: str | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            *_command(),
            *args,
            "--root",
            str(ws),
            "--index-dir",
            str(index_dir),
            "--output-format",
            fmt,
        ],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONUTF8="1", **({"SYMFUSE_RG": rg} if rg else {})),
        timeout=120,
        check=False,
    )


def answer(ws: Path, index_dir: Path, *args: str) -> dict[str, object]:
    done = symfuse(ws, index_dir, *args)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert isinstance(data, dict)
    return data


def fails(ws: Path, index_dir: Path, *args: str, code: int = 1, rg: str | None = None) -> str:
    """The one stderr line of a command that fails: ``code`` 1 (fatal) or 2 (bad usage)."""
    done = symfuse(ws, index_dir, *args, rg=rg)
    assert done.returncode == code, done.stdout
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def test_usages(nav_ws: Path, nav_index: Path) -> None:
    data = answer(nav_ws, nav_index, "usages", ORDER, "--include-declaration")
    usages = data["usages"]
    assert isinstance(usages, list)
    assert [(u["file"], u["line"], u["kind"]) for u in usages] == [
        ("shop/models.py", 20, "definition"),
        ("shop/models.py", 34, "inherit"),
        ("shop/models.py", 38, "reference"),  # `Order.total(self)`
        ("shop/service.py", 4, "import"),
        ("shop/service.py", 11, "call"),
        ("shop/service.py", 22, "type"),
    ]
    by_name = answer(
        nav_ws, nav_index, "usages", "--name", "Order.total", "--kinds", "call", "--group-by-file"
    )
    files = by_name["files"]
    assert isinstance(files, list)
    # The target's own file first; service.py's order.total() after `order = O(items)`
    # is Order's by the constructor, SpecialOrder's after `SpecialOrder(items)` is not
    assert [(f["file"], [u["line"] for u in f["usages"]]) for f in files] == [
        ("shop/models.py", [31, 38]),
        ("shop/service.py", [12]),
    ]
    text = symfuse(nav_ws, nav_index, "usages", "format_price", "--limit", "2", fmt="text")
    assert text.returncode == 0
    assert "5 total; more with --offset 2" in text.stderr  # stdout: location lines alone
    assert (
        text.stdout.splitlines()[0]
        == "shop/models.py:5:23: import: from shop.util import format_price"
    )
    table = symfuse(nav_ws, nav_index, "usages", "format_price", "--limit", "2", fmt="table")
    assert "5 total; more with --offset 2" in table.stdout


def test_usages_toon_decodes_to_the_json(nav_ws: Path, nav_index: Path) -> None:
    as_json = answer(nav_ws, nav_index, "usages", FORMAT_PRICE)
    toon = symfuse(nav_ws, nav_index, "usages", FORMAT_PRICE, fmt="toon")
    assert toon.returncode == 0
    assert toon_format.decode(toon.stdout) == as_json


def test_text(nav_ws: Path, nav_index: Path) -> None:
    data = answer(nav_ws, nav_index, "text", "format_price", "--snippet-lines", "1")
    assert data["total"] == 6
    hits = data["hits"]
    assert isinstance(hits, list)
    assert hits[0]["snippet"] == "4- \n5: from shop.util import format_price\n6- "
    regex = answer(
        nav_ws, nav_index, "text", r"^def \w+", "--regex", "--file-pattern", "shop/util.py"
    )
    assert regex["total"] == 3
    fuzzy = answer(nav_ws, nav_index, "text", "formt_price", "--edit-distance", "1")
    assert fuzzy["total"] == 6
    shown = symfuse(nav_ws, nav_index, "text", "Libellé", fmt="text")
    assert "shop/models.py:30:11:         # Libellé" in shown.stdout  # the line as it stands


def test_get(nav_ws: Path, nav_index: Path) -> None:
    detail = answer(nav_ws, nav_index, "get", "shop/util.py::format_price#function")
    assert detail["type"] == "symbol"
    assert detail["source"] == (
        'def format_price(cents):\n    """Format an amount in cents as euros."""\n'
        '    return f"{cents / 100:.2f} €"'
    )
    assert detail["callers_count"] == 4
    outline = answer(nav_ws, nav_index, "get", "shop/models.py")
    assert outline["type"] == "outline"
    at_line = answer(nav_ws, nav_index, "get", "--path", "shop/models.py", "--line", "26")
    assert at_line["symbol_id"] == "shop/models.py::Order.total#method"
    shown = symfuse(nav_ws, nav_index, "get", "shop/models.py:26", fmt="text")
    assert '   26          """Sum of the item prices."""' in shown.stdout


def test_callers_and_callees(nav_ws: Path, nav_index: Path) -> None:
    callers = answer(nav_ws, nav_index, "callers", FORMAT_PRICE, "--depth", "2")
    items = callers["items"]
    assert isinstance(items, list)
    assert {i["name"] for i in items} >= {"label", "daily_report", "checkout", "audit"}
    callees = answer(nav_ws, nav_index, "callees", "shop/service.py::checkout#function")
    items = callees["items"]
    assert isinstance(items, list)
    assert {i["name"] for i in items} >= {"Order", "format_price"}


def test_hierarchy(nav_ws: Path, nav_index: Path) -> None:
    data = answer(nav_ws, nav_index, "hierarchy", ORDER)
    supertypes = data["supertypes"]
    subtypes = data["subtypes"]
    assert isinstance(supertypes, list)
    assert isinstance(subtypes, list)
    assert [t["name"] for t in supertypes] == ["Base", "Priced"]
    assert [t["name"] for t in subtypes] == ["SpecialOrder"]
    shown = symfuse(nav_ws, nav_index, "hierarchy", ORDER, "--direction", "subtypes", fmt="text")
    assert "SpecialOrder" in shown.stdout
    assert "supertypes" not in shown.stdout


def test_graph_commands_take_a_name(nav_ws: Path, nav_index: Path) -> None:
    by_name = answer(nav_ws, nav_index, "callers", "format_price", "--depth", "2")
    by_id = answer(nav_ws, nav_index, "callers", FORMAT_PRICE, "--depth", "2")
    assert by_name == by_id
    assert answer(nav_ws, nav_index, "hierarchy", "Order") == answer(
        nav_ws, nav_index, "hierarchy", ORDER
    )
    qualified = answer(nav_ws, nav_index, "hierarchy", "models.Order", "--file", "shop/models.py")
    assert qualified == answer(nav_ws, nav_index, "hierarchy", ORDER)
    line = fails(nav_ws, nav_index, "callers", "no_such_function")
    assert line.startswith("symfuse: error: target: no definition named 'no_such_function'")


def test_an_ambiguous_name_lists_the_candidates(nav_ws: Path, nav_index: Path) -> None:
    """One answer for an ambiguous name, in the CLI's words: the command to run for each
    candidate, with its kind, qualified name, file and id (issue 36, item 5)."""
    for command in ("callees", "usages", "get", "impact", "callers"):
        line = fails(nav_ws, nav_index, command, "total", code=2)  # the usage must say which
        assert line.startswith("symfuse: error: TARGET: 'total' names 3 definitions; say which: ")
        assert (
            f"symfuse {command} Order.total (method shop.models.Order.total, "
            "shop/models.py:25, id shop/models.py::Order.total#method)"
        ) in line
        assert f"symfuse {command} SpecialOrder.total (" in line
        assert f"symfuse {command} util.total (function shop.util.total, shop/util.py:17" in line
        assert "symbol_id" not in line
        assert "--name" not in line


def test_unknown_symbol_id(nav_ws: Path, nav_index: Path) -> None:
    for command in ("usages", "get", "callers", "callees", "hierarchy"):
        line = fails(nav_ws, nav_index, command, "shop/nope.py::Nope#class")
        assert line.startswith("symfuse: error: target: unknown symbol 'shop/nope.py::Nope")


def test_path_outside_the_workspace(nav_ws: Path, nav_index: Path) -> None:
    for path in ("../../etc/passwd", "/etc/passwd"):
        line = fails(nav_ws, nav_index, "get", path)
        assert line.startswith(f"symfuse: error: path: {path!r} is outside the workspace")
    line = fails(nav_ws, nav_index, "usages", "--name", "total", "--file", "/etc/hosts")
    assert line.startswith("symfuse: error: file: '/etc/hosts' is outside the workspace")


def test_bad_regex(nav_ws: Path, nav_index: Path) -> None:
    line = fails(nav_ws, nav_index, "text", "def (", "--regex", code=2)
    assert line.startswith("symfuse: error: pattern: not a valid regular expression")


def test_pathological_regex_is_refused_or_times_out(nav_ws: Path, nav_index: Path) -> None:
    line = fails(nav_ws, nav_index, "text", "(a+)+$", "--regex", code=2)
    assert "exponential time" in line
    # The budget's own message says it fired; no stopwatch around the command. Python's
    # regex engine backtracks on big.py's 5,000 a's (ripgrep, linear, would answer).
    line = fails(
        nav_ws, nav_index, "text", ".*a.*a.*a.*b", "--regex", "--timeout", "0.5", rg="off", code=2
    )  # text's errors exit 2, as grep's: its 1 means "no match"
    assert "took longer than the 0.5 s budget" in line


def test_bad_arguments_name_the_option(nav_ws: Path, nav_index: Path) -> None:
    line = fails(nav_ws, nav_index, "text", "x", "--snippet-lines", "99", code=2)
    assert line == "symfuse: error: snippet_lines: must be between 0 and 50"
    line = fails(nav_ws, nav_index, "usages", "total", "--kinds", "calls", code=2)
    assert line.startswith("symfuse: error: kinds: unknown usage kind 'calls'")
    line = fails(nav_ws, nav_index, "usages", code=2)
    assert line.startswith("symfuse: error: target: give a symbol id or a name")


def test_deps_follow_imports_both_ways(nav_ws: Path, nav_index: Path) -> None:
    data = answer(nav_ws, nav_index, "deps", "shop/service.py", "--depth", "2")
    imports = data["imports"]
    assert isinstance(imports, list)
    direct = {(d["file"], d["depth"]) for d in imports}
    # `from shop import util` (a module) and `from shop.models import Order as O`.
    assert {("shop/util.py", 1), ("shop/models.py", 1)} <= direct
    importers = data["importers"]
    assert isinstance(importers, list)
    assert [(d["file"], d["lines"]) for d in importers] == [("shop/report.py", [4])]
    assert data["external"] == []
    by_module = answer(nav_ws, nav_index, "deps", "shop.util")
    assert by_module["file"] == "shop/util.py"
    text = symfuse(nav_ws, nav_index, "deps", "shop/models.py", fmt="text").stdout
    assert text.splitlines()[0] == "dependencies of shop/models.py"
    assert "dataclasses" in text  # external, by module
    assert "no file or Python module" in fails(nav_ws, nav_index, "deps", "shop/nope.py")
