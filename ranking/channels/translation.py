"""Which code a doc word describes, learned from the index's own documented definitions.

The definitions that have a docstring are aligned pairs: their doc words against their
code tokens (name, enclosing scopes, signature and body, as :mod:`.documents` tokenizes
them). IBM model 1 (Brown et al., "The mathematics of statistical machine translation",
1993), trained by EM over the co-occurring (doc word, code token) pairs with a NULL
token that explains generic words, learns ``P(doc word | code token)``. A prose query
is then scored against a definition's code, documented or not, by the translation
language model of Berger and Lafferty ("Information retrieval as statistical
translation", 1999), in its rank-equivalent log-ratio form with Jelinek-Mercer
smoothing::

    score(d) = sum_w ln(1 + (1 - LAMBDA) * P(w|d) / (LAMBDA * P(w|C)))
    P(w|d)   = BETA * sum_c P(w|c) P_ml(c|d) + (1 - BETA) * P_ml(w|d)

(``w`` the query's content words, ``c`` a code token, ``P(w|C)`` the word's share of all
code and doc tokens, add-0.5). It estimates the doc an undocumented definition lacks:
the word vectors of :mod:`.similarity` learn which words occur together, this learns
which code a word describes. :mod:`.rerank` reads it for the candidates of a prose
query only. Measured in tests/bench/nl_translation.py (alone, the best single ranker
on Django's docstring set) and tests/bench/nl_combiner.py.

The table is trained once per word model (the same drift rule retrains both, see
:mod:`.corpus`) and kept in the ranking file; each generation only re-normalizes its
code rows. Training reads at most :data:`TRAINING_ENTRIES` (pair, word, token) entries:
evenly spaced documented definitions when there are more.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, cast

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.lexical import FILLER
from symfuse.ranking.channels.parts import term_union
from symfuse.ranking.channels.tokens import STOPWORDS, text_tokens
from symfuse.ranking.prepared.columns import Columns, narrow_ids
from symfuse.ranking.prepared.sparse_rows import distinct_inverse

if TYPE_CHECKING:
    from scipy import sparse

LAMBDA = 0.2  # Jelinek-Mercer: the collection's share of a word's probability
BETA = 0.8  # the translated share of P(w|d); the rest is the code's own tokens
ITERATIONS = 5  # EM rounds from uniform (more did no better)
CODE_CAP = 64  # code tokens a training pair offers: names first, then the most frequent
PRUNE = 1e-3  # translation probabilities below this are dropped
TRAINING_ENTRIES = 2_500_000  # (pair, doc word, code token) entries EM reads at most


def content_words(query: str) -> list[str]:
    """The words of a prose query the model scores: stop words out, and filler words
    (``function``, ``method``, ...) too unless nothing else is left; each once."""
    words = [t for t in text_tokens(query) if t not in STOPWORDS]
    return list(dict.fromkeys([t for t in words if t not in FILLER] or words))


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class CodeRows:
    """Per symbol, the counts of its code tokens and their total: ``P_ml(c|d)`` is a count
    over its row's length. Compact and in memory: a search reads 100 rows spread over the
    index, and mapped, each row's page would bring its neighbours in, which would stay
    resident."""

    indptr: npt.NDArray[np.int64]
    indices: npt.NDArray[np.generic]  # term ids, uint16 while the vocabulary allows
    counts: npt.NDArray[np.uint8]  # clipped at 255 (the length keeps the true total)
    lengths: npt.NDArray[np.float32]
    width: int

    @classmethod
    def of(cls, counts: sparse.csr_matrix) -> CodeRows:
        counts.sum_duplicates()
        lengths = np.asarray(counts.sum(axis=1), dtype=np.float32).ravel()
        return cls(
            counts.indptr.astype(np.int64),
            narrow_ids(counts.indices, counts.shape[1]),
            np.minimum(counts.data, 255).astype(np.uint8),
            lengths,
            counts.shape[1],
        )

    @property
    def nnz(self) -> int:
        return int(self.indices.shape[0])

    def entries(
        self, positions: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], npt.NDArray[np.float64]]:
        """The rows of the symbols at ``positions``, entry by entry in row order: whose
        (an index into ``positions``), which code token, and its ``P_ml(c|d)``."""
        starts = self.indptr[positions]
        lengths = self.indptr[positions + 1] - starts
        ends = np.cumsum(lengths)
        total = int(ends[-1]) if ends.shape[0] else 0
        at = np.repeat(starts - (ends - lengths), lengths) + np.arange(total)
        owners = np.repeat(np.arange(positions.shape[0]), lengths)
        divisor = np.repeat(np.maximum(self.lengths[positions], 1.0).astype(np.float64), lengths)
        return owners, self.indices[at].astype(np.intp), self.counts[at] / divisor


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Translation:
    """A trained table and one generation's code rows.

    ``table``: code tokens x doc words, ``P(w|c)``, by column (a query reads its words'
    columns; :class:`~symfuse.ranking.prepared.columns.Columns`, so a warm start reads and
    scores it without scipy);
    ``code``: each symbol's code token counts (a query reads its candidates' rows);
    ``background``: ``P(w|C)`` per term.
    """

    table: Columns
    code: CodeRows
    background: npt.NDArray[np.float32]
    # words of a table learned over many corpora that this one's vocabulary lacks, with
    # the ids past it that the table and background give them (:class:`SharedTable`)
    extra: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, table: sparse.csc_matrix, texts: Texts) -> Translation:
        """``table`` over one generation's texts."""
        code, doc = texts.code, texts.doc
        width = code.shape[1]
        total = np.asarray(code.sum(axis=0)).ravel() + np.asarray(doc.sum(axis=0)).ravel()
        seen = int(np.count_nonzero(total)) + 1  # the NULL token's slot, as in training
        background = ((total + 0.5) / (total.sum() + 0.5 * seen)).astype(np.float32)
        if table.shape != (width, width):  # the vocabulary grew since training
            table = _resized(table, width)
        return cls(Columns.of(table.sorted_indices()), CodeRows.of(code), background)

    def scores(
        self, ids: Sequence[int], positions: npt.NDArray[np.int64]
    ) -> npt.NDArray[np.float64]:
        """The log-ratio translation score of the symbols at ``positions`` for the query
        words with term ids ``ids`` (0: no evidence).

        Summed entry by entry in each row's order, as scipy's product of the rows and
        the table's columns summed them: the same scores, bit for bit, without it.
        """
        n = positions.shape[0]
        if not ids:
            return np.zeros(n)
        owners, tokens, shares = self.code.entries(positions)
        p = np.empty((n, len(ids)))
        for j, word in enumerate(ids):
            translated = np.bincount(owners, shares * self._column_at(word, tokens), n)
            own = np.bincount(owners, np.where(tokens == word, shares, 0.0), n)
            p[:, j] = BETA * translated + (1 - BETA) * own
        columns = np.asarray(ids, dtype=np.int64)
        ratio = (1 - LAMBDA) * p / (LAMBDA * self.background[columns].astype(np.float64))
        return np.asarray(np.log1p(ratio).sum(axis=1), dtype=np.float64)

    def _column_at(self, word: int, tokens: npt.NDArray[np.intp]) -> npt.NDArray[np.float64]:
        """``P(word|c)`` of each code token in ``tokens`` (0 where the table has none)."""
        rows, values = self.table.column(word)
        if not rows.shape[0]:
            return np.zeros(tokens.shape[0])
        at = np.minimum(np.searchsorted(rows, tokens), rows.shape[0] - 1)
        return np.where(rows[at] == tokens, values[at].astype(np.float64), 0.0)


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class SharedTable:
    """A table learned over many corpora (:func:`learned`) and their code and doc token
    counts summed, by term: what a repository's shard scores with, so that its
    definitions score as one combined index's do."""

    terms: Sequence[str]
    table: sparse.csc_matrix  # over ``terms``
    totals: npt.NDArray[np.float64]  # per term: code and doc tokens of every corpus

    @staticmethod
    def totals_of(texts: Texts) -> npt.NDArray[np.float64]:
        """One corpus's code and doc token counts per term id (what ``totals`` sums)."""
        code, doc = np.asarray(texts.code.sum(axis=0)).ravel(), texts.doc.sum(axis=0)
        doc = np.asarray(doc).ravel()
        width = max(code.shape[0], doc.shape[0])
        out = np.zeros(width)
        out[: code.shape[0]] += code
        out[: doc.shape[0]] += doc
        return out

    def translation(self, texts: Texts, vocabulary: Sequence[str]) -> Translation:
        """The table and background in ``vocabulary``'s ids (``texts`` its generation's
        counts): the table's words it lacks get ids past it (:attr:`Translation.extra`)."""
        from scipy import sparse

        width = texts.code.shape[1]
        own = {t: i for i, t in enumerate(vocabulary[:width])}
        extra: dict[str, int] = {}
        coo = sparse.coo_matrix(self.table)
        for g in np.unique(coo.col).tolist():
            term = self.terms[g]
            if term not in own:
                extra[term] = width + len(extra)
        ids = np.fromiter(
            (own.get(t, extra.get(t, -1)) for t in self.terms), np.int64, len(self.terms)
        )
        rows, cols = ids[coo.row], ids[coo.col]
        keep = (rows >= 0) & (rows < width)
        size = width + len(extra)
        table = sparse.csc_matrix(
            (coo.data[keep], (rows[keep], cols[keep])), shape=(size, size), dtype=np.float32
        )
        total = np.zeros(size)
        known = ids >= 0
        total[ids[known]] = self.totals[known]
        seen = int(np.count_nonzero(self.totals)) + 1
        background = (total + 0.5) / (self.totals.sum() + 0.5 * seen)
        return Translation(
            Columns.of(table.sorted_indices()),
            CodeRows.of(texts.code),
            background.astype(np.float32),
            extra,
        )


