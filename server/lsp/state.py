"""What the language server keeps between requests: the live index and the buffers.

``ServerState`` owns the :class:`IndexService` (the live index and its ranking
structures, shared with the MCP server) for the current workspace roots (it
builds a new one when folders are added or removed), the unsaved buffers waiting
to be indexed (coalesced: a burst of keystrokes is parsed once, and any query
first indexes what is waiting, so an edit shows up in the next answer), and the
cache of non-ASCII line texts used to convert columns to the client's encoding
(read ahead by the service's warming thread once the ranking structures are built).
Every method that touches the index is meant to run in a worker thread.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import OutsideWorkspace, SymfuseError
from symfuse.indexer.files.source import read_source_text
from symfuse.indexer.index import Index
from symfuse.indexer.update.live import LiveIndex
from symfuse.ranking.api import Prepared
from symfuse.server.common.history import HistoryKeeper
from symfuse.server.common.observe import Observer
from symfuse.server.common.service import IndexService
from symfuse.server.common.service_records import Progress, Ranking
from symfuse.server.lsp.framing import FrameLimits
from symfuse.server.lsp.options import LspOptions
from symfuse.server.lsp.positions import Encoding, FileMapper, LineTexts

log = logging.getLogger(__name__)

WARM_LINES_FILES = 50_000  # files whose line texts are read ahead of any request


@dataclass(frozen=True, slots=True)
class LaunchConfig:
    """How ``symfuse lsp`` was started (command-line options)."""

    index_dir: Path | None = None
    jobs: int | None = None
    roots: tuple[Path, ...] = ()  # overrides the client's workspace folders when given
    watch_fallback: bool = True  # watch files ourselves when the client cannot
    history: bool = False  # build or update the git history index in the background
    defaults: LspOptions = field(default_factory=LspOptions)
    # --shards: the sharded query service (not started) served instead of the roots' index
    shards: IndexService | None = None
    framing: FrameLimits = field(default_factory=FrameLimits)  # the largest header line, body


class ServerState:
    def __init__(self, launch: LaunchConfig) -> None:
        self.launch = launch
        self.options: LspOptions = launch.defaults
        self.encoding = Encoding.UTF16
        self.service: IndexService | None = None
        self.observer: Observer | None = None  # records the queries on the service's index
        self.history: HistoryKeeper | None = None
        self.roots: tuple[Path, ...] = ()
        self.folder_names: dict[Path, str] = {}  # the client's names of its folders: aliases
        self.texts = LineTexts()
        self.open_docs: dict[str, str] = {}  # path -> latest text, for open buffers
        self.too_large: set[str] = set()  # open buffers over maxFileSize: the disk file counts
        self._dirty: dict[str, str] = {}  # path -> text not yet indexed
        self.overlaid: set[str] = set()  # paths whose buffer text the index holds
        self._dirty_lock = threading.Lock()
        self.flush_lock = threading.Lock()  # held while buffers are indexed; every query takes it

    @property
    def live(self) -> LiveIndex | None:
        return None if self.service is None else self.service.live

    @property
    def progress(self) -> Progress:
        return Progress() if self.service is None else self.service.progress

    # --- lifecycle ----------------------------------------------------------------------

    def config_for(self, roots: tuple[Path, ...]) -> IndexConfig:
        idx = self.options.index
        # One folder: its alias is its directory's name, as the CLI's, so that the index
        # `symfuse index` built for it is this one (a client's folder name would differ
        # and rebuild it). Several: the client's names tell them apart.
        names = tuple(self.folder_names.get(root.resolve()) for root in roots)
        return IndexConfig(
            roots=roots,
            names=names if any(names) and len(roots) > 1 else (),
            index_dir=self.launch.index_dir,
            include=idx.include,
            exclude=idx.exclude,
            max_file_size=idx.max_file_size,
            languages=idx.languages,
            jobs=self.launch.jobs,
            progress=False,
        )

    def start(self, roots: tuple[Path, ...], watch: bool) -> IndexService:
        """Start indexing ``roots`` in the background (replacing any previous index)."""
        old = self.service
        if self.launch.shards is not None and old is self.launch.shards:
            return old  # the shards stay what they are, whatever folders the client has
        self.roots = roots
        self.overlaid = set()
        service = self.launch.shards or IndexService(
            self.config_for(roots), after_prepare=self._warm_lines
        )
        self.service = service
        previous, self.observer = self.observer, Observer("lsp", service.index_dir)
        if old is not None:
            old.stop()
        if previous is not None:
            previous.close()
        if service is not self.launch.shards:
            # the client's first requests come now: the work ahead waits for the first one
            # answered (or HOLD_MAX seconds), then a pause; the files are checked and
            # watched at once (a change before the watcher starts would be missed)
            service.hold_work_ahead(check=False)
            service.serving()
        service.start(watch=watch)
        if self.launch.history:
            if self.history is not None:
                self.history.stop(0.0)
            self.history = HistoryKeeper(service.config, build=True)
            self.history.start()
        for path, text in list(self.open_docs.items()):
            self.mark_dirty(path, text)
        return service

    def stop(self, timeout: float = 5.0) -> None:
        if self.history is not None:
            self.history.stop(timeout)
        if self.service is not None:
            self.service.stop(timeout)
        if self.observer is not None:
            self.observer.close()

    # --- ranking structures -----------------------------------------------------------

    def prepared_for(self, index: Index) -> Prepared | None:
        """The ranking structures of exactly this index, when they are built."""
        return None if self.service is None else self.service.prepared_for(index)

    def ranking(self, index: Index) -> Ranking:
        """The structures workspace/symbol ranks ``index`` with (:meth:`IndexService.ranking`)."""
        return Ranking() if self.service is None else self.service.ranking(index)

    def _warm_lines(self, index: Index, interrupted: Callable[[], bool]) -> None:
        """Read the non-ASCII lines of every file now, so answers never wait on the disk."""
        for key in list(index.files)[:WARM_LINES_FILES]:
            if interrupted():
                return
            self.mapper(index, key)

    # --- buffers ------------------------------------------------------------------------

    def mark_dirty(self, path: str, text: str) -> None:
        """Remember a buffer's new text; it is indexed at the next flush."""
        with self._dirty_lock:
            self._dirty[path] = text

    def drop_pending(self, path: str) -> None:
        """Forget a buffer's text not yet indexed."""
        with self._dirty_lock:
            self._dirty.pop(path, None)

    def close(self, path: str) -> None:
        """A buffer was closed: index the file as it is on disk (worker thread)."""
        with self._dirty_lock:
            self._dirty.pop(path, None)
        live = self.live
        if live is None:
            return
        with self.flush_lock:
            if path in self.overlaid:
                self.overlaid.discard(path)
                live.clear_overlay(path)
            else:
                # Never indexed from the buffer; the file may still have changed on disk.
                live.refresh([path])

    def flush(self, linked: bool = True) -> None:
        """Index every buffer changed since the last flush (worker thread).

        ``linked=False`` (a name search): the buffers' definitions are enough, and their
        links are left to the live index's background thread; else they are made now.
        """
        live = self.live
        if live is None:
            return
        with self.flush_lock:
            with self._dirty_lock:
                dirty, self._dirty = self._dirty, {}
            for path, text in dirty.items():
                try:
                    live.set_overlay(path, text, link=False)
                    self.overlaid.add(path)
                except OutsideWorkspace:
                    continue
                except (SymfuseError, OSError) as exc:
                    log.warning("indexing the buffer of %s failed: %s", path, exc)
        if linked:
            live.link_overlays()

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
