"""Leaving a server process at once releases what a normal exit would (issue 38)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# A process with a fork server's process pool open (a server's parser or tokenizer pool
# mid-build) that leaves as a server does; it prints its named semaphores first (read
# from the objects: a test may look inside multiprocessing, the code does not).
SCRIPT = """
import gc
import multiprocessing
import multiprocessing.synchronize

from symfuse.indexer.extract import procs
from symfuse.server.common.leaving import leave

if __name__ == "__main__":
    pool = procs.pool(1, multiprocessing.get_context("forkserver"))
    assert pool.submit(pow, 2, 3).result() == 8
    for found in gc.get_objects():
        if isinstance(found, multiprocessing.synchronize.SemLock):
            print(found._semlock.name, flush=True)
    leave(0)
"""


@pytest.mark.skipif(not Path("/dev/shm").is_dir(), reason="named semaphores live in /dev/shm")
def test_leaving_with_a_pool_open_leaves_no_semaphore_behind(tmp_path: Path) -> None:
    script = tmp_path / "leave_with_pool.py"
    script.write_text(SCRIPT, encoding="utf-8")
    # run() returns once stderr closes: after the resource tracker (a child that holds
    # it) has ended too, so its warning, if any, is in the output
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    names = done.stdout.split()
    assert len(names) >= 4  # the pool's call and result queues' locks and semaphore
    assert "leaked semaphore" not in done.stderr
    left = [n for n in names if (Path("/dev/shm") / f"sem.{n.lstrip('/')}").exists()]
    assert left == []
