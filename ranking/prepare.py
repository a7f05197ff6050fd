"""Everything the channels precompute, built once per index generation.

:func:`prepare` returns the :class:`Prepared` structures of an index: the BM25
weight matrix, the similarity model, name forms, trigram sets and filter
codes. They are cached in memory per index object and ``generation``, and,
when a directory is given (the index directory), persisted there as
``ranking-<generation>.npz`` with an atomic write, so a CLI search loads them
instead of retraining. The file records a fingerprint of the symbol ids and
file digests; a file whose fingerprint, format or generation differs is
ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import io
import logging
import threading
import time
import weakref
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from scipy import sparse

from symfuse.indexer.index import Index
from symfuse.indexer.store import atomic_write
from symfuse.ranking.documents import build_documents
from symfuse.ranking.filters import FilterTable
from symfuse.ranking.fuzzy import TrigramIndex
from symfuse.ranking.identity import NameTable
from symfuse.ranking.lexical import LexicalIndex
from symfuse.ranking.similarity import RepositoryEmbedder

log = logging.getLogger(__name__)

FORMAT = 2  # bump with any change to what is stored below


@dataclass(frozen=True, slots=True)
class Prepared:
    generation: int
    fingerprint: str
    names: NameTable
    lexical: LexicalIndex
    similarity: RepositoryEmbedder
    trigrams: TrigramIndex
    filters: FilterTable
    pagerank: npt.NDArray[np.float64]
    seconds: float = 0.0  # time to build or load
    loaded: bool = False  # read from disk rather than built

    @property
    def size(self) -> int:
        return len(self.names)


_memory: weakref.WeakKeyDictionary[Index, Prepared] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def fingerprint(index: Index) -> str:
    """Identifies the symbol set: ids in order plus each file's content digest."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{FORMAT}\0".encode())
    for key in sorted(index.files):
        digest.update(f"{key}\0{index.files[key].stamp.digest}\0".encode())
    digest.update("\n".join(s.symbol_id for s in index.symbols).encode())
    return digest.hexdigest()


def prepare(index: Index, directory: Path | None = None) -> Prepared:
    """The precomputed ranking structures of ``index`` (cached; persisted in ``directory``)."""
    with _lock:
        path = None if directory is None else directory / f"ranking-{index.generation}.npz"
        cached = _memory.get(index)
        if cached is not None and cached.generation == index.generation:
            if path is not None and not path.exists():
                _save(path, cached)
            return cached
        started = time.perf_counter()
        print_ = fingerprint(index)
        prepared: Prepared | None = None
        if path is not None and path.exists():
            prepared = _load(path, index, print_, started)
        if prepared is None:
            prepared = build(index, print_, started)
            if path is not None:
                _save(path, prepared)
        _memory[index] = prepared
        return prepared


def build(index: Index, print_: str | None = None, started: float | None = None) -> Prepared:
    """Build every structure from the index's symbols (no cache involved)."""
    started = time.perf_counter() if started is None else started
    symbols = index.symbols
    documents = build_documents(symbols, bodies(index))
    return Prepared(
        generation=index.generation,
        fingerprint=print_ or fingerprint(index),
        names=NameTable.build(symbols),
        lexical=LexicalIndex.build(documents),
        similarity=RepositoryEmbedder.train(documents),
        trigrams=TrigramIndex.build([s.name for s in symbols]),
        filters=FilterTable.build(symbols),
        pagerank=np.asarray(index.pagerank, dtype=np.float64),
        seconds=time.perf_counter() - started,
    )


def bodies(index: Index) -> dict[str, str]:
    """symbol id -> the names referred to inside its definition, space-separated."""
    names: dict[str, list[str]] = {}
    for key in sorted(index.files):
        for ref in index.files[key].references():
            if ref.enclosing is not None:
                names.setdefault(ref.enclosing, []).append(ref.name)
    return {sid: " ".join(found) for sid, found in names.items()}


