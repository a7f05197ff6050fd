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
import zipfile
from collections import OrderedDict
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from scipy import sparse

from symfuse.indexer.atomic import atomic_write
from symfuse.indexer.index import Index
from symfuse.ranking import similarity
from symfuse.ranking.corpus import Borrowed, Corpus, FilePiece, Prepared
from symfuse.ranking.documents import (
    BODY_CHARS,
    CODE_WORDS,
    DOC_CHARS,
    FIELD_WEIGHTS,
    TRAINING_BODY,
    Piece,
    Rows,
    Vocabulary,
)
from symfuse.ranking.filters import FilterTable
from symfuse.ranking.fuzzy import TrigramIndex
from symfuse.ranking.identity import Joined, NameForms, NameTable
from symfuse.ranking.lexical import LexicalIndex
from symfuse.ranking.similarity import RepositoryEmbedder, WordModel
from symfuse.ranking.tokens import STOPWORDS, stem

log = logging.getLogger(__name__)

FORMAT = 6  # bump with any change to what is stored below


def _settings() -> str:
    """What stored pieces and the stored word model depend on besides the files."""
    probe = " ".join(stem(w) for w in ("caching", "queries", "populated", "classes"))
    text = f"{FORMAT}|{sorted(FIELD_WEIGHTS.items())}|{DOC_CHARS}|{BODY_CHARS}|{TRAINING_BODY}"
    text += f"|{probe}"
    text += f"|{sorted(STOPWORDS)}|{sorted(CODE_WORDS)}"
    text += f"|{similarity.WINDOW}|{similarity.EIGENVALUE_WEIGHT}|{similarity.DIMENSIONS}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


SETTINGS = _settings()
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
                    found, readable = _restore_exact(directory, index, print_, started)
                    if found is None and readable:
                        _restore(corpus, directory)
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
        _save(path, found)  # (not the structures of an exact load: they carry no pieces)
    return found


def build(index: Index, *, model: WordModel | None = None) -> Prepared:
    """Every structure of ``index`` from scratch, with no cache (``model``: reuse these vectors)."""
    return Corpus().update(index, fingerprint(index), time.perf_counter(), model=model)


# --- persistence ---------------------------------------------------------------------------


def _strings(values: list[str] | tuple[str, ...]) -> npt.NDArray[np.uint8]:
    return np.frombuffer("\n".join(values).encode(), dtype=np.uint8)


def _unstrings(array: npt.NDArray[np.generic], count: int) -> list[str]:
    if count == 0:
        return []
    values = bytes(np.asarray(array, dtype=np.uint8)).decode().split("\n")
    if len(values) != count:
        raise ValueError("string table length mismatch")
    return values


def _rows_arrays(prefix: str, rows: Rows) -> dict[str, npt.NDArray[np.generic]]:
    return {
        f"{prefix}_indptr": rows.indptr,
        f"{prefix}_indices": rows.indices,
        f"{prefix}_data": rows.data,
    }


def _rows(arrays: dict[str, npt.NDArray[np.generic]], prefix: str) -> Rows:
    return Rows(
        np.asarray(arrays[f"{prefix}_indptr"], dtype=np.int64),
        np.asarray(arrays[f"{prefix}_indices"], dtype=np.int32),
        np.asarray(arrays[f"{prefix}_data"], dtype=np.float64),
    )


def _slice(rows: Rows, a: int, b: int) -> Rows:
    start, end = int(rows.indptr[a]), int(rows.indptr[b])
    return Rows(rows.indptr[a : b + 1] - start, rows.indices[start:end], rows.data[start:end])


def _own_vectors(prepared: Prepared) -> npt.NDArray[np.float32]:
    """Symbol vectors of their own text (a borrowed docstring is added again at load)."""
    vectors = prepared.similarity.doc_vectors
    if not prepared.heirs.shape[0]:
        return vectors
    own = vectors.copy()
    own[prepared.heirs] = prepared.heir_vectors
    return own


