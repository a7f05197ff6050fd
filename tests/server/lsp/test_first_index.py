"""A question about a position asked before the first index exists waits for it: an
answer of null would read as "no definition" in the editor."""

from __future__ import annotations

import threading
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.server.common.service import IndexService
from symfuse.server.lsp.base import read_index
from symfuse.server.lsp.state import LaunchConfig, ServerState
from tests.support.lsp import copy_fixture


def test_a_position_question_waits_for_the_first_index(tmp_path: Path) -> None:
    root = copy_fixture(tmp_path)
    state = ServerState(LaunchConfig(index_dir=tmp_path / "index"))
    service = state.service = IndexService(state.config_for((root,)))  # not started yet
    seen: list[list[str]] = []

    def files(index: Index) -> list[str]:
        return sorted(index.files)

    asking = threading.Thread(
        target=lambda: seen.append(read_index(state, files, lambda: False, whole=True))
    )
    asking.start()  # with no index yet, it can only wait (or answer from nothing)
    service.start(watch=False)
    asking.join()
    service.stop()
    assert "geometry/report.py" in seen[0]
