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


def pool(workers: int, context: multiprocessing.context.BaseContext) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_watch_parent)


def _watch_parent() -> None:
    parent = os.getppid()  # the starting process (or the fork server that forked us)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_S)
        os._exit(1)  # orphaned: nobody will read our results

    threading.Thread(target=watch, name="symfuse-parent-watch", daemon=True).start()
