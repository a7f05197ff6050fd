"""Work a search runs beside its other channels, on a thread of its own.

The similarity channel's dense product reads every symbol's vector (megabytes a query
on a large workspace) and numpy lets go of the GIL while it runs; the names
and BM25 channels meanwhile scan strings in C and Python under the GIL. Run side by
side, a search waits for the longer of the two, not their sum, when a core is free.

One pool per process: a pool's threads do not survive a fork, so a forked child
(a tokenizing worker, a shard process) makes its own on first use.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import ParamSpec, TypeVar

_P = ParamSpec("_P")
_R = TypeVar("_R")

# Concurrent searches (a server's requests) each put one task here; more threads than
# cores would only queue on the memory bus.
WORKERS = min(4, os.cpu_count() or 1)

_lock = threading.Lock()
_pools: dict[int, ThreadPoolExecutor] = {}  # by process id: a fork's child makes its own


def _executor() -> ThreadPoolExecutor:
    pid = os.getpid()
    with _lock:
        pool = _pools.get(pid)
        if pool is None:
            _pools.clear()  # a parent's pool, whose threads this child does not have
            pool = _pools[pid] = ThreadPoolExecutor(WORKERS, thread_name_prefix="symfuse-aside")
        return pool


if hasattr(os, "register_at_fork"):  # POSIX; elsewhere no process forks
    os.register_at_fork(after_in_child=_pools.clear)


def in_background(fn: Callable[_P, _R], /, *args: _P.args, **kwargs: _P.kwargs) -> Future[_R]:
    """``fn(*args, **kwargs)`` started on the side; ``.result()`` waits for it (and
    raises what it raised)."""
    return _executor().submit(fn, *args, **kwargs)
