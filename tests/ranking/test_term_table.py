"""A loaded index's vocabularies (issue 16, serving memory): term -> id answered from the
stored bytes (``TermTable``), exactly as the dict it replaces, and the same search answers
from a loaded ranking file as from the structures just built."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.prepared import build as prepare_module
from symfuse.ranking.prepared.build import prepare
from symfuse.ranking.prepared.ranking_file import strings
from symfuse.ranking.prepared.term_table import TermTable, term_hash
from tests.support.paths import FIXTURES


def _table(terms: list[str]) -> TermTable:
    return TermTable(strings(terms), len(terms))


def test_every_term_maps_to_its_position_and_nothing_else_does() -> None:
    rng = random.Random(7)
    letters = "abcdefghijklmnopqrstuvwxyz_0123456789éß漢"
    terms = sorted({"".join(rng.choices(letters, k=rng.randint(1, 14))) for _ in range(5000)})
    rng.shuffle(terms)
    table = _table(terms)
    assert len(table) == len(terms)
    assert list(table) == terms
    assert dict(table.items()) == {t: i for i, t in enumerate(terms)}
    for i, term in enumerate(terms):
        assert table[term] == i
        assert table.get(term) == i
        assert term in table
        assert table.term(i) == term
    present = set(terms)
    for _ in range(2000):
        other = "".join(rng.choices(letters, k=rng.randint(1, 15)))
        if other not in present:
            assert table.get(other) is None
            assert table.get(other, -1) == -1
            assert other not in table
    for odd in ("", "a\nb", terms[0] + "\n", terms[0] + "\0"):
        assert odd not in table
    with pytest.raises(KeyError):
        table["\n"]


def test_the_numpy_hash_is_the_python_hash() -> None:
    """The hashes computed for the stored terms at once are those of a looked-up word."""
    terms = ["a", "ab", "ba", "é", "a" * 40, "x\0y"]
    table = _table(terms)
    for term in terms:
        assert table.get(term) == terms.index(term)
    assert term_hash(b"a") != term_hash(b"a\0")


def test_a_table_that_does_not_hold_its_count_is_refused() -> None:
    with pytest.raises(ValueError, match="length mismatch"):
        TermTable(strings(["a", "b"]), 3)
    with pytest.raises(ValueError, match="empty term"):
        TermTable(strings(["a", "", "b"]), 3)
    assert len(TermTable(np.zeros(0, dtype=np.uint8), 0)) == 0


def test_a_loaded_index_answers_as_the_one_just_built(tmp_path: Path) -> None:
    """Prose and name queries (BM25F and the similarity channel look words up in the
    vocabularies) give the same answers from the structures built and from the file."""
    config = IndexConfig(roots=(FIXTURES / "workspace",), index_dir=tmp_path, progress=False)
    index, _ = update_index(config)
    prepare_module.forget(index)
    built = prepare(index, tmp_path)
    assert not built.loaded
    prepare_module.forget(index)
    loaded = prepare(index, tmp_path)
    assert loaded.loaded
    assert isinstance(loaded.lexical.term_ids, TermTable)
    assert isinstance(loaded.similarity.model.term_ids, TermTable)
    assert list(loaded.vocabulary) == list(built.vocabulary)
    for query in ("compute total", "checkout", "send an email to the customer", "Gateway"):
        request = SearchRequest(query=query, limit=20)
        ours = search(index, request, prepared=loaded).to_dict()["items"]
        theirs = search(index, request, prepared=built).to_dict()["items"]
        assert [(r["symbol_id"], r["score"]) for r in ours] == [
            (r["symbol_id"], r["score"]) for r in theirs
        ], query
