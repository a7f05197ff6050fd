"""The word vectors and translation table learned over many corpora as over one.

Both models are learned from a corpus, so a repository's shard would learn its own and
rank otherwise than one combined index over the same repositories. Each corpus offers
its share of the training data as parts (:class:`~.parts.WordPart`,
:class:`~.translation.PairPart`, in its own term ids); the models learned from the
parts one after another, over the union of their vocabularies, are the same whoever
holds the parts: one index of many roots learns from one part per root, in the order of
its file keys; the shards of those roots (:func:`shard_parts`, written beside each
shard) give their parts to one training for all (:func:`SharedModels.learned`), whose
models every shard then scores with. One index of one root is one part, and learns as
it always did.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.store.arrays import npz_arrays
from symfuse.ranking.channels.documents import Documents, concatenate
from symfuse.ranking.channels.parts import WordPart, term_union
from symfuse.ranking.channels.similarity import WordModel
from symfuse.ranking.channels.translation import PairPart, SharedTable, Texts, learned, stop_ids
from symfuse.ranking.prepared.ranking_file import strings, unstrings
from symfuse.ranking.prepared.sparse_rows import Vocabulary
from symfuse.ranking.prepared.structures import FilePiece, Prepared

if TYPE_CHECKING:
    from scipy import sparse

RootRows = tuple[int, int]  # (start, stop) of one root's symbols


def root_rows(index: Index, keys: Sequence[str], pieces: Sequence[FilePiece]) -> list[RootRows]:
    """The symbol rows of each root of ``index``, in the order of ``keys`` (the pieces'
    files, sorted: a root's files are one run of them, in the order of ``alias/``)."""
    bounds: list[RootRows] = []
    at, current = 0, None
    for key, piece in zip(keys, pieces, strict=True):
        root = index.files[key].root
        if root != current:
            bounds.append((at, at))
            current = root
        at += piece.size
        bounds[-1] = (bounds[-1][0], at)
    return bounds or [(0, 0)]


def word_model(
    documents: Documents,
    counted: npt.NDArray[np.bool_],
    roots: Sequence[RootRows],
    stamps: frozenset[str],
) -> WordModel:
    """The word vectors of an index, one part per root."""
    parts = [WordPart.of(documents, counted, rows) for rows in _many(roots)]
    return WordModel.learned(parts, stamps=stamps)


def translation_table(
    texts: Texts,
    vocabulary: Sequence[str],
    counted: npt.NDArray[np.bool_],
    roots: Sequence[RootRows],
) -> sparse.csc_matrix:
    """The translation table of an index (its own term ids), one part per root."""
    from scipy import sparse

    parts = [PairPart.of(texts, vocabulary, counted, rows) for rows in _many(roots)]
    terms, table = learned(parts)
    if len(parts) == 1:
        return table
    width = texts.code.shape[1]
    where = {t: i for i, t in enumerate(vocabulary)}
    ids = np.fromiter((where[t] for t in terms), np.int64, len(terms))
    coo = sparse.coo_matrix(table)
    return sparse.csc_matrix(
        (coo.data, (ids[coo.row], ids[coo.col])), shape=(width, width), dtype=np.float32
    )


def _many(roots: Sequence[RootRows]) -> Sequence[RootRows | None]:
    """One root is one part of every row (its own term order kept: see term_union)."""
    return [None] if len(roots) <= 1 else roots


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class ShardParts:
    """What one shard offers the shared training, and its token counts for the
    translation's background."""

    words: WordPart
    pairs: PairPart
    totals: npt.NDArray[np.float64]  # per term id: code and doc tokens

    @classmethod
    def of(cls, prepared: Prepared) -> ShardParts:
        """A shard's parts, from structures that carry their pieces (not an exact load's,
        which reads the joined structures only)."""
        if not prepared.pieces and prepared.size:
            raise ValueError("the structures of an exact load carry no pieces")
        vocabulary = Vocabulary(list(prepared.vocabulary))
        documents = concatenate([p.text for p in prepared.pieces], vocabulary)
        counted = ~prepared.filters.unit_rows
        assert documents.names is not None
        assert documents.doc is not None
        texts = Texts.of(
            documents.names, documents.body, documents.doc, stop_ids(documents.term_ids)
        )
        terms = documents.vocabulary
        return cls(
            WordPart.of(documents, counted),
            PairPart.of(texts, terms, counted),
            SharedTable.totals_of(texts),
        )

    def save(self, path: Path) -> None:
        from symfuse.indexer.store.atomic import atomic_write

        w, p = self.words, self.pairs
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "terms": strings(list(w.terms)),
            "counts": np.asarray([len(w.terms), w.documents], dtype=np.int64),
            "df": w.df,
            "sequence": w.sequence,
            "starts": w.starts,
            "totals": self.totals,
        }
        for name, matrix in (("names", p.names), ("code", p.code), ("doc", p.doc)):
            arrays |= _csr_arrays(name, matrix)
        atomic_write(path, _npz(arrays))

    @classmethod
    def load(cls, path: Path) -> ShardParts:
        arrays = npz_arrays(path)
        count, documents = (int(x) for x in arrays["counts"])
        terms = unstrings(arrays["terms"], count)
        words = WordPart(terms, arrays["df"], documents, arrays["sequence"], arrays["starts"])
        pairs = PairPart(
            terms, _csr_of(arrays, "names"), _csr_of(arrays, "code"), _csr_of(arrays, "doc")
        )
        return cls(words, pairs, arrays["totals"])


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class SharedModels:
    """The word vectors and translation table learned over every shard's parts."""

    word: WordModel
    table: SharedTable

    @classmethod
    def learned(cls, parts: Sequence[ShardParts]) -> SharedModels:
        """Trained over ``parts`` one after another (in the order of their roots' file
        keys, as one combined index holds them)."""
        word = WordModel.learned([p.words for p in parts])
        terms, table = learned([p.pairs for p in parts])
        _, maps = term_union([p.pairs.terms for p in parts])
        totals = np.zeros(len(terms))
        for part, mapped in zip(parts, maps, strict=True):
            np.add.at(totals, mapped[: part.totals.shape[0]], part.totals)
        return cls(word, SharedTable(terms, table, totals))

    def save(self, path: Path) -> None:
        from scipy import sparse

        from symfuse.indexer.store.atomic import atomic_write

        word, table = self.word, self.table
        words = sorted(word.term_ids.items(), key=lambda item: item[1])
        arrays: dict[str, npt.NDArray[np.generic]] = {
            "word_terms": strings([t for t, _ in words]),
            "vectors": word.vectors,
            "idf": word.idf,
            "terms": strings(list(table.terms)),
            "counts": np.asarray([len(words), len(table.terms), word.symbols], dtype=np.int64),
            "totals": table.totals,
        }
        arrays |= _csr_arrays("table", sparse.csr_matrix(table.table))
        atomic_write(path, _npz(arrays))

    @classmethod
    def load(cls, path: Path) -> SharedModels:
        arrays = npz_arrays(path)
        words, count, symbols = (int(x) for x in arrays["counts"])
        word_terms = unstrings(arrays["word_terms"], words)
        word = WordModel(
            term_ids={t: i for i, t in enumerate(word_terms)},
            vectors=np.ascontiguousarray(arrays["vectors"], dtype=np.float32),
            idf=np.asarray(arrays["idf"], dtype=np.float64),
            symbols=symbols,
            version=WordModel.new_version(),
        )
        terms = unstrings(arrays["terms"], count)
        table = _csr_of(arrays, "table").tocsc()
        return cls(word, SharedTable(terms, table, np.asarray(arrays["totals"], np.float64)))


def _csr_arrays(name: str, matrix: sparse.csr_matrix) -> dict[str, npt.NDArray[np.generic]]:
    return {
        f"{name}_indptr": matrix.indptr.astype(np.int64),
        f"{name}_indices": matrix.indices.astype(np.int32),
        f"{name}_data": matrix.data,
        f"{name}_shape": np.asarray(matrix.shape, dtype=np.int64),
    }


def _csr_of(arrays: dict[str, npt.NDArray[np.generic]], name: str) -> sparse.csr_matrix:
    from scipy import sparse

    shape = tuple(int(x) for x in arrays[f"{name}_shape"])
    return sparse.csr_matrix(
        (arrays[f"{name}_data"], arrays[f"{name}_indices"], arrays[f"{name}_indptr"]),
        shape=shape,
    )


def _npz(arrays: dict[str, npt.NDArray[np.generic]]) -> bytes:
    import io

    buffer = io.BytesIO()
    np.savez(buffer, **arrays)  # type: ignore[arg-type]
    return buffer.getvalue()
