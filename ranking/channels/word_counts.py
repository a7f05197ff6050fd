"""Word co-occurrence counts, positive PMI and a randomized SVD: what the similarity
channel's word vectors (:class:`~symfuse.ranking.channels.similarity.WordModel`) are learned
with (Levy, Goldberg and Dagan 2015; Halko, Martinsson and Tropp 2011).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

if TYPE_CHECKING:
    from scipy import sparse

# A symbol's tokens (name, scopes, signature, doc, body) are short sentences of one topic:
# a wide window lets doc words meet the identifiers they describe. With unweighted
# singular vectors (similarity.EIGENVALUE_WEIGHT 0, which keeps the dominant dimensions
# from drowning the rest) each lifts the similarity channel alone on docstring queries,
# and the two together most.
WINDOW = 20
CONTEXT_SMOOTHING = 0.75
POWER_ITERATIONS = 1
OVERSAMPLE = 10
# Word vectors learn from at most this many tokens: every k-th symbol's beyond it. Counting
# co-occurrences is linear in tokens and is the largest step of a cold build on a large
# workspace, and most of its peak memory. Every benchmark corpus but the large ones
# (SQLAlchemy and the 1M-line tree) is under it, so their vectors, and every quality
# figure, are not touched by the cap.
TRAINING_TOKENS = 1_500_000
SEED = 20240607


def cooccurrence(
    sequence: npt.NDArray[np.int32],
    starts: npt.NDArray[np.int64],
    vocabulary_size: int,
    terms: npt.NDArray[np.int64],
    window: int = WINDOW,
) -> sparse.csr_matrix:
    """Symmetric counts of pairs of ``terms`` (sorted vocabulary ids; row and column ``i``
    is ``terms[i]``) at most ``window`` apart within one symbol's tokens.

    Only the pairs of the terms that learn vectors are counted (counting every term's
    pairs and dropping the others' rows gives the same matrix at a much higher peak).
    Each pair is one 32-bit key ``left * len(terms) + right``, counted one way for every
    offset and summed by sorting the keys once, then mirrored: scipy's sums of sparse
    blocks sorted the same pairs again per block. Canonical CSR (sorted columns), so the
    sums over it always run in the same order. The symbols' two halves are counted one
    after the other (no pair spans two symbols), so that one half's keys are alive at a
    time, and added: whole numbers, so exactly the counts of the whole. (A build trains
    while its other thread makes the lexical structures: :mod:`.prepared.corpus`.)
    """
    k = int(terms.shape[0])
    if k * k >= 2**31:  # a 32-bit key holds 46,340 terms (MAX_TERMS is 12,000)
        raise ValueError(f"{k} terms are too many for 32-bit pair keys")
    where = np.full(vocabulary_size, -1, dtype=np.int32)
    where[terms] = np.arange(k, dtype=np.int32)
    mapped = where[sequence]
    owner = np.repeat(np.arange(starts.shape[0] - 1, dtype=np.int32), np.diff(starts))
    cut = int(starts[np.searchsorted(starts, sequence.shape[0] // 2)])  # a symbol's start
    first = _one_way(mapped[:cut], owner[:cut], k, window)
    second = _one_way(mapped[cut:], owner[cut:], k, window)
    return _mirrored(first + second)


def _one_way(
    mapped: npt.NDArray[np.int32], owner: npt.NDArray[np.int32], k: int, window: int
) -> sparse.csr_matrix:
    """The counts of the pairs (left before right) of the tokens ``mapped`` (row ids, -1
    for a term that learns no vector), each token's symbol in ``owner``."""
    offsets = range(1, min(window, mapped.shape[0] - 1) + 1)
    pairs = [
        (owner[:-i] == owner[i:])
        & (mapped[:-i] >= 0)
        & (mapped[i:] >= 0)
        & (mapped[:-i] != mapped[i:])
        for i in offsets
    ]
    keys = np.empty(sum(int(p.sum()) for p in pairs), dtype=np.int32)  # (no list to join)
    at = 0
    for i, pair in zip(offsets, pairs, strict=True):
        left, right = mapped[:-i][pair], mapped[i:][pair]
        np.add(left * np.int32(k), right, out=keys[at : at + left.shape[0]])
        at += left.shape[0]
    pairs.clear()  # (the masks: not alive while the keys are sorted and counted)
    return _counted(keys, k)


def _counted(keys: npt.NDArray[np.int32], k: int) -> sparse.csr_matrix:
    """The ``k x k`` counts of the pair ``keys`` (sorted here, in place)."""
    from scipy import sparse

    keys.sort()
    firsts = np.flatnonzero(np.concatenate([[True], keys[1:] != keys[:-1]])) if keys.size else keys
    counts = np.diff(np.append(firsts, keys.shape[0])).astype(np.float64)
    unique = keys[firsts]
    indptr = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(np.bincount(unique // k, minlength=k), out=indptr[1:])
    return sparse.csr_matrix((counts, (unique % k).astype(np.int32), indptr), shape=(k, k))


def _mirrored(one_way: sparse.csr_matrix) -> sparse.csr_matrix:
    """``one_way + one_way.T``, canonical."""
    from scipy import sparse

    symmetric = sparse.csr_matrix(one_way + one_way.T)
    symmetric.sum_duplicates()
    return symmetric


def training_sample(
    sequence: npt.NDArray[np.int32], starts: npt.NDArray[np.int64], budget: int | None = None
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """The token sequences of every k-th symbol, k the smallest that brings the total
    within ``budget`` (:data:`TRAINING_TOKENS`; all of them when it already is), and
    their starts."""
    budget = TRAINING_TOKENS if budget is None else budget
    total = int(sequence.shape[0])
    if total <= budget:
        return sequence, starts
    stride = -(-total // budget)
    chosen = np.arange(0, starts.shape[0] - 1, stride)
    lengths = starts[chosen + 1] - starts[chosen]
    offsets = np.cumsum(lengths) - lengths
    within = np.arange(int(lengths.sum())) - np.repeat(offsets, lengths)
    taken = sequence[np.repeat(starts[chosen], lengths) + within]
    return taken, np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)


def ppmi(counts: sparse.csr_matrix, smoothing: float = CONTEXT_SMOOTHING) -> sparse.csr_matrix:
    """Positive PMI: ``max(0, ln(P(w, c) / (P(w) * P_a(c))))`` with ``P_a(c) ~ count(c)^a``."""
    from scipy import sparse

    total = counts.sum()
    if total <= 0:
        return counts
    counts = sparse.csr_matrix(counts)
    if not counts.has_canonical_format:  # each row's columns ascending, none twice
        counts = counts.copy()
        counts.sum_duplicates()
    row = np.asarray(counts.sum(axis=1)).ravel()
    col = np.asarray(counts.sum(axis=0)).ravel() ** smoothing
    # In place where it can be (a few arrays of one float per entry, not a COO copy),
    # each product and quotient as P(w, c) / (P(w) * P_a(c)) reads, so the same floats.
    pmi = counts.data / total
    p_w = np.repeat(row, np.diff(counts.indptr))
    p_w /= total
    p_c = col[counts.indices]
    p_c /= col.sum()
    p_w *= p_c
    del p_c
    pmi /= p_w
    del p_w
    np.log(pmi, out=pmi)
    keep = pmi > 0
    kept_before = np.zeros(keep.shape[0] + 1, dtype=np.int64)  # kept entries before each
    np.cumsum(keep, out=kept_before[1:])
    indptr = kept_before[counts.indptr]
    return sparse.csr_matrix(
        (pmi[keep], counts.indices[keep], indptr), shape=counts.shape, dtype=np.float64
    )


def randomized_svd(
    matrix: sparse.csr_matrix, rank: int, seed: int | None = None
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Top-``rank`` left singular vectors and values (Halko et al. 2011, algorithm 4.4);
    ``seed`` None: :data:`SEED` as it is then (a bench may set another)."""
    n, m = matrix.shape
    k = min(rank + OVERSAMPLE, n, m)
    if k <= 0:
        return np.zeros((n, 0)), np.zeros(0)
    rng = np.random.default_rng(SEED if seed is None else seed)
    q, _ = np.linalg.qr(matrix @ rng.standard_normal((m, k)))
    for _ in range(POWER_ITERATIONS):
        q, _ = np.linalg.qr(matrix.T @ q)
        q, _ = np.linalg.qr(matrix @ q)
    small = (matrix.T @ q).T  # k x m
    u_small, s, _ = np.linalg.svd(small, full_matrices=False)
    u = q @ u_small
    keep = min(rank, s.shape[0])
    return u[:, :keep], s[:keep]
