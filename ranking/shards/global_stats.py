"""Corpus statistics of many indexes as one, so that each ranks as part of the whole.

A channel whose score depends on the corpus ranks one repository's index (a shard)
differently from the same symbols inside a combined index. What each depends on:

- lexical (BM25F, :mod:`.lexical`): the number of documents ``N``, each term's
  document frequency ``df`` (either field), the head's average length (its length
  normalization is applied at build time) and the body's average length;
- similarity (:mod:`.similarity`): the TF-IDF half weighs by ``ln(N / df)`` over the
  similarity counts and L2-normalizes each row; the word-vector half (and the prose
  re-ranking's translation table) is a model *learned* from a corpus, which no
  statistic turns into the combined corpus's: it is learned once over every shard's
  training parts, as the combined index learns it (:mod:`symfuse.ranking.prepared.shared`);
- structural and the identity channel's tie-break (PageRank, :mod:`symfuse.indexer.link.pagerank`):
  for repositories that do not reference each other a shard's ranks are the combined
  ranks times one factor (:func:`pagerank_scale`), which depends on every shard's
  dangling mass (ranks of nodes without out-edges, spread over all nodes), so each
  shard's is summed into the statistics (:func:`pagerank_weight`); where repositories
  reference each other it is close, not equal.

:class:`CorpusStats` holds one index's figures (:func:`stats_of`) and their sum
(:meth:`CorpusStats.merged`); :func:`with_stats` re-weighs a shard's prepared
structures by the global figures, so that the ordinary channels score as the
combined index would, with no second implementation of any of them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

import msgpack
import numpy as np
import numpy.typing as npt
from scipy import sparse

from symfuse.indexer.errors import IndexCorrupt
from symfuse.indexer.link.pagerank import DAMPING
from symfuse.ranking.channels.lexical import B, LexicalIndex, idf
from symfuse.ranking.channels.similarity import RepositoryEmbedder
from symfuse.ranking.prepared.columns import Columns
from symfuse.ranking.prepared.structures import Prepared

STATS_FORMAT = 4  # 2: documents count definitions, not file units; 3: pagerank_weight;
# 4: shards also offer their training parts (ranking.prepared.shared): rebuilt to write them


@dataclass(frozen=True, slots=True)
class CorpusStats:
    """What BM25, TF-IDF and PageRank read from a corpus (sums, so that they add up)."""

    documents: int
    head_total: float  # sum of the heads' weighted lengths
    body_total: float  # sum of the bodies' lengths
    df: dict[str, int]  # lexical document frequency (head or body)
    similarity_df: dict[str, int]  # document frequency in the similarity counts
    pagerank_weight: float = 0.0  # the graph's dangling mass over its teleport level

    @classmethod
    def merged(cls, parts: Iterable[CorpusStats]) -> CorpusStats:
        """The statistics of the union of disjoint corpora."""
        documents, head, body, weight = 0, 0.0, 0.0, 0.0
        df: dict[str, int] = {}
        similarity_df: dict[str, int] = {}
        for part in parts:
            documents += part.documents
            head += part.head_total
            body += part.body_total
            weight += part.pagerank_weight
            for term, count in part.df.items():
                df[term] = df.get(term, 0) + count
            for term, count in part.similarity_df.items():
                similarity_df[term] = similarity_df.get(term, 0) + count
        return cls(documents, head, body, df, similarity_df, weight)

    def to_bytes(self) -> bytes:
        data = {"format": STATS_FORMAT, **dataclasses.asdict(self)}
        return bytes(msgpack.packb(data, use_bin_type=True))

    @classmethod
    def from_bytes(cls, raw: bytes) -> CorpusStats:
        """IndexCorrupt when ``raw`` is not statistics of this format."""
        try:
            data = msgpack.unpackb(raw, raw=False, strict_map_key=False)
            if data.pop("format") != STATS_FORMAT:
                raise ValueError("another format")
            return cls(**data)
        except (ValueError, TypeError, KeyError, msgpack.UnpackException) as exc:
            raise IndexCorrupt(f"global statistics are unreadable: {exc}") from exc


def stats_of(prepared: Prepared, edges: Edges | None = None) -> CorpusStats:
    """One index's statistics, read from its prepared structures (and its graph's
    ``edges``, source and target positions, for the PageRank figure)."""
    units = prepared.filters.units()
    lexical = lexical_stats(prepared.lexical, ~units)
    embedder = prepared.similarity
    terms = _columns(embedder.term_ids, embedder.tfidf.shape[1])
    counts = _df_of(embedder.tfidf.tf(), ~units)
    similarity_df = {t: int(counts[c]) for t, c in terms.items() if counts[c]}
    weight = 0.0 if edges is None else pagerank_weight(prepared.pagerank, units, edges)
    return dataclasses.replace(lexical, similarity_df=similarity_df, pagerank_weight=weight)


Edges = tuple[npt.NDArray[np.integer], npt.NDArray[np.integer]]  # (sources, targets)


def pagerank_weight(
    ranks: npt.NDArray[np.float64], units: npt.NDArray[np.bool_], edges: Edges
) -> float:
    """``a = D / k``: the dangling mass ``D`` of one graph's ranks (nodes, file units
    left out, with no edge to another node) over its teleport level
    ``k = (d D + 1 - d) / n``; the figure :func:`pagerank_scale` sums over shards."""
    nodes = ~units
    n = int(nodes.sum())
    if not n:
        return 0.0
    src, dst = (np.asarray(e, dtype=np.int64) for e in edges)
    known = (src >= 0) & (dst >= 0) & (src < units.shape[0]) & (dst < units.shape[0])
    src, dst = src[known], dst[known]
    inside = nodes[src] & nodes[dst]
    leaving = np.zeros(units.shape[0], dtype=np.bool_)
    leaving[src[inside]] = True
    dangling = float(ranks[nodes & ~leaving].sum() / max(float(ranks[nodes].sum()), 1e-300))
    return dangling / _level(dangling, n)


def _level(dangling: float, n: int) -> float:
    return (DAMPING * dangling + 1 - DAMPING) / n


def pagerank_scale(own: CorpusStats, stats: CorpusStats) -> float:
    """The factor that turns a shard's PageRank (its own graph, summing to 1) into the
    combined graph's, for graphs that do not link each other.

    In the combined graph, ranks within one component solve ``r = d M^T r + k 1`` with
    the level ``k = (d D + 1 - d) / N`` (``D`` the dangling mass of all components),
    alone they solve it with the shard's own level; the equation is linear in ``k``, so
    ``r_combined = r_shard * k / k_shard``. Each component's dangling mass is then
    ``k * a`` (:func:`pagerank_weight`), so ``D = k A`` with ``A`` the sum of every
    shard's ``a``, which gives ``D = (1 - d) A / (N - d A)``."""
    n, a = own.documents, own.pagerank_weight
    if not n or not stats.documents:
        return 1.0
    if not stats.pagerank_weight:  # no graph figures: the share of the nodes
        return n / stats.documents
    big_a, big_n = stats.pagerank_weight, stats.documents
    dangling = (1 - DAMPING) * big_a / (big_n - DAMPING * big_a)
    mine = a * (1 - DAMPING) / (n - a * DAMPING)  # this shard's D, from a = D / k(D)
    return _level(dangling, big_n) / _level(mine, n)


