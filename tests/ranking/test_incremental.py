"""Incremental preparation: after one file changes, only that file is tokenized again, and
the structures give the same answers as a from-scratch build with the same word vectors."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.live import _snapshot
from symfuse.indexer.update.workspace import load_index, update_index
from symfuse.ranking.api import Prepared, SearchRequest, prepare, search
from symfuse.ranking.channels.lexical import QueryTerms
from symfuse.ranking.channels.names.names_only import quick_cache
from symfuse.ranking.prepared import build as prepare_module
from symfuse.ranking.prepared.build import build, corpus_of
from tests.support.paths import FIXTURES

WORKSPACE = FIXTURES / "workspace"
EDITED = "shop/utils/text.py"
ADDITION = '''

def shorten_sentence(text, limit=20):
    """Cut a sentence to a word boundary before the limit and add an ellipsis."""
    words = text.split()
    return " ".join(words[:limit]) + "..."
'''

QUERIES = [
    "shorten_sentence",
    "shorten",
    "cut a sentence at a word boundary",
    "send email",
    "payment",
    "prcoess_payment",
    "repository",
    "sS",
]


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, IndexConfig]:
    root = tmp_path / "ws"
    shutil.copytree(WORKSPACE, root)
    return root, IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)


def edit(root: Path) -> None:
    target = root / EDITED
    target.write_text(target.read_text() + ADDITION)


def answers(index: Index, prepared: Prepared, query: str) -> list[tuple[str, float]]:
    request = SearchRequest.from_mapping({"query": query, "limit": 10})
    response = search(index, request, prepared=prepared)
    return [(i.symbol.symbol_id, i.score) for i in response.items]


def assert_same_as_scratch(index: Index, prepared: Prepared) -> None:
    scratch = build(index, model=prepared.similarity.model)
    for query in QUERIES:
        ours = answers(index, prepared, query)
        theirs = answers(index, scratch, query)
        assert [sid for sid, _ in ours] == [sid for sid, _ in theirs], query
        np.testing.assert_allclose(
            [s for _, s in ours], [s for _, s in theirs], rtol=1e-9, err_msg=query
        )
        # Channel scores, not only ranks: column ids differ, symbol positions do not.
        terms = QueryTerms.parse(query)
        np.testing.assert_allclose(
            prepared.lexical.scores(terms)[0], scratch.lexical.scores(terms)[0], rtol=1e-9
        )
        np.testing.assert_allclose(
            prepared.similarity.scores(query), scratch.similarity.scores(query), atol=1e-5
        )
    ours, theirs = prepared.similarity.doc_vectors, scratch.similarity.doc_vectors
    # a vector equal to 1e-5 may round to the next code: one step of its row's scale
    step = float(max(ours.scales.max(initial=0), theirs.scales.max(initial=0)))
    np.testing.assert_allclose(ours.rows(), theirs.rows(), atol=step + 1e-6)
    np.testing.assert_array_equal(prepared.filters.kind, scratch.filters.kind)
    assert prepared.trigrams.lower == scratch.trigrams.lower
    assert prepared.size == scratch.size == len(index.symbols)


def test_one_changed_file_is_tokenized_alone_and_matches_a_scratch_build(
    workspace: tuple[Path, IndexConfig],
) -> None:
    root, config = workspace
    index, _ = update_index(config)
    first = prepare(index)
    corpus = corpus_of(index)
    assert first.rebuilt == len(index.files)
    before = corpus.tokenized
    edit(root)
    updated, _ = update_index(config, index=index)
    second = prepare(updated)
    assert second.rebuilt == 1
    assert corpus.tokenized == before + 1
    assert any(s.name == "shorten_sentence" for s in updated.symbols)
    assert answers(updated, second, "shorten_sentence")[0][0].endswith(
        "::shorten_sentence#function"
    )
    assert_same_as_scratch(updated, second)


def test_a_reloaded_corpus_is_updated_incrementally(
    workspace: tuple[Path, IndexConfig],
) -> None:
    root, config = workspace
    index, _ = update_index(config)
    directory = config.store.directory
    prepare(index, directory)
    prepare_module.forget(index)  # a new process: a CLI search after `symfuse index`
    edit(root)
    updated, _ = update_index(config, index=index)
    again = prepare(updated, directory)
    assert again.rebuilt == 1
    assert (directory / f"ranking-{updated.generation}.npz").exists()
    assert_same_as_scratch(updated, again)
    prepare_module.forget(updated)
    loaded = prepare(updated, directory)
    assert loaded.loaded
    assert loaded.rebuilt == 0
    for query in QUERIES:
        assert answers(updated, loaded, query) == answers(updated, again, query)


def test_word_vectors_are_kept_until_the_corpus_moves(
    workspace: tuple[Path, IndexConfig], monkeypatch: pytest.MonkeyPatch
) -> None:
    root, config = workspace
    index, _ = update_index(config)
    first = prepare(index)
    assert first.retrained
    monkeypatch.setattr("symfuse.ranking.prepared.corpus.RETRAIN_SHARE", 0.5)
    edit(root)
    updated, _ = update_index(config, index=index)
    second = prepare(updated)
    assert not second.retrained
    assert second.similarity.model is first.similarity.model
    monkeypatch.setattr("symfuse.ranking.prepared.corpus.RETRAIN_SHARE", 0.0)
    (root / EDITED).write_text((root / EDITED).read_text() + "\n\ndef another():\n    pass\n")
    third_index, _ = update_index(config, index=updated)
    third = prepare(third_index)
    assert third.retrained
    assert third.similarity.model is not first.similarity.model
    assert_same_as_scratch(third_index, third)


def test_concurrent_prepares_build_once(workspace: tuple[Path, IndexConfig]) -> None:
    _, config = workspace
    index, _ = update_index(config)
    results: list[Prepared] = []

    def run() -> None:
        results.append(prepare(index))

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    assert all(r is results[0] for r in results)


def test_a_new_process_reads_the_structures_of_an_unchanged_index_whole(
    workspace: tuple[Path, IndexConfig],
) -> None:
    root, config = workspace
    index, _ = update_index(config)
    directory = config.store.directory
    built = prepare(index, directory)
    prepare_module.forget(index)  # a CLI search of the same index in a new process
    loaded = prepare(index, directory)
    assert loaded.loaded
    assert not corpus_of(index).pieces  # nothing joined: read as assembled
    for query in QUERIES:
        assert answers(index, loaded, query) == answers(index, built, query), query
    for one, other in (
        (loaded.lexical.head, built.lexical.head),
        (loaded.lexical.body, built.lexical.body),
        (loaded.similarity.tfidf, built.similarity.tfidf),
        (loaded.trigrams.matrix, built.trigrams.matrix),
    ):
        assert one.shape == other.shape
        assert (one.scipy() != other.scipy()).nnz == 0
    assert np.array_equal(loaded.lexical.body_length, built.lexical.body_length)
    assert np.array_equal(loaded.lexical.idf, built.lexical.idf)
    np.testing.assert_array_equal(
        loaded.similarity.doc_vectors.codes, built.similarity.doc_vectors.codes
    )
    np.testing.assert_array_equal(
        loaded.similarity.doc_vectors.scales, built.similarity.doc_vectors.scales
    )
    for field in ("names", "lower", "wholes"):
        np.testing.assert_array_equal(
            getattr(loaded.names, field).values, getattr(built.names, field).values
        )
    np.testing.assert_array_equal(loaded.names.distinct.starts, built.names.distinct.starts)
    texts = [(loaded.names.fqn_text, built.names.fqn_text)] + [
        (getattr(loaded.names.distinct, joined), getattr(built.names.distinct, joined))
        for joined in ("lower_text", "wholes_text", "spaced_text")
    ]
    for ours_text, theirs_text in texts:
        assert ours_text.text == theirs_text.text
        np.testing.assert_array_equal(ours_text.starts, theirs_text.starts)
    assert loaded.filters.files == built.filters.files
    for table in ("extends", "implements", "decorators"):
        ours, theirs = getattr(loaded.filters, table), getattr(built.filters, table)
        assert ours.keys() == theirs.keys()
        for key in ours:
            np.testing.assert_array_equal(ours[key], theirs[key])
    assert built.filters.extends  # the fixture has base classes to compare

    # The next change still updates incrementally, from the pieces left on disk.
    edit(root)
    updated, _ = update_index(config, index=index)
    again = prepare(updated, directory)
    assert again.rebuilt == 1
    assert_same_as_scratch(updated, again)


def test_caches_belong_to_an_index_and_its_snapshots(
    workspace: tuple[Path, IndexConfig],
) -> None:
    _, config = workspace
    index, _ = update_index(config)
    first = prepare(index)
    copy = _snapshot(index)
    assert corpus_of(copy) is corpus_of(index)  # a live server's snapshots share them
    assert quick_cache(copy) is quick_cache(index)
    other = load_index(config)  # the same workspace, loaded again in this process
    assert other is not None
    assert corpus_of(other) is not corpus_of(index)
    assert quick_cache(other) is not quick_cache(index)
    assert prepare(other) is not first
    assert prepare(index) is first
    prepare_module.forget(index)
    assert prepare(index) is not first
