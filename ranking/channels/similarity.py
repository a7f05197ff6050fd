"""The similarity channel: embeddings of symbol documents, cosine to the query.

The default model needs no download and is trained on the repository itself:

- TF-IDF over the symbol documents (identifier sub-tokens and doc words):
  ``ln(1 + tf) * ln(N / df)`` (tf is field-weighted), rows L2-normalized;
- word vectors from PPMI + truncated SVD (Levy, Goldberg and Dagan,
  "Improving Distributional Similarity with Lessons Learned from Word
  Embeddings", 2015): co-occurrence counts within a window of the token
  sequence, positive PMI with the context distribution smoothed by 0.75, a
  randomized SVD (Halko, Martinsson and Tropp, 2011), vectors ``U * S^p``
  with the eigenvalue weight ``p = 0`` (the paper's recommendation for SVD);
  a symbol's vector is its TF-IDF-weighted sum of word vectors, normalized
  (:class:`WordModel`; kept across index generations and retrained only when
  the corpus moved a lot, see :mod:`symfuse.ranking.prepared.corpus`).

A query's score against a symbol is ``ALPHA * cos_tfidf + (1 - ALPHA) * cos_svd``.
Other models plug in through :class:`Embedder`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.documents import Documents
from symfuse.ranking.channels.lexical import LexicalIndex, QueryTerms
from symfuse.ranking.channels.parts import WordPart, joined_parts, term_union
from symfuse.ranking.channels.tfidf import Tfidf
from symfuse.ranking.channels.topk import Ranking, top_k_of
from symfuse.ranking.channels.word_counts import (
    cooccurrence,
    ppmi,
    randomized_svd,
    training_sample,
)
from symfuse.ranking.prepared.quantized import Quantized
from symfuse.ranking.search.workers import in_background

if TYPE_CHECKING:
    from scipy import sparse

ALPHA = 0.5
# 96 dimensions answer as 128 do, at three quarters of the bytes every search reads (the
# product over all symbols' vectors) and keeps mapped: on the natural-language sets of
# tests/bench/nl_bench.py they are within a few queries of each other, and 96 is best on the
# mined set, the larger and the closer to what people type. 64 halves the bytes, but the
# README's own example ("reciprocal rank fusion" over this repository) loses ``fuse`` from
# the top 5. The golden name sets are the same at 64 and 96.
DIMENSIONS = 96
EIGENVALUE_WEIGHT = 0.0  # vectors U * S^p (Levy et al. 2015: p = 0 or 0.5 beat p = 1)
MIN_DF = 2
MAX_TERMS = 12_000  # the most frequent terms learn vectors; rarer ones rely on TF-IDF
BLOCK_ROWS = 2048  # documents weighed or embedded per block (see WordModel.embed)
# Cosines below this are rounding noise between vectors with nothing in common (a symbol
# sharing no word with the query scored a tiny float32 cosine and counted as a match).
NOISE = 1e-6
# The product over fewer symbols' vectors than this (a quarter of a millisecond) runs on
# the caller's thread: handed to the side thread, the caller waits longer for the
# interpreter lock than the product takes (a repository's small shard, a small index).
ASIDE_ROWS = 8192


class Embedder(Protocol):
    """What the similarity channel needs from a model: a cosine score per symbol."""

    @property
    def name(self) -> str:
        """A short name of the model, for status output."""
        ...

    def scores(self, query: str) -> npt.NDArray[np.float32]:
        """Similarity of every symbol (aligned with ``Index.symbols``) to ``query``."""
        ...


# Model version numbers, unique in the process (not a cache): a corpus keys the symbol
# vectors it keeps by the version of the model that made them.
_versions = itertools.count(1)


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class WordModel:
    """PPMI + SVD word vectors, with the idf they were trained under.

    A symbol's vector is ``sum_t ln(1 + tf) * idf_model(t) * v(t)`` over the terms
    the model knows, normalized: it depends on the symbol's own document and
    the model only, so vectors of unchanged files survive a re-index. Terms the
    model never saw add through TF-IDF only. ``stamps`` and ``symbols`` say what
    it was trained on, to decide when the corpus has moved enough to retrain.
    """

    term_ids: Mapping[str, int]  # term -> row of ``vectors``
    vectors: npt.NDArray[np.float32]  # terms x dims
    idf: npt.NDArray[np.float64]  # per row, ln(N / df) at training time
    symbols: int = 0
    stamps: frozenset[str] = frozenset()
    version: int = 0

    @classmethod
    def train(
        cls,
        documents: Documents,
        dimensions: int = DIMENSIONS,
        stamps: frozenset[str] = frozenset(),
        counted: npt.NDArray[np.bool_] | None = None,
    ) -> WordModel:
        """Word vectors of ``documents``' sequences; the document frequencies (which words
        are learnt, what they weigh) over the documents ``counted`` marks (all: None)."""
        return cls.learned([WordPart.of(documents, counted)], dimensions, stamps)

    @classmethod
    def learned(
        cls,
        parts: Sequence[WordPart],
        dimensions: int = DIMENSIONS,
        stamps: frozenset[str] = frozenset(),
    ) -> WordModel:
        """Word vectors of several corpora as of one: their documents one after another
        (the training sample is every k-th symbol of them all, the document frequencies
        their sums), over the union of their vocabularies (:func:`term_union`), so that
        one combined index and its repositories' shards learn the same model."""
        terms, maps = term_union([p.terms for p in parts])
        vocabulary_size = len(terms)
        df = np.zeros(vocabulary_size, dtype=np.int64)
        for part, mapped in zip(parts, maps, strict=True):
            np.add.at(df, mapped[: part.df.shape[0]], part.df)
        n_docs = max(sum(p.documents for p in parts), 1)
        kept = np.flatnonzero(df >= MIN_DF)  # words seen once have no distribution to learn
        if kept.shape[0] > MAX_TERMS:
            kept = np.sort(kept[np.argsort(-df[kept], kind="stable")[:MAX_TERMS]])
        sequence, starts = joined_parts(parts, maps)
        sample = training_sample(sequence, starts)
        u, s = randomized_svd(ppmi(cooccurrence(*sample, vocabulary_size, kept)), dimensions)
        vectors = (u * s**EIGENVALUE_WEIGHT).astype(np.float32)
        used = np.flatnonzero(np.abs(vectors).sum(axis=1) > 0)  # words with a context
        idf = np.log(n_docs / np.maximum(df[kept[used]], 1.0))
        return cls(
            term_ids={terms[int(kept[r])]: i for i, r in enumerate(used)},
            vectors=np.ascontiguousarray(vectors[used]),
            idf=idf.astype(np.float64),
            symbols=sum(int(p.starts.shape[0]) - 1 for p in parts),
            stamps=stamps,
            version=next(_versions),
        )

    @staticmethod
    def new_version() -> int:
        """A version number no other model in this process has."""
        return next(_versions)

    @property
    def dimensions(self) -> int:
        return int(self.vectors.shape[1])

    def rows_of(self, vocabulary: list[str]) -> npt.NDArray[np.int64]:
        """For each vocabulary id, the model's row (-1 when it does not know the term)."""
        # a loaded model's TermTable hashes a term a lookup: a dict for the whole vocabulary
        ids = self.term_ids
        get = (ids if isinstance(ids, dict) else dict(ids.items())).get
        return np.fromiter((get(t, -1) for t in vocabulary), dtype=np.int64, count=len(vocabulary))

    def embed(self, tf: sparse.csr_matrix, rows: npt.NDArray[np.int64]) -> npt.NDArray[np.float32]:
        """Unit vectors of documents ``tf`` (columns are vocabulary ids mapped by ``rows``).

        :data:`BLOCK_ROWS` documents at a time: a row's vector depends on that row alone,
        so the blocks give the same floats as one product, and the temporaries (float64
        weights and products) stay a few MB, where one product's grow with every row.
        """
        n = tf.shape[0]
        out = np.zeros((n, self.dimensions), dtype=np.float32)
        if not tf.nnz or not self.vectors.shape[0]:
            return out
        vectors = self.vectors.astype(np.float64)  # what scipy's product would upcast to
        for start in range(0, n, BLOCK_ROWS):
            stop = min(start + BLOCK_ROWS, n)
            out[start:stop] = self._embedded(tf[start:stop], rows, vectors)
        return out

    def _embedded(
        self,
        tf: sparse.csr_matrix,
        rows: npt.NDArray[np.int64],
        vectors: npt.NDArray[np.float64],
    ) -> npt.NDArray[np.float32]:
        """:meth:`embed` of one block of documents."""
        from scipy import sparse

        n = tf.shape[0]
        model_rows = rows[tf.indices]
        known = model_rows >= 0
        entry_rows = np.repeat(np.arange(n), np.diff(tf.indptr))[known]
        cols = model_rows[known]
        values = np.log1p(tf.data[known]) * self.idf[cols]
        weights = sparse.csr_matrix((values, (entry_rows, cols)), shape=(n, vectors.shape[0]))
        docs = np.asarray(weights @ vectors, dtype=np.float32)
        norms = np.linalg.norm(docs, axis=1, keepdims=True)
        unit: npt.NDArray[np.float32] = np.divide(
            docs, norms, out=np.zeros_like(docs), where=norms > 0
        )
        return unit


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class RepositoryEmbedder:
    """TF-IDF plus PPMI-SVD word vectors, trained on the index (the default model)."""

    tfidf: Tfidf  # symbols x terms, rows L2-normalized, made from the BM25 index's counts
    idf: npt.NDArray[np.float64]  # what a query's terms weigh
    model: WordModel
    doc_vectors: Quantized  # symbols x dims, rows L2-normalized before their coding
    term_ids: Mapping[str, int]
    name: str = "tfidf+ppmi-svd"
    # a shard's: the idf of the words other shards hold and it lacks, which weigh in a
    # query's length as they do in one combined index (global_stats.with_stats)
    outside: Mapping[str, float] | None = None

    @classmethod
    def train(cls, documents: Documents, dimensions: int = DIMENSIONS) -> RepositoryEmbedder:
        model = WordModel.train(documents, dimensions)
        vectors = model.embed(documents.tf, model.rows_of(documents.vocabulary))
        return cls.assemble(documents, model, vectors, LexicalIndex.build(documents))

    @classmethod
    def assemble(
        cls,
        documents: Documents,
        model: WordModel,
        doc_vectors: npt.NDArray[np.float32],
        lexical: LexicalIndex,
        counted: npt.NDArray[np.bool_] | None = None,
    ) -> RepositoryEmbedder:
        """The embedder of ``documents`` with a trained ``model`` and their vectors under it;
        its TF-IDF rows read the counts of ``lexical``, the BM25 index of ``documents``, its
        idf those of the documents ``counted`` marks (all: None)."""
        tfidf = Tfidf.of(lexical.head, lexical.body, documents.tf, counted)
        return cls(
            tfidf=tfidf,
            idf=tfidf.idf,
            model=model,
            doc_vectors=Quantized.of(doc_vectors),
            term_ids=documents.term_ids,
        )

    def scores(self, query: str) -> npt.NDArray[np.float32]:
        """``ALPHA * cos_tfidf + (1 - ALPHA) * cos_svd`` of every symbol to ``query``.

        ``cos_tfidf``: the query's terms weighted by idf (unit length) against the
        symbols' TF-IDF rows; ``cos_svd``: the idf-weighted sum of the query words'
        vectors (unit length) against the symbols' vectors. Words the model does not know
        count in ``cos_tfidf`` only; when it knows none, ``cos_svd`` is 0.
        """
        return self.started(query)()

    def started(self, query: str) -> Callable[[], npt.NDArray[np.float32]]:
        """:meth:`scores` of ``query``, with the product over every symbol's vector
        started on a side thread (:mod:`symfuse.ranking.search.workers`) when there are
        :data:`ASIDE_ROWS` or more, else made here; calling the result finishes them. Only
        the product goes aside: it runs without the GIL, while the Python around it would
        contend with the caller's own work for it."""
        terms = QueryTerms.parse(query)
        wanted = terms.required + terms.optional + terms.acronyms
        dense: Future[npt.NDArray[np.float32]] | None = None
        rows = [self.model.term_ids[t] for t in wanted if t in self.model.term_ids]
        if rows:
            vector = self.model.idf[rows].astype(np.float32) @ self.model.vectors[rows]
            norm = float(np.linalg.norm(vector))
            if norm > 0 and self.doc_vectors.shape[0] >= ASIDE_ROWS:
                dense = in_background(self.doc_vectors.dot, vector / norm)
            elif norm > 0:
                dense = Future()
                dense.set_result(self.doc_vectors.dot(vector / norm))

        def finish() -> npt.NDArray[np.float32]:
            # the cosines are this call's own array: weighed and summed in place (the same
            # operations as ``ALPHA * lexical + (1 - ALPHA) * dense``, fewer temporaries)
            lexical = self._tfidf_cosines(wanted)
            lexical *= ALPHA
            if dense is not None:
                lexical += (1.0 - ALPHA) * dense.result()
            return lexical.astype(np.float32)

        return finish

    def _tfidf_cosines(self, wanted: Sequence[str]) -> npt.NDArray[np.float64]:
        width = self.tfidf.shape[1]
        cols = [self.term_ids[t] for t in wanted if self.term_ids.get(t, width) < width]
        lexical = np.zeros(self.tfidf.shape[0], dtype=np.float64)
        if cols:
            weights = self.idf[cols]
            weights = weights / (self._query_norm(wanted, weights) or 1.0)
            for col, w in zip(cols, weights, strict=True):
                self.tfidf.add_column(col, w, lexical)
        return lexical

    def _query_norm(self, wanted: Sequence[str], weights: npt.NDArray[np.float64]) -> float:
        """The length the query's weights are divided by: of its words' idf here, or over
        the whole corpus a shard is part of (:attr:`outside`)."""
        if self.outside is None:
            return float(np.linalg.norm(weights))
        return _outside_norm(self, wanted, self.outside)