def lexical_stats(
    lexical: LexicalIndex, counted: npt.NDArray[np.bool_] | None = None
) -> CorpusStats:
    """What BM25F reads from one index's corpus (no similarity figures): of the documents
    ``counted`` marks (definitions: file units count for none, as in one index)."""
    rows = np.arange(lexical.size) if counted is None else np.flatnonzero(counted)
    either = sparse.csr_matrix(abs(lexical.head.scipy()) + abs(lexical.body.scipy()))[rows]
    either = sparse.csc_matrix(either)
    either.eliminate_zeros()
    counts = np.diff(either.indptr)
    terms = _columns(lexical.term_ids, lexical.head.shape[1])
    return CorpusStats(
        documents=int(rows.shape[0]),
        head_total=float(head_lengths(lexical.head, counted)[rows].sum()),
        body_total=float(lexical.body_length[rows].sum()),
        df={t: int(counts[c]) for t, c in terms.items() if counts[c]},
        similarity_df={},
    )


def _columns(term_ids: Mapping[str, int], width: int) -> dict[str, int]:
    return {t: c for t, c in term_ids.items() if c < width}


def _df_of(tf: sparse.csr_matrix, counted: npt.NDArray[np.bool_]) -> npt.NDArray[np.int64]:
    """Each column's document frequency over the rows ``counted`` marks (read from the
    counts: a term only file units hold has none, which its idf, ``ln(N / max(df, 1))``,
    would give back as 1)."""
    rows = sparse.csr_matrix(tf)[np.flatnonzero(counted)]
    rows.sum_duplicates()
    rows.eliminate_zeros()
    return np.bincount(rows.indices, minlength=tf.shape[1]).astype(np.int64)


