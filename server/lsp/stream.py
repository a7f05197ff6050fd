"""The message loop: frames from :mod:`symfuse.server.lsp.framing` into the protocol.

It replaces pygls' ``run_async``, which reads with a reader that stops or hangs on a
malformed stream. An unreadable frame is logged (one line on stderr, never stdout:
stdout is the protocol) and answered with a parse error; the loop reads on, over
stdio (:func:`stdin_reader`) or a TCP connection alike.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import BinaryIO

from pygls.exceptions import JsonRpcException

from symfuse.server.lsp.framing import FrameReader, Read, Unreadable
from symfuse.server.lsp.protocol import ConformingProtocol

log = logging.getLogger(__name__)


def stdin_reader(stdin: BinaryIO, executor: ThreadPoolExecutor | None) -> Read:
    """``read(n)`` over a blocking binary stream: whatever has arrived, up to ``n`` bytes,
    in one worker-thread hop (a burst of small requests is one hop, not three each)."""
    read = getattr(stdin, "read1", stdin.read)

    async def read_some(n: int) -> bytes:
        chunk: bytes = await asyncio.get_running_loop().run_in_executor(executor, read, n)
        return chunk

    return read_some


async def serve(frames: FrameReader, protocol: ConformingProtocol, stop: threading.Event) -> None:
    """Hand each message to ``protocol`` until the stream ends or ``stop`` is set."""
    while not stop.is_set():
        frame = await frames.next()
        if frame is None:
            return
        if isinstance(frame, Unreadable):
            log.warning("unreadable message, answered with a parse error: %s", frame.reason)
            protocol.answer_unreadable(frame)
            continue
        try:
            protocol.receive(frame.value)
        except JsonRpcException as exc:  # a notification whose params do not fit
            log.warning("message not handled: %s", exc.message)
        except BrokenPipeError:
            raise
        except Exception:  # a handler's bug must not end the session: logged in full
            log.exception("message not handled")
