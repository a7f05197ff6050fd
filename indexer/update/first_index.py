"""A live index's first index of a workspace: built in batches, or by a forked process.

:func:`build_in_batches` builds on the server's own threads (its parsing in a process
pool) and publishes a snapshot every :data:`BATCH` files, so that early readers see what
is ready.

A server started where no index is stored builds one before its first answer. Built on
the server's own threads, the build shares the interpreter with the server's imports (its
protocol, its tools, the ranking layer: about half a second of CPU before it can answer
anything), and its parser processes start from a fork server, which imports the parser's
modules again before the first file. So a server forks (:func:`fork_build`), as soon as
it knows its configuration and while it has one thread, a process that builds and stores
the index as ``symfuse index`` does while the server imports; its :class:`LiveIndex`
(:meth:`LiveIndex.built_apart`) then loads the stored index as it would an earlier run's.
Should the process fail, the server builds in its own process, as before. A small
workspace (under :data:`SMALL_SOURCE` bytes of files to index) is parsed in that one
process: parser processes would cost more CPU than they save (each file's results
pickled back, each compiling the language's query), on cores the server's start needs;
a larger one is parsed by processes forked from it (nothing imported again), and the
definitions it has parsed are written as they come, for the server to answer names from
until the index is whole (:mod:`.early`).

The process holds neither of the server's protocol streams (stdin and stdout: the client
sees the server's end when the server ends) and is killed when the server's process ends
(Linux's parent-death signal) or stops it (:meth:`ForkedBuild.cancel`); every file it
writes is written atomically, so a killed build leaves no half an index behind.
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import IndexCorrupt, SymfuseError
from symfuse.indexer.extract.parsing import ParsedFile, ParseJob, entry_of, job_for, parse_stream
from symfuse.indexer.files.discover import Discovery, discover, discover_iter
from symfuse.indexer.files.layouts import python_layouts
from symfuse.indexer.index import Index

log = logging.getLogger(__name__)

BATCH = 400  # files parsed between published snapshots during a cold build
SMALL_SOURCE = 2_000_000  # bytes of files (about 50k lines) a forked build parses alone

_PR_SET_PDEATHSIG = 1  # prctl(2)


def build_in_batches(
    config: IndexConfig,
    stop: threading.Event,
    publish: Callable[[Index], None],
    progress: Callable[[str, int, int], None] | None,
) -> Index:
    """The roots' files parsed into a new index (not linked yet), a snapshot of it handed to
    ``publish`` every :data:`BATCH` files and at the end; stops early once ``stop`` is set."""
    aliases = config.aliases
    partial = Index(dict(aliases))
    partial.options = config.options()
    jobs: list[ParseJob] = []
    layouts = python_layouts(aliases)
    for alias, root in aliases.items():
        found = discover(Path(root), config.discovery())
        for c in found.candidates:
            jobs.append(job_for(alias, c, aliases, layouts))
    total = len(jobs)
    done = 0
    # One pool for the whole build (a pool a batch started its workers again, and
    # waited for each batch's slowest file); a snapshot every BATCH files.
    for result in parse_stream(jobs, config.jobs, show_progress=False):
        if stop.is_set():
            break  # the stream's pool is shut down as it closes
        done += 1
        if isinstance(result, ParsedFile):
            entry = entry_of(result)
            partial.files[entry.path] = entry
        if done % BATCH and done < total:
            continue
        partial.changed()
        publish(partial.snapshot())  # readers get a copy nobody fills any more
        if progress:
            progress("indexing", done, total)
    return partial


class ForkedBuild:
    """The process building a workspace's first index (:func:`fork_build`)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._lock = threading.Lock()  # the reaping and a kill: never a kill of a reaped pid
        self._status: int | None = None  # the exit code, once reaped

    def wait(self) -> bool:
        """Block until the process ends; whether it stored the index (if unsure, False:
        the caller loads whatever index is stored, and builds one if there is none)."""
        try:
            os.waitid(os.P_PID, self.pid, os.WEXITED | os.WNOWAIT)  # ended, not yet reaped
            with self._lock:
                if self._status is None:
                    _, status = os.waitpid(self.pid, 0)
                    self._status = os.waitstatus_to_exitcode(status)
        except ChildProcessError:  # reaped by someone else (a SIGCHLD handler ignoring it)
            with self._lock:
                self._status = -1
        return self._status == 0

    def cancel(self) -> None:
        """Kill the process unless it has ended (a server that stops before it is done)."""
        with self._lock:
            if self._status is None:
                with contextlib.suppress(ProcessLookupError):  # ended, not reaped yet
                    os.kill(self.pid, signal.SIGKILL)


def fork_build(config: IndexConfig) -> ForkedBuild | None:
    """Start the build of ``config``'s index in a forked process; None (build in this one)
    where no such process can be made safely: not on Linux, another thread running (a
    fork copies none of them, whatever locks they hold: numpy's BLAS threads too, so a
    server forks before it imports numpy), or an index already stored (a server loads it
    at once)."""
    if not sys.platform.startswith("linux") or _threads() != 1:
        return None
    try:
        if config.store.read_manifest() is not None:
            return None
    except (IndexCorrupt, OSError):
        return None  # the server's own update says why (and rebuilds a corrupt one)
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover (the child: coverage is not collected in it)
        _build_here(config, parent)
    return ForkedBuild(pid)


def _threads() -> int:
    """This process's threads, the interpreter's and native ones (Linux)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count() + 1  # unknown: not one


def _build_here(config: IndexConfig, parent: int) -> None:
    """The forked process: build and store the index, then leave without returning into
    the server's code (nothing of its atexit, buffers or threads is this process's)."""
    code = 1
    try:
        _detach(parent)
        from symfuse.indexer.update.early import EarlyWriter
        from symfuse.indexer.update.workspace import refresh_index

        large = _large(config)
        jobs = config.jobs if config.jobs is not None else (None if large else 1)
        # a large workspace's definitions parsed so far, for answers meanwhile (.early)
        early = EarlyWriter(config.store.directory) if large else None
        refresh_index(dataclasses.replace(config, jobs=jobs), early=early)
        code = 0
    except (SymfuseError, OSError) as exc:
        log.warning("the first index, built apart, failed: %s", exc)
    except BaseException:  # the server builds it instead: say why this process did not
        log.exception("the first index, built apart, failed")
    finally:
        os._exit(code)


def _large(config: IndexConfig) -> bool:
    """Whether the workspace has :data:`SMALL_SOURCE` bytes of files to index or more: its
    files are parsed by processes forked from this one (else by this one alone), and what
    is parsed is written as it comes, for the server to answer from meanwhile."""
    seen = 0
    for root in config.aliases.values():
        for candidate in discover_iter(Path(root), config.discovery(), Discovery()):
            seen += candidate.size
            if seen >= SMALL_SOURCE:
                return True
    return False


def _detach(parent: int) -> None:
    """Leave the protocol's streams to the server, and end with it."""
    import ctypes
    import gc

    gc.disable()  # a one-shot build, as ``symfuse index`` runs it
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a terminal's Ctrl-C: the server's to take
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(2, 1)
    os.close(null)
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the server ended before the signal was asked for
        os._exit(1)
