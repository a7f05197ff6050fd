"""The LSP base protocol's framing, read so that no byte stream can stop the server.

A message is header lines (``Content-Length: N``, optionally others), a blank line and
N bytes of JSON. :class:`FrameReader` reads them from any ``read(n)`` coroutine and
hands out each message's parsed JSON, or an :class:`Unreadable` for a frame it
cannot read:

- a header line over :attr:`FrameLimits.header_line` bytes (with or without its
  newline), a line that is not a header, a ``Content-Length`` that is not a number
  or over :attr:`FrameLimits.body`, a header block without ``Content-Length``;
- a body that is not JSON: declared too long (the next message's header begins
  inside it: reading resumes at that header) or too short (the rest of it is
  skipped up to the next ``Content-Length:``).

After an unreadable frame the reader skips to the next ``Content-Length:`` header
and reads on. Nothing is ever allocated for what a header merely claims: a body is
read once it arrives, and only up to the limit. The request id of an unreadable
frame is recovered from its bytes when they name one, so that the client's request
still gets its answer (a parse error). Header lines ending in ``\\n`` alone are
read as if they ended in ``\\r\\n``, as many hand-written clients frame them.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

CHUNK = 64 * 1024  # bytes asked for at a time: a burst of small requests in one read
BODY_READ = 1024 * 1024  # the most asked for at once while a large body arrives
MAX_DIGITS = 12  # a Content-Length longer than this is over any limit (and int() refuses 4,300)
_MARKER = re.compile(rb"content-length:", re.I)
_TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")  # an HTTP header name
_HEADER_START = re.compile(rb"[ \t\r]*[!#$%&'*+.^_`|~0-9A-Za-z-]*(?::|\Z)")  # may be one
_ID = re.compile(rb'"id"\s*:\s*(-?\d{1,18}(?![\d.eE])|"(?:[^"\\]|\\.){0,256}")')

Read = Callable[[int], Awaitable[bytes]]  # up to n bytes, at least one; b"" at the end


@dataclass(frozen=True, slots=True)
class FrameLimits:
    """The largest header line and body read (bytes); anything larger is unreadable.

    A header line is a few dozen bytes from any client; 64 KB leaves room for odd
    ones. A body of 64 MB holds a ``didOpen`` of any file worth indexing (files over
    the index's size limit are not parsed anyway).
    """

    header_line: int = 64 * 1024
    body: int = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A frame that could not be read: why, and the request id its bytes name, if any."""

    reason: str
    msg_id: int | str | None = None


@dataclass(frozen=True, slots=True)
class Parsed:
    """One message's JSON, parsed (any JSON value: the protocol judges its shape)."""

    value: Any


class _End(Exception):
    """The stream ended."""


class FrameReader:
    """Messages out of a byte stream (see the module docstring)."""

    def __init__(self, read: Read, limits: FrameLimits | None = None) -> None:
        self._read = read
        self.limits = limits or FrameLimits()
        self._buffer = bytearray()
        self._skip_from: int | None = None  # after an unreadable frame: where to look from

    async def next(self) -> Parsed | Unreadable | None:
        """The next message, or why it cannot be read; None once the stream has ended."""
        try:
            if self._skip_from is not None:
                await self._skip_to_header(self._skip_from)
                self._skip_from = None
            length = await self._headers()
            if isinstance(length, Unreadable):
                return length
            return await self._body(length)
        except _End:
            return None

    async def _fill(self, wanted: int = CHUNK) -> None:
        """Append what has arrived (waiting for at least a byte); ``_End`` at the end."""
        chunk = await self._read(max(CHUNK, min(wanted, BODY_READ)))
        if not chunk:
            raise _End
        self._buffer += chunk

    def _drop(self, n: int) -> None:
        del self._buffer[:n]

    async def _line_end(self) -> int | None:
        """Where the next line ends (past its newline); None when it is over the limit.

        A line whose start cannot begin a header (a JSON body sent without headers) ends
        where the bytes that have arrived end: it is unreadable whatever follows, and
        its sender may be waiting for the answer before sending more.
        """
        limit = self.limits.header_line
        searched = 0
        while True:
            end = self._buffer.find(b"\n", searched, limit + 1)
            if end >= 0:
                return end + 1
            if len(self._buffer) > limit:
                return None
            if self._buffer and _HEADER_START.match(self._buffer) is None:
                return len(self._buffer)
            searched = len(self._buffer)
            await self._fill()

    async def _headers(self) -> int | Unreadable:
        """The declared body length once the blank line after the headers is read."""
        length: int | None = None
        started = False  # blank lines before any header are skipped
        while True:
            end = await self._line_end()
            if end is None:
                return self._unreadable(f"a header line is over {self.limits.header_line} bytes", 1)
            line = bytes(self._buffer[:end]).rstrip(b"\r\n")
            if not line:
                self._drop(end)
                if not started:
                    continue
                if length is None:
                    return self._unreadable("a header block without Content-Length", 0)
                return length
            name, colon, value = line.partition(b":")
            inside = _MARKER.search(line, 1)
            if not colon or not _TOKEN.fullmatch(name) or inside is not None:
                if inside is not None and not line[: inside.start()].strip():
                    self._drop(inside.start())  # spaces before a header
                    continue
                return self._unreadable(f"not a header line: {line[:40]!r}", 1)
            started = True
            self._drop(end)
            if name.lower() == b"content-length":
                text = value.strip()
                if not text.isdigit():
                    return self._unreadable(f"Content-Length is not a number: {text[:40]!r}", 0)
                if len(text) > MAX_DIGITS or int(text) > self.limits.body:
                    return self._unreadable(
                        f"Content-Length {text[:40].decode()} is over the "
                        f"{self.limits.body} byte limit",
                        0,
                    )
                length = int(text)

    async def _body(self, length: int) -> Parsed | Unreadable:
        while len(self._buffer) < length:
            await self._fill(length - len(self._buffer))
        body = bytes(self._buffer[:length])
        try:
            value = json.loads(body)
        except (ValueError, RecursionError):  # not JSON, not UTF-8, nested too deep
            inside = _MARKER.search(body)
            if inside is None:  # declared too short, or simply not JSON
                self._drop(length)
                return self._unreadable(f"a body of {length} bytes is not JSON", 0, body)
            self._drop(inside.start())  # declared too long: the next message begins inside
            return Unreadable(
                f"a body of {length} bytes holds the next message's header at byte "
                f"{inside.start()}",
                recover_id(body[: inside.start()]),
            )
        self._drop(length)
        return Parsed(value)

    def _unreadable(self, reason: str, skip_from: int, region: bytes | None = None) -> Unreadable:
        """An unreadable frame, its id read from ``region`` (else from the buffer up to the
        next header); the next read skips to that header, searching from ``skip_from``."""
        if region is None:
            found = _MARKER.search(self._buffer, skip_from, self.limits.header_line)
            end = self.limits.header_line if found is None else found.start()
            region = bytes(self._buffer[:end])
        self._skip_from = skip_from
        return Unreadable(reason, recover_id(region))

    async def _skip_to_header(self, start: int) -> None:
        """Drop bytes up to the next ``Content-Length:`` (searched for from ``start``),
        keeping no more than a chunk in memory however long the junk runs."""
        skipped = 0
        while True:
            found = _MARKER.search(self._buffer, start)
            if found is not None:
                skipped += found.start()
                self._drop(found.start())
                break
            keep = min(len(self._buffer), max(0, len(_MARKER.pattern) - 1))
            drop = max(len(self._buffer) - keep, min(start, len(self._buffer)))
            skipped += drop
            self._drop(drop)
            start = 0
            await self._fill()
        if skipped:
            log.debug("skipped %d bytes to the next Content-Length header", skipped)


def recover_id(region: bytes) -> int | str | None:
    """The request id that unreadable bytes name: the whole region's ``id`` when it
    parses, else the first ``"id": ...`` in it; None when there is none."""
    try:
        value = json.loads(region)
    except (ValueError, RecursionError):
        value = None
    if isinstance(value, dict):
        found = value.get("id")
        ok = isinstance(found, int | str) and not isinstance(found, bool)
        return found if ok else None
    match = _ID.search(region)
    if match is None:
        return None
    try:
        text = json.loads(match.group(1))
    except ValueError:
        return None
    return text if isinstance(text, int | str) else None
