"""Unified diffs (``git diff`` output) read as the lines they change on the new side.

Added lines count as changed; a removal with nothing added in its place marks the
line of the new side it sits before, so that deleting a function's last line still
touches that function. Files deleted by the diff are left out (nothing of them is
left to impact), and a diff's paths (``b/pkg/mod.py``) are matched to workspace
files by their trailing path, so a diff made at a repository root one folder above
the workspace still lands.
"""

from __future__ import annotations

import re

from symfuse.indexer.index import Index

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_NEW_FILE = re.compile(r"^\+\+\+ (?:b/)?(.+?)(?:\t.*)?$")


def changed_lines(diff: str) -> dict[str, set[int]]:
    """Path on the new side -> the lines the diff changes there."""
    changed: dict[str, set[int]] = {}
    path: str | None = None
    line = 0
    for text in diff.splitlines():
        header = _NEW_FILE.match(text)
        if header is not None:
            path = None if header.group(1) == "/dev/null" else header.group(1).strip()
            if path is not None:
                changed.setdefault(path, set())
            continue
        hunk = _HUNK.match(text)
        if hunk is not None:
            line = int(hunk.group(1))
            continue
        if path is None or not line or text.startswith(("---", "diff ", "index ")):
            continue
        if text.startswith("+"):
            changed[path].add(line)
            line += 1
        elif text.startswith("-"):
            changed[path].add(line)
        elif text.startswith(" ") or text == "":
            line += 1
    return changed


def file_key(index: Index, path: str) -> str | None:
    """The workspace file a path names: as given, or the one file whose key ends with it,
    or whose path it ends with (a diff made above or below the workspace root)."""
    wanted = path.strip().removeprefix("./")
    if wanted in index.files:
        return wanted
    ends = [k for k in index.files if k.endswith("/" + wanted) or wanted.endswith("/" + k)]
    return ends[0] if len(ends) == 1 else None
