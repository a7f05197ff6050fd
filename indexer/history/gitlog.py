"""Commits and their diffs read from a repository's object store with the git command line.

Why the command line and not a library: ``tests/bench/history_bench.py libraries`` reads
a repository's commits with their first-parent diffs (paths, status, renames, hunks)
fastest with ``git log -p``; pygit2 is slower (libgit2's diff is slower than git's, and it
runs in our process, holding the interpreter) and dulwich far slower (its diff is
Python). ``git log`` also runs beside us, on another core, while we parse the previous
commit's blobs, and it adds no dependency.

One ``git log`` streams every new commit, oldest first, with its raw diff lines (status,
blob ids, renames) and its patch (``-U0``: changed lines only); one ``git cat-file
--batch`` serves the blobs. Nothing is checked out. Merges are diffed against their
first parent, the root commit against the empty tree.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import IO

from symfuse.indexer.errors import SymfuseError

_COMMIT = b"\x1e"  # starts a commit's header line
_FIELD = "\x1f"
_END = b"\x1d"  # ends the message
_FORMAT = "%x1e%H%x1f%P%x1f%an%x1f%ae%x1f%at%x1f%B%x1d"
_ZERO = "0" * 40


class NotARepository(SymfuseError):
    """The root is not inside a git work tree (or git is missing)."""


class Status(StrEnum):
    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"
    RENAMED = "renamed"
    BINARY = "binary"


_STATUS = {"A": Status.ADDED, "M": Status.MODIFIED, "D": Status.DELETED, "R": Status.RENAMED}


@dataclass(frozen=True, slots=True)
class Hunk:
    """One ``@@ -old_start,old_count +new_start,new_count @@`` block: its changed lines,
    each with its ``-`` or ``+`` sign."""

    old_start: int
    old_count: int
    new_start: int
    new_count: int
    lines: tuple[str, ...]

    def header(self) -> str:
        return f"@@ -{self.old_start},{self.old_count} +{self.new_start},{self.new_count} @@"


@dataclass(slots=True)
class FileDiff:
    """One changed file: ``status`` (a binary file is ``binary`` whatever else changed)."""

    status: Status
    path: str
    old_path: str
    old_blob: str | None
    new_blob: str | None
    hunks: list[Hunk] = field(default_factory=list)
    lines: int = 0  # changed lines read, kept or not
    truncated: bool = False  # hunks dropped: the commit's diff was over its cap


@dataclass(slots=True)
class RawCommit:
    hash: str
    parents: tuple[str, ...]
    author: str
    email: str
    time: int
    message: str
    files: list[FileDiff] = field(default_factory=list)


def git_dir(root: Path) -> Path:
    """The repository's git directory; :class:`NotARepository` when there is none."""
    try:
        out = _git(root, "rev-parse", "--absolute-git-dir")
    except (OSError, subprocess.CalledProcessError) as exc:
        raise NotARepository(f"{root} is not in a git repository ({_reason(exc)})") from exc
    return Path(out.strip())


def resolve(root: Path, ref: str) -> str | None:
    """The commit a ref (``HEAD~2``, a tag, a hash) names, or None."""
    try:
        return _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").strip() or None
    except subprocess.CalledProcessError:
        return None


def is_ancestor(root: Path, old: str, new: str) -> bool:
    done = subprocess.run(
        ["git", "-C", str(root), "merge-base", "--is-ancestor", old, new],
        capture_output=True,
        check=False,
    )
    return done.returncode == 0


def _git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], capture_output=True, check=True, text=True
    ).stdout


def _reason(exc: BaseException) -> str:
    """git's last line of complaint, or the error itself."""
    if isinstance(exc, subprocess.CalledProcessError):
        said = str(exc.stderr or "").strip().splitlines()
        if said:
            return said[-1]
    return str(exc)


def read_commits(
    root: Path, tip: str, since: str | None = None, *, max_lines: int = 20_000
) -> Iterator[RawCommit]:
    """Commits reachable from ``tip`` but not from ``since``, oldest first.

    A commit whose patch runs past ``max_lines`` changed lines keeps its files and
    statuses; the files past the cap lose their hunks (``truncated``).
    """
    command = [
        *("git", "-C", str(root), "-c", "core.quotePath=false", "log", "--reverse"),
        *("--topo-order", "-p", "--raw", "--no-abbrev", "-M", "-U0", "--no-color"),
        *("--no-ext-diff", "--no-textconv", "--diff-merges=first-parent"),
        f"--format={_FORMAT}",
        tip,
    ]
    if since:
        command.append(f"^{since}")
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL) as proc:
        assert proc.stdout is not None
        try:
            yield from _parse(proc.stdout, max_lines)
        finally:
            proc.kill()