def _outside_norm(
    embedder: RepositoryEmbedder, wanted: Sequence[str], outside: Mapping[str, float]
) -> float:
    """The length of a query's idf vector over the words of the whole corpus: this
    index's own and, in the query's order, those only :attr:`RepositoryEmbedder.outside`
    knows."""
    width = embedder.tfidf.shape[1]
    weights = []
    for term in wanted:
        col = embedder.term_ids.get(term, width)
        if col < width:
            weights.append(float(embedder.idf[col]))
        elif term in outside:
            weights.append(outside[term])
    return float(np.linalg.norm(np.asarray(weights, dtype=np.float64)))


def rank(embedder: Embedder, query: str, mask: npt.NDArray[np.bool_] | None, limit: int) -> Ranking:
    """Symbols by similarity to ``query``, best first."""
    return _ranking(embedder.scores(query), mask, limit)


def started_rank(
    embedder: Embedder, query: str, mask: npt.NDArray[np.bool_] | None, limit: int
) -> Callable[[], Ranking]:
    """:func:`rank`, its product over the vectors started on a side thread when the
    embedder can (:meth:`RepositoryEmbedder.started`); calling the result finishes it."""
    if isinstance(embedder, RepositoryEmbedder):
        finish = embedder.started(query)
        return lambda: _ranking(finish(), mask, limit)
    return lambda: rank(embedder, query, mask, limit)


def _ranking(
    scores: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_] | None, limit: int
) -> Ranking:
    keep = scores > NOISE if mask is None else mask & (scores > NOISE)
    found = np.flatnonzero(keep).astype(np.int64, copy=False)
    chosen = top_k_of(found, scores[found], limit)
    return Ranking(chosen, scores[chosen].astype(np.float64), found)
