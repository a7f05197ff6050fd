"""Files whose text answers a sentence (ranking/search/file_text.py): the pieces of text
that vote for their files, the lift their votes give an answer's head, a question's
answer spread over files, and the shards' rows merged as one index orders them."""

from __future__ import annotations

import numpy as np
import pytest

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.api import SearchRequest, prepare, search
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.search import file_text
from symfuse.ranking.search.file_text import TextRows, merged, text_evidence, text_rows
from symfuse.ranking.search.plans import classify
from tests.support.index import index_of_tree

RETRY = """def backoff(attempt):
    # wait longer before each retry of a failed request
    return 2 ** attempt


def give_up(attempt, limit):
    # stop retrying a failed request after the limit
    return attempt >= limit


def retry(send, request):
    # send the request again while it fails, waiting between attempts
    for attempt in range(5):
        if send(request):
            return True
    return False
"""
FILES = {
    "net/retry.py": RETRY,
    "net/client.py": "def send(request):\n    # a request goes out once\n    return True\n",
    "tests/test_retry.py": "def test_retry():\n"
    + "    # retry a failed request, retry again, retry once more\n" * 3
    + "    assert True\n",
    "README.md": "# Retry\n\nFailed requests are sent again.\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("file_text"), FILES)


def rows(index: Index, query: str) -> TextRows | None:
    request = SearchRequest.from_mapping({"query": query})
    return text_rows(prepare(index), index.symbols, request, query, classify(query), None)


def test_product_code_votes_for_its_files(index: Index) -> None:
    found = rows(index, "how is a failed request retried after waiting")
    assert found is not None
    assert found.files[0] == "net/retry.py"
    assert "tests/test_retry.py" not in found.files  # tests do not vote
    assert list(found.scores) == sorted(found.scores, reverse=True)


def test_a_query_for_tests_lets_tests_vote(index: Index) -> None:
    found = rows(index, "where are the tests that retry a failed request")
    assert found is not None
    assert "tests/test_retry.py" in found.files


def test_only_a_question_about_code_gets_votes(index: Index) -> None:
    assert rows(index, "backoff") is None  # a name: its definition, not files
    # a sentence describing one behaviour asks for its definition
    assert rows(index, "retry a failed request after waiting") is None
    assert rows(index, "where is the retry section") is None  # a page's section


def _fused(index: Index, files: list[str]) -> tuple[list[Symbol], Fused]:
    """An answer of one definition of each of ``files`` (repeats: the next of that
    file), scores descending, traced."""
    taken: dict[str, int] = {}
    positions = []
    for file in files:
        mine = [i for i, s in enumerate(index.symbols) if s.file == file and s.kind.value != "file"]
        positions.append(mine[taken.get(file, 0)])
        taken[file] = taken.get(file, 0) + 1
    n = len(positions)
    fused = Fused(np.asarray(positions), np.linspace(1.0, 0.5, n), {}, {}, {}).traced()
    return list(index.symbols), fused


def test_a_file_that_many_pieces_vote_for_rises(index: Index) -> None:
    symbols, fused = _fused(index, ["net/client.py", "tests/test_retry.py", "net/retry.py"])
    text = TextRows(("net/retry.py",) * 3, np.asarray([3.0, 2.0, 1.0]))
    out = text_evidence(fused, symbols, text)
    files = [symbols[p].file for p in out.positions]
    assert files == ["net/retry.py", "net/client.py", "tests/test_retry.py"]
    assert np.array_equal(out.scores, fused.scores)  # each place keeps its score
    assert out.notes is not None
    assert any(a.reason == "its file's text matches" for a in out.notes[0])


def test_a_questions_answer_reaches_several_files(index: Index) -> None:
    symbols, fused = _fused(index, ["net/retry.py"] * 3 + ["net/client.py"])
    text = TextRows((), np.zeros(0))  # no votes: the spread alone
    asked = text_evidence(fused, symbols, text)
    files = [symbols[p].file for p in asked.positions]  # a third item of one file makes way
    assert files == ["net/retry.py", "net/retry.py", "net/client.py", "net/retry.py"]


def test_shards_rows_merge_as_one_index_orders_them() -> None:
    one = TextRows(("b.py", "a.py"), np.asarray([2.0, 1.0])).under("one")
    two = TextRows(("c.py", "a.py"), np.asarray([2.0, 0.5])).under("two")
    found = merged([two, None, one])
    assert found is not None
    assert found.files == ("one/b.py", "two/c.py", "one/a.py", "two/a.py")
    assert merged([None, None]) is None


def test_the_lift_shows_in_a_search(index: Index, monkeypatch: pytest.MonkeyPatch) -> None:
    request = SearchRequest(
        query="how long to wait before a retry of a failed request", fusion_debug=True
    )
    found = search(index, request)
    reasons = {a.reason for item in found.items for a in item.adjustments}
    assert "its file's text matches" in reasons
    monkeypatch.setattr(file_text, "WEIGHT", 0.0)
    found = search(index, request)
    assert "its file's text matches" not in {
        a.reason for item in found.items for a in item.adjustments
    }