def _save(path: Path, prepared: Prepared) -> None:
    pieces = prepared.pieces
    model = prepared.similarity.model
    sizes = np.asarray([p.size for p in pieces], dtype=np.int64)
    starts = [p.text.starts for p in pieces]
    lengths = np.asarray([p.text.sequence.shape[0] for p in pieces], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]) if pieces else np.zeros(0)
    model_terms = sorted(model.term_ids, key=model.term_ids.__getitem__)
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "format": np.asarray([FORMAT, prepared.generation], dtype=np.int64),
        "settings": np.asarray([SETTINGS]),
        "fingerprint": np.asarray([prepared.fingerprint]),
        "counts": np.asarray(
            [
                len(pieces),
                len(prepared.vocabulary),
                len(prepared.trigram_vocabulary),
                len(model_terms),
                len(model.stamps),
                model.symbols,
            ],
            dtype=np.int64,
        ),
        "files": _strings(prepared.files),
        "stamps": _strings([p.stamp for p in pieces]),
        "sizes": sizes,
        "vocabulary": _strings(prepared.vocabulary),
        "trigram_vocabulary": _strings(prepared.trigram_vocabulary),
        "head_length": np.concatenate([p.text.head_length for p in pieces] or [np.zeros(0)]),
        "body_length": np.concatenate([p.text.body_length for p in pieces] or [np.zeros(0)]),
        "sequence": np.concatenate(
            [p.text.sequence for p in pieces] or [np.zeros(0, dtype=np.int32)]
        ),
        "starts": np.concatenate(
            [np.zeros(1, dtype=np.int64)]
            + [s[1:] + off for s, off in zip(starts, offsets, strict=True)]
        ),
        **_rows_arrays("head", Rows.stack([p.text.head for p in pieces])),
        **_rows_arrays("body", Rows.stack([p.text.body for p in pieces])),
        **_rows_arrays("trigrams", Rows.stack([p.trigrams for p in pieces])),
        "model_terms": _strings(model_terms),
        "model_vectors": model.vectors,
        "model_idf": model.idf,
        "model_stamps": _strings(sorted(model.stamps)),
        "doc_vectors": _own_vectors(prepared),
        **_borrowed_arrays(prepared),
        **_exact_arrays(prepared),
    }
    try:
        # straight into the file: Django's 170 MB are not first assembled in memory
        atomic_write(path, lambda file: np.savez(file, allow_pickle=False, **arrays))
    except OSError as exc:
        log.warning("cannot save ranking data to %s: %s", path, exc)
        return
    for stale in path.parent.glob("ranking-*.npz"):
        if stale != path:
            stale.unlink(missing_ok=True)


def _borrowed_arrays(prepared: Prepared) -> dict[str, npt.NDArray[np.generic]]:
    """The borrowed words and the heirs' final vectors: a new process searching the same
    index skips recomputing them."""
    extra = prepared.borrowed
    if extra is None:
        return {}
    return {
        "borrowed_shape": np.asarray(extra.shape, dtype=np.int64),
        "borrowed_indptr": extra.indptr,
        "borrowed_indices": extra.indices,
        "borrowed_data": extra.data,
        "heirs": prepared.heirs,
        "heir_final": prepared.similarity.doc_vectors[prepared.heirs],
    }


_SPLIT_MEMBERS = ("x_wholes", "x_spaced")


def _exact_arrays(prepared: Prepared) -> dict[str, npt.NDArray[np.generic]]:
    """What joining the pieces makes (name forms and sort orders, the BM25 and TF-IDF
    matrices, the filter tables): a new process searching exactly this index loads them
    (:func:`_restore_exact`) instead of joining 2869 pieces again (2 s on Django)."""
    names, filters = prepared.names, prepared.filters
    arrays: dict[str, npt.NDArray[np.generic]] = {
        "x_wholes": _strings(names.wholes_list),
        "x_spaced": _joined_strings(names.spaced_text),
        "x_fqn": _joined_strings(names.fqn_text),
        "x_order_names": names.names.positions,
        "x_order_lower": names.lower.positions,
        "x_order_wholes": names.wholes.positions,
        **_sparse_arrays("x_lexical", prepared.lexical.weights),
        **_sparse_arrays("x_tfidf", prepared.similarity.tfidf),
        "x_idf": prepared.similarity.idf,
        "x_kind": filters.kind,
        "x_language": filters.language,
        "x_languages": _strings(filters.languages),
        "x_file": filters.file,
        "x_files": _strings(filters.files),
        "x_counts": np.asarray([len(filters.languages), len(filters.files)], dtype=np.int64),
    }
    for name in ("extends", "implements", "decorators"):
        table: dict[str, npt.NDArray[np.int64]] = getattr(filters, name)
        arrays[f"x_{name}_keys"] = _strings(list(table))
        arrays[f"x_{name}_sizes"] = np.asarray([len(v) for v in table.values()], dtype=np.int64)
        arrays[f"x_{name}_positions"] = np.concatenate(
            [np.zeros(0, dtype=np.int64), *table.values()]
        )
    return arrays


