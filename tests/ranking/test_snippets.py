"""Snippets: the dedent that a minified file's one long line does not slow down."""

from __future__ import annotations

import random
import textwrap

import pytest

from symfuse.ranking.search.snippets import dedented

CASES = [
    ["    def f(self):", "        return 1"],
    ["\tif x:", "\t\ty()", "\t# done"],
    ["  a", "    ", "\t b", "  c"],  # blanks alone, a tab where the margin has a blank
    ["x", "  y"],
    ["   ", "\t"],
    ["  \r", "   \x0c z"],  # other whitespace is text to the margin's regexes
    ["  a\n    b", "  c"],  # a line holding a newline is two lines
    ["ready:function(e){" + "x" * 90_000 + "}"],
]


@pytest.mark.parametrize("lines", CASES)
def test_dedented_is_textwrap_dedent(lines: list[str]) -> None:
    assert dedented(lines) == textwrap.dedent("\n".join(lines))


def test_dedented_is_textwrap_dedent_on_random_lines() -> None:
    rng = random.Random(39)
    alphabet = [" ", " ", " ", "\t", "a", "#", "\r", "\x0c", "\u3000", "\n"]
    for _ in range(3_000):
        lines = [
            "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 9)))
            for _ in range(rng.randrange(1, 5))
        ]
        assert dedented(lines) == textwrap.dedent("\n".join(lines)), lines