def _csc_arrays(prefix: str, matrix: sparse.csc_matrix) -> dict[str, npt.NDArray[np.generic]]:
    return {
        f"{prefix}_data": matrix.data,
        f"{prefix}_indices": matrix.indices,
        f"{prefix}_indptr": matrix.indptr,
        f"{prefix}_shape": np.asarray(matrix.shape, dtype=np.int64),
    }


def _csc(arrays: dict[str, npt.NDArray[np.generic]], prefix: str) -> sparse.csc_matrix:
    shape = tuple(int(x) for x in arrays[f"{prefix}_shape"])
    return sparse.csc_matrix(
        (arrays[f"{prefix}_data"], arrays[f"{prefix}_indices"], arrays[f"{prefix}_indptr"]),
        shape=shape,
    )


def _save(path: Path, prepared: Prepared) -> None:
    vocabulary = sorted(prepared.lexical.term_ids, key=prepared.lexical.term_ids.__getitem__)
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "format": np.asarray([FORMAT, prepared.generation], dtype=np.int64),
        "fingerprint": np.asarray([prepared.fingerprint]),
        "vocabulary": np.asarray(vocabulary, dtype=np.str_),
        "idf": prepared.similarity.idf,
        "word_vectors": prepared.similarity.word_vectors,
        "doc_vectors": prepared.similarity.doc_vectors,
        **_csc_arrays("bm25", prepared.lexical.weights),
        **_csc_arrays("tfidf", prepared.similarity.tfidf),
        **_csc_arrays("trigrams", prepared.trigrams.matrix),
        "trigram_vocabulary": np.asarray(
            sorted(prepared.trigrams.trigram_ids, key=prepared.trigrams.trigram_ids.__getitem__),
            dtype=np.str_,
        ),
    }
    buffer = io.BytesIO()
    np.savez(buffer, allow_pickle=False, **arrays)
    try:
        atomic_write(path, buffer.getvalue())
    except OSError as exc:
        log.warning("cannot save ranking data to %s: %s", path, exc)
        return
    for stale in path.parent.glob("ranking-*.npz"):
        if stale != path:
            stale.unlink(missing_ok=True)


def _load(path: Path, index: Index, print_: str, started: float) -> Prepared | None:
    try:
        with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
        fmt, generation = (int(x) for x in arrays["format"])
        if fmt != FORMAT or generation != index.generation:
            return None
        if str(arrays["fingerprint"][0]) != print_:
            return None
        vocabulary = [str(t) for t in arrays["vocabulary"]]
        term_ids = {t: i for i, t in enumerate(vocabulary)}
        symbols = index.symbols
        trigram_matrix = _csc(arrays, "trigrams")
        names = [s.name for s in symbols]
        trigram_ids = {str(t): i for i, t in enumerate(arrays["trigram_vocabulary"])}
        from symfuse.ranking.tokens import whole

        trigrams = TrigramIndex(
            matrix=trigram_matrix,
            sizes=np.diff(sparse.csr_matrix(trigram_matrix).indptr).astype(np.float64),
            trigram_ids=trigram_ids,
            lower=[n.lower() for n in names],
            wholes=[whole(n) for n in names],
        )
        return Prepared(
            generation=index.generation,
            fingerprint=print_,
            names=NameTable.build(symbols),
            lexical=LexicalIndex(_csc(arrays, "bm25"), term_ids),
            similarity=RepositoryEmbedder(
                tfidf=_csc(arrays, "tfidf"),
                idf=arrays["idf"],
                word_vectors=arrays["word_vectors"],
                doc_vectors=arrays["doc_vectors"],
                term_ids=term_ids,
            ),
            trigrams=trigrams,
            filters=FilterTable.build(symbols),
            pagerank=np.asarray(index.pagerank, dtype=np.float64),
            seconds=time.perf_counter() - started,
            loaded=True,
        )
    except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile, EOFError) as exc:
        log.warning("ranking data at %s is unusable (%s); rebuilding it", path, exc)
        return None
