"""Editor buffers in a live index: names at each keystroke, links once the edits pause.

Taken in one step, an edit typed into a large workspace costs a full parse of the
buffer, then a relink of what the change reaches and a PageRank over the whole graph,
before the next ``workspace/symbol`` could answer: hundreds of milliseconds, nearly all
of it linking and ranking. A name search needs none of that. So an edit is taken in two steps:

1. **names** (:func:`parse_buffer` with ``shallow=True``): the buffer's definitions
   alone, put in the index at once (:func:`~symfuse.indexer.update.apply.patch` with
   ``shallow=True, link=False``); the index says its links are pending;
2. **links** (:class:`Linker`): once no edit came for :data:`LINK_QUIET` seconds, or
   at once for a reader that needs edges, the same text is parsed again with its
   references and the change is relinked and ranked, on a snapshot that replaces the
   published index unless a newer edit came meanwhile.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import replace

from symfuse.indexer.extract.parsing import ParsedFile, ParseResult, parse_file
from symfuse.indexer.files import languages
from symfuse.indexer.files.headers import FileHints
from symfuse.indexer.files.layouts import PythonLayout
from symfuse.indexer.index import Index
from symfuse.indexer.update.buffer_trees import BufferTrees

log = logging.getLogger(__name__)

LINK_QUIET = 0.3  # seconds without an edit before the edits' links are made
OVERLAY_MTIME = -1  # a buffer's stamp never matches a file on disk


def parse_buffer(
    index: Index,
    key: str,
    alias: str,
    rel: str,
    abs_path: str,
    data: bytes,
    shallow: bool,
    layout: PythonLayout | None = None,
    trees: BufferTrees | None = None,
) -> ParseResult | None:
    """A buffer's text parsed for ``index``; None when the index has it already (a
    shallow entry of the same text still wants its full parse). ``layout``: its root's
    (looked up by :func:`~symfuse.indexer.extract.parsing.parse_file` when not given: it reads
    the root's pyproject.toml and setup.cfg); ``trees``: the buffers' last trees, which
    this version is parsed from and joins."""
    digest = hashlib.blake2b(data, digest_size=16).hexdigest()
    entry = index.files.get(key)
    if entry is not None and entry.stamp.digest == digest and (shallow or key not in index.shallow):
        return None
    spec = languages.detect(rel, data[: languages.SHEBANG_BYTES])
    if spec is None:
        return None
    # a .h keeps the language its project gave it when the buffer's text says nothing
    hints = FileHints(project=entry.language) if entry is not None else None
    result = parse_file(
        key,
        alias,
        rel,
        abs_path,
        spec.name,
        source=data,
        layout=layout,
        hints=hints,
        definitions_only=shallow,
        trees=trees,
    )
    if isinstance(result, ParsedFile):
        result = replace(result, stamp=replace(result.stamp, mtime_ns=OVERLAY_MTIME))
    return result


class Linker:
    """The background thread of step 2: links after a pause in the edits.

    ``link`` makes the links of the current index (the live index's
    ``link_overlays``); ``pending`` says whether the current index still waits for
    them. The thread exists only while links are pending.
    """

    def __init__(
        self, link: Callable[[], None], pending: Callable[[], bool], stop: threading.Event
    ) -> None:
        self._link = link
        self._pending = pending
        self._stop = stop
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._edited_at = 0.0

    def edited(self) -> None:
        """An edit was taken in (step 1): link after the next pause."""
        with self._lock:
            self._edited_at = time.monotonic()
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="symfuse-link", daemon=True)
                self._thread.start()

    def _run(self) -> None:
        try:
            while True:
                with self._lock:
                    if self._stop.is_set() or not self._pending():
                        self._thread = None
                        return
                    due = self._edited_at + LINK_QUIET - time.monotonic()
                if due > 0:
                    self._stop.wait(due)
                    continue
                self._link()
        except Exception:  # a background thread must say why it ended
            log.exception("linking edited buffers failed")
            with self._lock:
                self._thread = None