def head_lengths(
    head: Columns, counted: npt.NDArray[np.bool_] | None = None
) -> npt.NDArray[np.float64]:
    """Each head's weighted length, recovered from its length-normalized counts.

    A row holds ``tf / (1 - b + b * L / A)``, so its sum is ``s = L / (1 - b + b * L / A)``
    (``L`` the row's length, the sum of its counts; ``A`` their mean), that is
    ``L = s (1 - b) / (1 - s b / A)``. ``A`` is the one root of
    ``mean(L(A)) = A`` above ``b * max(s)`` (the left side falls as ``A`` grows):
    found by bisection, over the rows ``counted`` marks when given (the mean the index
    normalized by is theirs).
    """
    every = np.asarray(head.scipy().sum(axis=1), dtype=np.float64).ravel()
    s = every if counted is None else every[counted]
    if not s.shape[0] or not s.any():
        return every
    low = B * float(s.max()) * (1 + 1e-12)
    high = max(low * 2, float(s.mean()) * 4 + 1.0)
    while float(_lengths(s, high).mean()) > high:
        high *= 2
    for _ in range(80):
        middle = (low + high) / 2
        if float(_lengths(s, middle).mean()) > middle:
            low = middle
        else:
            high = middle
    return _lengths(every, high)


def _lengths(s: npt.NDArray[np.float64], average: float) -> npt.NDArray[np.float64]:
    out: npt.NDArray[np.float64] = s * (1 - B) / (1 - s * B / average)
    return out


def with_stats(prepared: Prepared, stats: CorpusStats, own: CorpusStats | None = None) -> Prepared:
    """``prepared`` (one shard's, whose own statistics are ``own``) scoring as part of the
    corpus ``stats`` describes."""
    n = int((~prepared.filters.units()).sum())  # ranked definitions (units rank 0)
    if own is None:
        own = CorpusStats(n, 0.0, 0.0, {}, {})
    return dataclasses.replace(
        prepared,
        lexical=lexical_with(prepared.lexical, stats, ~prepared.filters.units()),
        similarity=_similarity(prepared.similarity, stats),
        pagerank=_rounded(prepared.pagerank * pagerank_scale(own, stats)),
    )


def _rounded(ranks: npt.NDArray[np.float64], bits: int = 24) -> npt.NDArray[np.float64]:
    """``ranks`` to ``bits`` bits of mantissa: the nodes a combined graph ranks equal (every
    node nothing refers to gets the teleport level alone) stay equal across shards, each
    computed to its own convergence (about 1e-9 apart), so that ties are broken by position
    as one index breaks them, not by the last bits of each shard's iteration."""
    mantissa, exponent = np.frexp(ranks)
    out: npt.NDArray[np.float64] = np.ldexp(np.round(mantissa * 2.0**bits) / 2.0**bits, exponent)
    return out


