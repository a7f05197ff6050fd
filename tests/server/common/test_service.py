"""The live-index service both servers run on: one staleness policy, one reindex, one status.

Each test runs a real service over a small workspace; every wait is on the
service's change notifications (``wait_change``), bounded only so that "never"
fails instead of hanging.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import OutsideWorkspace
from symfuse.indexer.index import Index
from symfuse.indexer.update import live as live_module
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.graph.call_questions import CallGraphAnswer
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import DepsRequest, ReindexRequest
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.server.common import turns as turns_module
from symfuse.server.common.service import NAMES_FIRST, IndexService
from tests.support.cli import write_tree
from tests.support.lazy import lazy_tables

SAFETY = 30.0  # seconds: only turns a change that never comes into a failure


@contextmanager
def running(
    tmp_path: Path,
    quiet: float,
    names_first: int = NAMES_FIRST,
    first_quiet: float | None = None,
    warm: bool = True,
) -> Iterator[IndexService]:
    """A started service over a small workspace, ready; ``first_quiet`` (default: ``quiet``,
    so that a large one holds every build back until a query asks)."""
    root = write_tree(
        tmp_path / "ws",
        {
            "app/orders.py": "def save(order):\n    return order\n\n\ndef checkout():\n"
            "    return save(1)\n",
            "app/util.py": "def helper():\n    return 2\n",
        },
    )
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "index")
    first = quiet if first_quiet is None else first_quiet
    service = IndexService(
        config, quiet=quiet, first_quiet=first, names_first=names_first, warm=warm
    )
    service.start(watch=False)
    try:
        assert service.wait_ready(SAFETY)
        yield service
    finally:
        service.stop()


def until(service: IndexService, condition: Callable[[], bool]) -> None:
    """Wait on the service's notifications until ``condition()`` holds."""
    deadline = time.monotonic() + SAFETY
    seen = service.version
    while not condition():
        left = deadline - time.monotonic()
        assert left > 0, "the service never got there"
        seen = service.wait_change(seen, left)


def stored_then_changed(tmp_path: Path) -> IndexConfig:
    """A stored index of one file, and the file changed since (``cancel`` added)."""
    root = write_tree(tmp_path / "ws", {"app/orders.py": "def save(order):\n    return order\n"})
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "index")
    update_index(config)
    changed = "def save(order):\n    return order\n\n\ndef cancel():\n    pass\n"
    (root / "app/orders.py").write_text(changed)
    return config


def prepared(service: IndexService) -> Callable[[], bool]:
    return lambda: service.prepared_for(service.current()) is not None


def indexed(service: IndexService) -> bool:
    status = service.status()
    return status.index.ready and not status.index.indexing


def test_structures_are_built_once_the_first_index_is_still(tmp_path: Path) -> None:
    with running(tmp_path, quiet=0.0) as service:
        until(service, prepared(service))  # no query asked for them
        status = service.status()
        assert status.ranking is True
        assert status.stale is False
        assert [(c.language, c.files) for c in status.languages] == [("python", 2)]
        index = service.current()
        assert service.ranking(index).prepared is service.prepared_for(index)


def test_the_first_structures_wait_for_no_quiet_moment(tmp_path: Path) -> None:
    """The first index just finished building: its structures are built at once, with no
    query asking, while later indexes (edits) wait for a quiet moment."""
    with running(tmp_path, quiet=3600.0, first_quiet=0.0) as service:
        until(service, prepared(service))  # no query, an hour's quiet period: built anyway
        first = service.current()
        service.live.set_overlay("app/util.py", "def helper():\n    return 3\n")
        assert service.current() is not first
        assert service.status().ranking is False  # an edit's structures wait for quiet


def test_a_query_on_a_changed_index_gets_the_previous_structures_then_fresh_ones(
    tmp_path: Path,
) -> None:
    with running(tmp_path, quiet=0.0) as service:
        until(service, prepared(service))
        first = service.current()
        service.quiet = 3600.0  # from now on only a query starts a build
        service.live.set_overlay("app/util.py", "def helper():\n    return 3\n\n\ndef fresh():\n")
        edited = service.current()
        assert edited is not first
        assert service.status().ranking is False  # the quiet period holds the build back
        ranking = service.ranking(edited)
        assert ranking.prepared is None
        assert ranking.previous is not None
        assert ranking.previous[0] is first  # answers meanwhile come from these, stale
        with service.ranked() as ranked:
            assert (ranked.index, ranked.stale) == (first, True)
        until(service, prepared(service))  # the query's wish started the build at once
        with service.ranked() as ranked:
            assert (ranked.index, ranked.stale) == (edited, False)
            assert ranked.prepared is service.prepared_for(edited)


