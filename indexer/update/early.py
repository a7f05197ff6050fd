"""The definitions of a first index before it is whole: what its build has parsed so far.

A server whose first index is built by a forked process (:func:`.first_index.fork_build`)
answered nothing before the build was stored: on a repository of a few hundred thousand
lines, several seconds (SQLAlchemy about 6, fastapi with its translated docs about 6).
The build now parses the files a first question is most likely about first (:func:`later`)
and writes the definitions of the files it has parsed into ``<index dir>/early/``,
a segment at a time (:class:`EarlyWriter`: at most every :data:`EVERY` seconds, each
segment written whole, then renamed into place), and the server reads them into an index
of definitions alone, neither references nor links (:class:`EarlyReader`), which names
answer from, marked partial, until the whole index is in place; then the folder goes.
"""

from __future__ import annotations

import os
import shutil
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgpack

from symfuse.indexer.extract.parsing import ParsedFile, ParseJob, ParseResult
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import FileStamp
from symfuse.indexer.store import rows

EARLY = "early"  # the folder of an index directory the segments are written in
EVERY = 0.25  # seconds between segments: the first after a quarter of a second of parsing
HOLD = "SYMFUSE_TEST_HOLD_FIRST_INDEX"  # tests: a file that, while it exists, holds a build
_SUFFIX = ".early"
# Parsed last while answers are given meanwhile: what a first question is seldom about.
LATER_LANGUAGES = frozenset({"markdown", "yaml", "toml"})
LATER_FOLDERS = frozenset(
    {"test", "tests", "testing", "example", "examples", "doc", "docs", "documentation"}
    | {"bench", "benches", "benchmark", "benchmarks", "vendor", "third_party", "fixtures"}
)


def later(job: ParseJob) -> bool:
    """Whether ``job``'s file waits until the rest is parsed: a document or data file, or
    one in a folder of tests, examples, docs, benchmarks or vendored code (the order of
    parsing alone: the index is the same)."""
    if job.language in LATER_LANGUAGES:
        return True
    return any(part in LATER_FOLDERS for part in job.rel.lower().split("/")[:-1])


class EarlyWriter:
    """The parsed files' definitions, written to ``directory``'s early folder in segments."""

    def __init__(self, directory: Path, every: float = EVERY) -> None:
        self.folder = directory / EARLY
        self.every = every
        clear(directory)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.rows: list[list[Any]] = []
        self.written = 0
        self.last = time.monotonic()

    def add(self, result: ParseResult) -> None:
        """One file as the parser pool sent it (skipped files are not kept)."""
        if isinstance(result, ParsedFile):
            found = result
            self.rows.append([found.key, found.root, found.rel, found.language, found.record[0]])
            if time.monotonic() - self.last >= self.every:
                self.flush()

    def passing(self, first: ParseResult, rest: Iterator[ParseResult]) -> Iterator[ParseResult]:
        """``rest`` as it comes, each result (and ``first``, passed on already) kept on its
        way; then every file is parsed (:meth:`parsed_all`)."""
        self.add(first)
        for result in rest:
            self.add(result)
            yield result
        self.parsed_all()

    def parsed_all(self) -> None:
        """Every file is parsed: the rest is written (linking and saving come next)."""
        self.flush()
        hold = os.environ.get(HOLD)
        while hold and os.path.exists(hold):  # pragma: no cover (a forked build's process)
            time.sleep(0.01)

    def flush(self) -> None:
        self.last = time.monotonic()
        if not self.rows:
            return
        name = f"{self.written:06d}{_SUFFIX}"
        part = self.folder / f".{name}.tmp"
        # whole, or not there; not fsync'ed as atomic_write does: scratch that the index,
        # once whole, replaces (a crash leaves the folder, which the next build clears)
        part.write_bytes(msgpack.packb(self.rows, use_bin_type=True))
        part.replace(self.folder / name)
        self.written += 1
        self.rows = []


def clear(directory: Path) -> None:
    """The early folder of ``directory`` removed (the index is whole, or built anew)."""
    shutil.rmtree(directory / EARLY, ignore_errors=True)


class EarlyReader:
    """The segments of ``directory``'s early folder read so far, as one index of the
    roots ``aliases`` holding definitions alone (each segment read once)."""

    def __init__(self, directory: Path, aliases: dict[str, str]) -> None:
        self.folder = directory / EARLY
        self.aliases = aliases
        self.read: set[str] = set()
        self.files: dict[str, FileEntry] = {}
        self.current: Index | None = None
        self._lock = threading.Lock()  # queries ask on threads of their own

    def index(self) -> Index | None:
        """The definitions of every segment written so far (None: none yet)."""
        with self._lock:
            return self._read()

    def _read(self) -> Index | None:
        try:
            names = sorted(n for n in os.listdir(self.folder) if n.endswith(_SUFFIX))
        except OSError:
            return self.current  # not made yet, or removed: the index is whole
        fresh = [n for n in names if n not in self.read]
        if not fresh:
            return self.current
        for name in fresh:
            try:
                segment = msgpack.unpackb((self.folder / name).read_bytes(), raw=False)
            except (OSError, ValueError):
                return self.current  # removed meanwhile: the index is whole
            for key, root, rel, language, packed in segment:
                self.files[key] = _entry(key, root, rel, language, packed)
            self.read.add(name)
        index = Index(dict(self.aliases))
        index.files.update(self.files)
        index.changed()
        self.current = index
        return index


def _entry(key: str, root: str, rel: str, language: str, packed: bytes) -> FileEntry:
    symbols = rows.symbols_from_rows(msgpack.unpackb(packed, raw=False), key, root, language)
    return FileEntry(
        path=key,
        root=root,
        rel=rel,
        language=language,
        stamp=FileStamp(0, 0, ""),  # not compared: the whole index replaces this one
        symbols=symbols,
        refs_blob=b"",
        ref_names=frozenset(),
        links_blob=b"",
    )
