"""The persisted index: round trips, incremental updates, corruption and locking."""

from __future__ import annotations

import dataclasses
import gc
import hashlib
import logging
import os
import shutil
import threading
from pathlib import Path

import msgpack
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.store.objects import MANIFEST, ids_digest
from symfuse.indexer.update.live import LiveIndex
from symfuse.indexer.update.workspace import load_index, update_index
from tests.support.paths import FIXTURES


def _config(root: Path, index_dir: Path) -> IndexConfig:
    return IndexConfig(roots=(root,), index_dir=index_dir, progress=False)


def _edges(index: Index) -> set[tuple[str, str, int]]:
    return {(s, d, k) for rows in index.edges_by_file.values() for s, d, k, _ in rows}


def _symbols(index: Index) -> list[tuple[str, str, int]]:
    return [(s.symbol_id, s.signature, s.line) for s in index.symbols]


def _fresh(root: Path, tmp_path: Path) -> Index:
    """A from-scratch index of ``root`` in a new directory: what patches must equal."""
    fresh_dir = tmp_path / f"fresh-{len(list(tmp_path.iterdir()))}"
    index, report = update_index(_config(root, fresh_dir))
    assert report.parsed == len(index.files)
    return index


def test_round_trip_keeps_symbols_edges_and_ranks(shop: Path, index_dir: Path) -> None:
    built, report = update_index(_config(shop, index_dir))
    assert report.parsed == 4
    assert report.rebuilt_because is None
    loaded = load_index(_config(shop, index_dir))
    assert loaded is not None
    assert _symbols(loaded) == _symbols(built)
    assert _edges(loaded) == _edges(built)
    assert loaded.pagerank.tolist() == pytest.approx(built.pagerank.tolist())
    refs = {(r.name, r.line, r.kind.value) for r in loaded.files["shop/views.py"].references()}
    assert ("Order", 5, "call") in refs
    # references are stored deflated; their count is read from the blob's header alone
    again = load_index(_config(shop, index_dir))
    assert again is not None
    counted = again.stats()["references"]  # before any blob is decoded
    assert counted == sum(len(e.references()) for e in built.files.values())
    for key, entry in built.files.items():
        assert again.files[key].references() == entry.references()


def test_a_load_keeps_its_ids_digest_and_leaves_the_collector_as_it_was(
    shop: Path, index_dir: Path
) -> None:
    """The digest the load checked the graph with is the one of the ids made afresh (the
    ranking fingerprint reads it), and the collector, paused during the load, is back."""
    update_index(_config(shop, index_dir))
    loaded = load_index(_config(shop, index_dir))
    assert loaded is not None
    assert gc.isenabled()
    made = hashlib.blake2b("\n".join(loaded.symbol_ids).encode(), digest_size=16).digest()
    assert ids_digest(loaded) == made
    loaded.changed()  # a change drops the kept digest; the next is made from the ids again
    assert ids_digest(loaded) == made
    gc.disable()
    try:
        assert load_index(_config(shop, index_dir)) is not None
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_loaded_index_shares_equal_strings(shop: Path, index_dir: Path) -> None:
    """A server keeps every loaded symbol: a parent is its parent's own id object, equal
    names are one object, and the graph's ids are the symbols' (the memory of issue 16)."""
    update_index(_config(shop, index_dir))
    loaded = load_index(_config(shop, index_dir))
    assert loaded is not None
    by_id = {s.symbol_id: s for s in loaded.symbols}
    children = [s for s in loaded.symbols if s.parent in by_id]
    assert children
    assert all(s.parent is by_id[s.parent].symbol_id for s in children if s.parent)
    names: dict[str, str] = {}
    assert all(names.setdefault(s.name, s.name) is s.name for s in loaded.symbols)
    ends = [end for rows in loaded.edges_by_file.values() for row in rows for end in row[:2]]
    assert ends
    assert all(end is by_id[end].symbol_id for end in ends if end in by_id)


