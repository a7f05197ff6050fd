"""``symfuse dead`` and ``symfuse impact`` through the installed command: JSON and text,
a diff from a file and from stdin, and bad arguments."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.support.cli import run_symfuse, symfuse_command, write_tree

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command

TREE = {
    "app/__init__.py": "",
    "app/core.py": "def used():\n    return 1\n\n\ndef _forgotten():\n    return 2\n",
    "app/main.py": "from app.core import used\n\n\ndef main():\n    return used()\n",
    "tests/test_core.py": "from app.core import used\n\n\ndef test_used():\n"
    "    assert used() == 1\n",
}
DIFF = """\
--- a/app/core.py
+++ b/app/core.py
@@ -1,2 +1,2 @@
 def used():
-    return 0
+    return 1
"""


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("analysis")
    return write_tree(base / "ws", TREE), base / "index"


def run(ws: tuple[Path, Path], *args: str, fmt: str = "json") -> str:
    root, index = ws
    done = run_symfuse([*args, "--root", str(root), "--index-dir", str(index), "-f", fmt])
    return done.stdout


def test_dead_lists_what_nothing_uses(ws: tuple[Path, Path]) -> None:
    data = json.loads(run(ws, "dead"))
    assert [(i["name"], i["reason"]) for i in data["items"]] == [
        ("_forgotten", "private and unreferenced")
    ]
    text = run(ws, "dead", "--kind", "function", "--include-tests", "true", fmt="text")
    assert "_forgotten" in text
    assert "test_used" not in text
    assert "1 total" in text
    root, index = ws
    bad = run_symfuse(
        ["dead", "--min-confidence", "7", "--root", str(root), "--index-dir", str(index)],
        check=False,
    )
    assert bad.returncode != 0
    assert "min_confidence" in bad.stderr


def test_impact_of_a_name_and_of_a_diff(ws: tuple[Path, Path]) -> None:
    data = json.loads(run(ws, "impact", "used"))
    reached = {(g["file"], i["name"]) for g in data["files"] for i in g["items"]}
    assert ("app/main.py", "main") in reached
    assert data["tests"] == ["tests/test_core.py"]
    root, index = ws
    diff_file = root.parent / "change.diff"
    diff_file.write_text(DIFF)
    from_file = json.loads(run(ws, "impact", "--diff", str(diff_file)))
    assert [c["name"] for c in from_file["changed"]] == ["used"]
    stdin = subprocess.run(
        [
            *symfuse_command(),
            "impact",
            "--diff",
            "-",
            "--root",
            str(root),
            "--index-dir",
            str(index),
            "-f",
            "text",
        ],
        input=DIFF,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "tests that exercise it: tests/test_core.py" in stdin.stdout
    nope = str(root.parent / "nope.diff")
    missing = run_symfuse(
        ["impact", "--diff", nope, "--root", str(root), "--index-dir", str(index)], check=False
    )
    assert missing.returncode == 2
    assert missing.stderr.startswith("symfuse: error: --diff: no such file")


def test_impact_text_says_how_many_changed_it_does_not_list(tmp_path: Path) -> None:
    many = "".join(f"def f{n}():\n    return {n}\n\n\n" for n in range(23))
    root = write_tree(tmp_path / "ws", {"many.py": many})
    done = run_symfuse(
        ["impact", "many.py", "--root", str(root), "--index-dir", str(tmp_path / "i"), "-f", "text"]
    )
    first = done.stdout.splitlines()[0]
    assert first.count("many.py::") == 20
    assert first.endswith(" and 3 more (-f json lists them)")
