"""Ranking files written after their structures are published.

Writing a large workspace's ranking file takes a while (tests/bench/README.md, session
35); a query waiting for the first structures need not wait for it too. The
service hands each write here (:meth:`Saves.add`, from :func:`prepare`'s ``deferred``)
and goes on: one thread writes them in the order given (a write removes the older
ranking files, so a later generation's must come last). The thread lives while there
is something to write, so a process that ends without stopping its service still
finishes the write under way; :meth:`close` waits for the writes added so far.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from collections.abc import Callable

log = logging.getLogger(__name__)

Save = Callable[[], None]


class Saves:
    """One writer thread for the service's ranking files, while there are writes."""

    def __init__(self) -> None:
        self._pending: deque[Save] = deque()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    def add(self, save: Save) -> None:
        """Write later, after the writes added before."""
        with self._lock:
            self._pending.append(save)
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="symfuse-save")
                self._thread.start()

    def close(self, timeout: float) -> None:
        """Let the writes added so far finish (at most ``timeout`` seconds)."""
        with self._lock:
            thread = self._thread
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while True:
            with self._lock:
                if not self._pending:
                    self._thread = None
                    return
                save = self._pending.popleft()
            try:
                save()
            except Exception:  # a lost ranking file is rebuilt by the next start
                log.exception("writing a ranking file failed")
