"""Index columns (1-based code points) <-> LSP positions in the negotiated encoding.

LSP counts ``character`` in UTF-16 code units by default, or in UTF-8 bytes or
UTF-32 code points when the client offers them. The index counts code points, so
a column only needs converting on a line that is not pure ASCII. :class:`LineTexts`
keeps, per file version, just the non-ASCII lines: most lines of most files are
ASCII, and those convert without reading anything.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from enum import StrEnum

from lsprotocol import types as lsp


class Encoding(StrEnum):
    UTF8 = "utf-8"
    UTF16 = "utf-16"
    UTF32 = "utf-32"

    @classmethod
    def of(cls, negotiated: str | None) -> Encoding:
        try:
            return cls(str(negotiated)) if negotiated else cls.UTF16
        except ValueError:
            return cls.UTF16


def char_units(ch: str, encoding: Encoding) -> int:
    """How many units one code point takes in ``encoding``."""
    if encoding is Encoding.UTF32:
        return 1
    point = ord(ch)
    if encoding is Encoding.UTF16:
        return 2 if point > 0xFFFF else 1
    if point < 0x80:
        return 1
    if point < 0x800:
        return 2
    return 3 if point < 0x10000 else 4


def units_of(text: str, encoding: Encoding) -> int:
    """Length of ``text`` in ``encoding`` units."""
    if encoding is Encoding.UTF32 or text.isascii():
        return len(text)
    if encoding is Encoding.UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def to_units(line: str | None, col0: int, encoding: Encoding) -> int:
    """A 0-based code-point column of ``line`` as ``encoding`` units (``line`` None: ASCII)."""
    if line is None or encoding is Encoding.UTF32:
        return col0
    return units_of(line[:col0], encoding)


def from_units(line: str | None, units: int, encoding: Encoding) -> int:
    """An ``encoding`` offset into ``line`` as a 0-based code-point column.

    An offset inside a character (half a surrogate pair, part of a UTF-8
    sequence) lands on that character; one past the end lands at the end.
    """
    if line is None or encoding is Encoding.UTF32 or line.isascii():
        return units
    seen = 0
    for i, ch in enumerate(line):
        if seen >= units:
            return i
        seen += char_units(ch, encoding)
        if seen > units:
            return i
    return len(line)


def non_ascii_lines(text: str) -> dict[int, str]:
    """1-based line number -> text, for the lines that are not pure ASCII."""
    if text.isascii():
        return {}
    return {n: line for n, line in enumerate(text.splitlines(), start=1) if not line.isascii()}


LineLoader = Callable[[], str | None]


class LineTexts:
    """Non-ASCII lines per (file, version), least recently used dropped first."""

    def __init__(self, max_files: int = 8192) -> None:
        self._max = max_files
        self._files: OrderedDict[tuple[str, str], dict[int, str]] = OrderedDict()
        self._lock = threading.Lock()

    def lines(self, path: str, version: str, load: LineLoader) -> dict[int, str]:
        """The non-ASCII lines of ``path`` at ``version`` (a digest), loading on a miss."""
        key = (path, version)
        with self._lock:
            found = self._files.get(key)
            if found is not None:
                self._files.move_to_end(key)
                return found
        text = load()
        found = non_ascii_lines(text) if text is not None else {}
        with self._lock:
            self._files[key] = found
            while len(self._files) > self._max:
                self._files.popitem(last=False)
        return found


class FileMapper:
    """Converts positions inside one file version."""

    __slots__ = ("encoding", "lines")

    def __init__(self, lines: dict[int, str], encoding: Encoding) -> None:
        self.lines = lines
        self.encoding = encoding

    def position(self, line: int, col: int) -> lsp.Position:
        """1-based line and code-point column -> LSP position."""
        return lsp.Position(**self.position_json(line, col))

    def position_json(self, line: int, col: int) -> dict[str, int]:
        """:meth:`position` as the protocol's JSON (no object to build and unstructure)."""
        text = self.lines.get(line)
        return {"line": max(0, line - 1), "character": to_units(text, col - 1, self.encoding)}

    def range(self, line: int, col: int, end_line: int, end_col: int) -> lsp.Range:
        return lsp.Range(start=self.position(line, col), end=self.position(end_line, end_col))

    def column(self, position: lsp.Position) -> tuple[int, int]:
        """LSP position -> (1-based line, 1-based code-point column)."""
        text = self.lines.get(position.line + 1)
        return position.line + 1, from_units(text, position.character, self.encoding) + 1
