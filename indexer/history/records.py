"""What the history index keeps of a commit, and its stored (msgpack) form.

A definition is named by its path-independent qualified name (``Order.total``, the
part of a symbol id between ``::`` and ``#``) and its kind, so that it is the same
definition before and after its file is renamed.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Change(StrEnum):
    """What a commit did to one definition."""

    ADDED = "added"
    MODIFIED = "modified"
    DELETED = "deleted"


@dataclass(frozen=True, slots=True)
class TouchedDef:
    """A definition a commit changed: where it is (the new side; the old side when
    deleted) and the diff of its own lines, each hunk under its ``@@`` header."""

    qualified: str
    name: str
    kind: str
    change: Change
    line: int
    end_line: int
    diff: str

    def row(self) -> tuple[Any, ...]:
        return (
            self.qualified,
            self.name,
            self.kind,
            self.change.value,
            self.line,
            self.end_line,
            self.diff,
        )

    @classmethod
    def of_row(cls, row: list[Any]) -> TouchedDef:
        qualified, name, kind, change, line, end_line, diff = row
        return cls(qualified, name, kind, Change(change), line, end_line, diff)


@dataclass(frozen=True, slots=True)
class FileChange:
    """One changed file: its status (added, modified, deleted, renamed or binary), its
    path (and the path before a rename), and the definitions the diff touched.
    ``truncated``: the commit's diff was over its cap, so this file's hunks were not
    kept (its definitions were compared by their text)."""

    status: str
    path: str
    old_path: str
    definitions: tuple[TouchedDef, ...]
    truncated: bool = False

    def row(self) -> tuple[Any, ...]:
        return (
            self.status,
            self.path,
            self.old_path,
            [d.row() for d in self.definitions],
            self.truncated,
        )

    @classmethod
    def of_row(cls, row: list[Any]) -> FileChange:
        status, path, old_path, definitions, truncated = row
        return cls(
            status, path, old_path, tuple(TouchedDef.of_row(d) for d in definitions), truncated
        )


@dataclass(frozen=True, slots=True)
class Commit:
    """A commit: who, when (seconds since the epoch, UTC), its message, its changed
    files, and ``diff``: its changed lines (capped), which the diff search reads."""

    hash: str
    parents: tuple[str, ...]
    author: str
    email: str
    time: int
    message: str
    files: tuple[FileChange, ...]
    diff: str

    @property
    def subject(self) -> str:
        return self.message.split("\n", 1)[0].strip()

    def row(self) -> tuple[Any, ...]:
        return (
            self.hash,
            list(self.parents),
            self.author,
            self.email,
            self.time,
            self.message,
            [f.row() for f in self.files],
            self.diff,
        )

    @classmethod
    def of_row(cls, row: list[Any]) -> Commit:
        sha, parents, author, email, time, message, files, diff = row
        return cls(
            sha,
            tuple(parents),
            author,
            email,
            time,
            message,
            tuple(FileChange.of_row(f) for f in files),
            diff,
        )
