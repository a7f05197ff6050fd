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

import dataclasses
import hashlib
import logging
import threading
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import EdgeKind, Kind, Symbol
from symfuse.ranking.channels.documents import (
    Documents,
    concatenate,
    definition_bodies,
    similarity_tf,
)
from symfuse.ranking.channels.fuzzy import TrigramIndex
from symfuse.ranking.channels.identity import NameForms, NameTable
from symfuse.ranking.channels.inherited_docs import (
    call_docs,
    inherited,
    receiver_docs,
    with_inherited,
)
from symfuse.ranking.channels.lexical import LexicalIndex
from symfuse.ranking.channels.similarity import RepositoryEmbedder, WordModel
from symfuse.ranking.channels.translation import Texts, Translation, stop_ids
from symfuse.ranking.prepared.blas import one_blas_thread
from symfuse.ranking.prepared.shared import (
    RootRows,
    SharedModels,
    root_rows,
    translation_table,
    word_model,
)
from symfuse.ranking.prepared.sparse_rows import VALUES, Rows, Vocabulary
from symfuse.ranking.prepared.structures import FilePiece, Prepared
from symfuse.ranking.prepared.threads import both
from symfuse.ranking.prepared.tokenize_pool import (
    FileJob,
    make_piece,
    matching_source,
    rebase,
    tokenize_many,
    workers_for,
)
from symfuse.ranking.search.filters import FilterTable

if TYPE_CHECKING:
    from scipy import sparse

log = logging.getLogger(__name__)

RETRAIN_SHARE = 0.10  # retrain the word vectors once this share of symbols changed
EMBED_ALL_SHARE = 0.5  # with this share of files new to the model, embed all in one product


def file_stamp(entry: FileEntry, prefix: str = "") -> str:
    """What a file's piece depends on: its content digest and what was extracted from it
    (and the path ``prefix`` its documents are written under, when there is one)."""
    digest = hashlib.blake2b(digest_size=16)
    if prefix:
        digest.update(f"{prefix}\0".encode())
    digest.update(f"{entry.path}\0{entry.stamp.digest}\0{len(entry.refs_blob)}\0".encode())
    for s in entry.symbols:
        digest.update(
            f"{s.symbol_id}\0{s.signature}\0{s.doc}\0{s.name_line}\0{s.end_line}\0"
            f"{s.extends}{s.implements}{s.decorators}\n".encode()
        )
    return digest.hexdigest()


def read_source(index: Index, key: str) -> str | None:
    """The text the index was built from, or None when the file changed or cannot be read
    (an editor overlay or a later change: spans would not line up)."""
    return matching_source(index.abs_path(key), index.files[key].stamp.digest)


def reference_bodies(entry: FileEntry) -> list[str]:
    """Stand-in bodies: the names each definition's references use."""
    names: dict[str, list[str]] = {}
    for ref in entry.references():
        if ref.enclosing is not None:
            names.setdefault(ref.enclosing, []).append(ref.name)
    return [" ".join(names.get(s.symbol_id, ())) for s in entry.symbols]


