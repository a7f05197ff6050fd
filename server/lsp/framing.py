"""The LSP base protocol's framing, read defensively.

pygls reads ``Content-Length: N\\r\\n`` header lines and then N bytes. On a
malformed stream it waits forever (a header line ending in ``\\n`` alone, a
length that is not a number) or dies (a length of a terabyte). This reader:

- accepts header lines ending in ``\\n`` alone, as many clients' hand-written
  framing does (the line is read as if it ended in ``\\r\\n``);
- refuses a header line over :data:`MAX_HEADER_LINE`, a ``Content-Length`` that is
  not a number, and a body over :data:`MAX_BODY`: the stream cannot be trusted
  past such a header, so the server stops with one message on stderr
  (:class:`FramingError`) instead of hanging or exhausting memory.
"""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from typing import BinaryIO

from pygls.io_ import StdinAsyncReader

from symfuse.indexer.errors import SymfuseError

MAX_HEADER_LINE = 8 * 1024
MAX_BODY = 64 * 1024 * 1024
CHUNK = 64 * 1024  # bytes read at a time: a burst of small requests in one read
_LENGTH = re.compile(rb"content-length:\s*(.*?)\s*$", re.I)


class FramingError(SymfuseError):
    """The client's byte stream broke the base protocol beyond recovery."""


class GuardedReader(StdinAsyncReader):
    """pygls' stdin reader with the checks of the module docstring, reading in chunks.

    pygls reads each header line and each body in a worker thread of its own: three
    thread hops per message, each waiting for the interpreter lock while searches
    hold it. A burst of requests was then read so slowly that its cancellations
    arrived after the requests they cancelled were answered and no request was ever
    overtaken. This reader takes whatever the client has sent so far in one hop
    (up to :data:`CHUNK` bytes) and parses the messages out of it.
    """

    def __init__(self, stdin: BinaryIO, executor: ThreadPoolExecutor | None = None) -> None:
        super().__init__(stdin, executor)
        self._buffer = bytearray()
        self._eof = False

    async def _fill(self) -> bool:
        """Append what has arrived (waiting for at least a byte); False at the end."""
        if self._eof:
            return False
        read = getattr(self.stdin, "read1", self.stdin.read)
        chunk: bytes = await self.loop.run_in_executor(self.executor, read, CHUNK)
        self._eof = not chunk
        self._buffer += chunk
        return bool(chunk)

    def _take(self, n: int) -> bytes:
        taken = bytes(self._buffer[:n])
        del self._buffer[:n]
        return taken

    async def _line(self) -> bytes:
        """The next line with its newline; a longer prefix when it is over the limit."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0:
                return self._take(end + 1)
            if len(self._buffer) > MAX_HEADER_LINE or not await self._fill():
                return self._take(MAX_HEADER_LINE + 1)

    async def readexactly(self, n: int) -> bytes:
        """``n`` bytes, fewer only at the end of the stream."""
        missing = n - len(self._buffer)
        if missing > 0 and not self._eof:  # the rest of a large body: in one read
            rest: bytes = await self.loop.run_in_executor(self.executor, self.stdin.read, missing)
            self._eof = len(rest) < missing
            self._buffer += rest
        return self._take(n)

    async def readline(self) -> bytes:
        line = await self._line()
        if len(line) > MAX_HEADER_LINE:
            raise FramingError(f"LSP header line longer than {MAX_HEADER_LINE} bytes; stopping")
        if line.endswith(b"\n") and not line.endswith(b"\r\n"):
            line = line[:-1] + b"\r\n"
        found = _LENGTH.match(line)
        if found is not None:
            text = found.group(1)
            if not text.isdigit():
                raise FramingError(f"LSP Content-Length is not a number: {text[:40]!r}; stopping")
            if int(text) > MAX_BODY:
                raise FramingError(
                    f"LSP message of {int(text)} bytes is over the {MAX_BODY} byte limit; stopping"
                )
            line = b"Content-Length: " + text + b"\r\n"
        return line
