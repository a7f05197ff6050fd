"""Files whose text answers prose (ranking/search/file_text.py): the pieces of text that
vote for their files, the lift their votes give a question's head, a question's answer
spread over files, a sentence's first place settled by them, and the shards' rows merged
as one index orders them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.api import SearchRequest, prepare, search
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.search import file_text
from symfuse.ranking.search.file_text import (
    TextRows,
    is_question,
    merged,
    text_evidence,
    text_rows,
)
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
    "net/errors.py": "def failed_request(status):\n    return status >= 500\n",
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


def test_prose_about_code_gets_votes(index: Index) -> None:
    assert rows(index, "backoff") is None  # a name: its definition, not files
    assert rows(index, "where is the retry section") is None  # a page's section
    found = rows(index, "retry a failed request after waiting")  # a sentence
    assert found is not None
    assert found.files[0] == "net/retry.py"


def test_a_question_with_code_words_that_name_nothing_gets_votes(index: Index) -> None:
    """A question that writes a word as code (a header's name, a capitalised word) is
    answered by the text's votes unless that word names a definition of the index: then
    it asks for that definition, and the text does not vote."""
    found = rows(index, "how is a failed request retried after a Retry-After header")
    assert found is not None
    assert not found.named
    assert found.files[0] == "net/retry.py"
    named = rows(index, "how is a failed request retried by give_up and backoff")
    assert named is not None
    assert named.named
    assert named.files == ()
    assert rows(index, "retry a failed request after a Retry-After header") is None  # not asked
    symbols, fused = _fused(index, ["net/client.py", "tests/test_retry.py", "net/retry.py"])
    kept = text_evidence(fused, symbols, named, "how is a request retried by give_up")
    assert kept is fused  # not even the spread


@pytest.mark.parametrize(
    ("query", "asks"),
    [
        ("how is a failed request retried", True),
        ("which settings recompile helpers", True),
        ("when should a response not be compressed", True),
        ("when two rocks ship one module, which one gets the file name", True),
        ("retry a request that failed?", True),
        ("when following a redirect, drop the Authorization header", False),
        ("When one shard, the primary marks a replica as failed", False),
        ("retry a failed request after waiting", False),
    ],
)
def test_a_question_asks_how_code_works(query: str, asks: bool) -> None:
    assert is_question(query) is asks


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
    out = text_evidence(fused, symbols, text, "how is a request retried")
    files = [symbols[p].file for p in out.positions]
    assert files == ["net/retry.py", "net/client.py", "tests/test_retry.py"]
    assert np.array_equal(out.scores, fused.scores)  # each place keeps its score
    assert out.notes is not None
    assert any(a.reason == "its file's text matches" for a in out.notes[0])


def test_a_file_voted_high_joins_a_questions_head(
    index: Index, monkeypatch: pytest.MonkeyPatch
) -> None:
    symbols, fused = _fused(index, ["net/client.py", "tests/test_retry.py", "net/retry.py"])
    votes = TextRows(("net/retry.py",), np.asarray([1.0]))
    out = text_evidence(fused, symbols, votes, "how is a request retried", head=2)
    files = [symbols[p].file for p in out.positions]  # beyond the head of 2, yet voted first
    assert files == ["net/retry.py", "net/client.py", "tests/test_retry.py"]
    monkeypatch.setattr(file_text, "REACH", 0)
    out = text_evidence(fused, symbols, votes, "how is a request retried", head=2)
    assert [symbols[p].file for p in out.positions][2] == "net/retry.py"


def test_a_questions_answer_reaches_several_files(index: Index) -> None:
    symbols, fused = _fused(index, ["net/retry.py"] * 3 + ["net/client.py"])
    text = TextRows((), np.zeros(0))  # no votes: the spread alone
    asked = text_evidence(fused, symbols, text, "how is a request retried")
    files = [symbols[p].file for p in asked.positions]  # a second item of one file makes way
    assert files == ["net/retry.py", "net/client.py", "net/retry.py", "net/retry.py"]
    described = text_evidence(fused, symbols, text, "retry a request")  # not a question
    assert described is fused


def test_a_sentences_first_place_goes_to_the_file_voted_first(index: Index) -> None:
    symbols, fused = _fused(index, ["net/client.py", "tests/test_retry.py", "net/retry.py"])
    votes = TextRows(("net/retry.py", "net/client.py"), np.asarray([2.0, 1.0]))
    kept = text_evidence(fused, symbols, votes, "retry a failed request")
    assert kept is fused  # the first item's file is among the first voted
    others = ("a.py", "b.py", "c.py", "d.py", "e.py", "net/client.py")  # client.py voted 7th
    votes = TextRows(("net/retry.py", *others), np.linspace(7.0, 1.0, 7))
    out = text_evidence(fused, symbols, votes, "retry a failed request")
    files = [symbols[p].file for p in out.positions]
    assert files == ["net/retry.py", "net/client.py", "tests/test_retry.py"]  # the rest keep order
    assert np.array_equal(out.scores, fused.scores)
    named = text_evidence(fused, symbols, votes, "test_retry on a failed request")
    assert named is fused  # the query writes an item's name as code: names lead
    words = text_evidence(fused, symbols, votes, "test retry on a failed request")
    assert symbols[int(words.positions[0])].file == "net/retry.py"  # plain words


def test_shards_rows_merge_as_one_index_orders_them() -> None:
    one = TextRows(("b.py", "a.py"), np.asarray([2.0, 1.0])).under("one")
    two = TextRows(("c.py", "a.py"), np.asarray([2.0, 0.5])).under("two")
    found = merged([two, None, one])
    assert found is not None
    assert found.files == ("one/b.py", "two/c.py", "one/a.py", "two/a.py")
    assert merged([None, None]) is None
    named = merged([one, TextRows((), np.zeros(0), named=True).under("two")])
    assert named is not None
    assert named.named  # one shard defines the name written


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


BUFFER = """def fill(buffer, source):
    # stop reading once the data looks binary
    return source.read()


def binary_offset(buffer):
    # where binary data starts in the buffer
    return buffer.index(0)


def quit_reading(buffer):
    # reading stops at binary data
    buffer.clear()


def found_nul(buffer):
    # a zero byte was found in the data
    return 0 in buffer


def roll(buffer):
    # keep reading the data after a match was found
    return buffer[1:]
"""
BINARY = {
    "printer/plain.py": '''def binary_data(sink, offset):
    """Binary data found while reading a file."""
    sink.write(offset)
''',
    "searcher/buffer.py": BUFFER,
}


def test_a_sentences_lead_shows_in_a_search(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = index_of_tree(tmp_path, BINARY)
    query = "binary data found while reading a file"
    request = SearchRequest(query=query, fusion_debug=True)
    found = search(index, request)  # the words spell the printer's binary_data, voted 2nd
    assert found.items[0].symbol.name == "binary_data"
    votes = rows(index, query)
    assert votes is not None
    assert votes.files[0] == "printer/plain.py"  # the best row, but buffer.py has five
    assert file_text.file_ranks(votes) == {"searcher/buffer.py": 1, "printer/plain.py": 2}
    monkeypatch.setattr(file_text, "LEAD_FILES", 1)  # a first item's file voted 2nd is outvoted
    found = search(index, request)
    assert found.items[0].symbol.file == "searcher/buffer.py"
    assert "its file's text matches the most" in {a.reason for a in found.items[0].adjustments}