class _LexicalSide(NamedTuple):
    """What a build makes beside the word model (see :meth:`Corpus._update`)."""

    translation: Translation | None
    documents: Documents  # with the borrowed doc words
    heirs: npt.NDArray[np.int64]
    lexical: LexicalIndex
    names: NameTable
    trigrams: TrigramIndex


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
        # P(doc word | code token), trained with the word model (ranking.translation)
        self.table: sparse.csc_matrix | None = None
        self.vectors: dict[str, tuple[int, npt.NDArray[np.float32]]] = {}  # stamp -> (model, v)
        self.tokenized = 0  # files tokenized over the corpus's life (tests count it)
        self.loaded = False  # restored from disk and not yet used for a build
        # a shard's: the models learned over every shard, used instead of its own
        self.shared: SharedModels | None = None
        # a shard's: its files as one index of many roots names them (``alias/``), so
        # that their documents' path words are that index's
        self.prefix = ""

    # --- per file ----------------------------------------------------------------------

    def stamp_of(self, key: str, entry: FileEntry) -> str:
        known = self.stamps.get(key)
        if known is not None and known[0] is entry:
            return known[1]
        stamp = file_stamp(entry, self.prefix)
        self.stamps[key] = (entry, stamp)
        return stamp

    def piece(self, index: Index, key: str, entry: FileEntry, stamp: str) -> FilePiece:
        """Tokenize one file (its text read from disk when it still matches the index)."""
        symbols = self._keyed(entry.symbols)
        source = read_source(index, key) if symbols else None
        bodies = (
            definition_bodies(symbols, source) if source is not None else reference_bodies(entry)
        )
        self.tokenized += 1
        return make_piece(stamp, symbols, bodies, self.vocabulary, self.trigram_vocabulary)

    def _tokenized(
        self, index: Index, todo: list[tuple[str, FileEntry, str]]
    ) -> dict[str, FilePiece]:
        """The pieces of the files in ``todo`` (key, entry, stamp), in worker processes when
        there are many (:mod:`.tokenize_pool`), else here."""
        workers = workers_for(len(todo))
        if not workers:
            return {key: self.piece(index, key, entry, stamp) for key, entry, stamp in todo}
        jobs = [
            FileJob(
                index.abs_path(key), entry.stamp.digest, stamp, tuple(self._keyed(entry.symbols))
            )
            for key, entry, stamp in todo
        ]
        made: dict[str, FilePiece] = {}
        for (key, entry, stamp), local in zip(todo, tokenize_many(jobs, workers), strict=True):
            if local is None:  # changed or unreadable since indexed: from its references
                made[key] = self.piece(index, key, entry, stamp)
            else:
                self.tokenized += 1
                made[key] = rebase(local, self.vocabulary, self.trigram_vocabulary)
        return made

    def _keyed(self, symbols: Sequence[Symbol]) -> Sequence[Symbol]:
        """``symbols`` with their files behind :attr:`prefix` (as they are without one), and
        a file unit's qualified name, which is its file's key."""
        prefix = self.prefix
        if not prefix:
            return symbols
        return [
            dataclasses.replace(
                s, file=prefix + s.file, fqn=prefix + s.fqn if s.kind in Kind.UNITS else s.fqn
            )
            for s in symbols
        ]

    # --- a generation ------------------------------------------------------------------

    def update(
        self, index: Index, fingerprint: str, started: float, *, model: WordModel | None = None
    ) -> Prepared:
        """The structures of ``index``: cached pieces for unchanged files, new ones for the rest.

        ``model`` forces these word vectors (no training); tests compare builds with it.
        BLAS runs on one thread meanwhile (:mod:`.blas`).
        """
        with one_blas_thread():
            return self._update(index, fingerprint, started, model)

    def _update(
        self, index: Index, fingerprint: str, started: float, model: WordModel | None
    ) -> Prepared:
        """The structures, the word model's side (its training, the symbol vectors) on a
        thread of its own beside the rest (the translation table, the borrowed doc words,
        BM25F's columns, the name table and trigrams), which needs no word vector: once the
        files are tokenized a build would otherwise leave the machine's other core idle.
        Each side writes only its own attributes (:attr:`model` and its vectors;
        :attr:`table`), so the structures are the same whatever the timing."""
        rebuilt = self._refresh(index)
        ordered = list(self.pieces.values())
        own = concatenate([p.text for p in ordered], self.vocabulary)
        filters = FilterTable.of([p.filters for p in ordered])
        counted = ~filters.unit_rows  # statistics are the definitions' (see units.py)
        roots = root_rows(index, list(self.pieces), ordered)
        retrained = self._retraining(ordered, model)

        def words() -> npt.NDArray[np.float32]:  # the word model's side
            self._train(ordered, own, model, counted, roots, retrained)
            return self._vectors(ordered, own.tf)

        def lexical_side() -> _LexicalSide:
            translation = self._translation(own, retrained, counted, roots)
            extra, heirs = self._borrowed_words(index, own)
            documents = with_inherited(own, extra)
            lexical = LexicalIndex.build(documents, counted)
            return _LexicalSide(translation, documents, heirs, lexical, *self._names(ordered))

        vectors, side = both(words, lexical_side)
        documents, heirs, lexical = side.documents, side.heirs, side.lexical
        vectors = self._heir_vectors(vectors, documents, heirs)
        assert self.model is not None
        loaded, self.loaded = self.loaded, False
        return Prepared(
            generation=index.generation,
            fingerprint=fingerprint,
            names=side.names,
            lexical=lexical,
            similarity=RepositoryEmbedder.assemble(
                documents, self.model, vectors, lexical, counted
            ),
            trigrams=side.trigrams,
            filters=filters,
            pagerank=np.asarray(index.pagerank, dtype=np.float64),
            seconds=time.perf_counter() - started,
            loaded=loaded and rebuilt == 0,
            rebuilt=rebuilt,
            retrained=retrained,
            files=tuple(self.pieces),
            pieces=tuple(ordered),
            vocabulary=tuple(documents.vocabulary),
            trigram_vocabulary=tuple(self.trigram_vocabulary.terms),
            heirs=heirs,
            translation=side.translation,
        )

    def _names(self, pieces: Sequence[FilePiece]) -> tuple[NameTable, TrigramIndex]:
        """The name table and the trigram index of ``pieces``' names."""
        forms = NameForms.join([p.names for p in pieces])
        trigram_rows_ = Rows.stack([p.trigrams for p in pieces])
        trigrams = TrigramIndex.of(
            trigram_rows_, self.trigram_vocabulary, forms.lower, forms.wholes
        )
        return NameTable.of(forms), trigrams

    def _refresh(self, index: Index) -> int:
        """Make :attr:`pieces` the pieces of ``index``'s files, in key order, tokenizing the
        files whose stamp changed; how many were tokenized."""
        kept: dict[str, FilePiece] = {}
        todo: list[tuple[str, FileEntry, str]] = []
        for key in sorted(index.files):
            entry = index.files[key]
            stamp = self.stamp_of(key, entry)
            found = self.pieces.get(key)
            if found is None or found.stamp != stamp:
                todo.append((key, entry, stamp))
            elif found.partial:
                kept[key] = found.complete(entry, self._keyed(entry.symbols))
            else:
                kept[key] = found
        made = self._tokenized(index, todo)
        self.pieces = {key: kept.get(key) or made[key] for key in sorted(index.files)}
        self.stamps = {k: v for k, v in self.stamps.items() if k in self.pieces}
        return len(todo)

    def _retraining(self, pieces: Sequence[FilePiece], model: WordModel | None) -> bool:
        """Whether this generation trains its own word vectors: with no ``model`` given nor
        shared, when the corpus has none yet or moved more than :data:`RETRAIN_SHARE` since."""
        if model is not None or self.shared is not None:
            return False
        return self.model is None or self._drift(pieces) > RETRAIN_SHARE

    def _train(
        self,
        pieces: Sequence[FilePiece],
        documents: Documents,
        model: WordModel | None,
        counted: npt.NDArray[np.bool_],
        roots: Sequence[RootRows],
        retraining: bool,
    ) -> None:
        """Use ``model`` (or the shared one); or, ``retraining``, train word vectors, one
        part per root (:mod:`.shared`)."""
        model = model if model is not None or self.shared is None else self.shared.word
        if model is not None:
            self._use(model)
        elif retraining:
            stamps = frozenset(p.stamp for p in pieces)
            self._use(word_model(documents, counted, roots, stamps))

    def _translation(
        self,
        documents: Documents,
        retrained: bool,
        counted: npt.NDArray[np.bool_],
        roots: Sequence[RootRows],
    ) -> Translation | None:
        """This generation's translation model: the table trained again whenever the word
        vectors were (or when there is none yet), the code rows made anew; a shard's
        from the shared table."""
        names, doc = documents.names, documents.doc
        if names is None or doc is None:
            return None
        texts = Texts.of(names, documents.body, doc, stop_ids(documents.term_ids))
        if self.shared is not None:
            return self.shared.table.translation(texts, documents.vocabulary)
        if self.table is None or retrained:
            self.table = translation_table(texts, documents.vocabulary, counted, roots)
        return Translation.of(self.table, texts)

    def _borrowed_words(
        self, index: Index, documents: Documents
    ) -> tuple[sparse.csr_matrix, npt.NDArray[np.int64]]:
        """The borrowed doc words (head counts per symbol) and the heirs (symbols with some).

        Never read from the ranking file: a build of exactly the index it was written for
        reads the joined structures instead (:func:`~.joined.restore_exact`),
        so any other build has its own borrowed words to make, and storing them would
        only make the file larger."""
        from scipy import sparse

        width, terms, doc = len(documents.vocabulary), documents.term_ids, documents.doc
        extra, _ = inherited(index.symbols, terms, width, doc)
        edges = index.edges
        calls = edges.kind == EdgeKind.CALLS
        extra = sparse.csr_matrix(
            extra
            + receiver_docs(index.symbols, terms, width, doc)
            + call_docs(index.symbols, edges.src[calls], edges.dst[calls], terms, width, doc)
        )
        heirs = np.flatnonzero(np.diff(extra.indptr) > 0).astype(np.int64)
        return extra.astype(VALUES), heirs  # float32 as the joined matrices are stored

    def _heir_vectors(
        self,
        vectors: npt.NDArray[np.float32],
        documents: Documents,
        heirs: npt.NDArray[np.int64],
    ) -> npt.NDArray[np.float32]:
        """The symbol vectors with the heirs' re-embedded from ``documents`` (which hold the
        borrowed words)."""
        assert self.model is not None
        if not heirs.shape[0]:
            return vectors
        vectors = vectors.copy()  # the per-file cache keeps the vectors of the own text
        heir_tf = similarity_tf(documents.head[heirs], documents.body[heirs])
        vectors[heirs] = self.model.embed(heir_tf, self._rows())
        return vectors

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
