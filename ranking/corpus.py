"""Per-file ranking pieces, cached by content, assembled into each generation's structures.

A :class:`Corpus` belongs to one workspace (its roots) and outlives the index
snapshots of a live server: each copy-on-write snapshot is a new ``Index``
object, but most of its files are unchanged. For every file the corpus keeps
a :class:`FilePiece` (tokenized documents, name forms, trigram rows, filter
codes) keyed by a stamp of the file's content digest and its symbols; a new
generation re-tokenizes only files whose stamp changed and assembles the
matrices by concatenating the pieces' arrays (numpy, no loop per symbol).

The word vectors (PPMI + SVD) are kept across generations and retrained only
when more than :data:`RETRAIN_SHARE` of the symbols changed since training;
symbol vectors are cached per file under the model that made them.

One builder at a time works on a corpus (:attr:`Corpus.lock`); what it hands
out (:class:`Prepared`) is immutable, so readers never wait for a build.
"""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt
from scipy import sparse

from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import EdgeKind
from symfuse.indexer.source_files import decode_source, read_source_bytes
from symfuse.ranking.documents import (
    Piece,
    Rows,
    Vocabulary,
    call_docs,
    concatenate,
    definition_bodies,
    file_piece,
    inherited,
    similarity_tf,
    with_inherited,
)
from symfuse.ranking.filters import FilterCodes, FilterTable
from symfuse.ranking.fuzzy import TrigramIndex, trigram_rows
from symfuse.ranking.identity import NameForms, NameTable
from symfuse.ranking.lexical import LexicalIndex
from symfuse.ranking.similarity import RepositoryEmbedder, WordModel

log = logging.getLogger(__name__)

RETRAIN_SHARE = 0.10  # retrain the word vectors once this share of symbols changed
EMBED_ALL_SHARE = 0.5  # with this share of files new to the model, embed all in one product


@dataclass(frozen=True, slots=True)
class FilePiece:
    """Everything the channels precompute for one file, valid while its stamp holds."""

    stamp: str
    text: Piece
    trigrams: Rows
    names: NameForms
    filters: FilterCodes
    partial: bool = False  # read from disk: names and filters are still to be made

    @property
    def size(self) -> int:
        return self.text.size

    @classmethod
    def stored(
        cls, stamp: str, text: Piece, trigrams: Rows, split: tuple[list[str], list[str]] | None
    ) -> FilePiece:
        """A piece read from disk; :meth:`complete` adds what is cheap to recompute.
        ``split``: the names' separator-free and spaced forms as stored with it, when
        the file had them (splitting 57k names is most of a completion)."""
        forms = (
            NameForms([], [], *split, []) if split is not None else NameForms([], [], [], [], [])
        )
        return cls(stamp, text, trigrams, forms, FilterCodes.of([]), partial=True)

    def complete(self, entry: FileEntry) -> FilePiece:
        symbols = entry.symbols
        stored = self.names
        if len(stored.wholes) == len(symbols) and len(stored.spaced) == len(symbols):
            # the stamp matched: same names, so the same split; the fqns are recomputed
            # (a package above the root may have changed them)
            names = NameForms.with_split(symbols, stored.wholes, stored.spaced)
        else:
            names = NameForms.of(symbols)
        return replace(self, names=names, filters=FilterCodes.of(symbols), partial=False)


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
    rebuilt: int = 0  # files tokenized for this generation (the others came from the cache)
    retrained: bool = False  # the word vectors were trained for this generation
    files: tuple[str, ...] = ()  # file keys, in symbol order
    pieces: tuple[FilePiece, ...] = ()
    vocabulary: tuple[str, ...] = ()
    trigram_vocabulary: tuple[str, ...] = ()
    # Symbols whose document borrows docstring words (documents.doc_donors and .call_docs)
    # and their vectors without them: what is persisted, since borrowed words are rebuilt.
    heirs: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    heir_vectors: npt.NDArray[np.float32] = field(
        default_factory=lambda: np.zeros((0, 0), dtype=np.float32)
    )
    borrowed: sparse.csr_matrix | None = None  # the borrowed words (head counts per symbol)

    @property
    def size(self) -> int:
        return len(self.names)


@dataclass(frozen=True, slots=True)
class Borrowed:
    """Borrowed docstring words as stored with the ranking data of one exact index."""

    fingerprint: str
    extra: sparse.csr_matrix
    heirs: npt.NDArray[np.int64]
    vectors: npt.NDArray[np.float32]  # the heirs' vectors with the borrowed words