def test_a_one_shot_load_gives_the_same_index_without_sharing(shop: Path, index_dir: Path) -> None:
    """A command that answers once loads a copy of each string (the faster load)."""
    for name in ("one.py", "two.py"):  # a name defined in two files
        (shop / "shop" / name).write_text("def twice():\n    pass\n", encoding="utf-8")
    update_index(_config(shop, index_dir))
    config = _config(shop, index_dir)
    shared = load_index(config)
    alone = load_index(dataclasses.replace(config, resident=False))
    assert shared is not None
    assert alone is not None
    assert alone.symbols == shared.symbols
    assert {k: list(v) for k, v in alone.edges_by_file.items()} == {
        k: list(v) for k, v in shared.edges_by_file.items()
    }
    assert alone.pagerank.tolist() == shared.pagerank.tolist()
    firsts: dict[str, str] = {}  # equal names are not one object (a parent's id still is)
    assert any(firsts.setdefault(s.name, s.name) is not s.name for s in alone.symbols)


def test_a_server_first_load_does_not_share_either(shop: Path, index_dir: Path) -> None:
    """A server's first answer waits on its load: that one is made as a one-shot load is."""
    for name in ("one.py", "two.py"):
        (shop / "shop" / name).write_text("def twice():\n    pass\n", encoding="utf-8")
    update_index(_config(shop, index_dir))
    live = LiveIndex(_config(shop, index_dir))
    live.start()
    try:
        assert live.wait_ready(30)
        with live.reading() as index:
            twice = [s.name for s in index.symbols if s.name == "twice"]
            assert len(twice) == 2
            assert twice[0] is not twice[1]
    finally:
        live.stop(5)


def test_graph_links_calls_imports_and_inheritance(shop: Path, index_dir: Path) -> None:
    index, _ = update_index(_config(shop, index_dir))
    edges = _edges(index)
    total = "shop/models.py::Order.total#method"
    money = "shop/util.py::money#function"
    assert (total, money, 0) in edges  # call through an import alias
    assert ("shop/models.py::Order#class", "shop/models.py::Base#class", 3) in edges
    assert ("shop/models.py::Base.save#method", "shop/models.py::persist#function", 0) in edges
    assert ("shop/views.py::checkout#function", "shop/models.py::Order#class", 0) in edges
    ranks = dict(zip((s.symbol_id for s in index.symbols), index.pagerank, strict=True))
    assert ranks[money] > ranks["shop/util.py::unused_helper#function"]


def test_unchanged_workspace_parses_nothing(shop: Path, index_dir: Path) -> None:
    update_index(_config(shop, index_dir))
    _, report = update_index(_config(shop, index_dir))
    assert (report.parsed, report.unchanged, report.removed) == (0, 4, 0)


def test_an_unchanged_index_is_read_while_a_writer_holds_the_lock(
    shop: Path, index_dir: Path
) -> None:
    """A query on an unchanged tree does not wait behind a writer (a long ``index
    --history`` holds the lock): it reads the whole index the manifest names."""
    built, _ = update_index(_config(shop, index_dir))
    done = threading.Event()
    answers: list[tuple[Index, int]] = []

    def query() -> None:
        index, report = update_index(_config(shop, index_dir))
        answers.append((index, report.unchanged))
        done.set()

    with _config(shop, index_dir).store.lock():
        threading.Thread(target=query, daemon=True).start()
        assert done.wait(timeout=120), "the query waited for the writer's lock"
    index, unchanged = answers[0]
    assert (_symbols(index), unchanged) == (_symbols(built), 4)


def test_touched_file_with_same_content_is_not_reextracted(shop: Path, index_dir: Path) -> None:
    update_index(_config(shop, index_dir))
    target = shop / "shop" / "util.py"
    os.utime(target, ns=(1, 1))
    _, report = update_index(_config(shop, index_dir))
    assert report.parsed == 0
    _, again = update_index(_config(shop, index_dir))
    assert again.unchanged == 4  # the new mtime was stored


