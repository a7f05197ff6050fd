"""The installed ``symfuse`` command, and writing small file trees for it to index."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest


def symfuse_command() -> list[str]:
    """The installed console script, next to the interpreter running the tests."""
    script = Path(sys.executable).with_name("symfuse")
    if script.exists():
        return [str(script)]
    found = shutil.which("symfuse")
    if found is None:
        pytest.fail("the symfuse command is not installed; run `pip install -e .[test]`")
    return [found]


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text) under ``root``; returns ``root``."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def run_symfuse(
    args: Sequence[str],
    *,
    check: bool = True,
    cwd: Path | None = None,
    timeout: float = 120,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONUTF8="1", **(env or {}))
    result = subprocess.run(
        [*symfuse_command(), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
        check=False,
    )
    if check and result.returncode != 0:
        raise AssertionError(
            f"symfuse {' '.join(args)} exited {result.returncode}\n"
            f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
        )
    return result