def file_stamp(entry: FileEntry) -> str:
    """What a file's piece depends on: its content digest and what was extracted from it."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{entry.path}\0{entry.stamp.digest}\0{len(entry.refs_blob)}\0".encode())
    for s in entry.symbols:
        digest.update(
            f"{s.symbol_id}\0{s.signature}\0{s.doc}\0{s.name_line}\0{s.end_line}\0"
            f"{s.extends}{s.implements}{s.decorators}\n".encode()
        )
    return digest.hexdigest()


def read_source(index: Index, key: str) -> str | None:
    """The text the index was built from, or None when the file changed or cannot be read."""
    entry = index.files[key]
    data = read_source_bytes(index.abs_path(key))
    if data is None:
        return None
    if hashlib.blake2b(data, digest_size=16).hexdigest() != entry.stamp.digest:
        return None  # an editor overlay or a later change: spans would not line up
    return decode_source(data)


def reference_bodies(entry: FileEntry) -> list[str]:
    """Stand-in bodies: the names each definition's references use."""
    names: dict[str, list[str]] = {}
    for ref in entry.references():
        if ref.enclosing is not None:
            names.setdefault(ref.enclosing, []).append(ref.name)
    return [" ".join(names.get(s.symbol_id, ())) for s in entry.symbols]


