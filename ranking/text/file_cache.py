"""Values read from files, kept by real path while the file's size and mtime stay.

The text cache (:mod:`symfuse.ranking.text.paths`) and the line offsets cache
(:mod:`symfuse.ranking.text.disk_lines`) are this one structure with another value and
bound: the least recently used values leave first once their weights (characters,
lines) pass the bound, and a value read by a thread that lost a race replaces the
other's.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

_T = TypeVar("_T")


class FileCache(Generic[_T]):
    """``read(real, stat)`` per file, kept until the file changes or the bound drops it."""

    def __init__(
        self,
        read: Callable[[str, os.stat_result], _T | None],
        weight: Callable[[_T], int],
        bound: int,
    ) -> None:
        self._read = read
        self._weight = weight
        self._bound = bound
        self._held = 0
        self._items: OrderedDict[str, tuple[int, int, _T]] = OrderedDict()
        self._lock = threading.Lock()

    def held(self, real: str, st: os.stat_result) -> _T | None:
        """``real``'s value when it is kept for the file as it is now (``st``); no read."""
        with self._lock:
            hit = self._items.get(real)
        if hit is not None and hit[0] == st.st_size and hit[1] == st.st_mtime_ns:
            return hit[2]
        return None

    def get(self, real: str, st: os.stat_result | None = None) -> _T | None:
        """``real``'s value, read when new or changed (``st``: its stat, when the caller
        has it); None when it cannot be read."""
        if st is None:
            try:
                st = os.stat(real)
            except OSError:
                return None
        with self._lock:
            hit = self._items.get(real)
            if hit is not None and hit[0] == st.st_size and hit[1] == st.st_mtime_ns:
                self._items.move_to_end(real)
                return hit[2]
        value = self._read(real, st)
        if value is None:
            return None
        with self._lock:
            old = self._items.pop(real, None)
            if old is not None:
                self._held -= self._weight(old[2])
            self._items[real] = (st.st_size, st.st_mtime_ns, value)
            self._held += self._weight(value)
            while self._held > self._bound and len(self._items) > 1:
                _, (_, _, dropped) = self._items.popitem(last=False)
                self._held -= self._weight(dropped)
        return value
