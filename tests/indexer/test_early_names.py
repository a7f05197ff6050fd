"""A cold build writes the definitions it has parsed as it goes (:mod:`.early`), for a
server to answer names from before the index is whole: what they hold is what the index
then holds, segment by segment, and the folder goes with one call."""

from __future__ import annotations

import shutil
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.store import rows
from symfuse.indexer.update.early import EARLY, EarlyReader, EarlyWriter, clear
from symfuse.indexer.update.workspace import load_index, refresh_index
from tests.support.paths import FIXTURES


def test_the_parsed_definitions_are_the_index_definitions(tmp_path: Path) -> None:
    root = shutil.copytree(FIXTURES / "workspace", tmp_path / "ws")
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    directory = config.store.directory
    reader = EarlyReader(directory, config.aliases)
    assert reader.index() is None  # no build yet
    early = EarlyWriter(directory, every=0.0)  # a segment a file
    refresh_index(config, early=early)
    segments = sorted((directory / EARLY).iterdir())
    assert len(segments) > 1
    stored = load_index(config)
    assert stored is not None
    made = reader.index()
    assert made is not None
    assert sorted(made.files) == sorted(stored.files)
    assert [rows.symbol_row(s) for s in made.symbols] == [
        rows.symbol_row(s) for s in stored.symbols
    ]
    assert reader.index() is made  # nothing new: the same index
    clear(directory)
    assert not (directory / EARLY).exists()
    assert reader.index() is made  # the folder gone: what was read stands


def test_a_reader_takes_each_segment_once_as_it_comes(tmp_path: Path) -> None:
    root = shutil.copytree(FIXTURES / "workspace", tmp_path / "ws")
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    directory = config.store.directory
    refresh_index(config, early=EarlyWriter(directory, every=0.0))
    segments = sorted((directory / EARLY).iterdir())
    later = tmp_path / "later"
    later.mkdir()
    for segment in segments[1:]:
        segment.rename(later / segment.name)  # as if not written yet
    reader = EarlyReader(directory, config.aliases)
    first = reader.index()
    assert first is not None
    assert len(first.files) == 1
    for segment in segments[1:]:
        (later / segment.name).rename(segment)
    every = reader.index()
    assert every is not None
    assert len(every.files) == len(segments)
