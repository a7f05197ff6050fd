"""A raw JSON-RPC client over a process's stdio: framed messages in, parsed messages out.

For what a well-behaved client library would never send (bad params, null ids,
bursts with cancellations), to the installed ``symfuse lsp``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

READY_TIMEOUT = 30.0  # seconds: only turns a hang into a failure


class RawClient:
    """Writes framed JSON-RPC and reads answers, matched by id."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.answers: dict[Any, dict[str, Any]] = {}

    async def send(self, message: dict[str, Any]) -> None:
        await self.send_all([message])

    async def send_all(self, messages: list[dict[str, Any]]) -> None:
        """Write ``messages`` in one go (a burst reaches the server as fast as it reads)."""
        assert self.process.stdin is not None
        frames = []
        for message in messages:
            body = json.dumps({"jsonrpc": "2.0", **message}).encode()
            frames.append(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        # one write: the transport writes each call at once, so a write per message let
        # the server read (and answer) the first ones before the rest had arrived
        self.process.stdin.write(b"".join(frames))
        await self.process.stdin.drain()

    async def answer(self, msg_id: Any) -> dict[str, Any]:
        """The response to request ``msg_id`` (waits for it; notifications are skipped)."""
        async with asyncio.timeout(READY_TIMEOUT):
            while msg_id not in self.answers:
                message = await self.read()
                if "id" in message and "method" not in message:
                    self.answers[message["id"]] = message
        return self.answers.pop(msg_id)

    async def ask(self, msg_id: Any, method: str, **fields: Any) -> dict[str, Any]:
        await self.send({"id": msg_id, "method": method, **fields})
        return await self.answer(msg_id)

    async def read(self) -> dict[str, Any]:
        """The next message from the server, whatever it is."""
        stdout = self.process.stdout
        assert stdout is not None
        length = 0
        while (line := await stdout.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message: dict[str, Any] = json.loads(await stdout.readexactly(length))
        return message
