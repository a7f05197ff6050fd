"""`symfuse index` after an edit that moves no definition and no link (a change inside a
function body, the common one) saves the changed records alone, without reading the
rest of the index; the stored index is then exactly what a cold build makes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.store import rows
from symfuse.indexer.store.objects import MAX_PACKS
from symfuse.indexer.update.workspace import load_index, refresh_index, update_index
from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

EDITED = "shop/models.py"


@pytest.fixture
def workspace(tmp_path: Path) -> tuple[Path, IndexConfig]:
    root = tmp_path / "ws"
    shutil.copytree(FIXTURES / "workspace", root)
    return root, IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)


def snapshot(index: Index) -> tuple[object, ...]:
    """Everything stored: symbols with every field, references, edges, counts, ranks."""
    symbols = [rows.symbol_row(s) for s in index.symbols]
    references = {
        key: sorted(
            (r.name, r.line, r.col, r.kind.value, r.enclosing or "", r.qualifier, r.alias)
            for r in entry.references()
        )
        for key, entry in index.files.items()
    }
    edges = sorted(row for found in index.edges_by_file.values() for row in found)
    return symbols, references, edges, index.stats()


def same_as_cold(root: Path, config: IndexConfig, tmp_path: Path, name: str) -> None:
    stored = load_index(config)
    assert stored is not None
    cold, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / name, progress=False))
    assert snapshot(stored) == snapshot(cold)
    np.testing.assert_allclose(stored.pagerank, cold.pagerank, rtol=0, atol=1e-12)


def edit_body(root: Path, marker: str) -> None:
    """Two lines inside a method body: every later line of the file moves down."""
    path = root / EDITED
    text = path.read_text()
    anchor = "    def calculate_total(self) -> Decimal:\n"
    assert anchor in text
    path.write_text(text.replace(anchor, f"{anchor}        # {marker}\n        # more\n", 1))


def test_a_body_edit_saves_records_alone_and_matches_a_cold_build(
    workspace: tuple[Path, IndexConfig], tmp_path: Path
) -> None:
    root, config = workspace
    refresh_index(config)
    edit_body(root, "first")
    _, report = refresh_index(config)
    assert report.records_only
    assert report.parsed == 1
    same_as_cold(root, config, tmp_path, "cold-1")
    stored = load_index(config)
    assert stored is not None
    moved = next(s for s in stored.symbols if s.name == "mark_paid")
    assert moved.line == next(
        i + 1
        for i, line in enumerate((root / EDITED).read_text().splitlines())
        if "def mark_paid" in line
    )


def test_an_edit_that_moves_a_link_takes_the_full_path(
    workspace: tuple[Path, IndexConfig], tmp_path: Path
) -> None:
    root, config = workspace
    refresh_index(config)
    path = root / EDITED
    anchor = "    def calculate_total(self) -> Decimal:\n"
    path.write_text(path.read_text().replace(anchor, f"{anchor}        print(len(self.items))\n"))
    _, report = refresh_index(config)
    assert not report.records_only
    same_as_cold(root, config, tmp_path, "cold-2")


def test_many_body_edits_in_a_row_stay_exact(
    workspace: tuple[Path, IndexConfig], tmp_path: Path
) -> None:
    root, config = workspace
    refresh_index(config)
    objects = config.store.directory / "objects"
    for i in range(3):  # the same file again and again: its older packs are dropped
        edit_body(root, f"edit {i}")
        assert refresh_index(config)[1].records_only
    assert len(list(objects.glob("pack-*.msgpack"))) == 2
    # One file after another: a pack each, until a full save packs them into one again.
    lean = []
    for path in sorted(root.rglob("*.py")):
        path.write_text(path.read_text() + "\n# a note at the end\n")
        lean.append(refresh_index(config)[1].records_only)
        assert len(list(objects.glob("pack-*.msgpack"))) <= MAX_PACKS
    assert lean[0]
    assert not all(lean)
    same_as_cold(root, config, tmp_path, "cold-3")


@pytest.mark.slow  # the installed symfuse command
def test_through_the_command(workspace: tuple[Path, IndexConfig], tmp_path: Path) -> None:
    root, config = workspace
    base = ["index", str(root), "--index-dir", str(config.store.directory)]
    run_symfuse(base)
    edit_body(root, "through the command")
    summary = json.loads(run_symfuse([*base, "--output-format", "json"]).stdout)
    assert (summary["parsed"], summary["unchanged"]) == (1, 11)
    same_as_cold(root, config, tmp_path, "cold-4")
    assert summary["references"] == load_index(config).stats()["references"]  # type: ignore[union-attr]
