"""Work run beside a search's other channels (ranking.aside)."""

from __future__ import annotations

import multiprocessing
import os

import pytest

from symfuse.ranking.search.workers import in_background


def _square_aside(value: int) -> int:
    return in_background(pow, value, 2).result()


def test_the_result_and_the_error_come_back_to_the_caller() -> None:
    assert in_background(sum, [1, 2, 3]).result() == 6
    with pytest.raises(ZeroDivisionError):
        in_background(divmod, 1, 0).result()


@pytest.mark.slow  # a forked pool
@pytest.mark.skipif(os.name != "posix", reason="fork is POSIX")
@pytest.mark.timeout(60)
def test_a_forked_child_gets_a_pool_of_its_own() -> None:
    # The parent's pool has an idle thread; a child forked from it has the pool's
    # record of that thread but not the thread, and would wait forever on its queue.
    assert in_background(abs, -1).result() == 1
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_square_aside, (7,)) == 49