def test_one_changed_file_is_parsed_alone_and_patch_equals_rebuild(
    shop: Path, index_dir: Path, tmp_path: Path
) -> None:
    update_index(_config(shop, index_dir))
    util = shop / "shop" / "util.py"
    util.write_text(util.read_text() + "\n\ndef tax_rate():\n    return money(1)\n")
    index, report = update_index(_config(shop, index_dir))
    assert report.parsed == 1
    assert "shop/util.py::tax_rate#function" in index.position
    reloaded = load_index(_config(shop, index_dir))
    assert reloaded is not None
    fresh = _fresh(shop, tmp_path)
    assert _symbols(index) == _symbols(fresh) == _symbols(reloaded)
    assert _edges(index) == _edges(fresh) == _edges(reloaded)


def test_new_definition_relinks_other_files(shop: Path, index_dir: Path, tmp_path: Path) -> None:
    (shop / "shop" / "late.py").write_text("def later():\n    return 1\n")
    (shop / "shop" / "caller.py").write_text("def run():\n    return later_defined()\n")
    update_index(_config(shop, index_dir))
    (shop / "shop" / "late.py").write_text("def later_defined():\n    return 1\n")
    index, report = update_index(_config(shop, index_dir))
    assert report.parsed == 1
    edge = ("shop/caller.py::run#function", "shop/late.py::later_defined#function", 0)
    assert edge in _edges(index)
    assert _edges(index) == _edges(_fresh(shop, tmp_path))


def test_deleted_file_disappears_with_its_edges(
    shop: Path, index_dir: Path, tmp_path: Path
) -> None:
    update_index(_config(shop, index_dir))
    (shop / "shop" / "util.py").unlink()
    index, report = update_index(_config(shop, index_dir))
    assert report.removed == 1
    assert "shop/util.py" not in index.files
    assert not any("shop/util.py" in d for _, d, _ in _edges(index))
    assert _edges(index) == _edges(_fresh(shop, tmp_path))


@pytest.mark.parametrize(
    "damage",
    ["truncate-manifest", "garbage-manifest", "old-schema", "missing-pack", "truncated-pack"],
)
def test_damaged_index_is_rebuilt_with_a_warning(
    shop: Path, index_dir: Path, damage: str, caplog: pytest.LogCaptureFixture
) -> None:
    built, _ = update_index(_config(shop, index_dir))
    manifest = index_dir / MANIFEST
    packs = sorted((index_dir / "objects").glob("pack-*.msgpack"))
    if damage == "truncate-manifest":
        manifest.write_bytes(manifest.read_bytes()[:40])
    elif damage == "garbage-manifest":
        manifest.write_bytes(b"\x00\xff not msgpack at all")
    elif damage == "old-schema":
        raw = msgpack.unpackb(manifest.read_bytes())
        raw["schema"] = [1, 1]
        manifest.write_bytes(msgpack.packb(raw))
    elif damage == "missing-pack":
        packs[0].unlink()
    else:
        packs[0].write_bytes(packs[0].read_bytes()[:-10])
    with caplog.at_level(logging.WARNING):
        assert load_index(_config(shop, index_dir)) is None
        index, report = update_index(_config(shop, index_dir))
    assert report.rebuilt_because is not None
    assert any("unusable" in r.message or "rebuil" in r.message for r in caplog.records)
    assert _symbols(index) == _symbols(built)
    assert load_index(_config(shop, index_dir)) is not None


