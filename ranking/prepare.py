"""Everything the channels precompute, for each index generation, cheaply.

:func:`prepare` returns the :class:`Prepared` structures of an index: the BM25
weight matrix, the similarity model, name forms, trigram sets and filter
codes. They are cached in memory per index object; building them for a new
generation reuses the per-file pieces of the workspace's :class:`Corpus`
(keyed by the workspace roots, so it survives a live server's copy-on-write
snapshots), re-tokenizing only the files whose content or symbols changed.

When a directory is given (the index directory), the corpus is persisted
there as ``ranking-<generation>.npz`` with an atomic write: per-file pieces,
vocabularies, the word model and the symbol vectors. A new process (a CLI
search after ``symfuse index``) loads the newest such file and only
re-tokenizes what changed since. A file whose format differs or that cannot
be read is ignored and rebuilt.

Threads: building happens under the corpus's own lock, which only builders
take; the module lock guards the dictionaries for an instant. Readers holding
a :class:`Prepared` never wait.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
import weakref
from collections import OrderedDict
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.ranking.assembled import restore_exact
from symfuse.ranking.corpus import Corpus, Prepared
from symfuse.ranking.npz_arrays import SETTINGS
from symfuse.ranking.persist import restore, save
from symfuse.ranking.similarity import WordModel

log = logging.getLogger(__name__)

MAX_CORPORA = 4  # workspaces whose per-file pieces stay in memory

_memory: weakref.WeakKeyDictionary[Index, Prepared] = weakref.WeakKeyDictionary()
_corpora: OrderedDict[tuple[tuple[str, str], ...], Corpus] = OrderedDict()
_lock = threading.Lock()  # held only to read or update the two dictionaries above

__all__ = ["Prepared", "build", "fingerprint", "forget", "prepare"]


def fingerprint(index: Index) -> str:
    """Identifies the symbol set: ids in order plus each file's content digest."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{SETTINGS}\0".encode())
    for key in sorted(index.files):
        digest.update(f"{key}\0{index.files[key].stamp.digest}\0".encode())
    digest.update("\n".join(s.symbol_id for s in index.symbols).encode())
    return digest.hexdigest()


def forget() -> None:
    """Drop every in-memory cache (tests; a new process starts like this)."""
    with _lock:
        _memory.clear()
        _corpora.clear()


def corpus_of(index: Index) -> Corpus:
    """The per-file cache of ``index``'s workspace (created empty when new)."""
    key = tuple(sorted(index.roots.items()))
    with _lock:
        corpus = _corpora.get(key)
        if corpus is None:
            corpus = _corpora[key] = Corpus()
            while len(_corpora) > MAX_CORPORA:
                _corpora.popitem(last=False)
        _corpora.move_to_end(key)
        return corpus


def _cached(index: Index) -> Prepared | None:
    with _lock:
        found = _memory.get(index)
    if found is not None and found.generation == index.generation:
        return found
    return None


def prepare(index: Index, directory: Path | None = None) -> Prepared:
    """The precomputed ranking structures of ``index`` (cached; persisted in ``directory``)."""
    path = None if directory is None else directory / f"ranking-{index.generation}.npz"
    found = _cached(index)
    built = False
    if found is None:
        corpus = corpus_of(index)
        with corpus.lock:
            found = _cached(index)  # another builder may have just made it
            if found is None:
                started = time.perf_counter()
                print_ = fingerprint(index)
                if not corpus.pieces and directory is not None:
                    found, readable = restore_exact(directory, index, print_, started)
                    if found is None and readable:
                        restore(corpus, directory)
                if found is None:
                    found = corpus.update(index, print_, started)
                    built = not found.loaded
                with _lock:
                    _memory[index] = found
                log.debug(
                    "ranking structures of generation %d: %d files tokenized, %.3f s",
                    index.generation,
                    found.rebuilt,
                    found.seconds,
                )
    if path is not None and found.pieces and (built or not path.exists()):
        save(path, found)  # (not the structures of an exact load: they carry no pieces)
    return found


def build(index: Index, *, model: WordModel | None = None) -> Prepared:
    """Every structure of ``index`` from scratch, with no cache (``model``: reuse these vectors)."""
    return Corpus().update(index, fingerprint(index), time.perf_counter(), model=model)