def _joined_strings(joined: Joined) -> npt.NDArray[np.uint8]:
    """A Joined's strings in the ``_strings`` layout (its text ends with one more newline)."""
    return np.frombuffer(joined.text[:-1].encode(), dtype=np.uint8)


def _sparse_arrays(prefix: str, matrix: sparse.spmatrix) -> dict[str, npt.NDArray[np.generic]]:
    return {
        f"{prefix}_shape": np.asarray(matrix.shape, dtype=np.int64),
        f"{prefix}_indptr": matrix.indptr,
        f"{prefix}_indices": matrix.indices,
        f"{prefix}_data": matrix.data,
    }


def _csc(npz: Any, prefix: str) -> sparse.csc_matrix:
    rows, columns = (int(x) for x in npz[f"{prefix}_shape"])
    return sparse.csc_matrix(
        (npz[f"{prefix}_data"], npz[f"{prefix}_indices"], npz[f"{prefix}_indptr"]),
        shape=(rows, columns),
    )


def _restore_exact(
    directory: Path, index: Index, print_: str, started: float
) -> tuple[Prepared | None, bool]:
    """The structures of ``index`` read whole from the newest ranking file, when that file
    was written for this very index (same fingerprint); and whether the file could be
    read at all (a damaged one is reported here, once, and rebuilt).

    Only the members needed are read. The per-file pieces stay on disk: a later
    generation (a live server's next edit) restores them and updates incrementally.
    """
    path = _newest(directory)
    if path is None:
        return None, False
    try:
        # our own handle: np.load leaves its own open when the file is not an archive
        with open(path, "rb") as handle, _archive(np.load(handle, allow_pickle=False)) as npz:
            if (
                int(npz["format"][0]) != FORMAT
                or str(npz["settings"][0]) != SETTINGS
                or str(npz["fingerprint"][0]) != print_
            ):
                return None, True
            return _exact(npz, index, print_, started), True
    except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile, EOFError) as exc:
        log.warning("ranking data at %s is unusable (%s); rebuilding it", path, exc)
        return None, False


def _archive(loaded: Any) -> Any:
    if not hasattr(loaded, "files"):
        raise ValueError("not an .npz archive")
    return loaded


