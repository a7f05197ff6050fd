"""The honest contract and file reads (issue 19 items 5 and 7) through the installed
``symfuse``: exit 2 on bad usage and 1 on a fatal error for every command, ``read``,
the new search filters and ``text --code-only``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("contract") / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    (root / "NOTES.txt").write_text("first line\nprocess_payment is documented here\nlast\n")
    (root / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    return root


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory, ws: Path) -> Path:
    directory = tmp_path_factory.mktemp("contract-index")
    run_symfuse(["index", str(ws), "--index-dir", str(directory), "--no-progress"])
    return directory


def run(ws: Path, index_dir: Path, *args: str) -> tuple[int, str, str]:
    done = run_symfuse(
        [*args, "--root", str(ws), "--index-dir", str(index_dir)], check=False, cwd=ws
    )
    return done.returncode, done.stdout, done.stderr


def data(ws: Path, index_dir: Path, *args: str) -> dict[str, Any]:
    code, out, err = run(ws, index_dir, *args, "-f", "json")
    assert code == 0, err
    answer: dict[str, Any] = json.loads(out)
    return answer


BAD_USAGE = [
    ("search", "x", "--limit", "0"),
    ("search", ""),
    ("search", "x", "--min-score", "2"),
    ("search", "x", "--exclude-language", "klingon"),
    ("usages",),
    ("usages", "x", "--limit", "0"),
    ("text", ""),
    ("text", "(a+)+$", "--regex"),
    ("get",),
    ("callers",),
    ("callees", "x", "--depth", "0"),
    ("hierarchy",),
    ("hierarchy", "x", "--direction", "sideways"),
    ("deps", ""),
    ("read", ""),
    ("read", "NOTES.txt", "--start-line", "3", "--end-line", "1"),
    ("read", "logo.png"),
    ("search", "x", "--no-such-option"),
]
FATAL = [
    ("get", "shop/nope.py"),
    ("deps", "shop/nope.py"),
    ("callers", "no_such_function"),
    ("read", "nope.txt"),
    ("read", "../outside.txt"),
]


@pytest.mark.parametrize("args", BAD_USAGE, ids=" ".join)
def test_bad_usage_exits_two_with_one_line(ws: Path, index_dir: Path, args: tuple[str]) -> None:
    code, out, err = run(ws, index_dir, *args)
    assert code == 2, err
    assert out == ""
    assert "error" in err


@pytest.mark.parametrize("args", FATAL, ids=" ".join)
def test_fatal_errors_exit_one_with_one_line(ws: Path, index_dir: Path, args: tuple[str]) -> None:
    code, out, err = run(ws, index_dir, *args)
    assert code == 1, err
    assert out == ""
    assert len(err.strip().splitlines()) == 1, err


def test_read_prints_the_lines_of_any_text_file(ws: Path, index_dir: Path) -> None:
    code, out, err = run(ws, index_dir, "read", "NOTES.txt:2-3")
    assert code == 0, err
    assert out == "process_payment is documented here\nlast\n"
    answer = data(ws, index_dir, "read", "NOTES.txt:2-")
    assert (answer["file"], answer["start_line"], answer["end_line"]) == ("NOTES.txt", 2, 3)
    assert answer["total_lines"] == 3
    code, out, err = run(ws, index_dir, "read", "shop/models.py", "--start-line", "1")
    assert out.splitlines()[0] == (ws / "shop" / "models.py").read_text().splitlines()[0]


def test_search_filters_reach_the_command_line(ws: Path, index_dir: Path) -> None:
    every = data(ws, index_dir, "search", "process_payment", "--limit", "100")
    strong = data(ws, index_dir, "search", "process_payment", "--min-score", "0.7")
    assert 0 < strong["total"] < every["total"]
    assert all(item["score"] >= 0.7 for item in strong["items"])
    only_go = data(ws, index_dir, "search", "main", "--file-extensions", ".go")
    assert only_go["items"]
    assert all(item["file"].endswith(".go") for item in only_go["items"])
    no_go = data(ws, index_dir, "search", "main", "--exclude-language", "go")
    assert all(not item["file"].endswith(".go") for item in no_go["items"])


def test_text_reads_text_files_unless_code_only(ws: Path, index_dir: Path) -> None:
    every = data(ws, index_dir, "text", "process_payment")
    code = data(ws, index_dir, "text", "process_payment", "--code-only")
    files = {hit["file"] for hit in every["hits"]}
    assert "NOTES.txt" in files
    assert {hit["file"] for hit in code["hits"]} == files - {"NOTES.txt"}
