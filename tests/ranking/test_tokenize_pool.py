"""Tokenizing in worker processes builds exactly the structures one process builds: the same
vocabulary, matrices and vectors, with a file changed since indexing tokenized here."""

from __future__ import annotations

import multiprocessing
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.extract import procs
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import Prepared
from symfuse.ranking.prepared import tokenize_pool
from symfuse.ranking.prepared.build import build
from symfuse.ranking.prepared.structures import FilePiece
from symfuse.ranking.prepared.tokenize_pool import workers_for
from tests.support.paths import FIXTURES


def assert_same(pooled: Prepared, alone: Prepared) -> None:
    assert pooled.vocabulary == alone.vocabulary
    assert pooled.trigram_vocabulary == alone.trigram_vocabulary
    for ours, theirs in (
        (pooled.lexical.head, alone.lexical.head),
        (pooled.lexical.body, alone.lexical.body),
        (pooled.trigrams.matrix, alone.trigrams.matrix),
    ):
        assert ours.shape == theirs.shape
        assert np.array_equal(ours.indptr, theirs.indptr)
        assert np.array_equal(ours.indices, theirs.indices)
        assert np.array_equal(ours.data, theirs.data)
    # the TF-IDF rows are made from the lexical head and body compared above
    assert np.array_equal(pooled.similarity.tfidf.idf, alone.similarity.tfidf.idf)
    assert np.array_equal(pooled.similarity.tfidf.inverse, alone.similarity.tfidf.inverse)
    assert np.array_equal(pooled.similarity.doc_vectors.codes, alone.similarity.doc_vectors.codes)
    assert np.array_equal(pooled.similarity.doc_vectors.scales, alone.similarity.doc_vectors.scales)
    assert pooled.names.wholes_list == alone.names.wholes_list


def _not_sent(_job: object, _protocol: object) -> object:
    raise AssertionError("a forked pool's job was pickled")


@pytest.mark.slow  # a pool of tokenizer processes
@pytest.mark.parametrize("changed", [False, True], ids=["as-indexed", "file-changed-since"])
@pytest.mark.parametrize("method", ["fork", "forkserver"])  # jobs inherited, or sent whole
def test_workers_build_what_one_process_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed: bool, method: str
) -> None:
    monkeypatch.setattr(procs, "context", lambda: multiprocessing.get_context(method))
    if method == "fork":  # the workers find the jobs in what they inherit: none is sent
        monkeypatch.setattr(tokenize_pool.FileJob, "__reduce_ex__", _not_sent, raising=False)
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / "i", progress=False))
    if changed:  # its digest no longer matches: a worker hands it back, from references here
        edited = next(root.rglob("*.py"))
        edited.write_text(edited.read_text() + "\n# edited after indexing\n")
    monkeypatch.setattr(tokenize_pool, "POOL_FILES", 1)
    monkeypatch.setattr(tokenize_pool.os, "cpu_count", lambda: 2)
    assert tokenize_pool.workers_for(len(index.files)) == 2
    pooled = build(index)
    monkeypatch.setattr(tokenize_pool, "POOL_FILES", 10**9)
    assert tokenize_pool.workers_for(len(index.files)) == 0
    alone = build(index, model=pooled.similarity.model)
    assert pooled.rebuilt == alone.rebuilt == len(index.files)
    assert_same(pooled, alone)


def test_a_local_piece_rebased_onto_shared_vocabularies_matches_direct_tokenizing(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / "i", progress=False))
    keys = sorted(k for k, e in index.files.items() if e.symbols)[:2]
    shared = (tokenize_pool.Vocabulary(), tokenize_pool.Vocabulary())
    direct = (tokenize_pool.Vocabulary(), tokenize_pool.Vocabulary())
    for key in keys:
        entry = index.files[key]
        job = tokenize_pool.FileJob(index.abs_path(key), entry.stamp.digest, "s", entry.symbols)
        local = tokenize_pool.tokenize_file(job)
        assert local is not None
        rebased = tokenize_pool.rebase(local, *shared)
        source = tokenize_pool.matching_source(job.abs_path, job.digest)
        assert source is not None
        bodies = tokenize_pool.definition_bodies(entry.symbols, source)
        made: FilePiece = tokenize_pool.make_piece("s", entry.symbols, bodies, *direct)
        for a, b in ((rebased.text.head, made.text.head), (rebased.text.body, made.text.body)):
            assert np.array_equal(a.indptr, b.indptr)
            assert np.array_equal(a.indices, b.indices)
            assert np.array_equal(a.data, b.data)
        assert np.array_equal(rebased.text.sequence, made.text.sequence)
    assert shared[0].terms == direct[0].terms


def _report_workers(queue: Any) -> None:
    queue.put(workers_for(100_000))


@pytest.mark.slow  # a daemonic process
def test_a_daemonic_process_tokenizes_in_itself() -> None:
    # A Dask worker is a daemonic process, which may not start a pool of its own.
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    child = context.Process(target=_report_workers, args=(queue,), daemon=True)
    child.start()
    try:
        assert queue.get(timeout=120) == 0
    finally:
        child.join(timeout=120)


def test_symbols_pickle_as_their_fields(tmp_path: Path) -> None:
    """The worker processes get each file's symbols pickled: every field comes back."""
    import pickle

    config = IndexConfig(roots=(FIXTURES / "workspace",), index_dir=tmp_path, progress=False)
    index, _ = update_index(config)
    symbols = index.symbols
    back = pickle.loads(pickle.dumps(symbols))
    assert back == symbols
    assert [s.kind for s in back] == [s.kind for s in symbols]
    assert any(s.decorators for s in back)
    assert any(s.doc for s in back)
    for ours, theirs in zip(back, symbols, strict=True):
        assert type(ours.decorators) is tuple
        assert ours.parent == theirs.parent
