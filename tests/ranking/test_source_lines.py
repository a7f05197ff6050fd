"""Lines held as offsets read exactly as ``str.splitlines`` would: every break it knows,
``\\r\\n`` as one, no empty line after a final break, Unicode text, items and slices."""

from __future__ import annotations

import random

import pytest

from symfuse.ranking.source_lines import Lines

CASES = [
    "",
    "a",
    "a\n",
    "a\nb",
    "a\r\nb\r\n",
    "\n\n",
    "\r",
    "\r\r\n",
    "a\rb\nc\r\n\r\nd",
    "x\x0by\x0cz\x1c\x1d\x1ew",
    "caf\u00e9\nna\u00efve\u2028line\x85end",
    "def f():\n    return 1\n",
]


def random_texts(count: int) -> list[str]:
    rng = random.Random(7)
    return [
        "".join(rng.choice("ab \n\r\x0b") for _ in range(rng.randint(0, 24))) for _ in range(count)
    ]


@pytest.mark.parametrize("text", CASES + random_texts(400))
def test_lines_read_as_splitlines(text: str) -> None:
    expected = text.splitlines()
    lines = Lines(text)
    assert len(lines) == len(expected)
    assert list(lines) == expected
    assert [lines[i] for i in range(len(expected))] == expected
    assert lines[1:3] == expected[1:3]
    assert lines[-2:] == expected[-2:]
    if expected:
        assert lines[-1] == expected[-1]
    with pytest.raises(IndexError):
        lines[len(expected)]


def test_ascii_lines_hold_offsets_not_strings() -> None:
    text = "x = 1\n" * 10_000
    assert Lines(text).nbytes == 8 * 10_000  # two int32 offsets a line
