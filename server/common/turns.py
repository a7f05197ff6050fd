"""Whose turn the interpreter is: a client's queries before the work ahead.

A server does work ahead of need on its warming thread (suffix arrays, parse queries, one
query of each shape, a stored index's check of the files). It shares the interpreter with
the clients' queries, and much of it holds the GIL in C for tens of milliseconds at a time
(a parse query's compile, a tree's parse); a query arriving meanwhile waits. So the work
ahead waits not only while a query runs but until :data:`IDLE_GAP` seconds have passed
with none: a client asking in a burst (an agent's calls back to back, an editor's
keystrokes) keeps the interpreter, and the work ahead runs in the pauses.

A server that starts before its protocol library has loaded also holds the work ahead
(:meth:`Turns.hold`) until it serves and has answered a first query.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

IDLE_GAP = 0.25  # seconds without a client's query before the work ahead takes its turn


class Turns:
    """Clients' queries in flight and when the last one ended, under ``changes`` (the
    condition the service notifies at every change), and the hold of a first answer."""

    def __init__(
        self,
        changes: threading.Condition,
        gap: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._changes = changes
        self.gap = IDLE_GAP if gap is None else gap
        self.asking = 0  # clients' queries running
        self._clock = clock
        self._ended = clock() - self.gap  # when the last one ended
        self.held = False  # the work ahead waits for the first answer (:meth:`hold`)
        self.check_held = False  # ... and a stored index's check, for a pause after it
        self.serving = False  # the front end is up (a held first answer counts from then)

    def hold(self) -> None:
        self.held = self.check_held = True

    def begin(self) -> None:
        """A client's query starts (call with ``changes`` held)."""
        self.asking += 1

    def end(self) -> bool:
        """A client's query ended (call with ``changes`` held); True when it was the held
        first answer, which lets the work ahead start."""
        self.asking -= 1
        self._ended = self._clock()
        if self.held and self.serving and not self.asking:
            self.held = False
            return True
        return False

    def check_due(self) -> bool:
        """Whether a held check of the stored index waits for its turn alone."""
        return self.check_held and not self.held

    def idle(self) -> bool:
        """No query runs and none ended within the gap (call with ``changes`` held)."""
        return not self.asking and self._clock() - self._ended >= self.gap

    def paused(self, done: Callable[[], bool]) -> bool:
        """Whether the clients pause now; if not, wait until they do (or ``done()``)."""
        with self._changes:
            if self.idle():
                return True
        self.wait_idle(done)
        return False

    def wait_idle(self, done: Callable[[], bool]) -> None:
        """Block until :meth:`idle`, or ``done()`` (checked at every change)."""
        with self._changes:
            while not done():
                if self.asking:
                    self._changes.wait()
                    continue
                left = self._ended + self.gap - self._clock()
                if left <= 0:
                    return
                self._changes.wait(left)
