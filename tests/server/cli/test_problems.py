"""Problems stored with the index, through the installed command (issue 37, item 5): a
re-run of ``symfuse index`` on an up-to-date index still counts the files with problems
(files, not problems), ``-v`` and ``symfuse problems`` list them, and the files left out
are named by default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli import run_symfuse

pytestmark = pytest.mark.slow  # runs the installed symfuse command

BROKEN = "def broken(:\n    pass\n"
# two problems in one file: not UTF-8, and a syntax error
LATIN = b'def latin(:\n    return "caf\xe9"\n'


@pytest.fixture
def ws(tmp_path: Path) -> tuple[Path, list[str]]:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "good.py").write_text("def ok():\n    return 1\n")
    (root / "broken.py").write_text(BROKEN)
    (root / "latin.py").write_bytes(LATIN)
    (root / "blob.py").write_bytes(b"x = 1\n\0\0\0")  # binary: left out
    return root, [str(root), "--index-dir", str(tmp_path / "index"), "--no-progress"]


def index(args: list[str], *extra: str) -> list[str]:
    return run_symfuse(["index", *args, *extra]).stdout.splitlines()


def test_a_re_run_counts_and_lists_the_stored_problems(ws: tuple[Path, list[str]]) -> None:
    _, args = ws
    first = index(args)
    again = index(args)  # nothing changed: no file parsed again
    assert "0 parsed" in again[0]
    for out in (first, again):
        assert (
            "2 files with problems (indexed what could be read); symfuse problems or -v "
            "lists them" in out
        )  # latin.py has two problems: files are counted
        # left-out files are named without -v
        assert out[-2:] == ["1 file skipped, not indexed:", "  blob.py: binary file"]
    verbose = index(args, "-v")
    listed = verbose[verbose.index("2 files with problems (indexed what could be read):") + 1 :]
    assert [line for line in listed if line.startswith("  ") and "py: " in line][:3] == [
        "  broken.py: syntax errors from line 1; indexed what the parser recovered",
        "  latin.py: not valid UTF-8 at byte 27; undecodable bytes replaced",
        "  latin.py: syntax errors from line 1; indexed what the parser recovered",
    ]


def test_symfuse_problems_lists_them_and_follows_the_files(ws: tuple[Path, list[str]]) -> None:
    root, args = ws
    index(args)
    shown = run_symfuse(["problems", *args]).stdout.splitlines()
    assert shown == [
        "broken.py: syntax errors from line 1; indexed what the parser recovered",
        "latin.py: not valid UTF-8 at byte 27; undecodable bytes replaced",
        "latin.py: syntax errors from line 1; indexed what the parser recovered",
        "blob.py: skipped: binary file",
    ]
    # fixed and removed files drop out of the stored problems
    (root / "broken.py").write_text("def mended():\n    pass\n")
    (root / "blob.py").unlink()
    data = json.loads(run_symfuse(["problems", *args, "-f", "json"]).stdout)
    assert data["files_with_problems"] == 1
    assert [p["file"] for p in data["problems"]] == ["latin.py", "latin.py"]
    assert data["skipped_files"] == []
    summary = json.loads(run_symfuse(["index", *args, "-f", "json"]).stdout)
    assert summary["files_with_problems"] == 1
    assert summary["parsed"] == 0  # the problems command brought the index up to date


def test_no_problems_no_lines(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "good.py").write_text("def ok():\n    return 1\n")
    args = [str(root), "--index-dir", str(tmp_path / "index"), "--no-progress"]
    assert len(index(args)) == 2  # the summary and the languages
    done = run_symfuse(["problems", *args])
    assert (done.stdout, done.returncode) == ("", 0)
