"""The lexical channel: BM25 over field-weighted symbol documents.

Scores are computed eagerly at index time, as bm25s does: every non-zero
(symbol, term) pair of the term-frequency matrix gets its BM25 weight

    w(d, t) = idf(t) * tf(d, t) * (k1 + 1) / (tf(d, t) + k1 * (1 - b + b * |d| / avgdl))
    idf(t)  = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))

(Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and
Beyond", 2009; the idf is Lucene's non-negative variant). With a body field,
``tf`` is BM25F's: head (name, fqn, signature, doc, path; field-weighted) and
body counts each divided by their own length normalization, then summed with
the body's field weight, so that a long body does not dilute a name match
(Robertson, Zaragoza and Taylor 2004). A query then only
sums the columns of its terms. Multi-word queries are AND-first: symbols that
contain every required term rank first; the others (OR) follow, so that a
query with one word too many still answers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from scipy import sparse

from symfuse.ranking.documents import FIELD_WEIGHTS, Documents, Field
from symfuse.ranking.tokens import STOPWORDS, WORD, split_identifier, stem
from symfuse.ranking.topk import Ranking, top_k

K1 = 1.2
B = 0.75
B_BODY = 0.75  # length normalization of the body field


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """``required`` terms decide AND matching; ``optional`` ones (whole identifiers) only add."""

    required: tuple[str, ...]
    optional: tuple[str, ...] = ()

    @classmethod
    def parse(cls, query: str) -> QueryTerms:
        """Stemmed sub-tokens are required (stop words dropped unless nothing else is left);
        the whole form of a multi-part identifier (``getuserbyid``) is optional."""
        required: list[str] = []
        optional: list[str] = []
        for word in WORD.findall(query):
            parts = split_identifier(word)
            required.extend(stem(p) for p in parts)
            if len(parts) > 1:
                optional.append("".join(parts))
        content = [t for t in required if t not in STOPWORDS] or required
        return cls(tuple(dict.fromkeys(content)), tuple(dict.fromkeys(optional)))


def idf(n_docs: int, df: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Lucene's BM25 idf: ``ln(1 + (N - df + 0.5) / (df + 0.5))``, never negative."""
    return np.log1p((n_docs - df + 0.5) / (df + 0.5))


def bm25_weights(
    tf: sparse.csr_matrix, length: npt.NDArray[np.float64], k1: float = K1, b: float = B
) -> sparse.csc_matrix:
    """The BM25 weight of every non-zero (document, term) pair, as a CSC matrix."""
    return saturate(normalized(sparse.csr_matrix(tf), length, b), k1)


def _norm(length: npt.NDArray[np.float64], b: float) -> npt.NDArray[np.float64]:
    """``1 - b + b * |d| / avgdl``, the length normalization of one field group."""
    avg = float(length.mean()) if length.shape[0] else 1.0
    return 1.0 - b + b * length / (avg or 1.0)


def normalized(
    tf: sparse.csr_matrix, length: npt.NDArray[np.float64], b: float
) -> sparse.csr_matrix:
    """Each row of ``tf`` divided by its length normalization (BM25F's per-field step)."""
    out = tf.copy()
    rows = np.repeat(np.arange(tf.shape[0]), np.diff(tf.indptr))
    out.data = tf.data / _norm(length, b)[rows]
    return out


def saturate(tf: sparse.csr_matrix, k1: float = K1) -> sparse.csc_matrix:
    """``idf(t) * tf * (k1 + 1) / (tf + k1)`` over length-normalized term frequencies."""
    tf = sparse.csr_matrix(tf)
    n_docs = tf.shape[0]
    df = np.bincount(tf.indices, minlength=tf.shape[1]).astype(np.float64)
    values = idf(n_docs, df)[tf.indices] * tf.data * (k1 + 1.0) / (tf.data + k1)
    weighted = sparse.csr_matrix((values, tf.indices, tf.indptr), shape=tf.shape)
    return sparse.csc_matrix(weighted)


def bm25f_weights(documents: Documents, k1: float = K1) -> sparse.csc_matrix:
    """BM25F: head and body counts normalized by their own lengths, summed with the body's
    field weight, then saturated once (Robertson, Zaragoza and Taylor 2004)."""
    head = normalized(documents.head, documents.head_length, B)
    if not documents.body.nnz:
        return saturate(head, k1)
    body = normalized(documents.body, documents.body_length, B_BODY)
    return saturate(head + FIELD_WEIGHTS[Field.BODY] * body, k1)


@dataclass(frozen=True, slots=True)
class LexicalIndex:
    weights: sparse.csc_matrix  # symbols x terms
    term_ids: dict[str, int]

    @classmethod
    def build(cls, documents: Documents) -> LexicalIndex:
        return cls(bm25f_weights(documents), documents.term_ids)

    @property
    def size(self) -> int:
        return int(self.weights.shape[0])

    def scores(self, terms: QueryTerms) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """BM25 score of every symbol, and which symbols contain every required term."""
        n = self.size
        total = np.zeros(n, dtype=np.float64)
        present = np.zeros(n, dtype=np.int32)
        known_required = 0
        for term in terms.required + terms.optional:
            col = self.term_ids.get(term)
            if col is None or col >= self.weights.shape[1]:
                continue
            start, end = self.weights.indptr[col], self.weights.indptr[col + 1]
            rows = self.weights.indices[start:end]
            total[rows] += self.weights.data[start:end]
            if term in terms.required:
                present[rows] += 1
                known_required += 1
        all_terms = len(terms.required)
        matched_all = (
            present == all_terms
            if all_terms and known_required == all_terms  # no terms ("(((") match nothing
            else np.zeros(n, dtype=np.bool_)
        )
        return total, matched_all


@dataclass(frozen=True, slots=True)
class LexicalResult:
    ranking: Ranking
    and_matches: int  # how many ranked symbols contain every required term


def rank(
    index: LexicalIndex,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    limit: int,
) -> LexicalResult:
    """Symbols by BM25, AND matches first, then OR matches; at most ``limit``."""
    terms = QueryTerms.parse(query)
    scores, matched_all = index.scores(terms)
    if mask is not None:
        scores = np.where(mask, scores, 0.0)
        matched_all &= mask
    and_count = int(matched_all.sum())
    if and_count:
        # AND hits outrank OR hits: lift them above the best OR score.
        lift = float(scores.max()) + 1.0
        keyed = np.where(matched_all, scores + lift, scores)
        ranked = top_k(keyed, limit)
        return LexicalResult(Ranking(ranked, scores[ranked]), min(and_count, len(ranked)))
    ranked = top_k(scores, limit)
    return LexicalResult(Ranking(ranked, scores[ranked]), 0)
