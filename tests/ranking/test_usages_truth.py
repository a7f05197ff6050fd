"""Usages against the hand-marked truth of tests/fixtures/usages_truth (issue 36, item 1):
per language, the references a fixture marks are found, and little else is."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.bench import truth_marked
from tests.support.index import index_of_fixture


@pytest.mark.parametrize("language", truth_marked.LANGUAGES)
def test_marked_references_are_found(tmp_path: Path, language: str) -> None:
    index = index_of_fixture(tmp_path, f"usages_truth/{language}")
    tally = truth_marked.score(index, tmp_path / "ws")
    assert tally.recall >= 0.95, tally.notes
    assert tally.precision >= 0.90, tally.notes


def test_a_declared_receiver_decides_the_method(tmp_path: Path) -> None:
    """`outbox.Send(...)` with `var outbox = new Outbox()` is Outbox.Send, not
    Mediator.Send; `mediator.Send(...)` with `Mediator mediator` the other way round."""
    index = index_of_fixture(tmp_path, "usages_truth/csharp")
    tally = truth_marked.score(index, tmp_path / "ws")
    assert not [n for n in tally.notes if ".Send" in n]


def test_an_outside_qualifier_is_not_a_workspace_member(tmp_path: Path) -> None:
    """Go's `errors.New(...)` is not router.New; Rust's `String::new()` not Compact::new."""
    for language in ("go", "rust"):
        index = index_of_fixture(tmp_path / language, f"usages_truth/{language}")
        tally = truth_marked.score(index, tmp_path / language / "ws")
        assert not [n for n in tally.notes if n.startswith("extra") and ".new" in n.lower()]
        assert not [n for n in tally.notes if "extra  New:" in n]


@pytest.mark.parametrize("language", ["python", "javascript", "typescript"])
def test_receiver_types_decide_even_among_guesses(tmp_path: Path, language: str) -> None:
    """Python, JavaScript, TypeScript (issue 36, item 2): an annotated parameter, a
    constructor's result, `self.x` / `this.x` and a call's written return type decide the
    method, so every usage listed, guesses included (min_confidence 0), is a marked one:
    `options.get` on a `dict`, `new Map().get`, a generator's `.send()` are no use of
    the workspace's `get` or `send`."""
    index = index_of_fixture(tmp_path, f"usages_truth/{language}")
    tally = truth_marked.score(index, tmp_path / "ws", min_confidence=0.0)
    assert [n for n in tally.notes if n.startswith("extra")] == []
    assert tally.recall == 1.0, tally.notes
