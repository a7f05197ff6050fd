"""Sure answers first, through the installed command (issue 36, item 2): each usage says
how it was linked; a receiver's declared type decides its method; guesses by name
among same-named definitions are counted as unresolved, and listed on request."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("usages_truth")
    root = shutil.copytree(FIXTURES / "usages_truth", base / "ws")
    return root, base / "index"


def run(ws: tuple[Path, Path], *args: str) -> Any:
    root, index = ws
    done = run_symfuse([*args, "--root", str(root), "--index-dir", str(index), "-f", "json"])
    return json.loads(done.stdout)


def test_a_declared_receiver_decides_which_send(ws: tuple[Path, Path]) -> None:
    mediator = run(ws, "usages", "--name", "Mediator.Send")
    assert [
        (u["file"], u["line"], u["resolution"], u["confidence"]) for u in mediator["usages"]
    ] == [
        # Mediator mediator = Build(); Mediator is found by name, the one type so named
        ("csharp/App/Orders.cs", 43, "type", 0.8)
    ]
    outbox = run(ws, "usages", "--name", "Outbox.Send")
    assert [(u["line"], u["resolution"]) for u in outbox["usages"]] == [(44, "type")]
    assert "unresolved" not in mediator
    assert "unresolved" not in outbox


def test_guesses_are_counted_and_listed_on_request(ws: tuple[Path, Path]) -> None:
    """`cleaner.clean(dirty).text()`: `clean` returns Element, whose own text(String) a
    call passing no argument is not: the text() it inherits from Node, sure. JavaScript's
    `this.raw` in a class of its own is TypeScript's Headers.raw by name alone: guesses
    at 0.4, counted, and listed on request."""
    sure = run(ws, "usages", "--name", "Node.text")
    assert ("java/src/org/shop/app/Cleaner.java", 36, "type") in [
        (u["file"], u["line"], u["resolution"]) for u in sure["usages"]
    ]
    assert "unresolved" not in sure
    raw = run(ws, "usages", "--name", "Headers.raw")
    assert raw["unresolved"] == 2
    every = run(ws, "usages", "--name", "Headers.raw", "--min-confidence", "0")
    guesses = [u for u in every["usages"] if u not in raw["usages"]]
    assert [(u["file"], u["line"], u["resolution"], u["confidence"]) for u in guesses] == [
        ("javascript/src/headers.js", 3, "name", 0.4),
        ("javascript/src/headers.js", 7, "name", 0.4),
    ]
    assert "unresolved" not in every
    imports = run(ws, "usages", "--name", "Element", "--kinds", "import")["usages"]
    assert [(u["file"], u["resolution"]) for u in imports] == [
        ("java/src/org/shop/app/Cleaner.java", "import")  # import org.shop.nodes.Element;
    ]
