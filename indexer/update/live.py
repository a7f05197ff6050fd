"""An index kept in memory and kept fresh, for the long-running servers (LSP, MCP).

``LiveIndex`` owns one :class:`Index` and every change to it:

- ``start()`` loads the stored index at once when there is one (answers can
  flow immediately, flagged stale), then brings it up to date in a background
  thread whose parsing runs in a process pool. Without a stored index it builds
  in batches and publishes each batch, so early queries see what is ready.
- ``refresh(paths)`` re-indexes changed files incrementally (watchers call it).
- ``set_overlay(path, text)`` indexes the unsaved contents of an editor buffer
  in memory; ``clear_overlay(path)`` goes back to the file on disk. With
  ``link=False`` the buffer's names are in at once and its links follow in a
  background thread (``link_overlays()`` waits for them).
- ``watch()`` starts a watchfiles thread that calls ``refresh`` on changes.
- ``on_change(listener)`` is called after every change of the index or of its
  readiness, so a server waits on an event instead of polling.

Readers take ``with live.reading() as index:``. Changes are copy-on-write: a
writer (one at a time) patches a shallow copy of the index outside the readers'
lock and swaps it in under the lock, so readers never see a half-linked graph
and never wait for a re-link or a re-rank. The cold build fills a separate
object in batches, each published under the readers' lock.
"""

from __future__ import annotations

import gc
import logging
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from symfuse.indexer.config import IndexConfig, UpdateReport, file_key
from symfuse.indexer.errors import OutsideWorkspace, SymfuseError
from symfuse.indexer.files import languages
from symfuse.indexer.files.layouts import PythonLayout, python_layouts
from symfuse.indexer.index import Index
from symfuse.indexer.store.objects import collector_paused
from symfuse.indexer.update import early as first_names
from symfuse.indexer.update.apply import link_pending, patch
from symfuse.indexer.update.buffer_trees import BufferTrees
from symfuse.indexer.update.buffers import Linker, parse_buffer
from symfuse.indexer.update.first_index import ForkedBuild, build_in_batches
from symfuse.indexer.update.workspace import load_index, update_index

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Status:
    """What a client needs to judge an answer: readiness, age, staleness."""

    ready: bool
    indexing: bool
    files: int
    symbols: int
    updated_at: float
    age_seconds: float
    stale: bool
    pending: int
    overlays: int
    error: str | None


ProgressCallback = Callable[[str, int, int], None]  # (message, done, total)
CHECK_HOLD = 5.0  # seconds a held check of a stored index waits for its release at most


