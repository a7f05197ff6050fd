"""``symfuse text`` as a grep user expects it (issue 37, item 5): smart case, code before
documentation, each line printed once, jumpable hit lines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.cli import run_symfuse

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command

CODE = """class Foo:
    pass


def foo():
    return Foo()  # foo makes a Foo
"""
DOC = "# Notes\n\nfoo is lower case here.\n"


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    base = tmp_path_factory.mktemp("text_search")
    root = base / "ws"
    root.mkdir()
    (root / "a_notes.md").write_text(DOC, encoding="utf-8")  # first by name, last as a doc
    (root / "b_code.py").write_text(CODE, encoding="utf-8")
    return ["--root", str(root), "--index-dir", str(base / "index")]


def hits(ws: list[str], *args: str) -> list[tuple[str, int]]:
    """(file, line) of each hit line (``file:line:col: text``) the command prints."""
    done = run_symfuse(["text", *args, *ws, "--snippet-lines", "0"], check=False)
    assert done.returncode == (0 if done.stdout else 1), done.stderr  # 1: no match, as grep
    out = done.stdout
    found = [re.fullmatch(r"([^:]+):(\d+):(\d+): .*", line) for line in out.splitlines()]
    assert all(found), out
    return [(m[1], int(m[2])) for m in found if m]


def test_smart_case(ws: list[str]) -> None:
    lower = hits(ws, "foo")  # all lower case: case is ignored
    assert ("b_code.py", 1) in lower  # class Foo
    assert ("b_code.py", 5) in lower  # def foo
    assert hits(ws, "Foo") == [("b_code.py", 1), ("b_code.py", 6)]  # a capital: exact case
    assert hits(ws, "-i", "Foo") == lower
    assert hits(ws, "--ignore-case", "Foo") == lower
    assert hits(ws, "-s", "foo") == [("b_code.py", 5), ("b_code.py", 6), ("a_notes.md", 3)]
    assert hits(ws, "--case-sensitive", "foo") == hits(ws, "-s", "foo")
    assert hits(ws, r"\Sfoo", "--regex") == []  # \S is an escape, not a capital
    assert hits(ws, r"f\w\w\(", "--regex") == [("b_code.py", 5), ("b_code.py", 6)]  # Foo()


def test_code_comes_before_documentation(ws: list[str]) -> None:
    files = [file for file, _ in hits(ws, "foo")]
    assert files == ["b_code.py", "b_code.py", "b_code.py", "a_notes.md"]


def test_context_lines_are_printed_once(ws: list[str]) -> None:
    out = run_symfuse(["text", "Foo", "-s", *ws, "--snippet-lines", "2"]).stdout.splitlines()
    numbers = [int(m[2]) for m in (re.match(r"([^:-]+)[:-](\d+)[:-]", x) for x in out) if m]
    assert numbers == sorted(set(numbers))  # no line twice, in order
    assert out[0] == "b_code.py:1:7: class Foo:"
    assert "b_code.py-2-     pass" in out
    assert "b_code.py:6:12:     return Foo()  # foo makes a Foo" in out
    assert "--" not in out  # lines 1-3 and 4-6 touch: one run
    apart = run_symfuse(["text", "o", "-s", *ws, "--snippet-lines", "0"]).stdout
    assert "--" not in apart.splitlines()  # no separators without context


def test_no_match_prints_nothing_on_stdout(ws: list[str]) -> None:
    done = run_symfuse(["text", "no such text anywhere", *ws], check=False)
    assert done.stdout == ""
    assert "no match" in done.stderr


@pytest.mark.parametrize("output_format", ["text", "json"])
def test_exit_codes_are_grep_s(ws: list[str], output_format: str) -> None:
    """0 on a match, 1 on none, 2 on an error, as grep and rg: ``if symfuse text ...``."""
    found = run_symfuse(["text", "foo", *ws, "-f", output_format], check=False)
    assert found.returncode == 0, found.stderr
    none = run_symfuse(["text", "no such text anywhere", *ws, "-f", output_format], check=False)
    assert none.returncode == 1, none.stderr
    bad_regex = run_symfuse(["text", "a(", "--regex", *ws, "-f", output_format], check=False)
    assert bad_regex.returncode == 2
    assert bad_regex.stderr.startswith("symfuse: error: pattern: not a valid regular expression")


def test_a_missing_root_is_an_error_not_no_match(tmp_path: Path) -> None:
    gone = tmp_path / "nope"
    done = run_symfuse(["text", "foo", str(gone), "--index-dir", str(tmp_path / "i")], check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == f"symfuse: error: no such directory: {gone}"
    # other commands keep exit 1 for a fatal error
    search = run_symfuse(["search", "foo", str(gone)], check=False)
    assert search.returncode == 1
