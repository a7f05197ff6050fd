"""Processes a server started, read from Linux /proc, and waiting for them to end."""

from __future__ import annotations

import os
import select
from pathlib import Path

SAFETY = 30.0  # seconds: only turns a process that never ends into a failure
_PPID, _PGRP = 1, 2  # fields of /proc/PID/stat after the name: state, ppid, pgrp


def _with_stat_field(field: int, value: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # exited while we looked
        if int(fields[field]) == value:
            found.append(int(stat.parent.name))
    return found


def children(pid: int) -> list[int]:
    """The child processes of ``pid``, zombies included."""
    return _with_stat_field(_PPID, pid)


def group_members(group: int) -> list[int]:
    """The processes of process group ``group``, zombies included."""
    return _with_stat_field(_PGRP, group)


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def ended(pid: int) -> bool:
    """Wait for process ``pid`` to end (an event: its pidfd turns readable), however late
    within :data:`SAFETY`; whether it did."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True  # gone already
    try:
        readable, _, _ = select.select([handle], [], [], SAFETY)
    finally:
        os.close(handle)
    return bool(readable)
