"""File units and ``--group-by file`` through the installed command (issue 35)."""

from __future__ import annotations

import json
import re
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
    (found,) = [i for i in data["items"] if i["file"] == "server/middleware.js"]
    assert (found["kind"], found["line"]) == ("file", 1)  # it defines nothing: the file
    table = search(ws, "payment", "--kind", "file", "-f", "table")
    assert table.splitlines()[1].split()[1:4] == ["file", "payment.py", "shop/payment.py"]
    assert search(ws, "payment", "--kind", "file").splitlines()[0] == (
        "shop/payment.py:1:1: payment.py file"
    )


def test_group_by_file_prints_each_file_then_its_hits(ws: tuple[Path, Path]) -> None:
    lines = search(ws, "order paid", "--group-by", "file", "--limit", "2", "-f", "table")
    lines = lines.splitlines()
    headers = [line for line in lines if line.startswith("shop/") or line.startswith("server/")]
    assert len(headers) == 2
    assert lines[0] == headers[0]
    assert lines[1].split()[:2] == ["SCORE", "KIND"]  # each file's hits as a table, no file column
    assert "FILE" not in lines[1].split()
    assert lines[-1].startswith("2 of ")
    assert " files " in lines[-1]
    # The text form: each file, then its hits as `line:col: name kind` (rg --heading).
    text = search(ws, "order paid", "--group-by", "file", "--limit", "2").splitlines()
    assert [line for line in text if not line.startswith("  ")] == headers
    assert all(re.fullmatch(r"  \d+:\d+: \S+ \w+", line) for line in text if line.startswith("  "))
    data = json.loads(search(ws, "order paid", "--group-by", "file", "-f", "json"))
    assert [entry["file"] for entry in data["files"]][:2] == headers


def test_a_region_is_an_answer_and_a_kind(tmp_path: Path) -> None:
    root = shutil.copytree(FIXTURES / "regions", tmp_path / "ws")
    ws = (root, tmp_path / "index")
    data = json.loads(search(ws, "mail the daily sales report from cron", "-f", "json"))
    first = data["items"][0]
    assert (first["kind"], first["file"], first["line"]) == ("region", "shop/nightly.py", 13)
    assert search(ws, "routes", "--kind", "region").splitlines()[0] == (
        "server/routes.js:15:1: 14-18 region"
    )
    shown = run_symfuse(
        ["get", first["symbol_id"], "--root", str(root), "--index-dir", str(ws[1])]
    ).stdout
    assert shown.splitlines()[0] == "region shop/nightly.py:13-17  (shop/nightly.py:13-17)"
    assert '   17      mail_report("sales", recipients=["owner@example.com"])' in shown
    assert "callers:" not in shown  # a region is no node of the call graph