def test_a_cold_start_has_no_structures_to_fall_back_on(tmp_path: Path) -> None:
    with running(tmp_path, quiet=3600.0) as service:
        until(service, lambda: indexed(service))
        index: Index = service.current()
        ranking = service.ranking(index)
        assert (ranking.prepared, ranking.previous) == (None, None)  # the quick ranking answers
        with service.ranked() as ranked:  # a full search has them built, once, and kept
            assert (ranked.index, ranked.stale) == (index, False)
            assert ranked.prepared is not None
        assert service.prepared_for(index) is ranked.prepared  # the warming thread's too


def _searched(service: IndexService, query: str) -> SearchResponse:
    answer, stale = service.search(SearchRequest.from_mapping({"query": query}))
    assert isinstance(answer, SearchResponse)
    assert stale is False
    return answer


def test_a_cold_start_answers_a_name_by_names_and_builds_the_structures_at_once(
    tmp_path: Path,
) -> None:
    with running(tmp_path, quiet=3600.0, names_first=0) as service:
        until(service, lambda: indexed(service))
        early = _searched(service, "save")
        assert early.names_only
        assert early.items[0].symbol.name == "save"
        until(service, prepared(service))  # the query's wish, not the quiet period, built them
        fused = _searched(service, "save")
        assert not fused.names_only
        assert fused.items[0].symbol.symbol_id == early.items[0].symbol.symbol_id


