"""Jumpable ``file:line:col: message`` lines from the installed command (issue 37, item 5):
what Vim's default errorformat (``%f:%l:%c:%m``), a terminal's link detection and an
editor's problem matcher read."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command

WORKSPACE = FIXTURES / "workspace"
NAVIGATION = FIXTURES / "navigation"
# Vim's %f:%l:%c:%m, as a regex: a path, a line, a column, then the message.
LOCATION = re.compile(r"(?P<file>[^:\s][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<message>.+)")


def located(stdout: str) -> list[tuple[str, int, int, str]]:
    """Every stdout line as (file, line, col, message); fails on a line of another shape."""
    out = []
    for text in stdout.splitlines():
        match = LOCATION.fullmatch(text)
        assert match is not None, f"not a location line: {text!r}"
        out.append((match["file"], int(match["line"]), int(match["col"]), match["message"]))
    return out


def test_search_prints_location_lines_with_the_class_in_the_name(tmp_path: Path) -> None:
    where = [str(WORKSPACE), "--index-dir", str(tmp_path / "index")]
    result = run_symfuse(["search", "send", *where, "--limit", "5"])
    rows = located(result.stdout)
    assert ("shop/services/email.py", 17, 9, "EmailSender.send method") in rows
    source = (WORKSPACE / "shop/services/email.py").read_text().splitlines()
    assert source[16][8:].startswith("send(")  # line and column land on the name
    assert "more with --offset 5" in result.stderr  # stdout holds nothing but locations
    ctor = located(run_symfuse(["search", "User.__init__", *where, "--limit", "3"]).stdout)
    assert ("shop/models.py", 39, 9, "User.__init__ constructor") in ctor


def test_usages_callers_and_callees_print_location_lines(tmp_path: Path) -> None:
    where = ["--root", str(NAVIGATION), "--index-dir", str(tmp_path / "index")]
    usages = located(run_symfuse(["usages", "format_price", *where]).stdout)
    assert ("shop/models.py", 31, 32) in {row[:3] for row in usages}
    call = next(row for row in usages if row[:2] == ("shop/models.py", 31))
    assert call[3].startswith("call in Order.label: return ")
    callers = located(run_symfuse(["callers", "format_price", *where]).stdout)
    assert ("shop/models.py", 29, 9, "Order.label method  calls at 31:32") in callers
    callees = located(run_symfuse(["callees", "checkout", *where]).stdout)
    assert ("shop/util.py", 12, 5, "format_price function  called at 13:17") in callees
