"""Writes that readers never see half done: a temporary file, fsync, rename."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

WRITE_BUFFER = 4 << 20


def atomic_write(path: Path, data: bytes | list[bytes] | Callable[[BinaryIO], object]) -> None:
    """Write ``data`` (these chunks, in order; or what this function writes to the file
    it is given) to ``path`` so that readers never see a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # a large buffer: many small chunks, few system calls (each lets other threads in)
        with os.fdopen(fd, "wb", buffering=WRITE_BUFFER) as f:
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