def _parse(stream: IO[bytes], max_lines: int) -> Iterator[RawCommit]:
    commit: RawCommit | None = None
    reader = _PatchReader(max_lines)
    lines = iter(stream)
    for raw in lines:
        if raw.startswith(_COMMIT):
            if commit is not None:
                reader.close(commit)
                yield commit
            commit = _header(raw, lines)
            reader = _PatchReader(max_lines)
        elif commit is not None:
            reader.feed(commit, raw)
    if commit is not None:
        reader.close(commit)
        yield commit


def _header(first: bytes, lines: Iterator[bytes]) -> RawCommit:
    text = first[1:]
    while _END not in text:
        text += next(lines, _END)
    head_text = text[: text.index(_END)].decode("utf-8", errors="replace")
    sha, parents, author, email, when, message = head_text.split(_FIELD, 5)
    return RawCommit(sha, tuple(parents.split()), author, email, int(when or 0), message.strip())


class _PatchReader:
    """Fills a commit's files from the lines after its header: raw lines first (one per
    file), then one patch per file in the same order."""

    def __init__(self, max_lines: int) -> None:
        self.budget = max_lines
        self.patch = -1  # the file whose patch is being read
        self.hunk: list[str] | None = None
        self.numbers = (0, 0, 0, 0)

    def feed(self, commit: RawCommit, raw: bytes) -> None:
        if raw.startswith(b":"):
            diff = _raw_line(raw)
            if diff is not None:
                commit.files.append(diff)
            return
        if raw.startswith(b"diff --git ") or raw.startswith(b"diff --cc "):
            self.close(commit)
            self.patch += 1
            return
        if not 0 <= self.patch < len(commit.files):
            return
        current = commit.files[self.patch]
        if raw.startswith(b"@@ "):
            self.close(commit)
            self.numbers = _hunk_numbers(raw)
            self.hunk = []
        elif self.hunk is not None and raw[:1] in (b"+", b"-"):
            current.lines += 1
            self.budget -= 1
            if self.budget < 0:
                current.truncated = True
            else:
                self.hunk.append(raw.decode("utf-8", errors="replace").rstrip("\r\n"))
        elif raw.startswith(b"Binary files ") or raw.startswith(b"GIT binary patch"):
            current.status = Status.BINARY

    def close(self, commit: RawCommit) -> None:
        if self.hunk is not None and 0 <= self.patch < len(commit.files):
            current = commit.files[self.patch]
            if current.truncated:
                current.hunks.clear()
            else:
                current.hunks.append(Hunk(*self.numbers, tuple(self.hunk)))
        self.hunk = None


def _raw_line(raw: bytes) -> FileDiff | None:
    """``:100644 100644 <old> <new> M\\tpath`` (``R087\\told\\tnew`` for a rename)."""
    meta, _, paths = raw.rstrip(b"\r\n").decode("utf-8", errors="replace").partition("\t")
    parts = meta.split()
    if len(parts) < 5:
        return None
    old_mode, new_mode, old_blob, new_blob, code = parts[:5]
    if "160000" in (old_mode, new_mode):
        return None  # a submodule's commit pointer: no source of ours
    names = [_unquote(p) for p in paths.split("\t")]
    status = _STATUS.get(code[:1], Status.MODIFIED)
    path = names[-1]
    old_path = names[0]
    return FileDiff(
        status,
        path,
        old_path,
        None if old_blob == _ZERO else old_blob,
        None if new_blob == _ZERO else new_blob,
    )


def _unquote(path: str) -> str:
    """A path git quoted (``"a\\tb"``, C escapes) as written in the tree."""
    if not (len(path) >= 2 and path[0] == path[-1] == '"'):
        return path
    raw = path[1:-1].encode("latin-1", errors="replace").decode("unicode_escape")
    return raw.encode("latin-1", errors="replace").decode("utf-8", errors="replace")


def _hunk_numbers(raw: bytes) -> tuple[int, int, int, int]:
    """``@@ -a,b +c,d @@``; a count left out is 1."""
    old, new = raw.split(b" ", 3)[1:3]

    def pair(text: bytes) -> tuple[int, int]:
        start, _, count = text[1:].partition(b",")
        return int(start), int(count) if count else 1

    return (*pair(old), *pair(new))


class Blobs:
    """Blob contents through one ``git cat-file --batch`` process, read on demand."""

    def __init__(self, root: Path) -> None:
        self._proc = subprocess.Popen(
            ["git", "-C", str(root), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )

    def read(self, blob: str, limit: int) -> bytes | None:
        """The blob's bytes; None when it is missing or larger than ``limit``."""
        stdin, stdout = self._proc.stdin, self._proc.stdout
        assert stdin is not None
        assert stdout is not None
        stdin.write(blob.encode() + b"\n")
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3:
            return None  # "<id> missing"
        size = int(header[2])
        data = stdout.read(size)
        stdout.read(1)  # the newline after the contents
        return data if size <= limit else None

    def close(self) -> None:
        for pipe in (self._proc.stdin, self._proc.stdout):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        self._proc.kill()
        self._proc.wait()

    def __enter__(self) -> Blobs:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()