def _exact(npz: Any, index: Index, print_: str, started: float) -> Prepared:
    symbols = index.symbols
    n = len(symbols)
    files, vocab, trigram_vocab, model_count, stamp_count, model_symbols = (
        int(x) for x in npz["counts"]
    )
    names = [s.name for s in symbols]
    lower = [name.lower() for name in names]
    wholes = _unstrings(npz["x_wholes"], n)
    forms = NameForms(
        names=names,
        lower=lower,
        wholes=wholes,
        spaced=_unstrings(npz["x_spaced"], n),
        fqn=_unstrings(npz["x_fqn"], n),
    )
    orders = [
        np.asarray(npz[f"x_order_{name}"], dtype=np.int64) for name in ("names", "lower", "wholes")
    ]
    vocabulary = _unstrings(npz["vocabulary"], vocab)
    term_ids = {term: i for i, term in enumerate(vocabulary)}
    trigram_vocabulary = Vocabulary(_unstrings(npz["trigram_vocabulary"], trigram_vocab))
    model = _word_model(npz, model_count, stamp_count, model_symbols)
    vectors = np.asarray(npz["doc_vectors"], dtype=np.float32)
    own_heirs = np.zeros((0, vectors.shape[1] if vectors.ndim == 2 else 0), dtype=np.float32)
    borrowed = _borrowed(npz)
    heirs = np.zeros(0, dtype=np.int64)
    if borrowed is not None:
        heirs = borrowed.heirs
        own_heirs = vectors[heirs]
        vectors = vectors.copy()
        vectors[heirs] = borrowed.vectors
    lexical = _csc(npz, "x_lexical")
    tfidf = _csc(npz, "x_tfidf")
    if not (vectors.shape[0] == lexical.shape[0] == tfidf.shape[0] == n):
        raise ValueError("row counts disagree")
    language_count, file_count = (int(x) for x in npz["x_counts"])
    tables: list[dict[str, npt.NDArray[np.int64]]] = []
    for name in ("extends", "implements", "decorators"):
        sizes = np.asarray(npz[f"x_{name}_sizes"], dtype=np.int64)
        keys = _unstrings(npz[f"x_{name}_keys"], sizes.shape[0])
        positions = np.asarray(npz[f"x_{name}_positions"], dtype=np.int64)
        parts = np.split(positions, np.cumsum(sizes)[:-1]) if keys else []
        tables.append(dict(zip(keys, parts, strict=True)))
    return Prepared(
        generation=index.generation,
        fingerprint=print_,
        names=NameTable.of(forms, orders),
        lexical=LexicalIndex(lexical, term_ids),
        similarity=RepositoryEmbedder(
            tfidf=tfidf,
            idf=np.asarray(npz["x_idf"], dtype=np.float64),
            model=model,
            doc_vectors=vectors,
            term_ids=term_ids,
        ),
        trigrams=TrigramIndex.of(_rows(npz, "trigrams"), trigram_vocabulary, lower, wholes),
        filters=FilterTable(
            kind=np.asarray(npz["x_kind"], dtype=np.int8),
            language=np.asarray(npz["x_language"], dtype=np.int16),
            languages=_unstrings(npz["x_languages"], language_count),
            file=np.asarray(npz["x_file"], dtype=np.int32),
            files=_unstrings(npz["x_files"], file_count),
            extends=tables[0],
            implements=tables[1],
            decorators=tables[2],
        ),
        pagerank=np.asarray(index.pagerank, dtype=np.float64),
        seconds=time.perf_counter() - started,
        loaded=True,
        files=tuple(_unstrings(npz["files"], files)),
        vocabulary=tuple(vocabulary),
        trigram_vocabulary=tuple(trigram_vocabulary.terms),
        heirs=heirs,
        heir_vectors=own_heirs,
        borrowed=borrowed.extra if borrowed is not None else None,
    )


def _word_model(arrays: Any, model_count: int, stamp_count: int, model_symbols: int) -> WordModel:
    model_terms = _unstrings(arrays["model_terms"], model_count)
    return WordModel(
        term_ids={t: i for i, t in enumerate(model_terms)},
        vectors=np.asarray(arrays["model_vectors"], dtype=np.float32),
        idf=np.asarray(arrays["model_idf"], dtype=np.float64),
        symbols=model_symbols,
        stamps=frozenset(_unstrings(arrays["model_stamps"], stamp_count)),
        version=WordModel.new_version(),
    )


def _borrowed(arrays: Any) -> Borrowed | None:
    if "borrowed_shape" not in arrays:
        return None
    rows, width = (int(x) for x in arrays["borrowed_shape"])
    extra = sparse.csr_matrix(
        (
            np.asarray(arrays["borrowed_data"], dtype=np.float64),
            np.asarray(arrays["borrowed_indices"], dtype=np.int32),
            np.asarray(arrays["borrowed_indptr"], dtype=np.int64),
        ),
        shape=(rows, width),
    )
    heirs = np.asarray(arrays["heirs"], dtype=np.int64)
    vectors = np.asarray(arrays["heir_final"], dtype=np.float32)
    if vectors.shape[0] != heirs.shape[0]:
        raise ValueError("borrowed rows disagree")
    return Borrowed(str(arrays["fingerprint"][0]), extra, heirs, vectors)