class Corpus:
    """The per-file cache of one workspace, with the shared vocabularies and word model."""

    def __init__(self) -> None:
        self.lock = threading.Lock()  # builders only; readers use the Prepared they hold
        self.vocabulary = Vocabulary()
        self.trigram_vocabulary = Vocabulary()
        self.pieces: dict[str, FilePiece] = {}  # file key -> its newest piece
        self.stamps: dict[str, tuple[FileEntry, str]] = {}  # key -> (entry object, its stamp)
        self.model: WordModel | None = None
        self.model_rows = np.zeros(0, dtype=np.int64)  # vocabulary id -> model row
        self.vectors: dict[str, tuple[int, npt.NDArray[np.float32]]] = {}  # stamp -> (model, v)
        self.tokenized = 0  # files tokenized over the corpus's life (tests count it)
        self.loaded = False  # restored from disk and not yet used for a build
        # Restored with the pieces: (fingerprint, borrowed words, heirs, their final vectors),
        # reused by a build of exactly that index (a CLI search of an unchanged workspace).
        self.borrowed: Borrowed | None = None

    # --- per file ----------------------------------------------------------------------

    def stamp_of(self, key: str, entry: FileEntry) -> str:
        known = self.stamps.get(key)
        if known is not None and known[0] is entry:
            return known[1]
        stamp = file_stamp(entry)
        self.stamps[key] = (entry, stamp)
        return stamp

    def piece(self, index: Index, key: str, entry: FileEntry, stamp: str) -> FilePiece:
        """Tokenize one file (its text read from disk when it still matches the index)."""
        symbols = entry.symbols
        source = read_source(index, key) if symbols else None
        bodies = (
            definition_bodies(symbols, source) if source is not None else reference_bodies(entry)
        )
        names = NameForms.of(symbols)
        self.tokenized += 1
        return FilePiece(
            stamp=stamp,
            text=file_piece(symbols, bodies, self.vocabulary),
            trigrams=trigram_rows(names.wholes, names.lower, self.trigram_vocabulary),
            names=names,
            filters=FilterCodes.of(symbols),
        )

    # --- a generation ------------------------------------------------------------------

    def update(
        self, index: Index, fingerprint: str, started: float, *, model: WordModel | None = None
    ) -> Prepared:
        """The structures of ``index``: cached pieces for unchanged files, new ones for the rest.

        ``model`` forces these word vectors (no training); tests compare builds with it.
        """
        pieces: dict[str, FilePiece] = {}
        rebuilt = 0
        for key in sorted(index.files):
            entry = index.files[key]
            stamp = self.stamp_of(key, entry)
            found = self.pieces.get(key)
            if found is None or found.stamp != stamp:
                found = self.piece(index, key, entry, stamp)
                rebuilt += 1
            elif found.partial:
                found = found.complete(entry)
            pieces[key] = found
        self.pieces = pieces
        self.stamps = {k: v for k, v in self.stamps.items() if k in pieces}
        ordered = list(pieces.values())
        documents = concatenate([p.text for p in ordered], self.vocabulary)
        retrained = False
        if model is not None:
            self._use(model)
        elif self.model is None or self._drift(ordered) > RETRAIN_SHARE:
            stamps = frozenset(p.stamp for p in ordered)
            self._use(WordModel.train(documents, stamps=stamps))
            retrained = True
        assert self.model is not None
        vectors = self._vectors(ordered, documents.tf)
        width = len(documents.vocabulary)
        stored, self.borrowed = self.borrowed, None
        reuse = (
            stored is not None
            and self.loaded
            and rebuilt == 0
            and not retrained
            and stored.fingerprint == fingerprint
            and stored.extra.shape == (len(index.symbols), width)
        )
        if reuse:
            assert stored is not None
            extra, heirs = stored.extra, stored.heirs
        else:
            extra, _ = inherited(index.symbols, documents.term_ids, width)
            edges = index.edges
            calls = edges.kind == EdgeKind.CALLS
            extra = sparse.csr_matrix(
                extra
                + call_docs(
                    index.symbols, edges.src[calls], edges.dst[calls], documents.term_ids, width
                )
            )
            heirs = np.flatnonzero(np.diff(extra.indptr) > 0).astype(np.int64)
        documents = with_inherited(documents, extra)
        if heirs.shape[0]:
            vectors = vectors.copy()  # the per-file cache keeps the vectors of the own text
            plain = vectors[heirs]
            if reuse:
                assert stored is not None
                vectors[heirs] = stored.vectors
            else:
                heir_tf = similarity_tf(documents.head[heirs], documents.body[heirs])
                vectors[heirs] = self.model.embed(heir_tf, self._rows())
        else:
            plain = np.zeros((0, self.model.dimensions), dtype=np.float32)
        forms = NameForms.join([p.names for p in ordered])
        trigram_rows_ = Rows.stack([p.trigrams for p in ordered])
        loaded, self.loaded = self.loaded, False
        return Prepared(
            generation=index.generation,
            fingerprint=fingerprint,
            names=NameTable.of(forms),
            lexical=LexicalIndex.build(documents),
            similarity=RepositoryEmbedder.assemble(documents, self.model, vectors),
            trigrams=TrigramIndex.of(
                trigram_rows_, self.trigram_vocabulary, forms.lower, forms.wholes
            ),
            filters=FilterTable.of([p.filters for p in ordered]),
            pagerank=np.asarray(index.pagerank, dtype=np.float64),
            seconds=time.perf_counter() - started,
            loaded=loaded and rebuilt == 0,
            rebuilt=rebuilt,
            retrained=retrained,
            files=tuple(pieces),
            pieces=tuple(ordered),
            vocabulary=tuple(documents.vocabulary),
            trigram_vocabulary=tuple(self.trigram_vocabulary.terms),
            heirs=heirs,
            heir_vectors=plain,
            borrowed=extra,
        )

    def _drift(self, pieces: Sequence[FilePiece]) -> float:
        """Share of symbols changed since the model was trained (added, removed or edited)."""
        assert self.model is not None
        trained = self.model.stamps
        kept = sum(p.size for p in pieces if p.stamp in trained)
        total = sum(p.size for p in pieces)
        changed = (self.model.symbols - kept) + (total - kept)
        return changed / max(self.model.symbols, 1)

    def _use(self, model: WordModel) -> None:
        if self.model is not model:
            self.model = model
            self.model_rows = np.zeros(0, dtype=np.int64)
            self.vectors = {}

    def _rows(self) -> npt.NDArray[np.int64]:
        """Vocabulary id -> model row, extended for the terms added since the last call."""
        assert self.model is not None
        have = self.model_rows.shape[0]
        if have < len(self.vocabulary):
            more = self.model.rows_of(self.vocabulary.terms[have:])
            self.model_rows = np.concatenate([self.model_rows, more])
        return self.model_rows

    def _vectors(
        self, pieces: Sequence[FilePiece], tf: sparse.csr_matrix
    ) -> npt.NDArray[np.float32]:
        """Symbol vectors under the current model: cached per file, computed for the rest."""
        model = self.model
        assert model is not None
        rows = self._rows()
        version = model.version
        cached = {p.stamp: self.vectors.get(p.stamp) for p in pieces}
        missing = [p for p in pieces if (cached[p.stamp] or (0,))[0] != version]
        out: list[npt.NDArray[np.float32]] = []
        if len(missing) > EMBED_ALL_SHARE * max(len(pieces), 1):
            every = model.embed(tf, rows)
            at = 0
            fresh: dict[str, tuple[int, npt.NDArray[np.float32]]] = {}
            for p in pieces:
                block = every[at : at + p.size]
                at += p.size
                fresh[p.stamp] = (version, block)
            self.vectors = fresh
            return every
        width = len(self.vocabulary)
        fresh = {}
        for p in pieces:
            found = cached[p.stamp]
            if found is None or found[0] != version:
                piece_tf = similarity_tf(p.text.head.matrix(width), p.text.body.matrix(width))
                found = (version, model.embed(piece_tf, rows))
            fresh[p.stamp] = found
            out.append(found[1])
        self.vectors = fresh
        if not out:
            return np.zeros((0, model.dimensions), dtype=np.float32)
        return np.concatenate(out)
