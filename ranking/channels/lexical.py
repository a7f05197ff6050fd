"""The lexical channel: BM25 over field-weighted symbol documents.

Each (symbol, term) pair of the query's terms gets its BM25 weight

    w(d, t) = idf(t) * tf(d, t) * (k1 + 1) / (tf(d, t) + k1 * (1 - b + b * |d| / avgdl))
    idf(t)  = ln(1 + (N - df(t) + 0.5) / (df(t) + 0.5))

(Robertson and Zaragoza, "The Probabilistic Relevance Framework: BM25 and
Beyond", 2009; the idf is Lucene's non-negative variant). With a body field,
``tf`` is BM25F's: head (name, fqn, signature, doc, path; field-weighted) and
body counts each divided by their own length normalization, then summed with
the body's field weight, so that a long body does not dilute a name match
(Robertson, Zaragoza and Taylor 2004). The head is normalized at index time;
the body's weight and normalization are applied per query (:class:`Bm25f`:
names lead for identifiers, bodies for prose), over the columns of the
query's terms only. Multi-word queries are AND-first: symbols that
contain every required term rank first; the others (OR) follow, so that a
query with one word too many still answers. Prose is not: a sentence rarely
has all its words in one definition, so its score is multiplied by the share of
its terms the definition holds (coordination, :attr:`Bm25f.coordination`) and
the best partial match may lead; the words a request wraps around what it
names ("fix", "add", "support", :data:`FILLER`) are left out of it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels import kept as keeping
from symfuse.ranking.channels.documents import FIELD_WEIGHTS, Documents, Field
from symfuse.ranking.channels.synonyms import SYNONYMS
from symfuse.ranking.channels.tokens import STOPWORDS, WORD, acronyms, split_identifier, stem
from symfuse.ranking.channels.topk import Ranking, top_k_of
from symfuse.ranking.channels.variants import variants
from symfuse.ranking.prepared.columns import Coding, Columns
from symfuse.ranking.prepared.sparse_rows import VALUES

if TYPE_CHECKING:
    from scipy import sparse

K1 = 1.2
B = 0.75
# A hyphenated term's acronym counts half a term: code abbreviates "ahead-of-time" (zod's
# `aot`), "X-Forwarded-For" (gin's `xff`), but some initials spell a token by chance
# ("time-limited string": `tls`); the share measured in the bench README (session 48).
ACRONYM_SHARE = 0.5


@dataclass(frozen=True, slots=True)
class QueryTerms:
    """``required`` terms decide AND matching; ``optional`` ones (whole identifiers) only
    add, and ``acronyms`` (of hyphenated terms) add :data:`ACRONYM_SHARE` of a term."""

    required: tuple[str, ...]
    optional: tuple[str, ...] = ()
    acronyms: tuple[str, ...] = ()

    def without(self, words: frozenset[str]) -> QueryTerms:
        """These terms less ``words`` among the required ones, unless nothing else is left."""
        kept = tuple(t for t in self.required if t not in words)
        return replace(self, required=kept) if kept and words else self

    @classmethod
    def parse(cls, query: str) -> QueryTerms:
        """Stemmed sub-tokens are required (stop words dropped unless nothing else is left);
        the whole form of a multi-part identifier (``getuserbyid``) is optional, and so is
        a hyphenated term's acronym (``ahead-of-time``: ``aot``)."""
        required: list[str] = []
        optional: list[str] = []
        for word in WORD.findall(query):
            parts = split_identifier(word)
            required.extend(stem(p) for p in parts)
            if len(parts) > 1:
                optional.append("".join(parts))
        content = [t for t in required if t not in STOPWORDS] or required
        short = tuple(dict.fromkeys(a for a in acronyms(query) if a not in content))
        return cls(tuple(dict.fromkeys(content)), tuple(dict.fromkeys(optional)), short)