def lexical_with(
    lexical: LexicalIndex, stats: CorpusStats, counted: npt.NDArray[np.bool_] | None = None
) -> LexicalIndex:
    """BM25F's head re-normalized by the global average length, idf by the global df
    (``counted``: the rows whose mean length the index normalized by)."""
    head = lexical.head
    length = head_lengths(head, counted)
    mine_rows = length if counted is None else length[counted]
    mine = float(mine_rows.mean()) if mine_rows.shape[0] else 1.0
    average = stats.head_total / stats.documents if stats.documents else mine
    scale = (1 - B + B * length / (mine or 1.0)) / (1 - B + B * length / (average or 1.0))
    values = head.data
    data = (values * scale[head.indices]).astype(values.dtype)
    rescaled = Columns(head.indptr.copy(), head.indices.copy(), data, head.shape)
    width = head.shape[1]
    df = np.zeros(width, dtype=np.float64)
    for term, col in _columns(lexical.term_ids, width).items():
        df[col] = stats.df.get(term, 0)
    body_average = stats.body_total / stats.documents if stats.documents else None
    outside = OutsideIdf(stats.df, stats.documents, lexical.term_ids, width, bm25=True)
    return dataclasses.replace(
        lexical,
        head=rescaled,
        idf=idf(stats.documents, df),
        body_average=body_average,
        outside=outside,
    )


def _similarity(embedder: RepositoryEmbedder, stats: CorpusStats) -> RepositoryEmbedder:
    """The TF-IDF half weighted by the global idf: each row ``ln(1 + tf) * idf`` is
    L2-normalized again with the global idf in place of its own (the rows keep their raw
    counts), which gives the row the combined corpus has, a word in every symbol of the
    shard too (its own idf is 0, the combined corpus's is not: the shard's alias, which
    every path of it holds). The word-vector half is the shared model's (module docstring)."""
    tfidf = embedder.tfidf
    width = tfidf.shape[1]
    wanted = np.zeros(width, dtype=np.float64)
    for term, col in _columns(embedder.term_ids, width).items():
        count = stats.similarity_df.get(term, 0)
        wanted[col] = np.log(max(stats.documents, 1) / max(count, 1))
    outside = OutsideIdf(stats.similarity_df, stats.documents, embedder.term_ids, width)
    return dataclasses.replace(
        embedder, tfidf=tfidf.reweighted(wanted), idf=wanted, outside=outside
    )


class OutsideIdf(Mapping[str, float]):
    """The global idf of the words the corpus holds and a shard does not, ``ln(N / df)``
    (or BM25's, ``bm25``): a query's TF-IDF weights are divided by their length over every
    word of the corpus, and a word BM25 scores by its synonyms weighs its own idf, as in
    one combined index (a word only another shard has still counts)."""

    def __init__(
        self,
        df: Mapping[str, int],
        documents: int,
        own: Mapping[str, int],
        width: int,
        *,
        bm25: bool = False,
    ) -> None:
        self._df, self._documents, self._own, self._width = df, max(documents, 1), own, width
        self._bm25 = bm25  # BM25's idf (lexical.idf), not ln(N / df)

    def __getitem__(self, term: str) -> float:
        if self._own.get(term, self._width) < self._width:
            raise KeyError(term)  # the shard's own: its idf is its column's
        if self._bm25:
            df = np.asarray([float(self._df[term])])
            return float(idf(self._documents, df)[0])
        return float(np.log(self._documents / max(self._df[term], 1)))

    def __contains__(self, term: object) -> bool:
        if not isinstance(term, str) or term not in self._df:
            return False
        return self._own.get(term, self._width) >= self._width

    def __iter__(self) -> Iterator[str]:
        return (t for t in self._df if t in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)
