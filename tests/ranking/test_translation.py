"""The doc -> code translation model and the learned re-ranking of prose answers (issue 13).

A small project whose documented functions pair the word "password" with ``getpass``
and "file" with ``open``: the model learns it, scores an undocumented function by the
doc it lacks, keeps it across a restart, and the re-ranking only permutes the head.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.channels.translation import BETA, LAMBDA, query_ids
from symfuse.ranking.fusion import rerank
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.prepared import build as prepare_module
from symfuse.ranking.prepared.build import prepare
from symfuse.ranking.prepared.structures import Prepared
from symfuse.ranking.query.search_request import Channel

AUTH = '''
import getpass


def read_secret(prompt):
    """Ask the user for a password without echoing it."""
    return getpass.getpass(prompt)


def ask_password():
    """Prompt for the password and hide what is typed."""
    value = getpass.getpass("Password: ")
    return value.strip()


def confirm_password():
    """Ask for the password twice and check that both match."""
    first = getpass.getpass("Password: ")
    second = getpass.getpass("Again: ")
    return first if first == second else None


def _secret_input():
    return getpass.getpass()
'''

FILES = '''
def read_text(path):
    """Read the whole file as text."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def read_bytes(path):
    """Read the whole file as bytes."""
    with open(path, "rb") as handle:
        return handle.read()


def _raw(path):
    with open(path, "rb") as handle:
        return handle.read(16)
