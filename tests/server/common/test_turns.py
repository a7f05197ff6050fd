"""The work ahead takes its turn in a pause of the clients' queries (server/common/turns.py)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from symfuse.indexer.update import live as live_module
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.server.common import turns as turns_module
from symfuse.server.common.service import IndexService
from symfuse.server.common.turns import Turns
from tests.server.common.test_service import stored_then_changed, until

SAFETY = 30.0  # seconds: only turns a change that never comes into a failure


def test_idle_only_a_gap_after_the_last_query() -> None:
    now = [100.0]
    turns = Turns(threading.Condition(), lambda: False, gap=0.25, clock=lambda: now[0])
    assert turns.idle()  # nobody asked yet
    turns.begin()
    now[0] += 1.0
    assert not turns.idle()  # a query runs, however long
    turns.end()
    assert not turns.idle()  # it just ended
    now[0] += 0.2
    assert not turns.idle()
    now[0] += 0.05
    assert turns.idle()


def test_a_hold_ends_at_the_first_answer_or_lapses_once_serving() -> None:
    now = [100.0]
    released: list[bool] = []
    turns = Turns(threading.Condition(), lambda: True, gap=0.25, clock=lambda: now[0])
    turns.hold(lambda: released.append(True))
    now[0] += 60.0
    assert turns.held  # not serving yet: the protocol library still loads
    assert turns.hold_left() is None
    turns.serve()
    turns.begin()
    assert turns.end()  # the first answer: the hold ends
    assert not turns.held
    assert turns.check_due()
    assert not turns.check_turn()  # no pause yet (and done() cuts the wait short)
    assert released == []
    now[0] += 0.25
    assert turns.check_turn()  # the clients pause: the check goes
    assert released == [True]
    assert not turns.check_due()

    lapsing = Turns(threading.Condition(), lambda: True, clock=lambda: now[0])
    lapsing.hold(None)  # the work ahead alone
    lapsing.serve()
    assert lapsing.held
    assert lapsing.hold_left() == turns_module.HOLD_MAX
    now[0] += turns_module.HOLD_MAX
    assert not lapsing.held  # nobody asked: the work ahead goes on
    assert not lapsing.check_due()


def test_waiting_ends_when_the_query_ends_or_when_done() -> None:
    changes = threading.Condition()
    stopping = threading.Event()
    turns = Turns(changes, stopping.is_set, gap=0.0, max_wait=10 * SAFETY)
    with changes:
        turns.begin()
    waiter = threading.Thread(target=turns.wait_idle)
    waiter.start()
    waiter.join(timeout=0.05)
    assert waiter.is_alive()  # a query runs: the work ahead waits for it
    with changes:
        turns.end()
        changes.notify_all()
    waiter.join(timeout=SAFETY)
    assert not waiter.is_alive()

    with changes:
        turns.begin()
    waiter = threading.Thread(target=turns.wait_idle)
    waiter.start()
    with changes:
        stopping.set()
        changes.notify_all()
    waiter.join(timeout=SAFETY)
    assert not waiter.is_alive()  # stopping ends the wait, the query still running


def test_a_client_that_never_pauses_does_not_starve_the_work_ahead() -> None:
    changes = threading.Condition()
    stopping = threading.Event()
    turns = Turns(changes, stopping.is_set, gap=0.25, max_wait=0.05)
    with changes:
        turns.begin()  # a query that never ends (or a client polling without a pause)
    assert turns.paused()  # after max_wait: one step anyway
    stopping.set()
    assert not turns.paused()  # unless done() cuts the wait short


def test_a_stored_index_is_checked_in_a_pause_after_the_first_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An agent's calls right after the first answer keep the interpreter: the check of the
    stored index's files waits for the clients' first pause, then finds the change."""
    gap = 0.3
    monkeypatch.setattr(turns_module, "IDLE_GAP", gap)
    monkeypatch.setattr(live_module, "CHECK_HOLD", 10 * SAFETY)  # only the pause ends it
    config = stored_then_changed(tmp_path)
    service = IndexService(config)
    released: list[float] = []
    release = service.live.release_check

    def recorded() -> None:
        released.append(time.monotonic())
        release()

    monkeypatch.setattr(service.live, "release_check", recorded)
    service.hold_work_ahead()
    service.start(watch=False)
    try:
        assert service.wait_ready(SAFETY)
        service.serving()
        for _ in range(3):  # a burst
            answer, _ = service.search(SearchRequest(query="save", limit=1))
            assert isinstance(answer, SearchResponse)
        answered = time.monotonic()
        until(service, lambda: "cancel" in {s.name for s in service.current().symbols})
        assert released
        assert released[0] - answered >= gap * 0.9  # (answered: read after the query's end)
    finally:
        service.stop()