def test_index_lives_in_the_user_cache_by_default(
    shop: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    config = IndexConfig(roots=(shop,), progress=False)
    update_index(config)
    assert config.store.directory.is_relative_to(tmp_path / "cache" / "symfuse")
    assert (config.store.directory / MANIFEST).exists()
    assert not any(p.name == MANIFEST for p in shop.rglob("*"))


def test_changed_query_reextracts_only_that_language(shop: Path, index_dir: Path) -> None:
    ruby = FIXTURES / "languages" / "ruby"
    if not ruby.exists():
        pytest.skip("no ruby fixture")
    shutil.copy(next(ruby.glob("sample.*")), shop / "tool.rb")
    update_index(_config(shop, index_dir))
    manifest = index_dir / MANIFEST
    raw = msgpack.unpackb(manifest.read_bytes())
    raw["options"]["extractor"]["ruby"] = "an older query"
    manifest.write_bytes(msgpack.packb(raw))
    _, report = update_index(_config(shop, index_dir))
    assert report.parsed == 1
    assert report.unchanged == 4


def test_changed_resolution_relinks_without_reparsing(shop: Path, index_dir: Path) -> None:
    built, _ = update_index(_config(shop, index_dir))
    manifest = index_dir / MANIFEST
    raw = msgpack.unpackb(manifest.read_bytes())
    raw["options"]["linker"] = "an older resolver"
    manifest.write_bytes(msgpack.packb(raw))
    index, report = update_index(_config(shop, index_dir))
    assert report.parsed == 0
    assert _edges(index) == _edges(built)
    _, again = update_index(_config(shop, index_dir))
    assert (again.parsed, again.counts) == (0, report.counts)


def test_a_root_that_is_a_package_names_its_modules_in_full(shop: Path, index_dir: Path) -> None:
    package_root = shop / "shop"  # has __init__.py: its modules are shop.*
    index, _ = update_index(_config(package_root, index_dir))
    order = index.get("models.py::Order#class")
    assert order is not None
    assert order.fqn == "shop.models.Order"
    edge = ("views.py::checkout#function", "models.py::Order#class", 0)
    assert edge in _edges(index)  # `from shop.models import Order` resolves by import


@pytest.mark.parametrize("size", [0, 1, 255, 256, 65535, 65536, 200_000])
def test_a_record_sent_in_parts_is_the_stored_record(size: int) -> None:
    # The parser sends records in parts and the store writes them as they are: the
    # parts with msgpack's framing must be exactly what the loader decodes.
    from symfuse.indexer.store import rows

    symbol_rows = [["a.py::f#function", "f", 3, "a.f", "def f()", 1, 1, 2, 9, 1, 5, 1, 6]]
    refs, links = os.urandom(size), os.urandom(size // 3)
    whole = rows.pack_record(symbol_rows, refs, ["g", "h"], links)
    parts = rows.record_parts(symbol_rows, refs, ["g", "h"], links)
    assert b"".join(rows.record_chunks(parts)) == whole
    assert parts[4] == rows.record_digest(whole)
    assert rows.unpack_record(whole) == (symbol_rows, refs, ["g", "h"], links)


@pytest.mark.parametrize("top", [5, 65_535, 65_536, 70_000])
def test_graph_integers_are_stored_narrow_when_they_fit(top: int) -> None:
    """Edge ends and weights: uint16 when every value fits, int32 otherwise; read back
    the same."""
    import numpy as np

    from symfuse.indexer.store.objects import _ints, _small

    values = np.asarray([0, 1, top], dtype=np.int32)
    stored = _small(values)
    assert stored[0] == ("<u2" if top < 65_536 else "<i4")
    back = _ints(stored)
    assert back.dtype == np.int32
    assert back.tolist() == values.tolist()


def test_symbols_that_move_without_new_edges_keep_the_stored_graph_usable(
    shop: Path, index_dir: Path
) -> None:
    """Two definitions that swap places change the symbols' order but no name and no
    edge, so the graph is not relinked; the next load must still read the stored graph
    (it numbers the symbols in their stored order) rather than rebuild the index."""
    extra = shop / "shop" / "pair.py"
    extra.write_text("def first():\n    pass\n\n\ndef second():\n    pass\n", encoding="utf-8")
    update_index(_config(shop, index_dir))
    extra.write_text("def second():\n    pass\n\n\ndef first():\n    pass\n", encoding="utf-8")
    moved, _ = update_index(_config(shop, index_dir))
    _, report = update_index(_config(shop, index_dir))
    assert report.rebuilt_because is None
    assert report.parsed == 0
    loaded = load_index(_config(shop, index_dir))
    assert loaded is not None
    assert [s.symbol_id for s in loaded.symbols] == [s.symbol_id for s in moved.symbols]
    assert _edges(loaded) == _edges(moved)
    assert loaded.pagerank.tolist() == pytest.approx(moved.pagerank.tolist())