def _newest(directory: Path) -> Path | None:
    best: tuple[int, Path] | None = None
    for found in directory.glob("ranking-*.npz"):
        try:
            generation = int(found.stem.removeprefix("ranking-"))
        except ValueError:
            continue
        if best is None or generation > best[0]:
            best = (generation, found)
    return None if best is None else best[1]


def _restore(corpus: Corpus, directory: Path) -> None:
    """Fill an empty corpus from the newest ranking file in ``directory``, when usable."""
    path = _newest(directory)
    if path is None:
        return
    try:
        with open(path, "rb") as handle, _archive(np.load(handle, allow_pickle=False)) as npz:
            # the pieces' members, and of the assembled structures the names' split forms
            wanted = [n for n in npz.files if not n.startswith("x_") or n in _SPLIT_MEMBERS]
            arrays = {name: npz[name] for name in wanted}
        if int(arrays["format"][0]) != FORMAT or str(arrays["settings"][0]) != SETTINGS:
            return
        files, vocab, trigram_vocab, model_count, stamp_count, model_symbols = (
            int(x) for x in arrays["counts"]
        )
        keys = _unstrings(arrays["files"], files)
        stamps = _unstrings(arrays["stamps"], files)
        sizes = np.asarray(arrays["sizes"], dtype=np.int64)
        bounds = np.concatenate([[0], np.cumsum(sizes)]).tolist()
        head, body, trigrams = (_rows(arrays, p) for p in ("head", "body", "trigrams"))
        sequence = np.asarray(arrays["sequence"], dtype=np.int32)
        starts = np.asarray(arrays["starts"], dtype=np.int64)
        head_length = np.asarray(arrays["head_length"], dtype=np.float64)
        body_length = np.asarray(arrays["body_length"], dtype=np.float64)
        doc_vectors = np.asarray(arrays["doc_vectors"], dtype=np.float32)
        model = _word_model(arrays, model_count, stamp_count, model_symbols)
        vocabulary = Vocabulary(_unstrings(arrays["vocabulary"], vocab))
        trigram_vocabulary = Vocabulary(_unstrings(arrays["trigram_vocabulary"], trigram_vocab))
        if doc_vectors.shape[0] != bounds[-1] or head.rows != bounds[-1]:
            raise ValueError("row counts disagree")
        split: tuple[list[str], list[str]] | None = None
        if all(member in arrays for member in _SPLIT_MEMBERS):
            split = (
                _unstrings(arrays["x_wholes"], bounds[-1]),
                _unstrings(arrays["x_spaced"], bounds[-1]),
            )
        pending: dict[
            str,
            tuple[str, Piece, Rows, npt.NDArray[np.float32], tuple[list[str], list[str]] | None],
        ] = {}
        for i, (key, stamp) in enumerate(zip(keys, stamps, strict=True)):
            a, b = bounds[i], bounds[i + 1]
            s0, s1 = int(starts[a]), int(starts[b])
            text = Piece(
                head=_slice(head, a, b),
                head_length=head_length[a:b],
                body=_slice(body, a, b),
                body_length=body_length[a:b],
                sequence=sequence[s0:s1],
                starts=starts[a : b + 1] - s0,
            )
            forms = (split[0][a:b], split[1][a:b]) if split is not None else None
            pending[key] = (stamp, text, _slice(trigrams, a, b), doc_vectors[a:b], forms)
        borrowed = _borrowed(arrays)
    except (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile, EOFError) as exc:
        log.warning("ranking data at %s is unusable (%s); rebuilding it", path, exc)
        return
    corpus.vocabulary = vocabulary
    corpus.trigram_vocabulary = trigram_vocabulary
    corpus.model = model
    corpus.pieces = {}
    corpus.vectors = {}
    for key, (stamp, text, trigram_block, vectors, forms) in pending.items():
        corpus.pieces[key] = FilePiece.stored(stamp, text, trigram_block, forms)
        corpus.vectors[stamp] = (model.version, vectors)
    corpus.loaded = True
    corpus.borrowed = borrowed