def query_ids(
    query: str, term_ids: Mapping[str, int], extra: Mapping[str, int] | None = None
) -> list[int]:
    """The term ids of ``query``'s content words that the vocabulary knows (or, failing
    it, a shared table's ``extra`` words)."""
    more = extra or {}
    found = (term_ids.get(w, more.get(w)) for w in content_words(query))
    return [i for i in found if i is not None]


def stop_ids(term_ids: Mapping[str, int]) -> npt.NDArray[np.int64]:
    """The term ids of the stop words the vocabulary holds (left out of doc words)."""
    found = (term_ids.get(w) for w in STOPWORDS)
    return np.asarray(sorted(i for i in found if i is not None), dtype=np.int64)


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Texts:
    """One generation's counts per symbol, as the model reads them: ``names`` (name, fqn
    and signature tokens), ``code`` (those and the body's) and ``doc`` (doc words, stop
    words out). Made once a generation; training and :meth:`Translation.of` share it."""

    names: sparse.csr_matrix
    code: sparse.csr_matrix
    doc: sparse.csr_matrix

    @classmethod
    def of(
        cls, names: sparse.csr_matrix, body: sparse.csr_matrix, doc: sparse.csr_matrix,
        stop: npt.NDArray[np.int64],
    ) -> Texts:  # fmt: skip
        """From raw counts of name, fqn and signature tokens, of body tokens and of doc
        tokens (``stop``: the stop words' term ids)."""
        return cls(names, _code_counts(names, body), _without(doc, stop))


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class PairPart:
    """One corpus's share of what the table learns from: its documented definitions'
    code, name and doc word counts, in its own term ids (a shard writes its own; one index
    is one part, or one per root)."""

    terms: Sequence[str]  # the part's vocabulary, by id
    names: sparse.csr_matrix  # per pair: name, fqn and signature tokens
    code: sparse.csr_matrix  # per pair: those and the body's
    doc: sparse.csr_matrix  # per pair: doc words, stop words out

    @classmethod
    def of(
        cls,
        texts: Texts,
        terms: Sequence[str],
        counted: npt.NDArray[np.bool_] | None = None,
        rows: tuple[int, int] | None = None,
    ) -> PairPart:
        """The definitions of ``texts``' rows (start, stop; all: None) that have both doc
        words and code, of those ``counted`` marks."""
        start, stop = rows if rows is not None else (0, texts.code.shape[0])
        doc, code = texts.doc[start:stop], texts.code[start:stop]
        both = (np.diff(doc.indptr) > 0) & (np.diff(code.indptr) > 0)
        if counted is not None:
            both &= counted[start:stop]
        have = np.flatnonzero(both)
        return cls(terms, texts.names[start:stop][have], code[have], doc[have])


