"""Query metrics: every query of every front end, kept in a small SQLite file beside the index.

Each row is one query: when, which operation, which front end (cli, mcp, lsp),
how long it took, how many results it gave, the error it ended with, whether
the query cache answered it and how much time that saved. The file is bounded
(:data:`MAX_ROWS`): past it the oldest rows go first. Writes are short
transactions in WAL mode, so a server and a command line can record at the same
time; a store that cannot be written logs one warning and records nothing more,
since metrics must never fail a query.

The MCP server records off the request's path (``background=True``): the row is queued
and a writer thread inserts what has queued in one transaction. A commit is
usually quick, but now and then one carries SQLite's WAL checkpoint, far slower,
into the answer's time. Reading the rows writes what is queued
first, so the server's own reader (its stats tool) sees every query recorded before
it asked; another process may see the last rows a moment later.

:meth:`MetricsStore.summary` is what ``symfuse stats --latency`` and the MCP
``stats`` tool print: per operation, the request and error counts, the P50,
P95 and P99 latencies, the cache hit rate and the time saved.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

log = logging.getLogger(__name__)

FILE_NAME = "metrics.sqlite3"
MAX_ROWS = 50_000  # about 3 MB; past it the oldest rows are dropped
_TRIM_EVERY = 500  # rows written between two trims (a trim is one DELETE)
BATCH_SECONDS = 1.0  # how long a server's recorded row may wait to be written with others
_BUSY_TIMEOUT = 2.0  # seconds a write waits for another process's transaction

_SCHEMA = """
CREATE TABLE IF NOT EXISTS queries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    operation TEXT NOT NULL,
    front_end TEXT NOT NULL,
    elapsed_ms REAL NOT NULL,
    results INTEGER,
    error TEXT,
    cache_hit INTEGER NOT NULL DEFAULT 0,
    saved_ms REAL NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS queries_at ON queries (at);
