"""File dependencies against the hand-marked truth (issue 36, item 6): per language, the
imports and importers a fixture marks (`dep:` on the import line) are answered, and no
others: C includes through compile_commands.json -I and include/ folders, Go packages,
Java and Kotlin packages, Rust mod/use, C# namespaces, Ruby require_relative/require."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from tests.bench import truth_deps


def _index(root: Path, index_dir: Path) -> Index:
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=index_dir, progress=False))
    return index


@pytest.mark.parametrize("language", sorted(truth_deps.TREES))
def test_marked_imports_and_importers(tmp_path: Path, language: str) -> None:
    root = shutil.copytree(truth_deps.TREES[language], tmp_path / "ws")
    index, _ = update_index(
        IndexConfig(roots=(root,), index_dir=tmp_path / "index", progress=False)
    )
    tally = truth_deps.score(index, root)
    assert tally.marked > 0
    assert tally.notes == []


def test_an_angle_include_is_found_only_on_the_include_path(tmp_path: Path) -> None:
    """`<zlib.h>` is third/inc/zlib.h because compile_commands.json says -isystem
    third/inc; without the database it is a system header (external)."""
    root = shutil.copytree(truth_deps.TREES["c_include"], tmp_path / "ws")
    (root / "build" / "compile_commands.json").unlink()
    index, _ = update_index(
        IndexConfig(roots=(root,), index_dir=tmp_path / "index", progress=False)
    )
    notes = truth_deps.score(index, root).notes
    assert notes == [
        "missed imports: src/main.c -> third/inc/zlib.h",
        "missed importers: src/main.c -> third/inc/zlib.h",
    ]
