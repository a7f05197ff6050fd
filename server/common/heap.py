"""A long-running server's heap (glibc): fewer arenas, and free pages handed back.

Loading an index and building or reading its ranking structures allocates many
temporaries (decoded records, row lists, numpy blocks) in background threads. glibc
gives each thread that allocates at once an arena of its own (up to eight per core),
and a page left free in one arena serves no other; free pages stay resident until a
later allocation in the same arena reuses them. Two arenas instead of the default, and
``malloc_trim`` once the ranking structures are built, each lower a serving process's
RSS (one arena saves little more). Python's GIL already serializes most allocations, so
the threads hardly contend for two arenas.
One-shot commands exit instead (:func:`symfuse.server.cli.main._fixed_mmap_threshold`).
"""

from __future__ import annotations

import ctypes
import functools
import os
import sys
from collections.abc import Callable

# mallopt's M_ARENA_MAX, and the arenas a server keeps.
_M_ARENA_MAX = -8
SERVER_ARENAS = 2


def fewer_arenas(arenas: int = SERVER_ARENAS) -> None:
    """Let at most ``arenas`` malloc arenas serve this process's threads. Call before
    the threads start; ``MALLOC_ARENA_MAX`` in the environment wins."""
    if not sys.platform.startswith("linux") or "MALLOC_ARENA_MAX" in os.environ:
        return
    try:
        ctypes.CDLL(None).mallopt(_M_ARENA_MAX, arenas)
    except (OSError, AttributeError):  # another C library
        return


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # a C library without it (musl)
        return None
    return trim


def give_back() -> None:
    """Return the heap's free pages to the system (glibc; nothing elsewhere)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
