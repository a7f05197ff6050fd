"""Two pieces of a build's work at once, on this thread and one started for the other.

A build runs on one core once its tokenizing workers are done, and the machine's other
core idles. Where a step splits into halves that numpy works on without the GIL (sorts,
gathers, element-wise arithmetic), :func:`both` runs one half on a thread of its own,
joined before it returns, so no thread outlives the call (a later pool may still fork:
:func:`~symfuse.indexer.extract.procs.context`). The halves must give the same result
whatever their timing: each writes only what is its own.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

_A = TypeVar("_A")
_B = TypeVar("_B")


def both(first: Callable[[], _A], second: Callable[[], _B]) -> tuple[_A, _B]:
    """``(first(), second())``, ``first`` on a new thread meanwhile; an exception of
    either is raised here, once both have finished (the pool's exit joins its thread)."""
    with ThreadPoolExecutor(1, thread_name_prefix="symfuse-build-half") as pool:
        found = pool.submit(first)
        other = second()
        return found.result(), other
