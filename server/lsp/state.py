"""What the language server keeps between requests: the live index and the buffers.

``ServerState`` owns the :class:`LiveIndex` for the current workspace roots (it
builds a new one when folders are added or removed), the unsaved buffers waiting
to be indexed (coalesced: a burst of keystrokes is parsed once, and any query
first indexes what is waiting, so an edit shows up in the next answer), and the
cache of non-ASCII line texts used to convert columns to the client's encoding.
Every method that touches the index is meant to run in a worker thread.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import OutsideWorkspace, SymfuseError
from symfuse.indexer.index import Index
from symfuse.indexer.live import LiveIndex, ProgressCallback
from symfuse.indexer.source_files import read_source_text
from symfuse.ranking.api import Prepared, prepare
from symfuse.ranking.quick import quick_table
from symfuse.server.lsp.options import LspOptions
from symfuse.server.lsp.positions import Encoding, FileMapper, LineTexts

log = logging.getLogger(__name__)

WARM_POLL = 0.05  # seconds between looks at the index
WARM_QUIET = 0.5  # an index unchanged this long gets its ranking structures built
WARM_LINES_FILES = 50_000  # files whose line texts are read ahead of any request


@dataclass(frozen=True, slots=True)
class LaunchConfig:
    """How ``symfuse lsp`` was started (command-line options)."""

    index_dir: Path | None = None
    jobs: int | None = None
    roots: tuple[Path, ...] = ()  # overrides the client's workspace folders when given
    watch_fallback: bool = True  # watch files ourselves when the client cannot
    defaults: LspOptions = field(default_factory=LspOptions)


@dataclass(slots=True)
class Progress:
    """The latest progress of the first index, written by the index thread."""

    message: str = "starting"
    done: int = 0
    total: int = 0


class ServerState:
    def __init__(self, launch: LaunchConfig) -> None:
        self.launch = launch
        self.options: LspOptions = launch.defaults
        self.encoding = Encoding.UTF16
        self.live: LiveIndex | None = None
        self.roots: tuple[Path, ...] = ()
        self.texts = LineTexts()
        self.progress = Progress()
        self.open_docs: dict[str, str] = {}  # path -> latest text, for open buffers
        self._dirty: dict[str, str] = {}  # path -> text not yet indexed
        self.overlaid: set[str] = set()  # paths whose buffer text the index holds
        self._dirty_lock = threading.Lock()
        self._flush_lock = threading.Lock()
        self._prepared: tuple[Index, Prepared] | None = None
        self._wanted = threading.Event()  # a query asked: prepare now, no quiet period
        self._stop = threading.Event()
        self._warmer: threading.Thread | None = None

    # --- lifecycle ----------------------------------------------------------------------

    def config_for(self, roots: tuple[Path, ...]) -> IndexConfig:
        idx = self.options.index
        return IndexConfig(
            roots=roots,
            index_dir=self.launch.index_dir,
            include=idx.include,
            exclude=idx.exclude,
            max_file_size=idx.max_file_size,
            languages=idx.languages,
            jobs=self.launch.jobs,
            progress=False,
        )

    def start(self, roots: tuple[Path, ...], watch: bool) -> LiveIndex:
        """Start indexing ``roots`` in the background (replacing any previous index)."""
        old = self.live
        self.roots = roots
        self.progress = Progress()
        self.overlaid = set()
        live = LiveIndex(self.config_for(roots))
        self.live = live
        if old is not None:
            old.stop()
        live.start(self._on_progress(live))
        for path, text in list(self.open_docs.items()):
            self.mark_dirty(path, text)
        if watch:
            live.watch()
        if self._warmer is None:
            warmer = threading.Thread(target=self._warm, name="symfuse-lsp-warm", daemon=True)
            warmer.start()  # then kept: stop() never joins a thread that has not started
            self._warmer = warmer
        return live

    def _on_progress(self, live: LiveIndex) -> ProgressCallback:
        def report(message: str, done: int, total: int) -> None:
            if self.live is live:
                self.progress = Progress(message, done, total)

        return report

    def stop(self) -> None:
        self._stop.set()
        self._wanted.set()
        if self.live is not None:
            self.live.stop()
        if self._warmer is not None and self._warmer is not threading.current_thread():
            self._warmer.join(timeout=5)

    # --- ranking structures -----------------------------------------------------------

    def prepared_for(self, index: Index) -> Prepared | None:
        """The ranking structures of exactly this index, when they are built."""
        found = self._prepared
        if found is not None and found[0] is index and found[1].generation == index.generation:
            return found[1]
        return None

    def ranking(self, index: Index) -> tuple[Prepared | None, tuple[Index, Prepared] | None]:
        """The ranking structures of ``index``, or else the latest earlier ones of its workspace.

        Without structures for ``index`` (just after an edit), their rebuild starts
        at once (no quiet period: a one-file change re-prepares in a few hundred
        milliseconds); meanwhile ranking answers from the previous index's
        structures for the unchanged files and ranks the changed ones quickly.
        """
        found = self.prepared_for(index)
        if found is not None:
            return found, None
        last = self._prepared
        if last is None or last[0].roots != index.roots:
            return None, None  # cold start: the quick ranking answers
        self._wanted.set()
        return None, last

    def _current(self) -> Index | None:
        live = self.live
        if live is None:
            return None
        with live.reading() as index:
            return index

    def _warm(self) -> None:
        """Build the ranking structures of each index once it has been still for a moment,
        or at once when a query asked for them (:meth:`ranking`).

        Until they exist (cold start) workspace/symbol answers with the quick
        name ranking, so no request waits seconds for them; its table is built
        here as soon as each index appears.
        """
        seen: tuple[int, int] | None = None
        since = time.monotonic()
        retry_at = 0.0
        while not self._stop.is_set():
            wanted = self._wanted.wait(WARM_POLL)
            if self._stop.is_set():
                return
            live = self.live
            if live is None:
                continue
            current = self._current()
            if current is None:
                continue
            key = (id(current), current.generation)
            if key != seen:
                seen, since = key, time.monotonic()
                if self._prepared is None and live.ready:  # the quick ranking answers: ready it
                    quick_table(current)
                if not wanted:
                    continue
            if not live.ready or live.status().indexing:
                self._wanted.clear()  # nothing to prepare until the first index is done
                continue
            if self.prepared_for(current) is not None:
                self._wanted.clear()
                continue
            now = time.monotonic()
            if now < retry_at:
                self._wanted.clear()
                continue
            if not wanted and now - since < WARM_QUIET:
                continue
            self._wanted.clear()
            try:
                prepared = prepare(current, live.config.store.directory)
            except (SymfuseError, OSError, ValueError) as exc:
                log.warning("preparing the ranking structures failed: %s", exc)
                retry_at = time.monotonic() + 60  # do not retry at once
                continue
            self._prepared = (current, prepared)
            self._warm_lines(current)

    def _warm_lines(self, index: Index) -> None:
        """Read the non-ASCII lines of every file now, so answers never wait on the disk."""
        for key in list(index.files)[:WARM_LINES_FILES]:
            if self._stop.is_set() or self._wanted.is_set() or self.prepared_for(index) is None:
                return
            self.mapper(index, key)

    # --- buffers ------------------------------------------------------------------------

    def mark_dirty(self, path: str, text: str) -> None:
        """Remember a buffer's new text; it is indexed at the next flush."""
        with self._dirty_lock:
            self._dirty[path] = text

    def close(self, path: str) -> None:
        """A buffer was closed: index the file as it is on disk (worker thread)."""
        with self._dirty_lock:
            self._dirty.pop(path, None)
        live = self.live
        if live is None:
            return
        with self._flush_lock:
            if path in self.overlaid:
                self.overlaid.discard(path)
                live.clear_overlay(path)
            else:
                # Never indexed from the buffer; the file may still have changed on disk.
                live.refresh([path])

    def flush(self) -> None:
        """Index every buffer changed since the last flush (worker thread)."""
        live = self.live
        if live is None:
            return
        with self._flush_lock:
            with self._dirty_lock:
                dirty, self._dirty = self._dirty, {}
            for path, text in dirty.items():
                try:
                    live.set_overlay(path, text)
                    self.overlaid.add(path)
                except OutsideWorkspace:
                    continue
                except (SymfuseError, OSError) as exc:
                    log.warning("indexing the buffer of %s failed: %s", path, exc)

    # --- positions ----------------------------------------------------------------------

    def mapper(self, index: Index, key: str) -> FileMapper:
        """Converts positions of file ``key`` as the index has it now."""
        entry = index.files.get(key)
        if entry is None:
            return FileMapper({}, self.encoding)
        path = os.path.join(index.roots[entry.root], entry.rel)
        lines = self.texts.lines(path, entry.stamp.digest, lambda: self._text_of(path))
        return FileMapper(lines, self.encoding)

    def _text_of(self, path: str) -> str | None:
        text = self.open_docs.get(path)
        if text is not None:
            return text
        return read_source_text(path)

    def key_of(self, path: str) -> str | None:
        if self.live is None:
            return None
        try:
            return self.live.key_of(path)[0]
        except OutsideWorkspace:
            return None
