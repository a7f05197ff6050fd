"""Which files match, and on how many lines, asked of ripgrep when it is installed.

A text search reads every file only to find the few that match. ripgrep does that part
in native code, on both cores, with a regex engine that runs in linear time (no pattern
can hang it); :mod:`symfuse.ranking.text.search` then reads the matching files alone,
in Python, for the hits of the page it returns.

``rg`` is found on ``PATH`` or beside this Python (the ``ripgrep`` wheel of the ``rg``
extra installs it there); ``SYMFUSE_RG`` names another binary, or ``off`` for none.
Without it the search reads every file itself, as before. ripgrep's regex dialect is
Rust's: a pattern it refuses (a backreference, a lookaround, ``\\Z``) is searched in
Python, with no message.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sysconfig
from collections.abc import Sequence

_ARGUMENT_CHARS = 1_000_000  # paths per rg run, under the kernel's 2 MB of arguments


class Refused(Exception):
    """ripgrep cannot take this pattern (another dialect) or failed: search in Python."""


class Expired(Exception):
    """ripgrep outlived the time budget."""


@functools.cache
def _found(setting: str | None) -> str | None:
    if setting is not None:
        return None if setting.lower() in ("", "off", "none", "python") else setting
    beside = os.path.join(sysconfig.get_path("scripts"), "rg")
    return shutil.which("rg") or (beside if os.access(beside, os.X_OK) else None)


def binary() -> str | None:
    """The ``rg`` to run, or None (not installed, or ``SYMFUSE_RG=off``)."""
    return _found(os.environ.get("SYMFUSE_RG"))


def line_counts(
    rg: str,
    paths: Sequence[str],
    pattern: str,
    *,
    regex: bool,
    case_sensitive: bool,
    timeout: float,
) -> dict[int, int]:
    """{position in ``paths``: matching lines} for the files that match.

    Raises :class:`Refused` when ripgrep will not take the pattern, :class:`Expired`
    past ``timeout`` seconds.
    """
    counts: dict[int, int] = {}
    position = {path: at for at, path in enumerate(paths)}
    for chunk in _chunks(paths):
        for path, count in _run(rg, chunk, pattern, regex, case_sensitive, timeout):
            at = position.get(path)
            if at is not None:
                counts[at] = count
    return counts


def _chunks(paths: Sequence[str]) -> list[Sequence[str]]:
    out: list[Sequence[str]] = []
    start = size = 0
    for at, path in enumerate(paths):
        if size + len(path) > _ARGUMENT_CHARS and at > start:
            out.append(paths[start:at])
            start, size = at, 0
        size += len(path) + 1
    if start < len(paths):
        out.append(paths[start:])
    return out


def _run(
    rg: str,
    paths: Sequence[str],
    pattern: str,
    regex: bool,
    case_sensitive: bool,
    timeout: float,
) -> list[tuple[str, int]]:
    command = [
        rg,
        *("--no-config", "--count", "--null", "--with-filename", "--no-messages"),
        "--case-sensitive" if case_sensitive else "--ignore-case",
        *(() if regex else ("--fixed-strings",)),
        "--regexp",
        pattern,
        "--",
        *paths,
    ]
    try:
        done = subprocess.run(command, capture_output=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        raise Expired from None
    except OSError as exc:
        raise Refused(str(exc)) from None
    if done.returncode not in (0, 1) and not done.stdout:  # 1: no match; 2: an error
        raise Refused(done.stderr.decode(errors="replace").strip())
    found: list[tuple[str, int]] = []
    for line in done.stdout.splitlines():
        path, _, count = line.rpartition(b"\0")
        if path and count.isdigit():
            found.append((os.fsdecode(path), int(count)))
    return found