class LiveIndex:
    def __init__(self, config: IndexConfig) -> None:
        self.config = config
        self.aliases = config.aliases
        self._index: Index | None = None
        self._counted: tuple[Index, int] | None = None  # (index, its definitions)
        self._lock = threading.RLock()  # readers, and the swap of a new index
        self._write_lock = threading.RLock()  # one writer at a time
        self._ready = threading.Event()
        self._check = threading.Event()  # clear: a stored index's check of the files waits
        self._check.set()
        self._forked: ForkedBuild | None = None  # the first build's process (built_apart)
        self._early: first_names.EarlyReader | None = None  # what that process has parsed so far
        self._indexing = False
        # a full refresh made the loaded index current: its held check of the files is done
        self._checked = False
        self._pending: set[str] = set()
        self._overlays: dict[str, bytes] = {}
        # The roots' Python layouts for parsing buffers, read again after each refresh
        # (a buffer parse looked them up itself: pyproject.toml and setup.cfg per edit).
        self._layouts: dict[str, PythonLayout] | None = None
        self._trees = BufferTrees()  # buffers' last trees: the next version parses from them
        self._error: str | None = None
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []
        self.last_report: UpdateReport | None = None
        self._listeners: list[Callable[[], None]] = []
        self._link_lock = threading.Lock()  # one linking of buffer patches at a time
        self._linker = Linker(self.link_overlays, self._links_pending, self._stop)

    # --- reading --------------------------------------------------------------------

    @contextmanager
    def reading(self) -> Iterator[Index]:
        """The current index. Nobody changes a published index (writers patch a snapshot
        and swap it in), so readers hold no lock while they read and never wait for
        each other: a slow reader delays neither the next reader nor a writer."""
        with self._lock:
            if self._index is None:
                self._index = Index(dict(self.aliases))
            index = self._index
        yield index

    def wait_ready(self, timeout: float | None) -> bool:
        """Block until the first full index is in place; False on timeout."""
        return self._ready.wait(timeout)

    @property
    def ready(self) -> bool:
        return self._ready.is_set()

    def status(self) -> Status:
        with self._lock:
            index = self._index
            updated = index.updated_at if index is not None else 0.0
            return Status(
                ready=self._ready.is_set(),
                indexing=self._indexing and not self._checked,
                files=len(index.files) if index is not None else 0,
                symbols=self._definitions(index),
                updated_at=updated,
                age_seconds=max(0.0, time.time() - updated) if updated else 0.0,
                stale=(self._indexing and not self._checked) or bool(self._pending),
                pending=len(self._pending),
                overlays=len(self._overlays),
                error=self._error,
            )

    def _definitions(self, index: Index | None) -> int:
        """How many definitions ``index`` holds, counted once per published index (every
        MCP answer reads the status; a large index has hundreds of files to count over)."""
        if index is None:
            return 0
        counted = self._counted
        if counted is None or counted[0] is not index:
            counted = (index, sum(e.definition_count for e in index.files.values()))
            self._counted = counted
        return counted[1]

    def on_change(self, listener: Callable[[], None]) -> None:
        """Call ``listener()`` after each published change: a loaded index, a batch of the
        first build, an update, an overlay, the end of the first index. It runs on the
        writer's thread, outside the locks, and must be quick (set an event, notify)."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        for listener in list(self._listeners):
            listener()

    # --- paths ------------------------------------------------------------------------

    def key_of(self, path: str | Path) -> tuple[str, str, str]:
        """``(key, alias, rel)`` of a path inside a root; OutsideWorkspace otherwise."""
        text = str(path)
        multi = len(self.aliases) > 1
        if os.path.isabs(text):
            real = os.path.realpath(text)
            for alias, root in self.aliases.items():
                if real == root or real.startswith(root + os.sep):
                    rel = Path(real).relative_to(root).as_posix()
                    return file_key(alias, rel, self.aliases), alias, rel
            raise OutsideWorkspace(f"{text} is outside the workspace roots")
        rel = Path(text).as_posix()
        alias = next(iter(self.aliases))
        if multi:
            alias, _, rel = rel.partition("/")
            if alias not in self.aliases:
                raise OutsideWorkspace(f"{text}: no workspace root is called {alias!r}")
        return self.key_of(os.path.join(self.aliases[alias], rel))

    # --- lifecycle --------------------------------------------------------------------

    def built_apart(self, forked: ForkedBuild | None) -> None:
        """The first index is being built by ``forked`` (:func:`.first_index.fork_build`,
        None: no process could be made): :meth:`start` waits for it, then loads it."""
        self._forked = forked
        if forked is not None:
            self._early = first_names.EarlyReader(self.config.store.directory, dict(self.aliases))

    def early(self) -> Index | None:
        """Before the first index is in place, the definitions a build apart of a large
        workspace has parsed so far (:mod:`.early`); else None."""
        early = self._early
        return None if early is None or self._ready.is_set() else early.index()

    def start(self, progress: ProgressCallback | None = None) -> None:
        """Load or build the index in a background thread; returns at once."""
        thread = threading.Thread(
            target=self._initial, args=(progress,), name="symfuse-index", daemon=True
        )
        self._indexing = True
        thread.start()  # then listed: stop() on another thread never joins an unstarted one
        self._threads.append(thread)

    def hold_check(self) -> None:
        """Until :meth:`release_check` (at most :data:`CHECK_HOLD` seconds), a stored
        index, once loaded and answering, waits before checking the files for changes, and
        the watcher before importing watchfiles: a server's first answer should not share
        the interpreter with them."""
        self._check.clear()

    def release_check(self) -> None:
        self._check.set()

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the background threads to stop; wait for each up to ``timeout`` seconds
        (they are daemons: a process leaving sooner does not wait for them, and every
        write they make is atomic)."""
        self._stop.set()
        self._check.set()
        if self._forked is not None:
            self._forked.cancel()
        for thread in list(self._threads):
            if thread is not threading.current_thread() and thread.ident is not None:
                thread.join(timeout=timeout)

    def _initial(self, progress: ProgressCallback | None) -> None:
        try:
            forked = self._forked
            if forked is not None and forked.wait():
                log.info("the first index was built by a forked process (%d)", forked.pid)
            elif forked is not None and not self._stop.is_set():
                log.warning("the first index is built in this process instead")
            if forked is not None:
                self._early = None  # the stored index, or this process's snapshots, now
                first_names.clear(self.config.store.directory)
            with collector_paused():
                stored = load_index(replace(self.config, resident=False))  # the first answer waits
                # the load's objects, out of the collector's reach before it runs again:
                # the young generations' next collections would walk them all (and then
                # every full one), as the freeze after the update below would spare later
                gc.freeze()
            if stored is not None and stored.roots == self.aliases:
                with self._lock:
                    self._index = stored
                self._ready.set()
                self._changed()
                if progress:
                    progress("loaded stored index; checking for changes", 0, 0)
                self._check.wait(CHECK_HOLD)
                current = stored
            else:
                publish = self._publish
                current = build_in_batches(self.config, self._stop, publish, progress)
            with self._write_lock:
                # a full refresh while the check was held did the check, on a later index
                done = self._checked
            if not done:
                self._brought_up_to_date(current)
            # The index lives as long as the server: keep the cyclic collector from
            # walking its millions of objects again at every full collection (latency).
            gc.freeze()
        except (SymfuseError, OSError) as exc:
            self._error = f"indexing failed: {exc}"
            log.error("%s", self._error)
        finally:
            self._indexing = False
            self._ready.set()
            self._changed()
        if self._pending and not self._stop.is_set():
            try:
                self.refresh(sorted(self._pending))
            except (SymfuseError, OSError) as exc:
                log.warning("refresh of files changed during indexing failed: %s", exc)

    def _brought_up_to_date(self, current: Index) -> None:
        """Link, rank and save a copy of ``current`` (a stored index: checked against the
        files); readers keep using ``current`` meanwhile."""
        copy = _snapshot(current)
        index, report = update_index(self.config, index=copy)
        if not _same(current, copy, index, report):
            with self._write_lock:
                self._reapply_overlays(index)
                with self._lock:
                    self._index = index
        # else the stored index is up to date: publishing an equal copy would make
        # every holder of the first one (ranking structures) build them again
        self.last_report = report
        self._error = None

    def _publish(self, index: Index) -> None:
        """A snapshot of the first build, for readers (:func:`build_in_batches`)."""
        with self._lock:
            self._index = index
        self._changed()

    # --- changes ----------------------------------------------------------------------

    def refresh(self, paths: Sequence[str] | None = None) -> UpdateReport | None:
        """Re-index the given paths (all when None) from disk; overlays stay on top."""
        if not self._ready.is_set():
            self._pending.update(paths or ())
            return None
        wanted = None
        if paths is not None:
            wanted = []
            for p in paths:
                try:
                    key, _, _ = self.key_of(p)
                except OutsideWorkspace:
                    continue
                if key not in self._overlays:
                    wanted.append(str(p))
            if not wanted:
                return None
        with self._write_lock:
            with self._lock:
                current = self._index
            copy = _snapshot(current) if current is not None else None
            self._layouts = None  # a refreshed pyproject.toml or package may move them
            index, report = update_index(self.config, index=copy, only=wanted)
            self._reapply_overlays(index)
            with self._lock:
                self._index = index
                self._pending.difference_update(paths or list(self._pending))
            self._checked = self._checked or paths is None
        self.last_report = report
        self._changed()
        return report

    def set_overlay(self, path: str | Path, text: str | bytes, *, link: bool = True) -> None:
        """Index unsaved buffer contents for ``path`` (in memory only).

        ``link=False``: the buffer's definitions are in the published index at once, and
        its references, the edges they make and the ranks follow from a background
        thread once the edits pause, or from :meth:`link_overlays` for a reader that
        needs them (see :mod:`symfuse.indexer.update.buffers`).
        """
        key, alias, rel = self.key_of(path)
        data = text.encode("utf-8") if isinstance(text, str) else text
        if languages.detect(rel, data[: languages.SHEBANG_BYTES]) is None:
            return
        with self._write_lock:
            self._overlays[key] = data
            if not self._ready.is_set() or self._index is None:
                return  # applied when the first index is in place
            index = _snapshot(self._index)
            if not self._patch_overlay(index, key, alias, rel, data, shallow=not link):
                return
            if link:
                self._deepen(index)
                link_pending(index)
            with self._lock:
                self._index = index
        self._changed()
        if not link:
            self._linker.edited()

    def link_overlays(self) -> None:
        """Bring the current index's links up to date after ``set_overlay(link=False)``.

        The linking runs on a snapshot outside the writers' lock, so the next buffer
        patch never waits for it; a patch published meanwhile makes it start over.
        """
        with self._link_lock:
            while True:
                with self._lock:
                    current = self._index
                if current is None or not current.links_pending:
                    return
                linked = _snapshot(current)
                with self._write_lock:
                    overlays = dict(self._overlays)
                self._deepen(linked, overlays)
                link_pending(linked)
                with self._lock:
                    published = self._index is current
                    if published:
                        self._index = linked
                if published:
                    self._changed()
                    return

    def _links_pending(self) -> bool:
        with self._lock:
            return self._index is not None and self._index.links_pending

    def _deepen(self, index: Index, overlays: dict[str, bytes] | None = None) -> None:
        """Parse the buffers that ``index`` holds the definitions of alone in full."""
        overlays = self._overlays if overlays is None else overlays
        for key in list(index.shallow):
            alias, rel = self._split(key)
            data = overlays.get(key)
            if data is None:  # the buffer was closed meanwhile: its file on disk, in full
                try:
                    data = Path(self.aliases[alias], rel).read_bytes()
                except OSError:  # gone too: the refresh that closing the buffer asked drops it
                    index.shallow.pop(key)
                    continue
            self._patch_overlay(index, key, alias, rel, data, shallow=False)

    def clear_overlay(self, path: str | Path) -> None:
        """Forget a buffer's unsaved contents and go back to the file on disk."""
        key, alias, rel = self.key_of(path)
        with self._write_lock:
            dropped = self._overlays.pop(key, None)
        self._trees.forget(key)
        if dropped is not None and self._ready.is_set():
            self.refresh([os.path.join(self.aliases[alias], rel)])

    def _reapply_overlays(self, index: Index) -> None:
        for key, data in self._overlays.items():
            entry = index.files.get(key)
            alias, rel = (entry.root, entry.rel) if entry else self._split(key)
            self._patch_overlay(index, key, alias, rel, data, shallow=False)
        link_pending(index)

    def _split(self, key: str) -> tuple[str, str]:
        if len(self.aliases) > 1:
            alias, _, rel = key.partition("/")
            return alias, rel
        return next(iter(self.aliases)), key

    def _patch_overlay(
        self, index: Index, key: str, alias: str, rel: str, data: bytes, *, shallow: bool
    ) -> bool:
        """Patch ``index`` with a buffer's contents, links left for later (the callers
        link once every buffer is in); False when it has them already."""
        abs_path = os.path.join(self.aliases[alias], rel)
        layouts = self._layouts
        if layouts is None:
            layouts = self._layouts = python_layouts(self.aliases)
        result = parse_buffer(
            index, key, alias, rel, abs_path, data, shallow, layouts[alias], self._trees
        )
        if result is None:
            return False
        patch(index, [result], [], link=False, shallow=shallow)
        return True

    def pending_paths(self) -> list[str]:
        """Files seen changing on disk and not re-indexed yet (what makes answers stale)."""
        with self._lock:
            return sorted(self._pending)

    def note_changed(self, paths: Sequence[str]) -> None:
        """Record that files changed on disk (shown as stale until refreshed)."""
        self._pending.update(paths)

    # --- watching ---------------------------------------------------------------------

    def watch(self, debounce_ms: int = 50) -> None:
        """Watch the roots and refresh changed files in a background thread."""
        thread = threading.Thread(
            target=self._watch, args=(debounce_ms,), name="symfuse-watch", daemon=True
        )
        thread.start()
        self._threads.append(thread)

    def _watch(self, debounce_ms: int) -> None:
        self._check.wait(CHECK_HOLD)  # held as the stored index's check is (hold_check)
        if self._stop.is_set():
            return
        from watchfiles import watch

        roots = list(self.aliases.values())

        def interesting(_change: object, path: str) -> bool:
            return languages.may_index(path) and "/.git/" not in path

        try:
            for changes in watch(
                *roots,
                watch_filter=interesting,
                debounce=debounce_ms,
                step=20,
                stop_event=self._stop,
                raise_interrupt=False,
            ):
                paths = sorted({path for _, path in changes})
                self.note_changed(paths)
                try:
                    self.refresh(paths)
                except (SymfuseError, OSError) as exc:
                    log.warning("refresh after file changes failed: %s", exc)
        except (OSError, RuntimeError) as exc:
            log.warning("file watching stopped: %s", exc)


def _same(current: Index, copy: Index, updated: Index, report: UpdateReport) -> bool:
    """Whether an update of ``copy`` (a snapshot of ``current``) changed nothing."""
    unchanged = not report.parsed and not report.removed and not report.rebuilt_because
    return updated is copy and copy.generation == current.generation and unchanged


def _snapshot(index: Index) -> Index:
    """A copy that a writer may patch while readers use the original."""
    return index.snapshot()
