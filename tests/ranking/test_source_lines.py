"""Lines held as offsets read exactly as ``str.splitlines`` would: every break it knows,
``\\r\\n`` as one, no empty line after a final break, Unicode text, items and slices;
in memory (``Lines``) and from disk (``DiskLines``: byte offsets, a BOM skipped)."""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from symfuse.indexer.files.source import BOM
from symfuse.ranking.text.disk_lines import DiskLines, offsets_cache, offsets_of
from symfuse.ranking.text.source_lines import Lines

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


def random_texts(count: int, letters: str = "ab \n\r\x0b") -> list[str]:
    rng = random.Random(7)
    return ["".join(rng.choice(letters) for _ in range(rng.randint(0, 24))) for _ in range(count)]


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


def _disk_lines(tmp_path: Path, data: bytes) -> Sequence[str] | None:
    path = tmp_path / "f.py"
    path.write_bytes(data)
    st = os.stat(path)
    offsets = offsets_of(str(path), st)
    return None if offsets is None else DiskLines(str(path), offsets)


# code with \n alone (the common case), and UTF-8 text with and without breaks beyond ASCII
MORE = (
    random_texts(50, "ab \n")
    + random_texts(50, "\u00e9\u20ac \n\r")
    + random_texts(50, "a\u00e9\n\u2028")
)


@pytest.mark.parametrize("text", CASES + random_texts(100) + MORE + ["\u00e9\n" * 300])
def test_lines_read_from_disk_as_splitlines(tmp_path: Path, text: str) -> None:
    for data in (text.encode(), BOM + text.encode()):
        expected = text.splitlines()
        lines = _disk_lines(tmp_path, data)
        assert lines is not None
        assert len(lines) == len(expected)
        assert list(lines) == expected
        assert [lines[i] for i in range(len(expected))] == expected
        assert [lines[i] for i in reversed(range(len(expected)))] == expected[::-1]
        assert lines[1:3] == expected[1:3]
        assert lines[-2:] == expected[-2:]
        assert lines[::2] == expected[::2]
        with pytest.raises(IndexError):
            lines[len(expected)]


def test_files_that_are_not_utf8_are_not_read_by_offsets(tmp_path: Path) -> None:
    assert _disk_lines(tmp_path, b"caf\xe9\nx\n") is None  # Latin-1: the text replaces a byte


def test_offsets_are_read_again_when_the_file_changes(tmp_path: Path) -> None:
    path = tmp_path / "f.py"
    path.write_text("a\nb\n")
    cache = offsets_cache()
    first = cache.get(str(path))
    assert first is not None
    assert len(first.starts) == 2
    path.write_text("a\nb\nc\n")
    again = cache.get(str(path))
    assert again is not None
    assert list(DiskLines(str(path), again)) == ["a", "b", "c"]
