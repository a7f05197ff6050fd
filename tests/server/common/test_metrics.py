"""The query metrics file: a server records off the request's path and loses nothing."""

from __future__ import annotations

import threading
from pathlib import Path

from symfuse.server.common.metrics import MetricsStore, QueryRecord


def _record(operation: str, elapsed: float) -> QueryRecord:
    return QueryRecord(operation=operation, front_end="mcp", elapsed_ms=elapsed, results=1)


def test_rows_recorded_in_the_background_are_all_read_at_once(tmp_path: Path) -> None:
    store = MetricsStore(tmp_path, background=True)
    threads = [
        threading.Thread(
            target=lambda n=n: [store.record(_record(f"op{n}", float(i))) for i in range(200)]
        )
        for n in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # No waiting: reading writes whatever is still queued first.
    rows = store.records()
    assert len(rows) == 800
    assert {row[0] for row in rows} == {"op0", "op1", "op2", "op3"}
    assert [s.requests for s in store.summary()] == [200, 200, 200, 200]
    store.close()


def test_closing_writes_what_is_queued_and_a_new_store_reads_it(tmp_path: Path) -> None:
    store = MetricsStore(tmp_path, background=True)
    for i in range(50):
        store.record(_record("search", float(i)))
    store.close()
    store.record(_record("search", 99.0))  # after closing: written at once
    again = MetricsStore(tmp_path)
    assert len(again.records()) == 51
    again.close()


def test_a_one_shot_store_writes_each_row_at_once(tmp_path: Path) -> None:
    store = MetricsStore(tmp_path)
    store.record(_record("search", 1.0))
    other = MetricsStore(tmp_path)  # another process's view: the file alone
    assert len(other.records()) == 1
    store.close()
    other.close()
