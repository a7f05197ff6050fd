"""The query cache: a repeated identical request on an unchanged index is answered from memory.

Keys are the operation, the request as canonical JSON and how the answer is
written; each entry belongs to one *generation* of the index (the service's
change counter), and the first lookup in a newer generation drops every entry,
so an answer never outlives the index it was computed on. Entries are kept
least recently used first, at most :data:`MAX_ENTRIES`.

The cache lives in a server's memory. ``symfuse cache clear`` (another
process) reaches it through a stamp file in the index directory: a lookup that
sees the stamp change empties the cache first.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, TypeVar

V = TypeVar("V")

MAX_ENTRIES = 256
CLEAR_STAMP = "cache-cleared"


@dataclass(frozen=True, slots=True)
class CacheStats:
    entries: int
    max_entries: int
    hits: int
    misses: int
    saved_ms: float

    @property
    def hit_rate(self) -> float:
        asked = self.hits + self.misses
        return self.hits / asked if asked else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "entries": self.entries,
            "max_entries": self.max_entries,
            "hits": self.hits,
            "misses": self.misses,
            "hit_rate": round(self.hit_rate, 3),
            "saved_ms": round(self.saved_ms, 1),
        }


@dataclass(frozen=True, slots=True)
class Cached(Generic[V]):
    value: V
    elapsed_ms: float  # what computing it took


class QueryCache(Generic[V]):
    """A bounded LRU of answers, each valid for one index generation."""

    def __init__(self, directory: Path | None = None, max_entries: int = MAX_ENTRIES) -> None:
        self.max_entries = max_entries
        self._stamp = None if directory is None else directory / CLEAR_STAMP
        self._stamp_seen = self._stamp_time()
        self._entries: OrderedDict[tuple[Any, ...], Cached[V]] = OrderedDict()
        self._generation: int | None = None
        self._lock = threading.Lock()
        self._hits = self._misses = 0
        self._saved_ms = 0.0

    def get(self, key: tuple[Any, ...], generation: int) -> Cached[V] | None:
        with self._lock:
            self._follow(generation)
            found = self._entries.get(key)
            if found is None:
                self._misses += 1
                return None
            self._entries.move_to_end(key)
            self._hits += 1
            return found

    def put(self, key: tuple[Any, ...], generation: int, value: V, elapsed_ms: float) -> None:
        with self._lock:
            self._follow(generation)
            if generation != self._generation:
                return  # computed on an index that has changed since
            self._entries[key] = Cached(value, elapsed_ms)
            self._entries.move_to_end(key)
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)

    def saved(self, ms: float) -> None:
        """Count time a hit saved (the caller knows what answering from the cache took)."""
        with self._lock:
            self._saved_ms += max(0.0, ms)

    def clear(self) -> int:
        """Drop every entry (and the counts); how many entries there were."""
        with self._lock:
            dropped = len(self._entries)
            self._entries.clear()
            self._hits = self._misses = 0
            self._saved_ms = 0.0
            return dropped

    def stats(self) -> CacheStats:
        with self._lock:
            return CacheStats(
                len(self._entries), self.max_entries, self._hits, self._misses, self._saved_ms
            )

    def _follow(self, generation: int) -> None:
        stamp = self._stamp_time()
        if stamp != self._stamp_seen:
            self._stamp_seen = stamp
            self._entries.clear()
        if generation != self._generation:
            self._generation = generation
            self._entries.clear()

    def _stamp_time(self) -> int:
        if self._stamp is None:
            return 0
        try:
            return os.stat(self._stamp).st_mtime_ns
        except OSError:
            return 0


def request_clear(directory: Path) -> None:
    """Ask every server on the index in ``directory`` to empty its cache (at its next lookup)."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = directory / CLEAR_STAMP
    stamp.touch()
    os.utime(stamp)  # a new mtime even when the file was there
