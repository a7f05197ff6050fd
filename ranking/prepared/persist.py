"""Writing the ranking file, and filling a corpus with the per-file pieces stored in it.

:func:`save` writes ``ranking-<generation>.npz`` atomically into the index
directory: per-file pieces, vocabularies, the word model, the symbol vectors,
the heirs and the joined structures (:mod:`symfuse.ranking.prepared.joined`).
:func:`restore` fills an empty :class:`Corpus` from the newest such file, so a
new process only re-tokenizes what changed since. A file whose format differs
or that cannot be read is ignored (and rebuilt by the next save).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from symfuse.indexer.store.atomic import atomic_write
from symfuse.ranking.channels.documents import Piece, similarity_tf
from symfuse.ranking.channels.similarity import WordModel
from symfuse.ranking.prepared.columns import Columns, narrow_ids
from symfuse.ranking.prepared.corpus import Corpus
from symfuse.ranking.prepared.joined import SPLIT_MEMBERS, joined_arrays, stored_vectors
from symfuse.ranking.prepared.ranking_file import (
    FORMAT,
    MATRIX_PARTS,
    SETTINGS,
    UNUSABLE,
    Arrays,
    current,
    heir_arrays,
    model_arrays,
    newest,
    opened,
    read_csc,
    read_model,
    read_rows,
    read_table,
    rows_arrays,
    slice_rows,
    stale_reason,
    strings,
    translation_arrays,
    unstrings,
    write_archive,
)
from symfuse.ranking.prepared.sparse_rows import VALUES, Rows, Vocabulary
from symfuse.ranking.prepared.structures import FilePiece, Prepared

log = logging.getLogger(__name__)


def save(path: Path, prepared: Prepared) -> None:
    """Write the ranking file of ``prepared`` at ``path``; older ranking files go."""
    model, terms = model_arrays(prepared.similarity.model)
    arrays: Arrays = {
        **_header(prepared, len(terms)),
        **_piece_arrays(prepared),
        **model,
        # final (heirs' own ones re-made on a restore), as int8 codes and row scales
        "doc_vectors": prepared.similarity.doc_vectors.codes,
        "doc_scales": prepared.similarity.doc_vectors.scales,
        **heir_arrays(prepared),
        **joined_arrays(prepared),
        **translation_arrays(prepared.translation),
    }
    try:
        # straight into the file: a large workspace's arrays are not first assembled in memory
        atomic_write(path, lambda file: write_archive(file, arrays), mapped=True)
    except OSError as exc:
        log.warning("cannot save ranking data to %s: %s", path, exc)
        return
    for stale in path.parent.glob("ranking-*.npz"):
        if stale != path:
            stale.unlink(missing_ok=True)


def _header(prepared: Prepared, model_terms: int) -> Arrays:
    """Format, settings, fingerprint and the counts the string tables are checked against."""
    model = prepared.similarity.model
    counts = [
        len(prepared.pieces),
        len(prepared.vocabulary),
        len(prepared.trigram_vocabulary),
        model_terms,
        len(model.stamps),
        model.symbols,
    ]
    return {
        "format": np.asarray([FORMAT, prepared.generation], dtype=np.int64),
        "settings": np.asarray([SETTINGS]),
        "fingerprint": np.asarray([prepared.fingerprint]),
        "counts": np.asarray(counts, dtype=np.int64),
    }


def _piece_arrays(prepared: Prepared) -> Arrays:
    """The per-file pieces, concatenated: their files, stamps and sizes say where each is.
    Their body counts and name trigrams are not among them: the BM25 body matrix
    (``x_lexical_body``) and the trigram matrix (``x_trigrams``), mapped by a search,
    hold the same values by column, and :func:`restore` reads the rows back from them
    (a smaller file)."""
    pieces = prepared.pieces
    terms = len(prepared.vocabulary)
    starts = [p.text.starts for p in pieces]
    lengths = np.asarray([p.text.sequence.shape[0] for p in pieces], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]]) if pieces else np.zeros(0)
    return {
        "files": strings(prepared.files),
        "stamps": strings([p.stamp for p in pieces]),
        "sizes": np.asarray([p.size for p in pieces], dtype=np.int64),
        "vocabulary": strings(list(prepared.vocabulary)),
        "trigram_vocabulary": strings(prepared.trigram_vocabulary),
        "head_length": np.concatenate([p.text.head_length for p in pieces] or [np.zeros(0)]),
        # term ids as uint16 when the vocabulary allows (read back as int32): smaller even
        # once deflated
        "sequence": narrow_ids(
            np.concatenate([p.text.sequence for p in pieces] or [np.zeros(0, dtype=np.int32)]),
            terms,
        ),
        "starts": np.concatenate(
            [np.zeros(1, dtype=np.int64)]
            + [s[1:] + off for s, off in zip(starts, offsets, strict=True)]
        ),
        **rows_arrays("head", _narrowed(Rows.stack([p.text.head for p in pieces]), terms)),
        **rows_arrays("names", _narrowed(Rows.stack([p.text.names for p in pieces]), terms)),
        **rows_arrays("doc", _narrowed(Rows.stack([p.text.doc for p in pieces]), terms)),
        # the bodies are the joined x_lexical_body, stored once (:data:`BODY_MEMBERS`)
    }


def _narrowed(rows: Rows, terms: int) -> Rows:
    return Rows(rows.indptr, narrow_ids(rows.indices, terms), rows.data)


# --- restoring the pieces ------------------------------------------------------------------

# The joined members a restore reads besides the pieces': the names' split forms, the body
# counts with their lengths and the name trigrams (the pieces' own, stored once).
_JOINED_ROWS = ("x_lexical_body", "x_trigrams")
_RESTORED = frozenset(
    [*SPLIT_MEMBERS, "x_body_length"]
    + [f"{m}_{part}" for m in _JOINED_ROWS for part in MATRIX_PARTS]
)


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class _Stored:
    """What :func:`restore` read, before it goes into the corpus."""

    vocabulary: Vocabulary
    trigram_vocabulary: Vocabulary
    model: WordModel
    pieces: dict[str, FilePiece]  # file key -> its piece
    vectors: dict[str, npt.NDArray[np.float32]]  # stamp -> the piece's symbol vectors
    table: Columns | None  # the translation table


def restore(corpus: Corpus, directory: Path) -> None:
    """Fill an empty corpus from the newest ranking file in ``directory``, when usable."""
    path = newest(directory)
    if path is None:
        return
    try:
        with opened(path) as npz:
            # the pieces' members, and of the assembled structures the names' split forms
            wanted = [n for n in npz.files if not n.startswith("x_") or n in _RESTORED]
            arrays = {name: npz[name] for name in wanted}
        if not current(arrays):
            log.info("ranking data at %s is %s; rebuilding it", path, stale_reason(arrays))
            return
        stored = _read(arrays)
    except UNUSABLE as exc:
        log.warning("ranking data at %s is unusable (%s); rebuilding it", path, exc)
        return
    corpus.vocabulary = stored.vocabulary
    corpus.trigram_vocabulary = stored.trigram_vocabulary
    corpus.model = stored.model
    corpus.table = None if stored.table is None else stored.table.scipy()
    corpus.pieces = stored.pieces
    corpus.vectors = {s: (stored.model.version, v) for s, v in stored.vectors.items()}
    corpus.loaded = True


def _read(arrays: dict[str, Any]) -> _Stored:
    files, vocab, trigram_vocab, model_count, stamp_count, model_symbols = (
        int(x) for x in arrays["counts"]
    )
    keys = unstrings(arrays["files"], files)
    stamps = unstrings(arrays["stamps"], files)
    sizes = np.asarray(arrays["sizes"], dtype=np.int64)
    bounds: list[int] = np.concatenate([[0], np.cumsum(sizes)]).tolist()
    texts = _texts(arrays)
    trigrams = _rows_of(arrays, "x_trigrams")
    model = read_model(arrays, model_count, stamp_count, model_symbols)
    vocabulary = Vocabulary(unstrings(arrays["vocabulary"], vocab))
    doc_vectors = own_vectors(arrays, texts, model, vocabulary)
    trigram_vocabulary = Vocabulary(unstrings(arrays["trigram_vocabulary"], trigram_vocab))
    if doc_vectors.shape[0] != bounds[-1] or texts.rows != bounds[-1]:
        raise ValueError("row counts disagree")
    split = _split_forms(arrays, bounds[-1])
    pieces: dict[str, FilePiece] = {}
    vectors: dict[str, npt.NDArray[np.float32]] = {}
    for i, (key, stamp) in enumerate(zip(keys, stamps, strict=True)):
        a, b = bounds[i], bounds[i + 1]
        forms = (split[0][a:b], split[1][a:b]) if split is not None else None
        pieces[key] = FilePiece.stored(stamp, texts.piece(a, b), slice_rows(trigrams, a, b), forms)
        vectors[stamp] = doc_vectors[a:b]
    return _Stored(vocabulary, trigram_vocabulary, model, pieces, vectors, read_table(arrays))


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class _Texts:
    """The stored documents of every piece, one after another."""

    head: Rows
    body: Rows
    head_length: npt.NDArray[np.float64]
    body_length: npt.NDArray[np.float64]
    sequence: npt.NDArray[np.int32]
    starts: npt.NDArray[np.int64]
    names: Rows
    doc: Rows

    @property
    def rows(self) -> int:
        return self.head.rows

    def piece(self, a: int, b: int) -> Piece:
        """The documents of symbols ``a`` to ``b`` (exclusive), as one piece."""
        s0, s1 = int(self.starts[a]), int(self.starts[b])
        return Piece(
            head=slice_rows(self.head, a, b),
            head_length=self.head_length[a:b],
            body=slice_rows(self.body, a, b),
            body_length=self.body_length[a:b],
            sequence=self.sequence[s0:s1],
            starts=self.starts[a : b + 1] - s0,
            names=slice_rows(self.names, a, b),
            doc=slice_rows(self.doc, a, b),
        )


def _texts(arrays: dict[str, Any]) -> _Texts:
    return _Texts(
        head=read_rows(arrays, "head"),
        body=_rows_of(arrays, "x_lexical_body"),
        head_length=np.asarray(arrays["head_length"], dtype=np.float64),
        body_length=np.asarray(arrays["x_body_length"], dtype=np.float64),
        sequence=np.asarray(arrays["sequence"], dtype=np.int32),
        starts=np.asarray(arrays["starts"], dtype=np.int64),
        names=read_rows(arrays, "names"),
        doc=read_rows(arrays, "doc"),
    )


def own_vectors(
    arrays: dict[str, Any], texts: _Texts, model: WordModel, vocabulary: Vocabulary
) -> npt.NDArray[np.float32]:
    """Every symbol's vector of its own text: the final vectors as their codes give them
    (coding them again gives the same codes), the heirs' rows embedded again from their
    stored head and body (without the borrowed words), as the build embedded them: bit
    for bit (each row's product reads that row alone). This costs a restore, and only a
    restore, a moment; storing them would make every ranking file larger."""
    own = stored_vectors(arrays).rows()  # a copy in float32
    if "heirs" not in arrays:
        return own
    heirs = np.asarray(arrays["heirs"], dtype=np.int64)
    width = len(vocabulary)
    tf = similarity_tf(texts.head.matrix(width)[heirs], texts.body.matrix(width)[heirs])
    own[heirs] = model.embed(tf, model.rows_of(vocabulary.terms))
    return own


def _split_forms(arrays: dict[str, Any], n: int) -> tuple[list[str], list[str]] | None:
    """The names' separator-free and spaced forms, when the file has them."""
    if not all(member in arrays for member in SPLIT_MEMBERS):
        return None
    return unstrings(arrays["x_wholes"], n), unstrings(arrays["x_spaced"], n)


def _rows_of(arrays: dict[str, Any], prefix: str) -> Rows:
    """The pieces' rows of a joined matrix stored by column (the body counts, the name
    trigrams): by row, columns sorted within a row, as the pieces made them
    (:meth:`Rows.sized`)."""
    rows = read_csc(arrays, prefix).scipy().tocsr()
    rows.sort_indices()
    return Rows(
        np.asarray(rows.indptr, dtype=np.int64),
        np.asarray(rows.indices, dtype=np.int32),
        np.asarray(rows.data, dtype=VALUES),
    )
