"""Indexes for tests: one of a small tree written on the spot, what a definition links
to, and holding up an index (the write lock a running ``symfuse index`` holds)."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.store.objects import Store
from symfuse.indexer.update.workspace import update_index
from tests.support.cli import write_tree
from tests.support.paths import FIXTURES

SAFETY = 30.0  # seconds: only turns a lock that is never released into a failure


def index_of_tree(folder: Path, files: dict[str, str]) -> Index:
    """The index of ``files`` (relative path -> text) written under ``folder``/ws."""
    root = write_tree(folder / "ws", files)
    config = IndexConfig(roots=(root,), index_dir=folder / "index", progress=False)
    built, _ = update_index(config)
    return built


def links(index: Index, path: str, source: str) -> dict[str, float]:
    """What the definition ``source`` (a symbol id) of file ``path`` links to: target
    symbol id -> the edge's confidence."""
    return {dst: weight for src, dst, _, weight in index.edges_by_file[path] if src == source}


def named_links(
    index: Index, path: str, source: str, *, signature: bool = False
) -> dict[str, float]:
    """What the definition of qualified name ``source`` in file ``path`` links to, by the
    targets' qualified names (``signature``: followed by their signature up to ``{``)."""
    by_id = {s.symbol_id: s for s in index.symbols}

    def named(symbol_id: str) -> str:
        target = by_id[symbol_id]
        if not signature:
            return target.fqn
        return f"{target.fqn} {target.signature.split('{')[0].strip()}"

    return {
        named(dst): weight
        for src, dst, _, weight in index.edges_by_file[path]
        if by_id[src].fqn == source
    }


def index_of_fixture(folder: Path, name: str) -> Index:
    """The index of a copy of tests/fixtures/``name`` under ``folder``/ws."""
    root = shutil.copytree(FIXTURES / name, folder / "ws")
    built, _ = update_index(IndexConfig(roots=(root,), index_dir=folder / "index", progress=False))
    return built


@contextmanager
def index_writer_busy(index_dir: Path) -> Iterator[Callable[[], None]]:
    """Hold the write lock of the index in ``index_dir``, as a running ``symfuse index`` would.

    A server's first index parses, then waits for this lock to link and save, and is
    ready only after that: while the lock is held it cannot finish, however fast the
    machine; releasing it lets it finish. Taken before the server starts, no first
    index can slip through before it. Yields the release, for releasing inside the
    block (leaving the block releases it too). Tests use it instead of a workload big
    enough to outlast a request.
    """
    lock = Store(index_dir).lock(timeout=SAFETY)
    with lock:
        yield lambda: lock.release(force=True)
