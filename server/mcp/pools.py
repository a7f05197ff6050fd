"""The bounded thread pools MCP tools run in, off the event loop.

Every tool is synchronous code over the index. Run on the event loop it would hold every
session's requests (and the HTTP server's accept loop) until it returned; run in one
shared pool, a few slow calls would take every thread and the quick ones would queue
behind them. So a tool runs in the pool of its :class:`Lane`:

- ``QUERY``: a query of the index (search, usages, a symbol's source): milliseconds;
- ``SCAN``: work that reads every file or rebuilds the index (``search_text``,
  ``reindex``): seconds, up to its time budget.

A scan waits only for other scans, and a query never waits for a scan. Each pool is
bounded: a burst queues on the event loop, holding no thread.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

# Threads per lane. Queries are CPU work under the GIL: more threads than this only
# interleave them, stretching every answer; a few spare ones cover a query that waits on
# the disk or for the first index. Scans mostly wait on their worker process or the disk.
QUERY_THREADS = 8
SCAN_THREADS = 4


class Lane(enum.Enum):
    QUERY = "query"
    SCAN = "scan"


class ToolPools:
    """One bounded thread pool per :class:`Lane`."""

    def __init__(
        self, query_threads: int = QUERY_THREADS, scan_threads: int = SCAN_THREADS
    ) -> None:
        self._pools = {
            Lane.QUERY: ThreadPoolExecutor(query_threads, "symfuse-mcp-query"),
            Lane.SCAN: ThreadPoolExecutor(scan_threads, "symfuse-mcp-scan"),
        }

    async def run(self, lane: Lane, work: Callable[[], T]) -> T:
        """``work()`` on a thread of ``lane``'s pool; cancelled before it starts if the
        caller gives up (once started it runs to its end, its answer dropped)."""
        import asyncio  # here: the stdio front answers with no event loop (and no asyncio)

        return await asyncio.wrap_future(self._pools[lane].submit(work))

    def submit(self, lane: Lane, work: Callable[[], T]) -> Future[T]:
        """``work()`` on a thread of ``lane``'s pool, from a thread with no event loop."""
        return self._pools[lane].submit(work)

    def close(self) -> None:
        """Drop the work not started; threads end once their work does (never waited for)."""
        for pool in self._pools.values():
            pool.shutdown(wait=False, cancel_futures=True)
