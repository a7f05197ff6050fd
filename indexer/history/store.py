"""The stored history of one repository: a head file and append-only segments.

Layout, beside the index (``<index dir>/history/<alias>/``)::

    head.msgpack          format, root, the last commit indexed (tip), segment names, count
    seg-<n>.msgpack       the commits one update read, oldest first
    lock                  held by the one process that may write

An update writes its new commits into one new segment, then the head, each
atomically (:func:`~symfuse.indexer.store.atomic.atomic_write`): a reader sees the old
history or the new one. When segments pile up they are merged into one. A head of
another format (or unreadable) means the history is rebuilt, with the reason logged.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
from filelock import FileLock

from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.history.records import Commit
from symfuse.indexer.store.atomic import atomic_write, fsync_dir
from symfuse.indexer.versions import EXTRACTOR_VERSION

# Bump with any change to records.py's rows or to what touched.py / build.py keep.
FORMAT = (1, EXTRACTOR_VERSION)
HEAD = "head.msgpack"
MAX_SEGMENTS = 16


class HistoryOutdated(SymfuseError):
    """The stored history cannot be read as it is (another format, or damaged); an update
    rebuilds it."""


@dataclass(frozen=True, slots=True)
class Head:
    root: str
    tip: str
    segments: tuple[str, ...]
    commits: int
    updated_at: float


def history_dir(index_dir: Path, alias: str) -> Path:
    return index_dir / "history" / alias


class HistoryStore:
    """Reads and writes one repository's history directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def lock(self, timeout: float = 600.0) -> FileLock:
        self.directory.mkdir(parents=True, exist_ok=True)
        return FileLock(str(self.directory / "lock"), timeout=timeout)

    def read_head(self) -> Head | None:
        """The head; None when there is no history yet. :class:`HistoryOutdated` when it
        is of another format or unreadable."""
        path = self.directory / HEAD
        try:
            data = _unpack(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValueError) as exc:
            raise HistoryOutdated(f"unreadable history head ({exc})") from exc
        if not isinstance(data, dict) or tuple(data.get("format", ())) != FORMAT:
            found = data.get("format") if isinstance(data, dict) else None
            raise HistoryOutdated(
                f"history format {found} is not this version's {list(FORMAT)}; rebuilding"
            )
        return Head(
            data["root"],
            data["tip"],
            tuple(data["segments"]),
            data["commits"],
            data["updated_at"],
        )

    def load(self, head: Head) -> list[Commit]:
        """Every stored commit, oldest first."""
        return [commit for name in head.segments for commit in self.load_segment(name)]

    def load_segment(self, name: str) -> list[Commit]:
        try:
            rows = _unpack((self.directory / name).read_bytes())
            return [Commit.of_row(row) for row in rows]
        except (OSError, ValueError, TypeError) as exc:
            raise HistoryOutdated(f"history segment {name} unreadable ({exc})") from exc

    def append(
        self, head: Head | None, root: str, tip: str, commits: list[Commit], now: float
    ) -> Head:
        """Store ``commits`` (read after ``head``'s tip) and move the tip; returns the new
        head. Many segments are merged into one first."""
        segments = list(head.segments) if head is not None else []
        count = head.commits if head is not None else 0
        if commits:
            if len(segments) >= MAX_SEGMENTS and head is not None:
                merged = [c.row() for c in self.load(head)]
                segments = [self._write_segment(merged)]
            segments.append(self._write_segment([c.row() for c in commits]))
        new = Head(root, tip, tuple(segments), count + len(commits), now)
        atomic_write(self.directory / HEAD, _pack(_head_dict(new)))
        fsync_dir(self.directory)
        self._drop_unused(new)
        return new

    def _write_segment(self, rows: list[Any]) -> str:
        used = {p.name for p in self.directory.glob("seg-*.msgpack")}
        n = len(used)
        while f"seg-{n:06d}.msgpack" in used:
            n += 1
        name = f"seg-{n:06d}.msgpack"
        atomic_write(self.directory / name, _pack(rows))
        return name

    def _drop_unused(self, head: Head) -> None:
        """Segments the head no longer names, and what was kept beside them (the search's
        ``terms-<format>-<segment>.npz``)."""
        kept = {name.removesuffix(".msgpack") for name in head.segments}
        for path in self.directory.glob("seg-*.msgpack"):
            if path.name not in head.segments:
                path.unlink(missing_ok=True)
        for path in self.directory.glob("terms-*.npz"):
            if "-".join(path.stem.split("-")[2:]) not in kept:
                path.unlink(missing_ok=True)

    def clear(self) -> None:
        for pattern in ("*.msgpack", "*.npz"):
            for path in self.directory.glob(pattern):
                path.unlink(missing_ok=True)

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    def size(self) -> int:
        """Bytes on disk."""
        return sum(p.stat().st_size for p in self.directory.glob("*.msgpack"))


def _head_dict(head: Head) -> dict[str, Any]:
    return {
        "format": list(FORMAT),
        "root": head.root,
        "tip": head.tip,
        "segments": list(head.segments),
        "commits": head.commits,
        "updated_at": head.updated_at,
    }


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def _unpack(data: bytes) -> Any:
    try:
        return msgpack.unpackb(data, raw=False, strict_map_key=False)
    except (msgpack.UnpackException, msgpack.ExtraData, ValueError, TypeError) as exc:
        raise ValueError(str(exc)) from exc
