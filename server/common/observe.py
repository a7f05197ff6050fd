"""What every front end does around a query: time it, log it, record it, and cache answers.

A front end opens :meth:`Observer.query` around each query; the
:class:`Query` it yields carries the request id and start time, takes the
result count, and on leaving is logged (``query done``, with ``request_id``,
``operation``, ``front_end`` and ``elapsed_ms`` as structured fields, which
``--log-format json`` writes as keys) and recorded in the metrics store
(:mod:`.metrics`). An exception leaving the block is recorded as the query's
error and goes on. The servers also hold a :class:`QueryCache`.
"""

from __future__ import annotations

import itertools
import logging
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symfuse.server.common.metrics import MetricsStore, QueryRecord

if TYPE_CHECKING:  # a server's alone: a one-shot command caches nothing
    from symfuse.server.common.cache import QueryCache

log = logging.getLogger("symfuse.query")

_ids = itertools.count(1)


def new_request_id() -> str:
    """Unique within this process and readable in a log: process id, then a counter."""
    return f"{os.getpid():x}-{next(_ids)}"


@dataclass(slots=True)
class Query:
    """One query in flight."""

    operation: str
    request_id: str
    started: float = field(default_factory=time.perf_counter)
    results: int | None = None
    cache_hit: bool = False
    saved_ms: float = 0.0

    @property
    def elapsed_ms(self) -> float:
        return (time.perf_counter() - self.started) * 1000.0


_CURRENT: ContextVar[Query | None] = ContextVar("symfuse_query", default=None)


def note_results(count: int) -> None:
    """How many results the query in flight gave (when the front end knows it best)."""
    current = _CURRENT.get()
    if current is not None:
        current.results = count


class Observer:
    """The metrics store (and, for a server, the query cache) of one front end's index."""

    def __init__(
        self, front_end: str, directory: Path, *, cache: bool = False, background: bool = False
    ) -> None:
        """``background``: record off the caller's path (:class:`MetricsStore`), for a
        front end that records a query before its answer leaves (MCP). The LSP records
        once the response is sent, and a one-shot command as it ends: both write at once,
        so another process reading the file sees the row as soon as the answer is back."""
        self.front_end = front_end
        self.metrics = MetricsStore(directory, background=background)
        self.cache: QueryCache[Any] | None = None
        if cache:
            from symfuse.server.common.cache import QueryCache

            self.cache = QueryCache(directory)

    @contextmanager
    def query(self, operation: str) -> Iterator[Query]:
        current = Query(operation, new_request_id())
        token = _CURRENT.set(current)
        error: str | None = None
        try:
            yield current
        except BaseException as exc:
            error = f"{type(exc).__name__}: {exc}"[:500]
            raise
        finally:
            _CURRENT.reset(token)
            self.finish(current, error)

    def finish(self, current: Query, error: str | None) -> None:
        elapsed = current.elapsed_ms
        self.metrics.record(
            QueryRecord(
                operation=current.operation,
                front_end=self.front_end,
                elapsed_ms=elapsed,
                results=current.results,
                error=error,
                cache_hit=current.cache_hit,
                saved_ms=current.saved_ms,
            )
        )
        if not log.isEnabledFor(logging.INFO):
            return  # the usual case: no record to build on every query
        fields = {
            "request_id": current.request_id,
            "operation": current.operation,
            "front_end": self.front_end,
            "elapsed_ms": round(elapsed, 2),
            "results": current.results,
            "cache_hit": current.cache_hit,
        }
        if error is None:
            log.info("query done", extra={"query": fields})
        else:
            log.info("query failed: %s", error, extra={"query": {**fields, "error": error}})

    def close(self) -> None:
        self.metrics.close()
