"""Everything the channels precompute, for each index generation, cheaply.

:func:`prepare` returns the :class:`Prepared` structures of an index: the BM25
weight matrix, the similarity model, name forms, trigram sets and filter
codes. They are cached in memory per index object, in the :class:`PreparedCache`
the index owns (:mod:`symfuse.ranking.prepared.per_index`); building them for a new
generation reuses the per-file pieces of that cache's :class:`Corpus` (shared
with the index's snapshots, so it survives a live server's copy-on-write
snapshots), re-tokenizing only the files whose content or symbols changed.

When a directory is given (the index directory), the corpus is persisted
there as ``ranking-<generation>.npz`` with an atomic write
(:mod:`symfuse.ranking.prepared.persist`): per-file pieces, vocabularies, the word model
and the symbol vectors. A new process (a CLI search after ``symfuse index``)
reads the structures whole when the file was written for exactly its index
(:mod:`symfuse.ranking.prepared.joined`), else loads the pieces and only re-tokenizes
what changed since. A file whose format differs or that cannot be read is
ignored and rebuilt.

Threads: building happens under the corpus's own lock, which only builders
take; the cache's lock guards its dictionary for an instant. Readers holding
a :class:`Prepared` never wait.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import threading
import time
import weakref
from collections.abc import Callable
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.indexer.store.objects import ids_digest
from symfuse.ranking.channels.similarity import WordModel
from symfuse.ranking.prepared.corpus import Corpus
from symfuse.ranking.prepared.joined import restore_exact
from symfuse.ranking.prepared.per_index import drop, per_index
from symfuse.ranking.prepared.persist import restore, save
from symfuse.ranking.prepared.ranking_file import SETTINGS, newest
from symfuse.ranking.prepared.shared import SharedModels
from symfuse.ranking.prepared.structures import Prepared

log = logging.getLogger(__name__)

__all__ = ["Prepared", "PreparedCache", "build", "corpus_of", "fingerprint", "forget", "prepare"]


class PreparedCache:
    """The ranking caches of one index and its snapshots (see :mod:`.companion`).

    ``corpus`` holds the per-file pieces, vocabularies and word model, which
    outlive generations; ``prepared`` the structures made for each index object
    (a snapshot is a new object), valid while its generation holds.
    """

    def __init__(self) -> None:
        self.corpus = Corpus()
        self.prepared: weakref.WeakKeyDictionary[Index, Prepared] = weakref.WeakKeyDictionary()
        self.lock = threading.Lock()  # held only to read or update ``prepared``

    def cached(self, index: Index) -> Prepared | None:
        """The structures made for ``index`` at its current generation, if any."""
        with self.lock:
            found = self.prepared.get(index)
        if found is not None and found.generation == index.generation:
            return found
        return None

    def remember(self, index: Index, prepared: Prepared) -> None:
        with self.lock:
            self.prepared[index] = prepared


def fingerprint(index: Index) -> str:
    """Identifies the symbol set: each file's content digest plus the digest of the ids in
    order (the one a load checked the stored graph with: no second pass over the ids)."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{SETTINGS}\0".encode())
    for key in sorted(index.files):
        digest.update(f"{key}\0{index.files[key].stamp.digest}\0".encode())
    digest.update(ids_digest(index))
    return digest.hexdigest()


def forget(index: Index) -> None:
    """Drop the ranking caches ``index`` and its snapshots own: it then prepares as a new
    process would (tests)."""
    drop(index, PreparedCache)


def corpus_of(index: Index) -> Corpus:
    """The per-file cache of ``index`` and its snapshots (created empty when new)."""
    return per_index(index, PreparedCache).corpus


def prepare(
    index: Index,
    directory: Path | None = None,
    *,
    path_prefix: str = "",
    deferred: Callable[[Callable[[], None]], None] | None = None,
) -> Prepared:
    """The precomputed ranking structures of ``index`` (cached; persisted in ``directory``).
    ``path_prefix``: a repository's shard's ``alias/``, before its files' paths in their
    documents, as one index of many roots names them (:attr:`.corpus.Corpus.prefix`).
    ``deferred``: given the write of the ranking file, to run it later (a server answers
    meanwhile); else it is written before this returns."""
    path = None if directory is None else directory / f"ranking-{index.generation}.npz"
    cache = per_index(index, PreparedCache)
    cache.corpus.prefix = path_prefix
    found = cache.cached(index)
    built = False
    if found is None:
        with cache.corpus.lock:
            found = cache.cached(index)  # another builder may have just made it
            if found is None:
                found = _make(index, cache.corpus, directory)
                built = not found.loaded
                cache.remember(index, found)
    if path is not None and found.pieces and (built or not path.exists()):
        # (not the structures of an exact load: they carry no pieces)
        (deferred or _now)(functools.partial(save, path, found))
    return found


def _now(write: Callable[[], None]) -> None:
    write()


def _make(index: Index, corpus: Corpus, directory: Path | None) -> Prepared:
    """The structures of ``index``: read whole when the ranking file in ``directory`` was
    written for exactly this index, else updated from the corpus (filled from that file
    when the corpus is empty)."""
    started = time.perf_counter()
    print_ = fingerprint(index)
    found = None
    if not corpus.pieces and directory is not None:
        found, readable = restore_exact(directory, index, print_, started)
        if found is None and readable:
            restore(corpus, directory)
    if found is None:
        found = corpus.update(index, print_, started)
    log.debug(
        "ranking structures of generation %d: %d files tokenized, %.3f s",
        index.generation,
        found.rebuilt,
        found.seconds,
    )
    return found


def has_stored(directory: Path) -> bool:
    """Whether ``directory`` holds a ranking file (a warm start reads it rather than build)."""
    return newest(directory) is not None


def prepare_shared(
    index: Index, directory: Path, models: SharedModels, *, path_prefix: str = ""
) -> Prepared:
    """The structures of a shard's ``index`` scoring with the ``models`` learned over every
    shard (:mod:`.shared`): its stored pieces read from ``directory``, its symbols embedded
    again and its translation table mapped; not cached, not saved (the shard's own file
    keeps its own models). ``path_prefix``: as :func:`prepare`'s."""
    corpus = Corpus()
    corpus.shared, corpus.prefix = models, path_prefix
    restore(corpus, directory)
    return corpus.update(index, fingerprint(index), time.perf_counter())


def build(index: Index, *, model: WordModel | None = None) -> Prepared:
    """Every structure of ``index`` from scratch, with no cache (``model``: reuse these vectors)."""
    return Corpus().update(index, fingerprint(index), time.perf_counter(), model=model)
