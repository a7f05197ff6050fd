"""A changed extractor reaches the stored index, not only the index of the run that
re-extracted: a re-parsed file's record replaces the stored one of the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer import config
from symfuse.indexer.config import IndexConfig
from symfuse.indexer.extract import units
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.workspace import update_index


def _file_doc(index: Index | None) -> str:
    assert index is not None
    return next(s.doc for s in index.symbols if s.kind is Kind.FILE and s.file == "tool.py")


def test_a_bumped_extractor_is_stored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "repo"
    root.mkdir()
    (root / "tool.py").write_text('"""Reads the tool\'s settings."""\n\ndef run():\n    pass\n')
    settings = IndexConfig(roots=(root,), index_dir=tmp_path / "index", progress=False, jobs=1)
    first, _ = update_index(settings)
    assert _file_doc(first) == "Reads the tool's settings."

    def changed(text: str) -> str:
        return "what a newer extractor says"

    monkeypatch.setattr(config, "EXTRACTOR_VERSION", config.EXTRACTOR_VERSION + 1)
    monkeypatch.setattr(units, "leading_doc", changed)
    bumped, report = update_index(settings)
    assert report.parsed == 1
    assert _file_doc(bumped) == "what a newer extractor says"
    again, report = update_index(settings)  # read back from the store
    assert report.parsed == 0
    assert _file_doc(again) == "what a newer extractor says"
