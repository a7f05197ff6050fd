"""Stored indexes are keyed on explicit format versions, not on the indexer's source."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from symfuse.indexer import config as config_module
from symfuse.indexer.config import IndexConfig, extractor_fingerprint, linker_fingerprint
from symfuse.indexer.index import Index
from symfuse.indexer.store.objects import MANIFEST
from symfuse.indexer.update.workspace import update_index


def _config(root: Path, index_dir: Path) -> IndexConfig:
    return IndexConfig(roots=(root,), index_dir=index_dir, progress=False)


def _graph(index: Index) -> tuple[list[tuple[str, str, int]], set[tuple[str, str, int]]]:
    symbols = [(s.symbol_id, s.signature, s.line) for s in index.symbols]
    edges = {(s, d, k) for rows in index.edges_by_file.values() for s, d, k, _ in rows}
    return symbols, edges


def test_an_index_keyed_by_source_hashes_is_reextracted_and_relinked(
    shop: Path, index_dir: Path
) -> None:
    # Before the versions, the options held digests of extract.py and graph.py's bytes.
    built, _ = update_index(_config(shop, index_dir))
    manifest = index_dir / MANIFEST
    raw = msgpack.unpackb(manifest.read_bytes())
    raw["options"]["linker"] = "9a3f0c1d2e4b5a6c"
    raw["options"]["extractor"] = dict.fromkeys(raw["options"]["extractor"], "0f1e2d3c4b5a6978")
    manifest.write_bytes(msgpack.packb(raw))
    index, report = update_index(_config(shop, index_dir))
    assert report.parsed == len(index.files) == len(built.files)
    assert report.rebuilt_because is None  # the same files: re-extracted in place
    assert _graph(index) == _graph(built)
    stored = msgpack.unpackb(manifest.read_bytes())["options"]
    assert stored["linker"] == linker_fingerprint()
    assert stored["extractor"] == extractor_fingerprint()
    _, again = update_index(_config(shop, index_dir))
    assert (again.parsed, again.unchanged) == (0, len(index.files))


def test_a_bumped_extractor_version_reparses_every_file(
    shop: Path, index_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built, _ = update_index(_config(shop, index_dir))
    monkeypatch.setattr(config_module, "EXTRACTOR_VERSION", config_module.EXTRACTOR_VERSION + 1)
    index, report = update_index(_config(shop, index_dir))
    assert report.parsed == len(built.files)
    assert _graph(index) == _graph(built)


def test_a_bumped_linker_version_relinks_without_reparsing(
    shop: Path, index_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built, _ = update_index(_config(shop, index_dir))
    before = linker_fingerprint()
    monkeypatch.setattr(config_module, "LINKER_VERSION", config_module.LINKER_VERSION + 1)
    assert linker_fingerprint() != before
    index, report = update_index(_config(shop, index_dir))
    assert report.parsed == 0
    assert _graph(index) == _graph(built)


def test_the_fingerprints_do_not_read_the_indexer_source() -> None:
    # Comments and moved code change nothing stored; each language keeps its own print.
    prints = extractor_fingerprint()
    assert prints == extractor_fingerprint()
    assert len(set(prints.values())) == len(prints)
    assert linker_fingerprint() == f"linker-v{config_module.LINKER_VERSION}"
