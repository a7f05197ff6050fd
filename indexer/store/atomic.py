"""Writes that readers never see half done: a temporary file, fsync, rename."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

WRITE_BUFFER = 4 << 20
# A file that readers memory-map is written this much at a time. The page cache keeps a
# file in folios as large as the writes that made it (up to 2 MB here), and a page fault
# in a mapping maps the whole folio it falls in: a server searching the ranking file
# right after it was written in large writes keeps far more of it resident than when the
# same bytes were written 64 KB at a time.
MAPPED_WRITE = 64 << 10


class _SmallWrites(io.BufferedWriter):
    """A buffered writer whose writes reach the file at most :data:`MAPPED_WRITE` bytes
    at a time (its buffer is that size, and a larger write is passed on in pieces)."""

    def write(self, data: object) -> int:
        view = memoryview(data).cast("B")  # type: ignore[arg-type]
        return sum(
            super(_SmallWrites, self).write(view[at : at + MAPPED_WRITE])
            for at in range(0, len(view), MAPPED_WRITE)
        )


def atomic_write(
    path: Path,
    data: bytes | list[bytes] | Callable[[BinaryIO], object],
    *,
    mapped: bool = False,
) -> None:
    """Write ``data`` (these chunks, in order; or what this function writes to the file
    it is given) to ``path`` so that readers never see a partial file; ``mapped``: readers
    memory-map it (written :data:`MAPPED_WRITE` bytes at a time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        if mapped:
            opened: BinaryIO = _SmallWrites(os.fdopen(fd, "wb", buffering=0), MAPPED_WRITE)
        else:  # a large buffer: many small chunks, few system calls (each lets threads in)
            opened = os.fdopen(fd, "wb", buffering=WRITE_BUFFER)
        with opened as f:
            if callable(data):
                data(f)
            else:
                f.writelines([data] if isinstance(data, bytes) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
