"""The similarity channel: embeddings of symbol documents, cosine to the query.

The default model needs no download and is trained on the repository itself:

- TF-IDF over the symbol documents (identifier sub-tokens and doc words):
  ``ln(1 + tf) * ln(N / df)`` (tf is field-weighted), rows L2-normalized;
- word vectors from PPMI + truncated SVD (Levy, Goldberg and Dagan,
  "Improving Distributional Similarity with Lessons Learned from Word
  Embeddings", 2015): co-occurrence counts within a window of the token
  sequence, positive PMI with the context distribution smoothed by 0.75, a
  randomized SVD (Halko, Martinsson and Tropp, 2011), vectors ``U * sqrt(S)``;
  a symbol's vector is its TF-IDF-weighted sum of word vectors, normalized.

A query's score against a symbol is ``ALPHA * cos_tfidf + (1 - ALPHA) * cos_svd``.
Other models plug in through :class:`Embedder`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import numpy.typing as npt
from scipy import sparse

from symfuse.ranking.documents import Documents
from symfuse.ranking.lexical import QueryTerms
from symfuse.ranking.topk import Ranking, top_k

ALPHA = 0.5
DIMENSIONS = 128
WINDOW = 5
MIN_DF = 2
CONTEXT_SMOOTHING = 0.75
POWER_ITERATIONS = 2
OVERSAMPLE = 16
SEED = 20240607


class Embedder(Protocol):
    """What the similarity channel needs from a model: a cosine score per symbol."""

    @property
    def name(self) -> str:
        """A short name of the model, for status output."""
        ...

    def scores(self, query: str) -> npt.NDArray[np.float32]:
        """Similarity of every symbol (aligned with ``Index.symbols``) to ``query``."""
        ...


def tfidf_matrix(
    tf: sparse.csr_matrix,
) -> tuple[sparse.csr_matrix, npt.NDArray[np.float64]]:
    """Rows ``ln(1 + tf) * idf`` L2-normalized, and ``idf = ln(N / df)``."""
    n_docs = tf.shape[0]
    binary = tf.copy()
    binary.data = np.ones_like(binary.data)
    df = np.asarray(binary.sum(axis=0)).ravel()
    idf = np.log(np.maximum(n_docs, 1) / np.maximum(df, 1.0))
    weighted = tf.copy().astype(np.float64)
    weighted.data = np.log1p(weighted.data) * idf[weighted.indices]
    norms = np.sqrt(np.asarray(weighted.multiply(weighted).sum(axis=1)).ravel())
    inverse = np.divide(1.0, norms, out=np.zeros_like(norms), where=norms > 0)
    normalized = sparse.diags(inverse) @ weighted
    return sparse.csr_matrix(normalized), idf


def cooccurrence(
    sequence: npt.NDArray[np.int32],
    starts: npt.NDArray[np.int64],
    vocabulary_size: int,
    window: int = WINDOW,
) -> sparse.csr_matrix:
    """Symmetric counts of term pairs at most ``window`` apart within one symbol's tokens."""
    owner = np.repeat(np.arange(starts.shape[0] - 1), np.diff(starts))
    left: list[npt.NDArray[np.int32]] = []
    right: list[npt.NDArray[np.int32]] = []
    for offset in range(1, window + 1):
        same = owner[:-offset] == owner[offset:]
        a, b = sequence[:-offset][same], sequence[offset:][same]
        differ = a != b
        left.extend((a[differ], b[differ]))
        right.extend((b[differ], a[differ]))
    rows = np.concatenate(left) if left else np.zeros(0, dtype=np.int32)
    cols = np.concatenate(right) if right else np.zeros(0, dtype=np.int32)
    counts = sparse.csr_matrix(
        (np.ones(rows.shape[0], dtype=np.float64), (rows, cols)),
        shape=(vocabulary_size, vocabulary_size),
    )
    counts.sum_duplicates()
    return counts


def ppmi(counts: sparse.csr_matrix, smoothing: float = CONTEXT_SMOOTHING) -> sparse.csr_matrix:
    """Positive PMI: ``max(0, ln(P(w, c) / (P(w) * P_a(c))))`` with ``P_a(c) ~ count(c)^a``."""
    total = counts.sum()
    if total <= 0:
        return counts
    row = np.asarray(counts.sum(axis=1)).ravel()
    col = np.asarray(counts.sum(axis=0)).ravel() ** smoothing
    coo = counts.tocoo()
    p_wc = coo.data / total
    p_w = row[coo.row] / total
    p_c = col[coo.col] / col.sum()
    pmi = np.log(p_wc / (p_w * p_c))
    keep = pmi > 0
    return sparse.csr_matrix(
        (pmi[keep], (coo.row[keep], coo.col[keep])), shape=counts.shape, dtype=np.float64
    )


