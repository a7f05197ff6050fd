"""A server's worker processes start from a fork server that already holds the parser."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # starts a fork server and a worker

PROBE = """
import sys
from concurrent.futures import ProcessPoolExecutor
import multiprocessing

sys.path.insert(0, {folder!r})
from symfuse.server.common.forkserver import PARSER_MODULES, preload_parsers

if {preload}:
    preload_parsers()
with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("forkserver")) as pool:
    import probe_loaded
    print(pool.submit(probe_loaded.loaded, PARSER_MODULES).result())
"""


def _worker_had_them(tmp_path: Path, preload: bool) -> str:
    (tmp_path / "probe_loaded.py").write_text(
        "import sys\n\n\ndef loaded(names):\n    return all(n in sys.modules for n in names)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(folder=str(tmp_path), preload=preload)],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.strip()


def test_workers_start_with_the_parser_modules_loaded(tmp_path: Path) -> None:
    assert _worker_had_them(tmp_path, preload=True) == "True"
    assert _worker_had_them(tmp_path, preload=False) == "False"  # what the call changes
