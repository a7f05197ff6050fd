"""Similarity channel: PPMI, randomized SVD and the repository embedder."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from scipy import sparse

from symfuse.ranking.channels import kept as kept_module
from symfuse.ranking.channels import similarity, word_counts
from symfuse.ranking.channels.documents import build_documents
from symfuse.ranking.channels.similarity import Embedder, RepositoryEmbedder
from symfuse.ranking.channels.word_counts import ppmi, randomized_svd
from tests.support.symbols import make_symbol

# a small matrix; one with an empty row and column, repeated and unsorted entries (not
# canonical), and pairs whose PMI is not positive (dropped)
_DENSE = np.asarray([[0, 4, 1], [4, 0, 2], [1, 2, 0]], dtype=np.float64)
_LOOSE = sparse.csr_matrix(
    (np.asarray([3.0, 1, 2, 5, 1, 1, 6]), np.asarray([3, 1, 3, 0, 2, 3, 0]), [0, 3, 3, 5, 7]),
    shape=(4, 4),
)


@pytest.mark.parametrize("counts", [sparse.csr_matrix(_DENSE), _LOOSE], ids=["dense", "loose"])
def test_ppmi_matches_the_definition(counts: sparse.csr_matrix) -> None:
    dense = counts.toarray()  # (duplicates summed)
    result = ppmi(counts, smoothing=0.75)
    assert result.has_canonical_format
    assert result.nnz == np.count_nonzero(result.toarray())  # no stored zeros
    result = result.toarray()
    total = dense.sum()
    row = dense.sum(axis=1)
    col = dense.sum(axis=0) ** 0.75
    n = dense.shape[0]
    for i in range(n):
        for j in range(n):
            c = dense[i, j]
            expected = 0.0
            if c:
                expected = max(
                    0.0, math.log((c / total) / ((row[i] / total) * (col[j] / col.sum())))
                )
            assert result[i, j] == pytest.approx(expected)


def test_randomized_svd_finds_the_top_singular_values() -> None:
    rng = np.random.default_rng(0)
    low_rank = rng.standard_normal((60, 5)) @ rng.standard_normal((5, 40))
    matrix = sparse.csr_matrix(low_rank)
    u, s = randomized_svd(matrix, 5)
    expected = np.linalg.svd(low_rank, compute_uv=False)[:5]
    assert s == pytest.approx(expected, rel=1e-6)
    assert np.allclose(u.T @ u, np.eye(5), atol=1e-8)


@pytest.fixture(scope="module")
def embedder() -> tuple[RepositoryEmbedder, list[str]]:
    symbols = [
        make_symbol("send_mail", doc="Send an e-mail message to a recipient over SMTP."),
        make_symbol("mail_admins", doc="Send an e-mail message to the site administrators."),
        make_symbol("EmailBackend", doc="Deliver e-mail messages through an SMTP server."),
        make_symbol("slugify", doc="Convert a title to a URL slug of lowercase words."),
        make_symbol("url_slug", doc="Build the slug part of a URL from a title."),
        make_symbol("calculate_total", doc="Sum the prices of the order lines."),
        make_symbol("order_total", doc="Total price of an order including tax."),
        make_symbol("price_with_tax", doc="Unit price with tax added to the order price."),
    ]
    return RepositoryEmbedder.train(build_documents(symbols), dimensions=4), [
        s.name for s in symbols
    ]


def test_repository_embedder_is_an_embedder(embedder: tuple[RepositoryEmbedder, list[str]]) -> None:
    model: Embedder = embedder[0]
    assert model.name == "tfidf+ppmi-svd"
    assert model.scores("mail").shape == (8,)


def test_natural_language_query_finds_the_function(
    embedder: tuple[RepositoryEmbedder, list[str]],
) -> None:
    model, names = embedder
    ranking = similarity.rank(model, "deliver a message by email", None, 3)
    assert {names[i] for i in ranking.positions} <= {"send_mail", "mail_admins", "EmailBackend"}
    ranking = similarity.rank(model, "turn a title into a slug", None, 2)
    assert {names[i] for i in ranking.positions} == {"slugify", "url_slug"}


def test_unknown_words_give_no_ranking(embedder: tuple[RepositoryEmbedder, list[str]]) -> None:
    model, _ = embedder
    assert similarity.rank(model, "zzzz qqqq", None, 5).positions.size == 0


def test_doc_vectors_are_unit_length(embedder: tuple[RepositoryEmbedder, list[str]]) -> None:
    model, _ = embedder
    norms = np.linalg.norm(model.doc_vectors.rows(), axis=1)  # as their int8 codes give them
    assert np.all((np.abs(norms - 1) < 0.02) | (norms == 0))


def test_word_vectors_learn_from_every_kth_symbol_past_the_token_budget() -> None:
    rng = np.random.default_rng(0)
    lengths = rng.integers(0, 30, 1000)
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    sequence = rng.integers(0, 100, int(starts[-1])).astype(np.int32)
    whole, whole_starts = word_counts.training_sample(sequence, starts, budget=int(starts[-1]))
    assert whole is sequence
    assert whole_starts is starts
    budget = int(starts[-1]) // 3
    taken, taken_starts = word_counts.training_sample(sequence, starts, budget=budget)
    assert taken.shape[0] < 1.1 * budget
    expected = [sequence[starts[i] : starts[i + 1]] for i in range(0, 1000, 3)]  # every 3rd
    got = [taken[taken_starts[j] : taken_starts[j + 1]] for j in range(len(taken_starts) - 1)]
    assert len(got) == len(expected)
    assert all(np.array_equal(a, b) for a, b in zip(got, expected, strict=True))


def test_cooccurrence_counts_the_chosen_terms_pairs_within_the_window() -> None:
    """Against a count pair by pair: both directions, same symbol only, no term with
    itself, only the chosen terms (rows and columns in their order)."""
    rng = np.random.default_rng(1)
    lengths = rng.integers(0, 25, 200)
    starts = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    sequence = rng.integers(0, 40, int(starts[-1])).astype(np.int32)
    terms = np.sort(rng.choice(40, 25, replace=False)).astype(np.int64)
    at = {int(t): i for i, t in enumerate(terms)}
    expected = np.zeros((25, 25))
    for s in range(200):
        tokens = [int(t) for t in sequence[starts[s] : starts[s + 1]]]
        for i, a in enumerate(tokens):
            for b in tokens[i + 1 : i + 1 + 3]:
                if a != b and a in at and b in at:
                    expected[at[a], at[b]] += 1
                    expected[at[b], at[a]] += 1
    counts = word_counts.cooccurrence(sequence, starts, 40, terms, window=3)
    assert counts.has_canonical_format
    assert np.array_equal(counts.toarray(), expected)


def test_embedding_in_blocks_gives_the_vectors_of_one_block(
    embedder: tuple[RepositoryEmbedder, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    model = embedder[0].model
    tf = sparse.csr_matrix(np.random.default_rng(2).poisson(0.3, (50, 30)).astype(np.float32))
    rows = np.arange(30, dtype=np.int64) % (model.vectors.shape[0] + 1) - 1
    whole = model.embed(tf, rows)
    monkeypatch.setattr(similarity, "BLOCK_ROWS", 7)
    assert np.array_equal(model.embed(tf, rows), whole)
    assert np.abs(whole).sum() > 0


def test_the_product_scores_the_same_here_as_on_the_side_thread(
    embedder: tuple[RepositoryEmbedder, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    model, _names = embedder
    here = model.scores("send an e-mail message")  # 8 symbols: the product runs here
    monkeypatch.setattr(similarity, "ASIDE_ROWS", 0)  # every product aside
    aside = model.scores("send an e-mail message")
    assert np.array_equal(here, aside)
    assert np.count_nonzero(here) > 0


def test_a_kept_frequent_column_scores_as_it_did_when_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The TF-IDF columns of terms met before are kept (each row once; over every row when
    the term is in a quarter of them): the cosines are bit for bit a fresh matrix's."""
    monkeypatch.setattr(kept_module, "ROWS", 1)
    symbols = [
        make_symbol(f"test_{verb}_{noun}", doc=f"Check that the {noun} can {verb} rows.")
        for verb in ("insert", "update", "delete", "merge")
        for noun in ("table", "column", "session", "mapper", "query")
    ]
    documents = build_documents(symbols)
    model = RepositoryEmbedder.train(documents, dimensions=4)
    queries = ("test insert", "session rows", "delete the mapper query", "column")
    for _ in range(3):  # met, kept, read from what was kept
        for query in queries:
            fresh = dataclasses.replace(model, tfidf=dataclasses.replace(model.tfidf))
            assert np.array_equal(model.scores(query), fresh.scores(query))
    held = list(model.tfidf._kept._items.values())
    assert {c.rows is None for c in held} == {True, False}  # both forms were kept
