"""Stopping a running search between its channels.

A front end that may lose interest in an answer (an LSP ``$/cancelRequest``, a
``workspace/symbol`` overtaken by a newer keystroke, an MCP client's
cancellation) runs the query inside :func:`stoppable` with a ``should_stop``
check; the search calls :func:`checkpoint` between its ranking channels, and
raises :class:`Stopped` once the check says so. The rest of the work (the
other channels, fusion, the page) is not done, so a burst of abandoned
requests costs one channel each at most, not a whole search.

The check travels in a context variable rather than as a parameter of every
function between the front end and the channel loop: the query functions keep
their signatures, and a search run without :func:`stoppable` (the CLI, a
benchmark) is never stopped. ``asyncio.to_thread`` and anyio's worker threads
copy the context, but the check is meant to be set in the thread that runs the
query, around the call.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

ShouldStop = Callable[[], bool]

_CHECK: ContextVar[ShouldStop | None] = ContextVar("symfuse_should_stop", default=None)


class Stopped(Exception):
    """The search was stopped between two channels: its caller no longer wants the answer.

    Not a ``SymfuseError``: nothing is wrong with the request, and code that turns
    request errors into empty answers must let it through to the front end.
    """


@contextmanager
def stoppable(should_stop: ShouldStop) -> Iterator[None]:
    """Searches run inside the block stop at their next :func:`checkpoint` once
    ``should_stop()`` is true (it is called from the searching thread, so it must
    be cheap and thread-safe: an ``Event.is_set`` or a counter comparison)."""
    token = _CHECK.set(should_stop)
    try:
        yield
    finally:
        _CHECK.reset(token)


def checkpoint() -> None:
    """Raise :class:`Stopped` when the enclosing :func:`stoppable` check says so."""
    check = _CHECK.get()
    if check is not None and check():
        raise Stopped
