"""Leaving a server process at once, with no child left behind.

A server asked to stop (stdin closed, ``exit``, SIGTERM) may be in the middle of a
cold index: parser processes busy with a batch, a thread linking the graph. Its
client waits about two seconds before it kills it. :func:`leave` ends the parser
processes, flushes what the process printed and exits without waiting for the
indexing threads (daemons whose every write is atomic, so the stored index stays
consistent: the next start finishes the work). Before that it releases the named
semaphores of a process pool still open (a parser or tokenizer pool of a fork server):
a normal exit does in multiprocessing's exit function, which ``os._exit`` skips, and
without it the semaphores stay in ``/dev/shm`` or the resource tracker warns of them.
"""

from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
import signal
import sys
from types import FrameType
from typing import NoReturn

STOP_WAIT = 0.5  # seconds a stopping server waits for each background thread


def leave(code: int) -> NoReturn:
    """End child processes, flush the output streams and exit with ``code`` now."""
    # The indexing threads would report their broken parser pool: nobody needs that now.
    logging.disable(logging.CRITICAL)
    _release_semaphores()
    for child in multiprocessing.active_children():
        child.terminate()
    for pid in _other_children():  # a regex worker (subprocess), the fork server
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    for child in multiprocessing.active_children():
        child.join(timeout=STOP_WAIT)
        if child.is_alive():
            child.kill()
            child.join(timeout=STOP_WAIT)  # reaped here, not left to the init process
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # closed by the client already
            stream.flush()
    os._exit(code)


def _release_semaphores() -> None:
    """Unlink and unregister this process's named semaphores: the finalizers of priority
    0 and above that multiprocessing's exit function runs (a semaphore's own is 0)."""
    from multiprocessing import util

    run = getattr(util, "_run_finalizers", None)  # not in typeshed; in CPython since 2.6
    if run is not None:
        with contextlib.suppress(Exception):  # leaving must not fail
            run(0)


def _other_children() -> list[int]:
    """This process's child processes that multiprocessing does not track (Linux /proc;
    elsewhere none are found and they end when they notice their parent is gone)."""
    me = os.getpid()
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == me:  # after the name: state, ppid
            found.append(int(name))
    return found


def leave_on_sigterm() -> None:
    """SIGTERM leaves as :func:`leave` does (exit code 143), children included: Python's
    default would leave a regex or parser worker running on its own."""

    def handler(signum: int, _frame: FrameType | None) -> None:
        leave(128 + signum)

    signal.signal(signal.SIGTERM, handler)
