"""``read``: any text file under the workspace roots, or a range of its lines.

Not only indexed code: a README, a config file, a changelog. The path is confined
as every caller's path is (:func:`symfuse.ranking.text.paths.confine`: relative to a
root or absolute inside one, symlinks followed, nothing that leads out), and the
file must be UTF-8 text; a binary file or another encoding is one clear error.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.files.source import declared_encoding
from symfuse.indexer.index import Index
from symfuse.ranking.query.records import Record
from symfuse.ranking.query.requests import ReadRequest
from symfuse.ranking.text import paths

MAX_READ_BYTES = 20_000_000  # a larger file is refused rather than loaded
BINARY_PROBE = 8192  # bytes looked at for a NUL, the mark of a binary file


@dataclass(frozen=True, slots=True)
class FileText(Record):
    """Lines ``start_line``..``end_line`` of ``file`` (``total_lines`` in all)."""

    file: str
    start_line: int
    end_line: int
    total_lines: int
    content: str


def read_file(index: Index, request: ReadRequest) -> FileText:
    """The lines ``request`` asks for, from ``offset`` lines into its range."""
    place = paths.confine(index, request.path, argument="path")
    lines = _text_lines(place.real, request.path)
    total = len(lines)
    start = request.start_line or 1
    if start > max(total, 1):
        raise InvalidRequest("start_line", f"{request.path!r} has {total} lines; {start} is past")
    end = min(request.end_line or total, total)
    first = start + request.offset
    chosen = lines[first - 1 : end]
    return FileText(
        file=index.key(place.root, place.rel),
        start_line=first,
        end_line=first + len(chosen) - 1,
        total_lines=total,
        content="\n".join(chosen),
    )


def _text_lines(real: str, given: str) -> list[str]:
    if os.path.isdir(real):
        raise paths.a_directory("path", given, real)
    try:
        size = os.path.getsize(real)
        if size > MAX_READ_BYTES:
            raise InvalidRequest(
                "path", f"{given!r} has {size} bytes; files up to {MAX_READ_BYTES} are read"
            )
        with open(real, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        raise NotFound(f"path: no file {given!r} under the workspace roots") from None
    except OSError as exc:
        raise NotFound(f"path: {given!r} cannot be read ({exc.strerror})") from None
    declared = declared_encoding(data)  # a wide BOM or a coding declaration
    if declared is not None:
        return data.decode(declared, errors="replace").splitlines()
    if b"\0" in data[:BINARY_PROBE]:
        raise InvalidRequest("path", f"{given!r} is a binary file; only text files are read")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidRequest(
            "path",
            f"{given!r} is not UTF-8 text (byte {exc.start} is not) and declares no encoding",
        ) from None
    return text.splitlines()
