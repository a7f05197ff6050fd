"""Whose turn the interpreter is: a client's queries before the work ahead.

A server does work ahead of need on its warming thread (suffix arrays, parse queries, one
query of each shape, a stored index's check of the files). It shares the interpreter with
the clients' queries, and much of it holds the GIL in C for tens of milliseconds at a time
(a parse query's compile, a tree's parse); a query arriving meanwhile waits. So the work
ahead waits not only while a query runs but until :data:`IDLE_GAP` seconds have passed
with none: a client asking in a burst (an agent's calls back to back, an editor's
keystrokes) keeps the interpreter, and the work ahead runs in the pauses.

A server also holds the work ahead (:meth:`Turns.hold`) until it serves (its protocol
library loaded) and has answered a first query, or for :data:`HOLD_MAX` seconds of
serving with none: an editor's or an agent's first questions come right after the start,
and a stored index's check of the files would share the interpreter with them.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

IDLE_GAP = 0.25  # seconds without a client's query before the work ahead takes its turn
HOLD_MAX = 5.0  # seconds of serving a hold lasts without a query (live.CHECK_HOLD's span)
# Seconds the work ahead waits for a pause at most, each time: a client that never pauses
# would otherwise starve it for good (a status, polled, is no query: server/mcp/server.py).
MAX_WAIT = 5.0
# Seconds a held check of a stored index waits for a pause at most once a query waits for
# what follows it (the first ranking structures), from that query on (Turns.check_turn).
WANTED_WAIT = 1.0


def _nothing() -> None:
    pass


class Turns:
    """Clients' queries in flight and when the last one ended, under ``changes`` (the
    condition the service notifies at every change), and the hold of a first answer;
    ``done()`` ends any wait (the service stops, or a query wants structures built)."""

    def __init__(
        self,
        changes: threading.Condition,
        done: Callable[[], bool],
        gap: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        max_wait: float | None = None,
    ) -> None:
        self._changes = changes
        self._done = done
        self.gap = IDLE_GAP if gap is None else gap
        self.max_wait = MAX_WAIT if max_wait is None else max_wait
        self._asking = 0  # clients' queries running
        self._clock = clock
        self._ended = clock() - self.gap  # when the last one ended
        self._held = False  # the work ahead waits for the first answer (:meth:`hold`)
        self._check_held = False  # ... and a stored index's check, for a pause after it
        self._serving: float | None = None  # since when the front end is up
        self._release_check: Callable[[], None] = _nothing
        self._wanted_since: float | None = None  # a query waits for the check's end since

    def hold(self, release_check: Callable[[], None] | None) -> None:
        """Hold the work ahead, and a stored index's check (``release_check`` lets it go;
        None: the check is not held)."""
        self._held, self._check_held = True, release_check is not None
        self._release_check = release_check or _nothing

    def serve(self) -> None:
        """The front end is up: its first answered query ends the hold."""
        self._serving = self._clock()

    @property
    def held(self) -> bool:
        """Whether the work ahead is held (the hold lapses :data:`HOLD_MAX` seconds after
        :meth:`serve`)."""
        left = self.hold_left()
        return self._held and (left is None or left > 0)

    def hold_left(self) -> float | None:
        """Seconds until a hold lapses (None: not serving yet, it waits for that)."""
        if self._serving is None:
            return None
        return max(0.0, self._serving + HOLD_MAX - self._clock())

    def begin(self) -> None:
        """A client's query starts (call with ``changes`` held)."""
        self._asking += 1

    def end(self) -> bool:
        """A client's query ended (call with ``changes`` held); True when it was the held
        first answer, which lets the work ahead start."""
        self._asking -= 1
        self._ended = self._clock()
        if self._held and self._serving is not None and not self._asking:
            self._held = False
            return True
        return False

    def check_due(self) -> bool:
        """Whether a held check of the stored index waits for its turn alone."""
        return self._check_held and not self.held

    def check_turn(self, wanted: bool = False) -> bool:
        """Release the held check if the clients pause now, and say so; else wait for
        their pause (:meth:`paused`). ``wanted``: a query waits for what comes after the
        check (the first ranking structures), and its client may ask again and again
        until they come, never pausing: from the first such call on, the check waits
        for a pause :data:`WANTED_WAIT` seconds at most."""
        if wanted and self._wanted_since is None:
            self._wanted_since = self._clock()
        since = self._wanted_since
        if not self.paused(None if since is None else since + WANTED_WAIT):
            return False
        self.release_check()
        return True

    def release_check(self) -> None:
        """Let a held check of the stored index go now."""
        self._check_held, self._wanted_since = False, None
        self._release_check()

    def idle(self) -> bool:
        """No query runs and none ended within the gap (call with ``changes`` held)."""
        return not self._asking and self._clock() - self._ended >= self.gap

    def paused(self, deadline: float | None = None) -> bool:
        """Whether the work ahead may run: the clients pause now, or did after a wait
        (:meth:`wait_idle`); False when ``done()`` ended the wait."""
        with self._changes:
            if self.idle():
                return True
        return self.wait_idle(deadline)

    def wait_idle(self, deadline: float | None = None) -> bool:
        """Block until :meth:`idle`, for :attr:`max_wait` seconds or until ``deadline`` (on
        the turns' clock; True all three), or until ``done()`` (False; checked at every
        change)."""
        starved = self._clock() + self.max_wait
        deadline = starved if deadline is None else min(starved, deadline)
        with self._changes:
            while not self._done():
                now = self._clock()
                if now >= deadline:
                    return True  # starved: the work ahead takes one step anyway
                if self._asking:
                    self._changes.wait(deadline - now)
                    continue
                paused_at = self._ended + self.gap
                if paused_at <= now:
                    return True
                self._changes.wait(min(paused_at, deadline) - now)
        return False
