"""The ranking file's layout (issue 16, index size on disk): each thing stored once, the
members only a restore reads deflated, an older format rebuilt with a log line."""

from __future__ import annotations

import logging
import zipfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.channels.names.scans import Joined
from symfuse.ranking.prepared import build as prepare_module
from symfuse.ranking.prepared.build import prepare
from symfuse.ranking.prepared.corpus import Corpus
from symfuse.ranking.prepared.joined import _joined
from symfuse.ranking.prepared.persist import restore
from symfuse.ranking.prepared.quantized import Quantized
from symfuse.ranking.prepared.ranking_file import (
    DEFLATED,
    FORMAT,
    joined_strings,
    opened,
    write_archive,
)
from tests.support.paths import FIXTURES


@pytest.fixture
def index(tmp_path: Path) -> Index:
    config = IndexConfig(roots=(FIXTURES / "workspace",), index_dir=tmp_path, progress=False)
    built, _ = update_index(config)
    prepare_module.forget(built)
    return built


def _stored(directory: Path, index: Index) -> Path:
    return directory / f"ranking-{index.generation}.npz"


def test_restored_pieces_are_the_pieces_built(index: Index, tmp_path: Path) -> None:
    """The bodies and name trigrams are stored once, in the joined matrices: read back,
    every piece is the one that was built, array for array (an incremental update starts
    from them)."""
    built = prepare(index, tmp_path)
    corpus = Corpus()
    restore(corpus, tmp_path)
    assert corpus.loaded
    assert list(corpus.pieces) == list(built.files)
    for key, piece in zip(built.files, built.pieces, strict=True):
        text, stored = piece.text, corpus.pieces[key].text
        for part in ("head", "body"):
            for field in ("indptr", "indices", "data"):
                ours, theirs = (
                    getattr(getattr(stored, part), field),
                    getattr(getattr(text, part), field),
                )
                assert ours.dtype == theirs.dtype, (key, part, field)
                np.testing.assert_array_equal(ours, theirs, err_msg=f"{key} {part} {field}")
        for field in ("head_length", "body_length", "sequence", "starts"):
            np.testing.assert_array_equal(getattr(stored, field), getattr(text, field))
        for field in ("indptr", "indices", "data"):
            ours, theirs = (getattr(p.trigrams, field) for p in (corpus.pieces[key], piece))
            assert ours.dtype == theirs.dtype, (key, "trigrams", field)
            np.testing.assert_array_equal(ours, theirs, err_msg=f"{key} trigrams {field}")


def test_restored_vectors_are_the_own_vectors_built(index: Index, tmp_path: Path) -> None:
    """The heirs' vectors of their own text are not stored but embedded again on restore:
    every file's cached vectors come back as the codes the file holds give them, so a
    build from the restored corpus codes them as the first build did, heirs included."""
    built = prepare(index, tmp_path)
    assert built.heirs.shape[0]  # the fixture has symbols that borrow docstring words
    corpus = Corpus()
    restore(corpus, tmp_path)
    with opened(_stored(tmp_path, index)) as npz:
        assert "heirs" in npz
        assert "heir_own" not in npz
    own = prepare_module.corpus_of(index).vectors
    assert set(corpus.vectors) == set(own)
    for stamp, (_, vectors) in own.items():
        restored = Quantized.of(corpus.vectors[stamp][1])
        first = Quantized.of(vectors)
        assert np.array_equal(restored.codes, first.codes), stamp
        assert np.array_equal(restored.scales, first.scales), stamp


def test_only_members_a_restore_reads_are_deflated(index: Index, tmp_path: Path) -> None:
    prepare(index, tmp_path)
    with zipfile.ZipFile(_stored(tmp_path, index)) as archive:
        methods = {i.filename.removesuffix(".npy"): i.compress_type for i in archive.infolist()}
    assert not [m for m in methods if m.startswith(("body_", "trigrams_", "borrowed_"))]
    assert {m for m, how in methods.items() if how == zipfile.ZIP_DEFLATED} == DEFLATED
    assert methods["doc_vectors"] == methods["x_lexical_head_data"] == zipfile.ZIP_STORED


def test_an_older_ranking_file_is_rebuilt_with_a_log_line(
    index: Index, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    prepare(index, tmp_path)
    stored = _stored(tmp_path, index)
    with opened(stored) as npz:
        arrays = {name: np.array(npz[name]) for name in npz.files}
    arrays["format"][0] = FORMAT - 1
    with open(stored, "wb") as file:
        write_archive(file, arrays)
    prepare_module.forget(index)
    with caplog.at_level(logging.INFO, logger="symfuse.ranking"):
        rebuilt = prepare(index, tmp_path)
    assert not rebuilt.loaded
    lines = [r.getMessage() for r in caplog.records if "rebuilding" in r.getMessage()]
    assert lines == [f"ranking data at {stored} is format {FORMAT - 1}, not the current "
                     f"{FORMAT}; rebuilding it"]  # fmt: skip
    prepare_module.forget(index)
    assert prepare(index, tmp_path).loaded


def _same_joined(ours: Joined, theirs: Joined) -> None:
    assert ours.text == theirs.text
    assert ours.starts.dtype == theirs.starts.dtype
    np.testing.assert_array_equal(ours.starts, theirs.starts)


def test_an_exact_load_reads_the_name_table_as_built(index: Index, tmp_path: Path) -> None:
    """The distinct names and the fqn text come back from the file as the build made
    them, array for array (a warm start makes none of them)."""
    built = prepare(index, tmp_path).names
    prepare_module.forget(index)
    found = prepare(index, tmp_path)
    assert found.loaded
    loaded = found.names
    for part in ("lower_text", "wholes_text", "spaced_text"):
        _same_joined(getattr(loaded.distinct, part), getattr(built.distinct, part))
    _same_joined(loaded.fqn_text, built.fqn_text)
    for part in ("starts", "positions", "name_of", "token_count"):
        ours, theirs = getattr(loaded.distinct, part), getattr(built.distinct, part)
        assert ours.dtype == theirs.dtype, part
        np.testing.assert_array_equal(ours, theirs, err_msg=part)
    for part in ("held", "initials"):
        ours, theirs = (getattr(t.distinct.letters, part) for t in (loaded, built))
        np.testing.assert_array_equal(ours, theirs, err_msg=part)
    np.testing.assert_array_equal(loaded.token_count, built.token_count)
    assert loaded.wholes_list == built.wholes_list


@pytest.mark.parametrize("texts", [[], ["a"], ["get_user", "Éclair", "naïve.x", "z"]])
def test_a_stored_text_is_the_joined_text_it_was(texts: list[str]) -> None:
    """Character offsets, not byte offsets, whether or not the text is ASCII."""
    made = Joined.of(texts)
    _same_joined(_joined(joined_strings(made), len(texts)), made)


def test_a_deferred_ranking_file_is_written_when_its_writer_runs(
    index: Index, tmp_path: Path
) -> None:
    """A server answers from fresh structures before their file is written."""
    writes: list[Callable[[], None]] = []
    found = prepare(index, tmp_path, deferred=writes.append)
    assert len(writes) == 1
    assert not _stored(tmp_path, index).exists()
    assert found.pieces  # the structures serve meanwhile
    writes[0]()
    assert _stored(tmp_path, index).exists()
