"""File units and ``--group-by file`` through the installed command (issue 35)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("file_units")
    return shutil.copytree(FIXTURES / "file_units", base / "ws"), base / "index"


def search(ws: tuple[Path, Path], *args: str) -> str:
    root, index = ws
    return run_symfuse(["search", *args, "--root", str(root), "--index-dir", str(index)]).stdout


def test_a_file_is_an_answer_and_a_kind(ws: tuple[Path, Path]) -> None:
    data = json.loads(search(ws, "which middleware compresses responses", "-f", "json"))
    first = data["items"][0]
    assert (first["kind"], first["file"], first["line"]) == ("file", "server/middleware.js", 1)
    text = search(ws, "payment", "--kind", "file")
    assert text.splitlines()[1].split()[1:4] == ["file", "payment.py", "shop/payment.py"]


def test_group_by_file_prints_each_file_then_its_hits(ws: tuple[Path, Path]) -> None:
    lines = search(ws, "order paid", "--group-by", "file", "--limit", "2").splitlines()
    headers = [line for line in lines if line.startswith("shop/") or line.startswith("server/")]
    assert len(headers) == 2
    assert lines[0] == headers[0]
    assert lines[1].split()[:2] == ["SCORE", "KIND"]  # each file's hits as a table, no file column
    assert "FILE" not in lines[1].split()
    assert lines[-1].startswith("2 of ")
    assert " files " in lines[-1]
    data = json.loads(search(ws, "order paid", "--group-by", "file", "-f", "json"))
    assert [entry["file"] for entry in data["files"]][:2] == headers