def train(texts: Texts, counted: npt.NDArray[np.bool_] | None = None) -> sparse.csc_matrix:
    """``P(doc word | code token)`` (terms x terms, CSC) after :data:`ITERATIONS` EM rounds
    over the definitions that have both doc words and code (of those ``counted`` marks)."""
    terms = range(texts.code.shape[1])  # one part: its own ids (no union to make)
    return learned([PairPart.of(texts, cast(Sequence[str], terms), counted)])[1]


def learned(parts: Sequence[PairPart]) -> tuple[list[str], sparse.csc_matrix]:
    """The table of several corpora as of one, over the union of their vocabularies
    (:func:`~symfuse.ranking.channels.parts.term_union`): their documented definitions
    one after another, the training budget's evenly spaced pairs among them all, so that
    one combined index and its repositories' shards learn the same table."""
    from scipy import sparse

    terms, maps = term_union([p.terms for p in parts])
    width = len(terms)
    names = _stacked([p.names for p in parts], maps, width)
    code = _stacked([p.code for p in parts], maps, width)
    words = _stacked([p.doc for p in parts], maps, width)
    kept = _kept_tokens(code, names, width)
    per_pair = np.diff(words.indptr) * np.diff(kept.indptr)
    total = int(per_pair.sum())
    if total > TRAINING_ENTRIES:  # evenly spaced pairs, as many as the budget holds
        pairs = words.shape[0]
        count = pairs * TRAINING_ENTRIES // total
        chosen = np.unique(np.arange(count) * pairs // count)
        kept, words = kept[chosen], words[chosen]
    if not words.nnz:  # nothing documented: nothing learned
        return terms, sparse.csc_matrix((width, width), dtype=np.float32)
    return terms, _em(words, kept, width)


def _stacked(
    parts: Sequence[sparse.csr_matrix], maps: Sequence[npt.NDArray[np.int64]], width: int
) -> sparse.csr_matrix:
    """The parts' rows one after another, their columns mapped into the union's ids."""
    from scipy import sparse

    if len(parts) == 1 and maps[0].shape[0] == width:
        return sparse.csr_matrix(parts[0], shape=(parts[0].shape[0], width))
    rows = [
        sparse.csr_matrix((m.data, mapped[m.indices], m.indptr), shape=(m.shape[0], width))
        for m, mapped in zip(map(sparse.csr_matrix, parts), maps, strict=True)
    ]
    return sparse.csr_matrix(sparse.vstack(rows, format="csr"))


def _code_counts(names: sparse.csr_matrix, body: sparse.csr_matrix) -> sparse.csr_matrix:
    from scipy import sparse

    width = max(names.shape[1], body.shape[1])
    names = sparse.csr_matrix(names, shape=(names.shape[0], width))
    body = sparse.csr_matrix(body, shape=(body.shape[0], width))
    return sparse.csr_matrix(names + body, dtype=np.float64)


def _without(doc: sparse.csr_matrix, stop: npt.NDArray[np.int64]) -> sparse.csr_matrix:
    """``doc`` with the stop words' columns emptied."""
    from scipy import sparse

    doc = sparse.csr_matrix(doc, dtype=np.float64, copy=True)
    if stop.shape[0]:
        doc.data[np.isin(doc.indices, stop)] = 0.0
        doc.eliminate_zeros()
    return doc


def _kept_tokens(
    code: sparse.csr_matrix, names: sparse.csr_matrix, width: int
) -> sparse.csr_matrix:
    """Per pair: the NULL token (column ``width``) and at most :data:`CODE_CAP` code tokens,
    name, fqn and signature tokens first, then the most frequent; values are the token's
    count in the code (1 for NULL)."""
    from scipy import sparse

    code = sparse.csr_matrix(code)
    code.sort_indices()
    rows = np.repeat(np.arange(code.shape[0]), np.diff(code.indptr))
    held = sparse.coo_matrix(names)
    named = np.isin(rows * width + code.indices, held.row.astype(np.int64) * width + held.col)
    key = np.where(named, np.inf, code.data)
    order = np.lexsort((code.indices, -key, rows))
    rank = np.arange(order.shape[0]) - np.repeat(code.indptr[:-1], np.diff(code.indptr))
    keep = order[rank < CODE_CAP]
    r = np.concatenate([rows[keep], np.arange(code.shape[0])])
    c = np.concatenate([code.indices[keep], np.full(code.shape[0], width)])
    v = np.concatenate([code.data[keep], np.ones(code.shape[0])])
    kept = sparse.csr_matrix((v, (r, c)), shape=(code.shape[0], width + 1))
    kept.sort_indices()
    return kept


def _em(words: sparse.csr_matrix, kept: sparse.csr_matrix, width: int) -> sparse.csc_matrix:
    """IBM model 1's EM over every (pair, doc word, kept token) entry, vectorized; entries
    in int32 and float32 (about 40 bytes each at the peak, temporaries included)."""
    from scipy import sparse

    words.sort_indices()
    entry_row = np.repeat(np.arange(words.shape[0], dtype=np.int32), np.diff(words.indptr))
    repeat = np.diff(kept.indptr)[entry_row]  # kept tokens of each (pair, word) entry
    group = np.repeat(np.arange(entry_row.shape[0], dtype=np.int32), repeat)
    at = np.arange(group.shape[0], dtype=np.int64)
    at += np.repeat(kept.indptr[entry_row] - (np.cumsum(repeat) - repeat), repeat)
    token_count = kept.data[at].astype(np.float32)
    key = kept.indices[at].astype(np.int64) * width
    del at
    key += np.repeat(words.indices, repeat)
    word_count = words.data.astype(np.float32)  # per (pair, word) entry: each group's
    del entry_row, repeat
    pairs, inverse = distinct_inverse(key)
    del key
    pair = inverse.astype(np.int32)
    del inverse
    of_token = pairs // width
    table = np.ones(pairs.shape[0])
    for _ in range(ITERATIONS):
        share = table[pair] * token_count
        share *= (word_count / np.bincount(group, weights=share))[group]  # (every group held)
        expected = np.bincount(pair, weights=share, minlength=pairs.shape[0])
        del share
        table = expected / np.bincount(of_token, weights=expected, minlength=width + 1)[of_token]
    keep = (table >= PRUNE) & (of_token < width)  # the NULL row only served training
    return sparse.csc_matrix(
        (table[keep].astype(np.float32), (of_token[keep], pairs[keep] % width)),
        shape=(width, width),
    )


def _resized(table: sparse.csc_matrix, width: int) -> sparse.csc_matrix:
    """``table`` over a vocabulary of ``width`` terms (ids only grow: new ones are empty)."""
    from scipy import sparse

    coo = sparse.coo_matrix(table)
    return sparse.csc_matrix((coo.data, (coo.row, coo.col)), shape=(width, width))