'''


def _index(root: Path, store: Path, files: dict[str, str]) -> tuple[Index, IndexConfig]:
    root.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (root / name).write_text(text, encoding="utf-8")
    config = IndexConfig(roots=(root,), index_dir=store, progress=False)
    index, _ = update_index(config)
    return index, config


@pytest.fixture
def built(tmp_path: Path) -> tuple[Index, Prepared, Path]:
    index, config = _index(tmp_path / "src", tmp_path / "store", {"auth.py": AUTH, "io.py": FILES})
    return index, prepare(index, config.store.directory), config.store.directory


def _position(index: Index, name: str) -> int:
    return next(i for i, s in enumerate(index.symbols) if s.name == name)


def test_an_undocumented_function_is_scored_by_the_doc_it_lacks(
    built: tuple[Index, Prepared, Path],
) -> None:
    index, prepared, _ = built
    translation = prepared.translation
    assert translation is not None
    ids = query_ids("ask the user for a password", prepared.lexical.term_ids)
    assert ids  # "password" is a doc word of the index (the stop words are not looked up)
    secret, raw = _position(index, "_secret_input"), _position(index, "_raw")
    scores = translation.scores(ids, np.asarray([secret, raw], dtype=np.int64))
    assert scores[0] > 0
    assert scores[0] > scores[1]
    # its code holds no word of the query: only the learned getpass -> password counts
    terms = prepared.lexical.term_ids
    table = translation.table.scipy()
    assert table[terms["getpass"], terms["password"]] > table[terms["open"], terms["password"]]


def test_scores_are_scipys_product_of_rows_and_columns_bit_for_bit(
    built: tuple[Index, Prepared, Path],
) -> None:
    """The scores are summed without scipy; they are the ones its product gave."""
    from scipy import sparse

    index, prepared, _ = built
    translation = prepared.translation
    assert translation is not None
    terms = prepared.lexical.term_ids
    ids = [terms[w] for w in ("password", "file", "text", "open") if w in terms]
    assert len(ids) >= 3
    at = np.arange(len(index.symbols), dtype=np.int64)[::-1]  # any order of positions
    owners, tokens, shares = translation.code.entries(at)
    indptr = np.searchsorted(owners, np.arange(at.shape[0] + 1))  # the rows as they come
    shape = (at.shape[0], translation.code.width)
    code = sparse.csr_matrix((shares, tokens.astype(np.int32), indptr), shape=shape)
    columns = np.asarray(ids, dtype=np.int64)
    table = translation.table.scipy()
    own = code[:, columns].toarray()
    p = BETA * (code @ table[:, columns]).toarray() + (1 - BETA) * own
    ratio = (1 - LAMBDA) * p / (LAMBDA * translation.background[columns].astype(np.float64))
    expected = np.log1p(ratio).sum(axis=1)
    assert np.count_nonzero(expected) > 2
    assert np.array_equal(translation.scores(ids, at), expected)


def test_no_known_word_and_no_documented_definition_give_no_evidence(tmp_path: Path) -> None:
    bare = "def _a(path):\n    return open(path)\n\n\ndef _b():\n    return 1\n"
    index, config = _index(tmp_path / "src", tmp_path / "store", {"bare.py": bare})
    prepared = prepare(index, config.store.directory)
    assert prepared.translation is not None
    assert prepared.translation.table.indices.shape[0] == 0
    at = np.arange(len(index.symbols), dtype=np.int64)
    assert not prepared.translation.scores([], at).any()
    ids = query_ids("open the path", prepared.lexical.term_ids)
    # nothing learned (P(w|c) is 0): only a code's own words count, _a's "open" and "path"
    assert prepared.translation.scores(ids, at).tolist()[1] == 0.0
    assert prepared.translation.scores(ids, at).tolist()[0] > 0.0
    # the prose search still answers
    response = search(index, SearchRequest(query="open the path for reading"), prepared=prepared)
    assert response.items


def test_a_restarted_server_reads_the_model_and_answers_the_same(
    built: tuple[Index, Prepared, Path],
) -> None:
    index, prepared, directory = built
    query = SearchRequest(query="ask the user for a password", limit=10)
    before = [(i.symbol.symbol_id, i.score) for i in search(index, query, prepared=prepared).items]
    prepare_module.forget(index)
    loaded = prepare(index, directory)
    assert loaded.loaded
    assert loaded.translation is not None
    built_model = prepared.translation
    assert built_model is not None
    for ours, theirs in (
        (loaded.translation.table, built_model.table),
        (loaded.translation.table.with_sorted_rows(), built_model.table),
    ):
        assert np.array_equal(ours.indptr, theirs.indptr)
        assert np.array_equal(ours.indices, theirs.indices)
        assert np.array_equal(ours.data, theirs.data)
    at = np.arange(len(index.symbols), dtype=np.int64)
    for ours_part, theirs_part in zip(
        loaded.translation.code.entries(at), built_model.code.entries(at), strict=True
    ):
        assert np.array_equal(ours_part, theirs_part)
    after = [(i.symbol.symbol_id, i.score) for i in search(index, query, prepared=loaded).items]
    assert after == before


QUESTION = "ask the user for a password"


def _reversed(index: Index, prepared: Prepared) -> tuple[Fused, list[int]]:
    """Every symbol fused in reverse order, scores falling; the query's term ids."""
    n = len(index.symbols)
    positions = np.arange(n, dtype=np.int64)[::-1].copy()
    ranks = {Channel.LEXICAL: np.arange(1, n + 1, dtype=np.int64)}
    fused = Fused(positions, np.linspace(1.0, 0.1, n), ranks, {}, {})
    return fused, query_ids(QUESTION, prepared.lexical.term_ids)


def test_the_reranking_permutes_the_head_and_keeps_the_tail(
    built: tuple[Index, Prepared, Path],
) -> None:
    index, prepared, _ = built
    assert prepared.translation is not None
    fused, ids = _reversed(index, prepared)
    positions, scores, query = fused.positions, fused.scores, QUESTION
    out = rerank.reranked(fused, index.symbols, query, prepared.translation, ids, head=4)
    assert sorted(out.positions[:4].tolist()) == sorted(positions[:4].tolist())
    assert out.positions[4:].tolist() == positions[4:].tolist()
    assert out.scores.tolist() == scores.tolist()  # scores stay where they were: never rising
    assert out.rescored is not None  # fusion_debug names the answers it moved
    assert out.rescored.tolist() == (out.positions != positions).tolist()
    x = rerank.features(fused, index.symbols, query, prepared.translation, ids, head=4)
    assert x.shape == (4, len(rerank.FEATURES))
    order = np.argsort(-(x @ np.asarray(rerank.WEIGHTS)), kind="stable")
    assert out.positions[:4].tolist() == positions[:4][order].tolist()
    # without weights or a model (a shard's candidates): as it was
    assert rerank.reranked(fused, index.symbols, query, None, ids) is fused


def test_fixed_items_keep_their_places_and_the_others_follow_the_model(
    built: tuple[Index, Prepared, Path],
) -> None:
    # Demoted test code is fixed: the model, blind to the demotion, would lift it back.
    index, prepared, _ = built
    assert prepared.translation is not None
    fused, ids = _reversed(index, prepared)
    n, positions, query = len(fused), fused.positions, QUESTION
    free = rerank.reranked(fused, index.symbols, query, prepared.translation, ids, head=n)
    moved = [p for p in free.positions.tolist() if p != int(positions[1])]
    assert moved != [p for p in positions.tolist() if p != int(positions[1])]  # it reorders
    fixed = np.zeros(n, dtype=np.bool_)
    fixed[1] = True
    out = rerank.reranked(fused, index.symbols, query, prepared.translation, ids, n, fixed)
    assert int(out.positions[1]) == int(positions[1])
    assert [p for p in out.positions.tolist() if p != int(positions[1])] == moved