def _union_counts(head: sparse.csc_matrix, body: sparse.csc_matrix) -> npt.NDArray[np.float64]:
    """Per column, the rows with an entry in ``head`` or ``body`` (the term's documents):
    each one's column lengths less those of their product. Values are positive counts
    and weights, so a product is zero nowhere both have an entry, and the intersection is
    a small matrix where the union (``head + body``, then a CSR copy of it) was the
    largest temporary of the BM25 build."""
    both = head.multiply(body).tocsc()
    own: npt.NDArray[np.int64] = np.diff(head.indptr) + np.diff(body.indptr)
    shared: npt.NDArray[np.int64] = np.diff(both.indptr)
    return (own - shared).astype(np.float64)


def idf(n_docs: int, df: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """Lucene's BM25 idf: ``ln(1 + (N - df + 0.5) / (df + 0.5))``, never negative."""
    return np.log1p((n_docs - df + 0.5) / (df + 0.5))


def _norm(
    length: npt.NDArray[np.float64], b: float, average: float | None = None
) -> npt.NDArray[np.float64]:
    """``1 - b + b * |d| / avgdl``, the length normalization of one field group
    (``avgdl``: ``average``, else the mean of ``length``)."""
    avg = average if average is not None else float(length.mean()) if length.shape[0] else 1.0
    return 1.0 - b + b * length / (avg or 1.0)


def normalized(
    tf: sparse.csr_matrix, length: npt.NDArray[np.float64], b: float
) -> sparse.csr_matrix:
    """Each row of ``tf`` divided by its length normalization (BM25F's per-field step)."""
    from scipy import sparse

    data = (tf.data / np.repeat(_norm(length, b), np.diff(tf.indptr))).astype(VALUES)
    return sparse.csr_matrix((data, tf.indices, tf.indptr), shape=tf.shape)  # (shares tf's)


# What a commit subject or a request says around the behaviour it names: the change
# asked for and adverbs of manner or time. Stemmed, as query terms are. In code they are
# everywhere (``add``, ``handle``, ``when``, ``new``), so they match most bodies and rank
# none; a query made of them alone keeps them.
_FILLER_TEXT = """
fix fixes fixed add adds added support handle allow allows use make remove improve update
change ensure avoid prevent correct new now also when instead should properly correctly
"""
FILLER = frozenset(stem(w) for w in _FILLER_TEXT.split())


@dataclass(frozen=True, slots=True)
class Bm25f:
    """BM25F's weight of a body against a head, per query shape (see search.plans)."""

    body: float  # field weight of the body (the head's fields carry their own)
    b_body: float  # length normalization of the body
    k1: float = K1
    coordination: float = 0.0  # scores times (share of required terms held) ** this
    and_first: bool = True  # symbols holding every required term rank before the others
    filler: frozenset[str] = frozenset()  # required terms left out (unless nothing is left)
    synonyms: float = 0.0  # a required term's synonyms (channels.synonyms) count this much
    variants: float = 0.0  # ... and its other endings (channels.variants)


# Names and keywords: the head leads; a body only adds (the weights names were tuned with).
HEAD_FIRST = Bm25f(body=FIELD_WEIGHTS[Field.BODY], b_body=0.75)
# Prose: the body says what a definition does, and a long body is not a wordy one but a
# big definition, which commits and questions are about as often: a heavy body, barely
# length-normalized. Tuned with the lexical channel alone on the mined set of
# tests/bench/nl_bench.py: no body normalization at all did better there but lowered the
# docstring sets, and k1 and b hardly move the figures.
#
# Coordination (scores scaled by the share of required terms held) in place of AND-first,
# and filler words left out of the required terms, chosen on four of the mined repositories
# and checked on the other four (tests/bench/nl_bench.py): together they lift both halves,
# and the docstring sets too. Names are untouched: identifiers and keywords weigh with
# HEAD_FIRST, which has none of the three.
#
# Synonyms (channels/synonyms.py) at 0.3 of a word's weight, for sentences and mixed
# queries (a long text has words enough): findability 0.750 -> 0.757 (tune 0.758 -> 0.768,
# held-out 0.740 -> 0.746; 0.5 did the same), fixture docstrings hit@10 0.811 -> 0.838;
# mined commit subjects 0.566 / 0.360 -> 0.568 / 0.358 and Django's docstrings MRR 0.248 ->
# 0.244 (their words are the code's own).
#
# A word the code never spells counts its other endings (channels/variants.py: the
# question's "tokenized", the code's ``Tokens``) at a word's weight (0.3 and 0.6 did the
# same): findability's tune half 0.770 -> 0.774, nothing lower.
BODY_AWARE = Bm25f(
    body=3.0,
    b_body=0.2,
    coordination=0.5,
    and_first=False,
    filler=FILLER,
    synonyms=0.3,
    variants=1.0,
)


@dataclass(frozen=True, slots=True)
class _Added:
    """What one term adds to the BM25F scores: ``values`` at ``rows`` (some rows twice,
    with the same value), or over every symbol when ``rows`` is None (0 where the term is
    not; ``held`` marks where it is)."""

    rows: npt.NDArray[np.integer[Any]] | None
    values: npt.NDArray[np.float64]
    held: npt.NDArray[np.bool_] | None = None

    @property
    def nbytes(self) -> int:
        arrays = (self.rows, self.values, self.held)
        return sum(int(a.nbytes) for a in arrays if a is not None)

    def unique(self, size: int) -> _Added:
        """The same addends, each row once; over every symbol when they are a quarter of
        them or more (a sum over every symbol is faster than a scatter then)."""
        assert self.rows is not None
        values = np.zeros(size, dtype=np.float64)
        values[self.rows] = self.values
        held = np.zeros(size, dtype=np.bool_)
        held[self.rows] = True
        rows = np.flatnonzero(held)
        if rows.shape[0] * 4 < size:
            return _Added(rows, values[rows])
        return _Added(None, values, held)

    def add_to(self, total: npt.NDArray[np.float64], present: npt.NDArray[np.int32] | None) -> None:
        """Add the values into ``total``, and one into ``present`` where the term is."""
        if self.rows is None:
            total += self.values  # x + 0.0 is x: the same sums as the scatter's
            if present is not None:
                assert self.held is not None
                present += self.held
            return
        total[self.rows] += self.values
        if present is not None:
            present[self.rows] += 1


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class LexicalIndex:
    """BM25F's parts, kept apart so that each query weighs the body as its shape asks:
    the head's counts already normalized by its length, the body's raw counts and
    lengths, and each term's idf (over documents with the term in either field)."""

    head: Columns  # symbols x terms, field-weighted, divided by the head norm
    body: Columns  # symbols x terms, raw counts
    body_length: npt.NDArray[np.float64]
    idf: npt.NDArray[np.float64]
    term_ids: Mapping[str, int]
    # The body's mean length when this index scores as part of a larger corpus (a shard,
    # :mod:`symfuse.ranking.shards.global_stats`); None: this index's own mean.
    body_average: float | None = None
    # a shard's: the global idf of the words other shards hold and it lacks (a term it
    # lacks whose synonyms it holds weighs as in one combined index)
    outside: Mapping[str, float] | None = None
    # frequent terms' addends (:meth:`_added`), and the body's mean length
    _kept: keeping.Kept[_Added] = field(init=False, repr=False)
    _average: float = field(default=1.0, init=False, repr=False)

    def __post_init__(self) -> None:
        average = float(self.body_length.mean()) if self.size else 1.0
        object.__setattr__(self, "_average", average)
        object.__setattr__(self, "_kept", keeping.Kept(self.size))

    @classmethod
    def build(
        cls, documents: Documents, counted: npt.NDArray[np.bool_] | None = None
    ) -> LexicalIndex:
        """The index of ``documents``; with ``counted``, the idf and the mean lengths are
        those of the documents it marks alone (definitions: a file unit, which repeats
        its definitions' words, changes no definition's score)."""
        from scipy import sparse

        rows = None if counted is None or counted.all() else np.flatnonzero(counted)
        head_length = np.asarray(documents.head_length, dtype=np.float64)
        length = np.asarray(documents.body_length, dtype=np.float64)
        head_average = body_average = None
        if rows is not None:
            head_average = float(head_length[rows].mean()) if rows.shape[0] else 1.0
            body_average = float(length[rows].mean()) if rows.shape[0] else 1.0
        # the head's counts as they are, divided by its norm when read: a few thousand
        # distinct counts code in a table (:meth:`Columns.coded`), the quotients would not
        norm = Coding(divisor=_norm(head_length, B, head_average))
        counts = sparse.csc_matrix(documents.head)
        body = sparse.csc_matrix(documents.body, shape=counts.shape)
        if rows is None:
            df, n_docs = _union_counts(counts, body), counts.shape[0]
        else:
            df, n_docs = _union_counts(counts[rows], body[rows]), rows.shape[0]
        return cls(
            Columns.coded(counts, norm),
            Columns.coded(body, Coding()),
            length,
            idf(n_docs, df),
            documents.term_ids,
            body_average,
        )

    @property
    def size(self) -> int:
        return int(self.head.shape[0])

    def scores(
        self, terms: QueryTerms, weighting: Bm25f = HEAD_FIRST
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """BM25F score of every symbol, and which symbols contain every required term.

        Per term: ``tf = head + w * body / (1 - b + b * |body| / avg)``, then
        ``idf * tf * (k1 + 1) / (tf + k1)``, over the rows holding the term only;
        the sum times ``(held / required) ** coordination`` when that is not 0.
        """
        terms = terms.without(weighting.filler)
        n = self.size
        total = np.zeros(n, dtype=np.float64)
        present = np.zeros(n, dtype=np.int32)
        known_required = 0
        average = self._average if self.body_average is None else self.body_average
        tf: list[npt.NDArray[np.float64]] = []  # the scratch of terms not kept, made once
        for term in terms.required + terms.optional + terms.acronyms:
            required = term in terms.required
            group, weight = self._columns(term, weighting if required else None)
            if not group:
                continue
            if not required and term not in terms.optional:
                weight *= ACRONYM_SHARE
            added = self._added(group, weight, weighting, average or 1.0, tf)
            added.add_to(total, present if required else None)
            known_required += required
        all_terms = len(terms.required)
        if weighting.coordination and all_terms:
            total *= (present / all_terms) ** weighting.coordination
        matched_all = (
            present == all_terms
            if all_terms and known_required == all_terms  # no terms ("(((") match nothing
            else np.zeros(n, dtype=np.bool_)
        )
        return total, matched_all

    def body_scores(
        self, terms: QueryTerms
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]:
        """Plain BM25 of each symbol's body alone (its own lines: no name, no doc, no
        synonyms): the symbols that score, ascending, and their scores (settled), as pieces
        of their files' text (:mod:`symfuse.ranking.search.file_text`). A shard scores with
        the corpus's idf and mean body length, as one combined index would."""
        average = (self._average if self.body_average is None else self.body_average) or 1.0
        total = np.zeros(self.size, dtype=np.float64)
        for term in terms.required:
            found, idf = self._columns(term, None)
            if not found:
                continue
            at, counts = self.body.column(found[0][0])
            tf = counts / (1.0 - B + B * self.body_length[at] / average)
            total[at] += idf * tf * (K1 + 1.0) / (tf + K1)
        scored = np.flatnonzero(total)
        return scored, settled(total[scored])

    def _added(
        self,
        group: list[tuple[int, float]],
        weight: float,
        weighting: Bm25f,
        average: float,
        scratch: list[npt.NDArray[np.float64]],
    ) -> _Added:
        """What one term adds to the scores: ``weight * tf * (k1 + 1) / (tf + k1)`` at the
        rows holding its ``group`` of columns; a frequent term's, kept (:mod:`.kept`)."""
        key = (tuple(group), weight, weighting, average)
        kept = self._kept.get(key)
        if kept is not None:
            return kept
        if not scratch:
            scratch.append(np.zeros(self.size, dtype=np.float64))
        tf = scratch[0]
        parts = [self._add_counts(tf, col, weighting, average, share) for col, share in group]
        rows = parts[0] if len(parts) == 1 else np.concatenate(parts)
        k1 = weighting.k1
        held = tf[rows]
        tf[rows] = 0.0
        added = _Added(rows, weight * held * (k1 + 1.0) / (held + k1))
        if rows.shape[0] >= keeping.ROWS:
            return self._kept.keep(key, lambda: added.unique(self.size)) or added
        return added

    def _columns(self, term: str, weighting: Bm25f | None) -> tuple[list[tuple[int, float]], float]:
        """The columns that count for ``term``, each with its share (its own, then its
        synonyms' and its other endings' at ``weighting``'s shares; none without one), and
        the idf they score with: the term's, or its rarest stand-in's when the corpus
        lacks the term itself."""
        width = self.head.shape[1]
        own = self.term_ids.get(term)
        found = [(own, 1.0)] if own is not None and own < width else []
        if weighting is not None and weighting.synonyms > 0:
            others = (self.term_ids.get(s) for s in sorted(SYNONYMS.get(term, ())))
            found.extend((c, weighting.synonyms) for c in others if c is not None and c < width)
        elsewhere = self.outside is not None and term in self.outside  # another shard's
        if weighting is not None and weighting.variants > 0 and not found and not elsewhere:
            # a word the code never spells: its other endings stand in (channels.variants)
            found.extend(
                (c, weighting.variants)
                for c in (self.term_ids[w] for w in variants(term, self.term_ids))
                if c < width
            )
        if not found:
            return found, 0.0
        idf = self.idf[found[0][0]] if own is not None and own < width else None
        if idf is None and elsewhere:
            assert self.outside is not None
            idf = self.outside[term]  # the corpus has the term: another shard holds it
        return found, float(idf if idf is not None else self.idf[[c for c, _ in found]].max())

    def _add_counts(
        self,
        tf: npt.NDArray[np.float64],
        col: int,
        weighting: Bm25f,
        average: float,
        share: float = 1.0,
    ) -> npt.NDArray[np.integer[Any]]:
        """Add term ``col``'s weighted counts (times ``share``) into ``tf``; the rows that
        hold it, in no order, some twice (a row of both fields): the caller only reads
        and resets them, which a repeat does the same."""
        h_rows, h_values = self.head.column(col)
        tf[h_rows] += share * h_values
        b_rows, b_values = self.body.column(col)
        if not b_rows.shape[0] or weighting.body <= 0:
            return h_rows
        b = weighting.b_body
        norm = 1.0 - b + b * self.body_length[b_rows] / average
        tf[b_rows] += share * weighting.body * b_values / norm
        return np.concatenate((h_rows, b_rows))  # no pass over every symbol, no sort


SCORE_BITS = 16  # of mantissa a BM25F score is ranked by (see settled)


def settled(scores: npt.NDArray[np.float64], bits: int = SCORE_BITS) -> npt.NDArray[np.float64]:
    """``scores`` rounded to ``bits`` bits of mantissa (a relative step of about 1.5e-5):
    the head's counts are stored as float32, so two documents of equal counts can score a
    few 1e-8 apart when their rows were normalized by different lengths (a repository's
    shard re-weighs its rows by the global statistics; one combined index normalized them
    at once): equal to this precision they tie, and ties go by position, as they do for
    exactly equal scores."""
    mantissa, exponent = np.frexp(scores)
    out: npt.NDArray[np.float64] = np.ldexp(np.round(mantissa * 2.0**bits) / 2.0**bits, exponent)
    return out


@dataclass(frozen=True, slots=True)
class LexicalResult:
    ranking: Ranking
    and_matches: int  # how many ranked symbols contain every required term


def rank(
    index: LexicalIndex,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    limit: int,
    weighting: Bm25f = HEAD_FIRST,
) -> LexicalResult:
    """Symbols by BM25F, AND matches first (when ``weighting.and_first``), then OR matches;
    at most ``limit``."""
    terms = QueryTerms.parse(query)
    scores, matched_all = index.scores(terms, weighting)
    if mask is not None:
        scores = np.where(mask, scores, 0.0)
        matched_all &= mask
    and_count = int(np.count_nonzero(matched_all))
    found = np.flatnonzero(scores > 0).astype(np.int64, copy=False)  # settled: stays > 0
    values = settled(scores[found])  # the found ones' alone
    if and_count and weighting.and_first:
        # AND hits outrank OR hits: lift them above the best OR score.
        lift = float(values.max()) + 1.0
        values = np.where(matched_all[found], values + lift, values)
    ranked = top_k_of(found, values, limit)
    own = settled(scores[ranked])
    return LexicalResult(Ranking(ranked, own, found), min(and_count, len(ranked)))
