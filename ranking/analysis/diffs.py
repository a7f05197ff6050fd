"""Unified diffs (``git diff`` output) read as the lines they change on the new side.

Added lines count as changed; a removal with nothing added in its place marks the
line of the new side it sits before, so that deleting a function's last line still
touches that function. A blank line added or removed changes nothing. Files deleted
by the diff are left out (nothing of them is left to impact), and a diff's paths
(``b/pkg/mod.py``) are matched to workspace files by their trailing path, so a diff
made at a repository root one folder above the workspace still lands.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from symfuse.indexer.index import Index

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_NEW_FILE = re.compile(r"^\+\+\+ (?:b/)?(.+?)(?:\t.*)?$")


def changed_lines(diff: str) -> dict[str, set[int]]:
    """Path on the new side -> the lines the diff changes there."""
    return {path: set(lines.changed) for path, lines in changes(diff).items()}


@dataclass(frozen=True, slots=True)
class Lines:
    """What a diff says of one file's new side: the lines it changes (with the text added
    or removed there, not blank) and the blank lines it shows, changed or not."""

    changed: dict[int, str] = field(default_factory=dict)
    blank: set[int] = field(default_factory=set)

    def unbroken(self, first: int, last: int) -> bool:
        """Whether every line from ``first`` to ``last`` is changed or blank."""
        return all(n in self.changed or n in self.blank for n in range(first, last + 1))


def changes(diff: str) -> dict[str, Lines]:
    """Path on the new side -> the lines the diff changes and shows blank there."""
    found: dict[str, Lines] = {}
    lines = Lines()
    path: str | None = None
    line = 0
    for text in diff.splitlines():
        header = _NEW_FILE.match(text)
        if header is not None:
            path = None if header.group(1) == "/dev/null" else header.group(1).strip()
            if path is not None:
                lines = found.setdefault(path, Lines())
            continue
        hunk = _HUNK.match(text)
        if hunk is not None:
            line = int(hunk.group(1))
            continue
        if path is None or not line or text.startswith(("---", "diff ", "index ")):
            continue
        if not text[1:].strip():
            if not text.startswith("-"):
                lines.blank.add(line)
        elif text.startswith(("+", "-")):
            lines.changed[line] = text[1:]
        if text.startswith(("+", " ")) or text == "":
            line += 1
    return found


def file_key(index: Index, path: str) -> str | None:
    """The workspace file a path names: as given, or the one file whose key ends with it,
    or whose path it ends with (a diff made above or below the workspace root)."""
    wanted = path.strip().removeprefix("./")
    if wanted in index.files:
        return wanted
    ends = [k for k in index.files if k.endswith("/" + wanted) or wanted.endswith("/" + k)]
    return ends[0] if len(ends) == 1 else None