def test_a_query_waiting_for_the_first_structures_lets_the_held_check_run_soon(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A server holds a stored index's check of the files until its clients pause, and the
    first structures are built after the check. A client asking again and again, as a
    names-only answer's hint tells it to, never pauses: from its wish for the structures
    on, the check waits for a pause WANTED_WAIT seconds at most (it waited for a pause
    that never came, or for CHECK_HOLD)."""
    monkeypatch.setattr(turns_module, "IDLE_GAP", 10 * SAFETY)  # the clients never pause
    monkeypatch.setattr(turns_module, "MAX_WAIT", 10 * SAFETY)
    monkeypatch.setattr(live_module, "CHECK_HOLD", 10 * SAFETY)
    root = write_tree(tmp_path / "ws", {"app/orders.py": "def save(order):\n    return order\n"})
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "index")
    update_index(config)  # a stored index, and no ranking structures yet
    service = IndexService(config, names_first=0)
    service.hold_work_ahead()  # as `symfuse mcp` does
    service.start(watch=False)
    try:
        assert service.wait_ready(SAFETY)
        service.serving()
        assert _searched(service, "save the order").names_only  # the first answer
        until(service, prepared(service))
        assert not _searched(service, "save the order").names_only
    finally:
        service.stop()


def test_a_cold_start_answers_a_sentence_by_names_and_a_call_question_in_full(
    tmp_path: Path,
) -> None:
    with running(tmp_path / "large", quiet=3600.0, names_first=0) as service:
        until(service, lambda: indexed(service))
        early = _searched(service, "save the order")
        assert early.names_only  # from the words of names and paths
        assert early.items[0].symbol.name == "save"
        until(service, prepared(service))  # the query's wish, not the quiet period, built them
        assert not _searched(service, "save the order").names_only
    with running(tmp_path / "calls", quiet=3600.0, warm=False) as service:  # no warming
        asked = SearchRequest.from_mapping({"query": "who calls save"})
        early, _ = service.search(asked)  # from the graph, small index or large alike
        assert service.prepared_for(service.current()) is None  # nothing built for it
        with service.ranked() as ranked:
            assert ranked.prepared is not None
            fused = operations.search(ranked.index, asked, prepared=ranked.prepared)
        assert isinstance(early, CallGraphAnswer)
        assert early == fused
        assert [i.symbol.name for i in early.items] == ["checkout"]
    with running(tmp_path / "small", quiet=3600.0) as service:  # 3 symbols < NAMES_FIRST
        until(service, lambda: indexed(service))
        early = _searched(service, "save")  # one definition carries the name: by names
        assert early.names_only
        assert early.items[0].symbol.symbol_id == "app/orders.py::save#function"
        assert not _searched(service, "save the order").names_only  # built the structures
        assert not _searched(service, "save").names_only  # which answer from now on


def test_reindex_is_one_path_for_files_and_everything(tmp_path: Path) -> None:
    with running(tmp_path, quiet=3600.0) as service:
        until(service, lambda: indexed(service))
        util = service.config.roots[0] / "app" / "util.py"
        util.write_text("def helper():\n    return 2\n\n\ndef added():\n    pass\n")
        done = service.reindex(ReindexRequest.from_mapping({"paths": ["app/util.py"]}))
        assert done.scope == "paths"
        assert done.report is not None
        assert done.report.parsed == 1
        assert any(s.name == "added" for s in service.current().symbols)
        assert service.reindex(ReindexRequest.from_mapping({"paths": ["app"]})).scope == "full"
        assert service.reindex(ReindexRequest()).scope == "full"
        with pytest.raises(OutsideWorkspace, match=r"paths\[0\]"):
            service.reindex(ReindexRequest.from_mapping({"paths": ["../elsewhere.py"]}))


def test_files_seen_changing_are_stale_until_refreshed(tmp_path: Path) -> None:
    with running(tmp_path, quiet=3600.0) as service:
        until(service, lambda: indexed(service))
        util = str(service.config.roots[0] / "app" / "util.py")
        service.note_changed([util])
        status = service.status()
        assert status.stale is True
        assert status.stale_files == (util,)
        service.refresh([util])
        assert service.status().stale_files == ()


def test_the_quick_table_goes_once_structures_are_ready_and_a_warm_start_makes_none(
    tmp_path: Path,
) -> None:
    from symfuse.ranking.channels.names.names_only import QuickCache

    with running(tmp_path, quiet=0.0) as service:  # cold: the quick table answers meanwhile
        until(service, prepared(service))
        assert QuickCache not in service.current().companions  # structures answer now
    with running(tmp_path, quiet=0.0) as service:  # warm: the stored structures load
        until(service, prepared(service))
        assert QuickCache not in service.current().companions


def _calls(index: Index) -> set[tuple[str, str]]:
    """(caller, callee) names of the index's edges."""
    symbols, edges = index.symbols, index.edges
    return {
        (symbols[a].name, symbols[b].name)
        for a, b in zip(edges.src.tolist(), edges.dst.tolist(), strict=True)
    }


@contextmanager
def twins(tmp_path: Path) -> Iterator[tuple[IndexService, IndexService]]:
    """Two services over equal workspaces: one links each edit at once, one later."""
    with (
        running(tmp_path / "now", quiet=3600.0) as now,
        running(tmp_path / "later", quiet=3600.0) as later,
    ):
        yield now, later


EDITED = (
    "from app.orders import save\n\n\ndef helper():\n    return checkout()\n\n\n"
    "def fresh():\n    return helper() + save(2)\n"
)


def test_an_unlinked_buffer_patch_is_searchable_at_once_and_linked_in_the_background(
    tmp_path: Path,
) -> None:
    with running(tmp_path, quiet=0.0) as service:
        until(service, prepared(service))
        service.live.set_overlay("app/util.py", EDITED, link=False)
        edited = service.current()
        assert "fresh" in edited.by_name  # the buffer's names are in at once
        assert edited.links_pending
        assert edited.files["app/util.py"].references() == []  # parsed for names alone
        assert ("fresh", "helper") not in _calls(edited)  # its links are not yet
        assert service.prepared_for(edited) is None
        until(service, lambda: not service.current().links_pending)
        linked = service.current()
        assert {("fresh", "helper"), ("fresh", "save"), ("helper", "checkout")} <= _calls(linked)
        assert not linked.shallow
        until(service, prepared(service))  # structures follow for the linked index
        assert service.prepared_for(linked) is not None


def test_linking_buffer_patches_later_gives_the_graph_of_linking_them_at_once(
    tmp_path: Path,
) -> None:
    with twins(tmp_path) as (now, later):
        now.live.set_overlay("app/util.py", EDITED)
        later.live.set_overlay("app/util.py", EDITED.replace("fresh", "stale"), link=False)
        later.live.set_overlay("app/util.py", EDITED, link=False)  # two patches, one link
        later.live.link_overlays()
        at_once, afterwards = now.current(), later.current()
        assert not afterwards.links_pending
        assert "stale" not in afterwards.by_name
        assert _calls(afterwards) == _calls(at_once)
        assert afterwards.pagerank.tolist() == at_once.pagerank.tolist()


def test_a_file_refreshed_from_disk_meanwhile_leaves_the_buffer_linked_in_full(
    tmp_path: Path,
) -> None:
    with twins(tmp_path) as (now, later):
        for service in (now, later):
            orders = Path(service.config.roots[0]) / "app" / "orders.py"
            orders.write_text(orders.read_text() + "\n\ndef refund():\n    return save(0)\n")
        now.live.refresh([str(Path(now.config.roots[0]) / "app" / "orders.py")])
        now.live.set_overlay("app/util.py", EDITED)
        later.live.set_overlay("app/util.py", EDITED, link=False)
        later.live.refresh([str(Path(later.config.roots[0]) / "app" / "orders.py")])
        refreshed = later.current()
        assert not refreshed.links_pending  # the refresh took the buffer in, in full
        assert "refund" in refreshed.by_name
        assert _calls(refreshed) == _calls(now.current())


def names_indexed(service: IndexService) -> Callable[[], bool]:
    """Whether the current structures' names have their suffix arrays (the warming thread's)."""

    def indexed() -> bool:
        found = service.prepared_for(service.current())
        return found is not None and found.names.distinct.pairs.value is not None

    return indexed


def test_the_warming_thread_indexes_the_names_for_substring_lookups(tmp_path: Path) -> None:
    with running(tmp_path, quiet=0.0) as service:
        until(service, names_indexed(service))
        found = service.prepared_for(service.current())
        assert found is not None
        distinct = found.names.distinct
        assert distinct.wholes_text.suffixes.ready
        assert distinct.spaced_text.suffixes.ready
        assert found.names.index_suffixes() is False  # once


def test_an_edit_that_changes_no_name_keeps_the_suffix_arrays(tmp_path: Path) -> None:
    with running(tmp_path, quiet=0.0) as service:
        until(service, names_indexed(service))
        first = service.prepared_for(service.current())
        assert first is not None
        arrays = first.names.distinct.spaced_text.suffixes._built
        service.live.set_overlay("app/util.py", "def helper():\n    return 3\n")  # a body
        until(service, lambda: service.prepared_for(service.current()) not in (None, first))
        until(service, names_indexed(service))
        second = service.prepared_for(service.current())
        assert second is not None
        assert second is not first
        assert second.names.distinct.spaced_text.suffixes._built is arrays


def test_once_warmed_no_first_query_of_any_shape_builds_anything(tmp_path: Path) -> None:
    """Issue 39, item 1: the first query of each ranked shape (a name, an abbreviation,
    prose, a commit subject) and of a file's dependencies (issue 37, item 4) finds what its
    shape needs already built: answered ahead on the warming thread, about another name
    and file than these. A call question's and usages' tables are left to their first
    query (the largest and resident; quick to build)."""
    from symfuse.ranking.query.operations import deps

    with running(tmp_path, quiet=0.0) as service:
        until(service, lambda: service.status().warmed)
        index = service.current()
        prepared = service.prepared_for(index)
        assert prepared is not None
        before = lazy_tables(index)
        assert "view import graph" in before  # a file's dependencies were asked ahead
        assert "view by_name" not in before  # no call question was asked ahead
        for query in ("helper", "hp", "what helps", "Fix helper when it returns nothing"):
            _answer, stale = service.search(SearchRequest.from_mapping({"query": query}))
            assert stale is False
        with service.reading() as current:
            found = deps(current, DepsRequest(target="app/util.py"))
        assert found.file == "app/util.py"
        assert service.current() is index
        assert service.prepared_for(index) is prepared
        after = lazy_tables(index)
        assert after.keys() == before.keys()
        assert all(after[name] is table for name, table in before.items())
        service.search(SearchRequest.from_mapping({"query": "who calls helper"}))
        assert "view by_name" in lazy_tables(index)  # built by its first query


def test_the_first_queries_answered_ahead_give_way_to_a_client(tmp_path: Path) -> None:
    """While a client's query runs, the warming thread's questions wait for it."""
    with running(tmp_path, quiet=0.0) as service:
        with service.reading():  # a client's query, running until the block ends
            until(service, prepared(service))  # the structures do not wait for it
            assert service.status().warmed is False  # the questions ahead do
        until(service, lambda: service.status().warmed)


def test_stored_structures_load_while_the_stored_index_is_checked(tmp_path: Path) -> None:
    """A warm start: the stored structures are in place before the stored index has been
    checked against the files (the check is held here by the index's write lock)."""
    from tests.support.index import index_writer_busy

    with running(tmp_path, quiet=0.0) as service:  # the first run stores both
        until(service, prepared(service))
    with (
        index_writer_busy(tmp_path / "index") as release,
        running(tmp_path, quiet=0.0) as service,  # ready: the stored index is loaded
    ):
        until(service, prepared(service))
        assert service.status().index.indexing is True  # still checking
        release()
        until(service, lambda: not service.status().index.indexing)
        until(service, prepared(service))


def test_the_work_ahead_waits_for_the_front_end_when_held(tmp_path: Path) -> None:
    """`symfuse mcp` starts its service before the MCP SDK loads and holds what only later
    queries need until the server is up and has answered its first query: the structures
    come, the questions ahead wait."""
    root = write_tree(tmp_path / "ws", {"app/orders.py": "def save(order):\n    return order\n"})
    service = IndexService(IndexConfig(roots=(root,), index_dir=tmp_path / "index"))
    service.hold_work_ahead()
    service.start(watch=False)
    try:
        until(service, prepared(service))
        assert service.status().warmed is False
        service.serving()
        assert service.status().warmed is False  # held until a client's query is answered
        answer, _ = service.search(SearchRequest(query="save", limit=1))
        assert isinstance(answer, SearchResponse)
        assert answer.items[0].symbol.name == "save"
        until(service, lambda: service.status().warmed)
    finally:
        service.stop()


def test_a_held_start_checks_a_stored_index_after_the_first_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A stored index answers at once; its check of the files (which would share the
    interpreter with the first answer) waits for that answer, then finds the change."""
    monkeypatch.setattr(live_module, "CHECK_HOLD", 10 * SAFETY)  # only the answer ends it
    config = stored_then_changed(tmp_path)
    service = IndexService(config)
    service.hold_work_ahead()
    service.start(watch=False)
    try:
        assert service.wait_ready(SAFETY)
        assert service.live.status().indexing  # the stored index answers; the check waits
        assert "cancel" not in {s.name for s in service.current().symbols}
        service.serving()
        answer, _ = service.search(SearchRequest(query="save", limit=1))
        assert isinstance(answer, SearchResponse)
        until(service, lambda: "cancel" in {s.name for s in service.current().symbols})
        assert not service.live.status().indexing
    finally:
        service.stop()


def test_a_client_that_never_pauses_gets_the_suffix_arrays_before_the_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Once the first answer is out, the names' suffix arrays come at once: not behind a
    stored index's check, which waits for the clients to pause. A client asking back to
    back (here a query that runs on) kept them out for good, and every name lookup
    scanned (SQLAlchemy through MCP: 6.3 ms a search in the server against 3.6)."""
    monkeypatch.setattr(live_module, "CHECK_HOLD", 10 * SAFETY)  # only the turns end it
    monkeypatch.setattr(turns_module, "MAX_WAIT", 10 * SAFETY)  # no pause: the check waits
    with running(tmp_path, quiet=0.0) as service:  # the first run stores the structures
        until(service, prepared(service))
    service = IndexService(IndexConfig(roots=(tmp_path / "ws",), index_dir=tmp_path / "index"))
    service.hold_work_ahead()
    service.start(watch=False)
    try:
        assert service.wait_ready(SAFETY)
        service.serving()
        answer, _ = service.search(SearchRequest(query="save", limit=1))  # the first answer
        assert isinstance(answer, SearchResponse)
        with service.reading():  # the next query, running on: the clients never pause
            until(service, names_indexed(service))
            assert service.live.status().indexing  # the check still waits for its turn
        until(service, lambda: not service.live.status().indexing)  # the pause: its turn
    finally:
        service.stop()


def test_a_full_reindex_while_the_check_is_held_leaves_the_index_current(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent's first call is a full `reindex` while the stored index's check of the
    files is still held for the first answer: the reindex did that check, so the status
    says current at once (no race with a check run again behind it), and the held check
    is not run on the older, loaded index."""
    monkeypatch.setattr(live_module, "CHECK_HOLD", 10 * SAFETY)  # only the answer ends it
    config = stored_then_changed(tmp_path)
    service = IndexService(config)
    service.hold_work_ahead()
    service.start(watch=False)
    try:
        assert service.wait_ready(SAFETY)
        assert service.live.status().stale  # the check is held
        service.reindex(ReindexRequest())  # not released yet: the service is not serving
        status = service.live.status()
        assert status.stale is False
        assert status.indexing is False
        refreshed = service.current()
        assert "cancel" in {s.name for s in refreshed.symbols}
        service.serving()
        service.live.release_check()
        until(service, lambda: not service.live._indexing)
        assert service.current() is refreshed  # the held check ran on no older index
    finally:
        service.stop()


def test_the_ranking_file_is_written_after_the_structures_serve(tmp_path: Path) -> None:
    """Written by the service's writer thread: in place once the service stops."""
    with running(tmp_path, quiet=0.0) as service:
        until(service, prepared(service))
        generation = service.current().generation
    assert (tmp_path / "index" / f"ranking-{generation}.npz").exists()


def test_ranking_files_are_written_in_the_order_given() -> None:
    from symfuse.server.common.saves import Saves

    saves = Saves()
    done: list[int] = []
    for n in range(5):
        saves.add(lambda n=n: done.append(n))
    saves.close(SAFETY)
    assert done == [0, 1, 2, 3, 4]
