"""The ``symfuse[semantic]`` embedding thread of a long-running server.

After each index has its ranking structures, the thread embeds the files whose
vectors the cache lacks (all of them the first time, then only edited ones) and
saves the cache next to the index; searches use the vectors as soon as they cover
the index (:func:`symfuse.ranking.channels.neural.embedder_for`). It stops a pass as soon as
the index changes or the service stops, and starts only when the extra and its
model are installed: without them nothing here runs.
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING

from symfuse.indexer.index import Index
from symfuse.ranking.api import fill_semantic, semantic_engine
from symfuse.ranking.api import semantic_installed as available
from symfuse.ranking.api import semantic_model as find_model

if TYPE_CHECKING:
    from symfuse.server.common.service import IndexService

log = logging.getLogger(__name__)

SYNC_FILES = 8  # a reindex of this few files embeds them before it returns


def wanted() -> bool:
    """Whether this process can run the neural channel (the extra and a model are there)."""
    return available() and find_model() is not None


class SemanticWorker:
    """One daemon thread following ``service``: embed each new index's missing files."""

    def __init__(self, service: IndexService) -> None:
        self.service = service
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if not wanted():
            return
        thread = threading.Thread(target=self._run, name="symfuse-semantic", daemon=True)
        thread.start()
        self._thread = thread

    def join(self, timeout: float) -> None:
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=timeout)

    def _run(self) -> None:
        service = self.service
        if semantic_engine() is None:
            return  # the model failed to load: status says why
        seen = -1
        while service.running:
            seen = service.wait_change(seen)
            index = service.current()
            if service.prepared_for(index) is None:
                continue  # structures first: a query needs them more
            self.embed(index)

    def embed(self, index: Index) -> None:
        """Embed what ``index`` lacks; stop once it is no longer current."""
        service = self.service

        def stop() -> bool:
            return not service.running or service.current() is not index

        try:
            if fill_semantic(index, service.index_dir, stop):
                service.notify()
        except (OSError, ValueError) as exc:
            log.warning("semantic embedding failed: %s", exc)

    def embed_small(self, index: Index) -> None:
        """After a reindex: embed its files now when they are few (else the thread will)."""
        found = semantic_engine() if self._thread is not None else None
        if found is not None and len(found.cache.missing(index)) <= SYNC_FILES:
            self.embed(index)
