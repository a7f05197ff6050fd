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

from pygls.io_ import StdinAsyncReader

from symfuse.indexer.errors import SymfuseError

MAX_HEADER_LINE = 8 * 1024
MAX_BODY = 64 * 1024 * 1024
_LENGTH = re.compile(rb"content-length:\s*(.*?)\s*$", re.I)


class FramingError(SymfuseError):
    """The client's byte stream broke the base protocol beyond recovery."""


class GuardedReader(StdinAsyncReader):
    """pygls' stdin reader with the checks of the module docstring."""

    async def readline(self) -> bytes:
        line: bytes = await self.loop.run_in_executor(
            self.executor, self.stdin.readline, MAX_HEADER_LINE + 1
        )
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