def randomized_svd(
    matrix: sparse.csr_matrix, rank: int, seed: int = SEED
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Top-``rank`` left singular vectors and values (Halko et al. 2011, algorithm 4.4)."""
    n, m = matrix.shape
    k = min(rank + OVERSAMPLE, n, m)
    if k <= 0:
        return np.zeros((n, 0)), np.zeros(0)
    rng = np.random.default_rng(seed)
    q, _ = np.linalg.qr(matrix @ rng.standard_normal((m, k)))
    for _ in range(POWER_ITERATIONS):
        q, _ = np.linalg.qr(matrix.T @ q)
        q, _ = np.linalg.qr(matrix @ q)
    small = (matrix.T @ q).T  # k x m
    u_small, s, _ = np.linalg.svd(small, full_matrices=False)
    u = q @ u_small
    keep = min(rank, s.shape[0])
    return u[:, :keep], s[:keep]


@dataclass(frozen=True, slots=True)
class RepositoryEmbedder:
    """TF-IDF plus PPMI-SVD word vectors, trained on the index (the default model)."""

    tfidf: sparse.csc_matrix  # symbols x terms, rows L2-normalized
    idf: npt.NDArray[np.float64]
    word_vectors: npt.NDArray[np.float32]  # terms x dims
    doc_vectors: npt.NDArray[np.float32]  # symbols x dims, rows L2-normalized
    term_ids: dict[str, int]
    name: str = "tfidf+ppmi-svd"

    @classmethod
    def train(cls, documents: Documents, dimensions: int = DIMENSIONS) -> RepositoryEmbedder:
        tfidf, idf = tfidf_matrix(documents.tf)
        vocabulary_size = len(documents.vocabulary)
        counts = cooccurrence(documents.sequence, documents.starts, vocabulary_size)
        df = np.diff(sparse.csc_matrix(documents.tf).indptr)
        kept = np.flatnonzero(df >= MIN_DF)  # words seen once have no distribution to learn
        counts = sparse.csr_matrix(counts[kept][:, kept])
        u, s = randomized_svd(ppmi(counts), dimensions)
        words = np.zeros((vocabulary_size, u.shape[1]), dtype=np.float32)
        words[kept] = (u * np.sqrt(s)).astype(np.float32)
        docs = np.asarray(tfidf @ words, dtype=np.float32)
        norms = np.linalg.norm(docs, axis=1, keepdims=True)
        docs = np.divide(docs, norms, out=np.zeros_like(docs), where=norms > 0)
        return cls(
            tfidf=sparse.csc_matrix(tfidf),
            idf=idf,
            word_vectors=words,
            doc_vectors=docs,
            term_ids=documents.term_ids,
        )

    def scores(self, query: str) -> npt.NDArray[np.float32]:
        terms = QueryTerms.parse(query)
        cols = [self.term_ids[t] for t in terms.required + terms.optional if t in self.term_ids]
        n = self.tfidf.shape[0]
        if not cols:
            return np.zeros(n, dtype=np.float32)
        weights = self.idf[cols]
        weights = weights / (np.linalg.norm(weights) or 1.0)
        lexical = np.zeros(n, dtype=np.float64)
        for col, w in zip(cols, weights, strict=True):
            start, end = self.tfidf.indptr[col], self.tfidf.indptr[col + 1]
            lexical[self.tfidf.indices[start:end]] += w * self.tfidf.data[start:end]
        vector = weights.astype(np.float32) @ self.word_vectors[cols]
        norm = float(np.linalg.norm(vector))
        # einsum's own loop, not BLAS: a threaded BLAS matvec stalls on a busy machine.
        dense = (
            np.einsum("ij,j->i", self.doc_vectors, vector / norm)
            if norm > 0
            else np.zeros(n, dtype=np.float32)
        )
        return (ALPHA * lexical + (1.0 - ALPHA) * dense).astype(np.float32)


def rank(embedder: Embedder, query: str, mask: npt.NDArray[np.bool_] | None, limit: int) -> Ranking:
    """Symbols by similarity to ``query``, best first."""
    scores = embedder.scores(query)
    if mask is not None:
        scores = np.where(mask, scores, 0.0).astype(np.float32)
    chosen = top_k(scores, limit)
    return Ranking(chosen, scores[chosen].astype(np.float64))
