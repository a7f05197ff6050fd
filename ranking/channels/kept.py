"""What a channel made of a frequent term for one query, kept for the next ones.

A term in most definitions ("test" in a repository of tests, "column" in SQLAlchemy)
has a column of tens of thousands of rows, and a query that holds it spends most of
a channel's time decoding and weighing that column, the same way every time: what a
term adds depends on the term and the index, not on the rest of the query. So a
channel keeps it, from the second query that meets the term (a term met once costs
no more than before), the most recently used within a bound of bytes. Kept per index
structure: one made again (a change, a shard's global statistics) starts empty.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Generic, Protocol, TypeVar

KEPT_BYTES = 4 << 20  # per structure, at most
ROW_BYTES = 72  # ... and per row of it: eight terms spread over every row, in float64
ROWS = 2048  # a term's column is kept from this many rows
SEEN = 4096  # keys met once that are remembered (then forgotten all at once)


class Weighed(Protocol):
    @property
    def nbytes(self) -> int: ...


T = TypeVar("T", bound=Weighed)


class Kept(Generic[T]):
    """Values by key, kept from the second time a key is met, within :data:`ROW_BYTES` a
    row of a structure of ``rows`` (a shard's, a history chunk's: small ones keep
    little) and :data:`KEPT_BYTES`."""

    def __init__(self, rows: int) -> None:
        self._bound = min(KEPT_BYTES, ROW_BYTES * rows)
        self._lock = threading.Lock()
        self._items: dict[Hashable, T] = {}  # least recently used first
        self._bytes = 0
        self._seen: set[Hashable] = set()

    def get(self, key: Hashable) -> T | None:
        with self._lock:
            found = self._items.pop(key, None)
            if found is not None:
                self._items[key] = found  # the most recent now
            return found

    def keep(self, key: Hashable, make: Callable[[], T]) -> T | None:
        """``make()``, kept under ``key``, if the key was met before; else None (and the
        key is met now)."""
        with self._lock:
            if key not in self._seen:
                if len(self._seen) >= SEEN:
                    self._seen.clear()
                self._seen.add(key)
                return None
        value = make()
        with self._lock:
            if key not in self._items and value.nbytes <= self._bound:
                self._items[key] = value
                self._bytes += value.nbytes
            while self._bytes > self._bound:
                self._bytes -= self._items.pop(next(iter(self._items))).nbytes
        return value
