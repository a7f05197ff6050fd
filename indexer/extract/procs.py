"""Process pools for parsing whose workers never outlive their parent.

A worker of :class:`concurrent.futures.ProcessPoolExecutor` waits on its call queue
forever when the process that started it is killed outright (SIGKILL, the OOM
killer): the queue's other end stays open in its sibling workers. Each of ours
watches its parent from a daemon thread and exits once it is gone.
"""

from __future__ import annotations

import multiprocessing.context
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK_S = 0.2


def context() -> multiprocessing.context.BaseContext:
    """Fork while this process has one thread (cheap, nothing to import again); with
    threads running (a server), a fork server, since forking them is unsafe."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def pool(workers: int, context: multiprocessing.context.BaseContext) -> ProcessPoolExecutor:
    # The parent's pid is handed over, not read in the worker: a parent killed between
    # the fork and the initializer would otherwise be taken for the init process and
    # watched forever.
    parent = os.getpid() if context.get_start_method() == "fork" else None
    return ProcessPoolExecutor(
        max_workers=workers, mp_context=context, initializer=_watch_parent, initargs=(parent,)
    )


def _watch_parent(parent: int | None) -> None:
    """Exit once ``parent`` (for a forked worker; else whoever started this process, the
    fork server included) is no longer this process's parent."""
    expected = os.getppid() if parent is None else parent

    def watch() -> None:
        while os.getppid() == expected:
            time.sleep(PARENT_CHECK_S)
        os._exit(1)  # orphaned: nobody will read our results

    threading.Thread(target=watch, name="symfuse-parent-watch", daemon=True).start()