"""


@dataclass(frozen=True, slots=True)
class QueryRecord:
    """One query, as recorded."""

    operation: str
    front_end: str
    elapsed_ms: float
    results: int | None = None
    error: str | None = None
    cache_hit: bool = False
    saved_ms: float = 0.0  # a cache hit: how much less it took than computing the answer


@dataclass(frozen=True, slots=True)
class OperationStats:
    """The figures of one operation over a period."""

    operation: str
    requests: int
    errors: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    cache_hit_rate: float
    saved_ms: float

    def to_dict(self) -> dict[str, object]:
        return {
            "operation": self.operation,
            "requests": self.requests,
            "errors": self.errors,
            "p50_ms": round(self.p50_ms, 2),
            "p95_ms": round(self.p95_ms, 2),
            "p99_ms": round(self.p99_ms, 2),
            "cache_hit_rate": round(self.cache_hit_rate, 3),
            "saved_ms": round(self.saved_ms, 1),
        }


class MetricsStore:
    """The metrics file of one index directory (created on the first write, once the
    index has made the directory)."""

    def __init__(
        self, directory: Path, *, max_rows: int = MAX_ROWS, background: bool = False
    ) -> None:
        self.path = directory / FILE_NAME
        self.max_rows = max_rows
        self.background = background
        self._lock = threading.Lock()  # held while the connection is used
        self._connection: sqlite3.Connection | None = None
        self._broken = False
        self._since_trim = 0
        self._queued: deque[tuple[object, ...]] = deque()  # taken out under the lock only
        self._wake = threading.Event()
        self._closing = threading.Event()
        self._writer: threading.Thread | None = None
        self._closed = False

    def record(self, record: QueryRecord) -> None:
        """Add one row; never raises (a broken store is reported once, then skipped)."""
        row = (
            time.time(),
            record.operation,
            record.front_end,
            record.elapsed_ms,
            record.results,
            record.error,
            int(record.cache_hit),
            record.saved_ms,
        )
        self._queued.append(row)
        if not self.background or self._closed:
            with self._lock:
                self._write_queued()
            return
        if self._writer is None or not self._writer.is_alive():  # also after a fork
            self._writer = threading.Thread(
                target=self._write_in_background, name="symfuse-metrics", daemon=True
            )
            self._writer.start()
        if not self._wake.is_set():  # the writer is not already on its way
            self._wake.set()

    def _write_in_background(self) -> None:
        """Write the queued rows together, at most :data:`BATCH_SECONDS` after the first:
        a row a query, each in a transaction of its own, cost the server more CPU than
        the rest of the query's bookkeeping (a reader of :meth:`records` writes the queue
        first, so it misses nothing)."""
        while True:  # until close(), seen under the lock
            self._wake.wait()
            self._closing.wait(BATCH_SECONDS)  # rows coming meanwhile join this write
            self._wake.clear()
            with self._lock:
                if self._closed:
                    return  # close() wrote the queue
                self._write_queued()

    def _write_queued(self) -> None:
        """Insert every queued row in one transaction (the caller holds the lock)."""
        rows = []
        while self._queued:
            rows.append(self._queued.popleft())
        if not rows:
            return
        db = self._open()
        if db is None:
            return
        try:
            with db:
                db.executemany(
                    "INSERT INTO queries (at, operation, front_end, elapsed_ms, results,"
                    " error, cache_hit, saved_ms) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    rows,
                )
                self._since_trim += len(rows)
                if self._since_trim >= _TRIM_EVERY:
                    self._trim(db)
        except sqlite3.Error as exc:
            self._give_up(exc)

    def records(self, since: float | None = None) -> list[tuple[str, str, float, int, float, str]]:
        """Rows (operation, front end, elapsed ms, cache hit, saved ms, error or '') since the
        epoch time ``since`` (all when None), oldest first."""
        with self._lock:
            self._write_queued()
            db = self._open(create=False)
            if db is None:
                return []
            try:
                cursor = db.execute(
                    "SELECT operation, front_end, elapsed_ms, cache_hit, saved_ms,"
                    " coalesce(error, '') FROM queries WHERE at >= ? ORDER BY id",
                    (since or 0.0,),
                )
                return list(cursor)
            except sqlite3.Error as exc:
                self._give_up(exc)
                return []

    def summary(
        self, since: float | None = None, front_end: str | None = None
    ) -> list[OperationStats]:
        """Per operation (by name), the figures of the queries since ``since``."""
        rows = [r for r in self.records(since) if front_end is None or r[1] == front_end]
        by_operation: dict[str, list[tuple[str, str, float, int, float, str]]] = {}
        for row in rows:
            by_operation.setdefault(row[0], []).append(row)
        return [_stats(name, by_operation[name]) for name in sorted(by_operation)]

    def clear(self) -> None:
        with self._lock:
            self._write_queued()
            db = self._open(create=False)
            if db is not None:
                with db:
                    db.execute("DELETE FROM queries")

    def close(self) -> None:
        """Write what is queued, stop the writer and close the file."""
        self._closed = True
        self._closing.set()
        self._wake.set()
        with self._lock:
            self._write_queued()
            if self._connection is not None:
                self._connection.close()
                self._connection = None

    # --- the file ---------------------------------------------------------------------

    def _open(self, *, create: bool = True) -> sqlite3.Connection | None:
        if self._connection is not None or self._broken:
            return self._connection
        if not self.path.parent.is_dir() or (not create and not self.path.exists()):
            return None  # no index here (yet): its own error, if any, is what to report
        try:
            db = sqlite3.connect(self.path, timeout=_BUSY_TIMEOUT, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            self._give_up(exc)
            return None
        self._connection = db
        return db

    def _trim(self, db: sqlite3.Connection) -> None:
        self._since_trim = 0
        db.execute(
            "DELETE FROM queries WHERE id <= (SELECT max(id) FROM queries) - ?", (self.max_rows,)
        )

    def _give_up(self, exc: BaseException) -> None:
        if not self._broken:
            log.warning("query metrics are off: %s is not usable (%s)", self.path, exc)
        self._broken = True
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _stats(name: str, rows: Sequence[tuple[str, str, float, int, float, str]]) -> OperationStats:
    elapsed = np.array([r[2] for r in rows], dtype=np.float64)
    p50, p95, p99 = (float(v) for v in np.percentile(elapsed, [50, 95, 99]))
    hits = sum(1 for r in rows if r[3])
    return OperationStats(
        operation=name,
        requests=len(rows),
        errors=sum(1 for r in rows if r[5]),
        p50_ms=p50,
        p95_ms=p95,
        p99_ms=p99,
        cache_hit_rate=hits / len(rows),
        saved_ms=sum(r[4] for r in rows),
    )


def parse_since(text: str) -> float:
    """``24h``, ``30m``, ``7d``, ``90s`` (or a number of seconds) → the epoch time that long
    ago; a ValueError naming the accepted forms otherwise."""
    units = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}
    raw = text.strip().lower()
    unit = units.get(raw[-1:])
    number = raw[:-1] if unit is not None else raw
    try:
        seconds = float(number) * (unit or 1.0)
    except ValueError:
        raise ValueError(f"--since {text!r}: give a duration such as 90s, 30m, 24h or 7d") from None
    if seconds < 0:
        raise ValueError(f"--since {text!r}: the duration must not be negative")
    return time.time() - seconds
