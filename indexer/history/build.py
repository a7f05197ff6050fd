"""Build or update one repository's history index, reading only the commits not yet read.

The head file remembers the last commit indexed (the tip); an update reads the
commits reachable from HEAD but not from the tip (``git log tip..HEAD``), oldest
first, and stores them as one new segment. When HEAD no longer descends from the
tip (history rewritten) or the stored format is another version's, the history is
rebuilt and the report says why.

The work is bounded: blobs over :data:`MAX_BLOB` bytes are not parsed, binary
files are only marked, a commit keeps at most :data:`MAX_COMMIT_LINES` changed
lines of hunks and :data:`MAX_DIFF_TEXT` characters of diff text for search.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from symfuse.indexer.history import gitlog
from symfuse.indexer.history.gitlog import Blobs, FileDiff, Hunk, RawCommit, Status
from symfuse.indexer.history.records import Commit, FileChange
from symfuse.indexer.history.store import HistoryOutdated, HistoryStore, history_dir
from symfuse.indexer.history.touched import (
    DefSpan,
    Parsed,
    definitions,
    language_of,
    parse,
    touched,
)

log = logging.getLogger(__name__)

MAX_BLOB = 1_000_000
MAX_COMMIT_LINES = 20_000
MAX_DIFF_TEXT = 32_000
_CACHE_LIMIT = 4096  # blobs whose definitions are kept: a file's child blob is its next parent
_TREE_LIMIT = 64  # parsed versions kept to parse the next version from

Progress = Callable[[int], None]  # commits read so far


@dataclass(frozen=True, slots=True)
class HistoryReport:
    """What one update did: commits read now, commits stored in all, the new tip."""

    alias: str
    read: int
    commits: int
    tip: str
    seconds: float
    size: int
    rebuilt_because: str | None = None


def update_history(
    alias: str,
    root: Path,
    index_dir: Path,
    *,
    progress: Progress | None = None,
    ref: str = "HEAD",
) -> HistoryReport:
    """Bring ``root``'s history index up to date with its HEAD (or ``ref``: the
    benchmark indexes up to ``HEAD~1``, then updates to HEAD).

    Raises :class:`~symfuse.indexer.history.gitlog.NotARepository` when ``root`` is not
    in a git repository.
    """
    started = time.perf_counter()
    gitlog.git_dir(root)
    store = HistoryStore(history_dir(index_dir, alias))
    with store.lock():
        rebuilt: str | None = None
        try:
            head = store.read_head()
        except HistoryOutdated as exc:
            rebuilt, head = str(exc), None
            store.clear()
        tip = gitlog.resolve(root, ref) or ""
        if head is not None and head.tip == tip:
            return HistoryReport(alias, 0, head.commits, tip, _since(started), store.size())
        since = head.tip if head is not None and head.tip else None
        if since is not None and not gitlog.is_ancestor(root, since, tip):
            rebuilt = "HEAD does not descend from the last commit indexed (history rewritten)"
            since, head = None, None
            store.clear()
        if rebuilt:
            log.warning("history of %s rebuilt: %s", alias, rebuilt)
        commits = read_new_commits(root, tip, since, progress) if tip else []
        head = store.append(head, str(root), tip, commits, time.time())
        return HistoryReport(
            alias, len(commits), head.commits, tip, _since(started), store.size(), rebuilt
        )


def _since(started: float) -> float:
    return time.perf_counter() - started


def read_new_commits(
    root: Path,
    tip: str,
    since: str | None,
    progress: Progress | None = None,
    *,
    max_lines: int = MAX_COMMIT_LINES,
) -> list[Commit]:
    """The commits after ``since`` up to ``tip``, oldest first, with the definitions
    each one touched; a commit keeps at most ``max_lines`` changed lines of hunks."""
    out: list[Commit] = []
    definitions_of = _DefinitionCache(Blobs(root))
    try:
        for raw in gitlog.read_commits(root, tip, since, max_lines=max_lines):
            out.append(_commit(raw, definitions_of))
            if progress is not None:
                progress(len(out))
    finally:
        definitions_of.blobs.close()
    return out


class _DefinitionCache:
    """Definitions by blob id: a file's new blob in one commit is its old one in the next.
    The last trees parsed are kept too, so that the next version of a file is parsed
    incrementally from its previous one (tree-sitter reparses the edited parts only)."""

    def __init__(self, blobs: Blobs) -> None:
        self.blobs = blobs
        self.cache: dict[tuple[str, str], list[DefSpan]] = {}
        self.trees: dict[str, Parsed] = {}

    def __call__(
        self,
        blob: str | None,
        path: str,
        base: str | None = None,
        hunks: Sequence[Hunk] = (),
    ) -> list[DefSpan]:
        if blob is None:
            return []
        key = (blob, path.rsplit(".", 1)[-1])  # a blob under another suffix reads otherwise
        found = self.cache.get(key)
        if found is not None:
            return found
        source = self.blobs.read(blob, MAX_BLOB)
        parsed = None
        if source is not None:
            parsed = parse(path, source, self.trees.get(base) if base else None, hunks)
        found = definitions(path, parsed) if parsed is not None else []
        if len(self.cache) >= _CACHE_LIMIT:
            self.cache.clear()
        self.cache[key] = found
        if parsed is not None:
            if len(self.trees) >= _TREE_LIMIT:
                self.trees.pop(next(iter(self.trees)))
            self.trees[blob] = parsed
        return found


def _commit(raw: RawCommit, definitions_of: _DefinitionCache) -> Commit:
    files = tuple(_file_change(f, definitions_of) for f in raw.files)
    return Commit(
        raw.hash,
        raw.parents,
        raw.author,
        raw.email,
        raw.time,
        raw.message,
        files,
        _diff_text(raw.files),
    )


def _file_change(diff: FileDiff, definitions_of: _DefinitionCache) -> FileChange:
    if diff.status is Status.BINARY:
        return FileChange(diff.status.value, diff.path, diff.old_path, ())
    if language_of(diff.path, b"") is None and language_of(diff.old_path, b"") is None:
        return FileChange(diff.status.value, diff.path, diff.old_path, (), diff.truncated)
    old = definitions_of(diff.old_blob, diff.old_path)
    hunks = () if diff.truncated else diff.hunks
    new = definitions_of(diff.new_blob, diff.path, diff.old_blob, hunks)
    defs = touched(old, new, diff.hunks, compare_text=diff.truncated)
    return FileChange(diff.status.value, diff.path, diff.old_path, tuple(defs), diff.truncated)


def _diff_text(files: list[FileDiff]) -> str:
    """The paths and changed lines of a commit, for the diff search; cut at
    :data:`MAX_DIFF_TEXT` characters."""
    parts: list[str] = []
    size = 0
    for diff in files:
        for text in (diff.path, *(line for hunk in diff.hunks for line in hunk.lines)):
            parts.append(text)
            size += len(text) + 1
            if size >= MAX_DIFF_TEXT:
                return "\n".join(parts)[:MAX_DIFF_TEXT]
    return "\n".join(parts)


def stored_commits(alias: str, index_dir: Path) -> list[Commit] | None:
    """The stored history of a repository, oldest first; None when it was never built."""
    store = HistoryStore(history_dir(index_dir, alias))
    head = store.read_head()
    return None if head is None else store.load(head)
