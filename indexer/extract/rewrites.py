"""Helpers of the pre-passes (:mod:`.prepass`): blanks of a match, and a line pattern
tried only where a literal says it may match."""

from __future__ import annotations

import re
from collections.abc import Callable


def by_line(
    source: bytes,
    core: re.Pattern[bytes],
    line: re.Pattern[bytes],
    rewrite: Callable[[re.Match[bytes]], bytes],
) -> bytes:
    """``line`` (a pattern from a line's start) rewritten where it matches on a line that
    holds ``core``: a scan for a literal, not a try at every line (the same result)."""
    out: bytearray | None = None
    done = -1
    for hit in core.finditer(source):
        start = source.rfind(b"\n", 0, hit.start()) + 1
        if start <= done:
            continue
        done = start
        match = line.match(source, start)
        if match is None or match.end() < hit.end():
            continue
        if out is None:
            out = bytearray(source)
        out[match.start() : match.end()] = rewrite(match)
    return bytes(out) if out is not None else source


def blank(match: re.Match[bytes]) -> bytes:
    """The match as spaces."""
    return b" " * (match.end() - match.start())


def spaces(text: bytes) -> bytes:
    """``text`` as spaces, its newlines kept (its lines stay where they were)."""
    return bytes(b if b == 0x0A else 0x20 for b in text)


def blank_second(match: re.Match[bytes]) -> bytes:
    """The match's first group as it is, its second as spaces."""
    return match.group(1) + b" " * len(match.group(2))
