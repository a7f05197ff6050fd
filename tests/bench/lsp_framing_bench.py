"""The language server never wedges (issue 38): a burst of distinct queries with
cancellations, and the framing cases, over ``symfuse lsp``'s real stdio.

    python tests/bench/lsp_framing_bench.py [--root DIR] [--symfuse PATH ...]

1. **Burst**: once the index of ``--root`` (default: this repository's ``ranking/``
   folder) is ready, 1,000 ``workspace/symbol`` requests for distinct definition
   names, no one a prefix of another (no typing among them), are written at once,
   each of a random 30 % followed by its ``$/cancelRequest``. Reported: the requests
   answered with results, ContentModified (-32801), RequestCancelled (-32800), other
   errors, unanswered; and of the cancelled ones, how many were acknowledged.
2. **Framing**: for each malformed frame (a Content-Length that is not a number, one
   of a terabyte, a 20 MB header line with no newline, a length 40 bytes too large or
   10 too small, a body with no Content-Length), a fresh server on the LSP fixture is
   sent the frame and then a normal ``workspace/symbol``: ``served`` when the normal
   request is answered, ``crash`` when the process exits, ``wedge`` when nothing comes
   within ``--wait`` seconds.

Each ``--symfuse`` (default: this environment's) is measured in turn. For the code of
another commit, run the bench with ``PYTHONPATH`` on a tree whose ``symfuse/`` links
to that checkout's ``indexer``, ``ranking`` and ``server`` (the editable install's
finder comes after ``PYTHONPATH``).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))  # the repository: tests.support

from tests.support.jsonrpc import RawClient  # noqa: E402

SYMFUSE = Path(sys.executable).with_name("symfuse")
FIXTURE = REPO / "tests" / "fixtures" / "lsp_workspace"
BURST = 1000
CANCELLED_SHARE = 0.3
REQUEST_CANCELLED = -32800
CONTENT_MODIFIED = -32801


def _body(msg_id: int) -> bytes:
    message = {"jsonrpc": "2.0", "id": msg_id, "method": "workspace/symbol"}
    return json.dumps({**message, "params": {"query": "Circle"}}).encode()


FRAMING = {
    "non-numeric length": b"Content-Length: abc\r\n\r\n" + _body(7),
    "absurd length": b"Content-Length: 1000000000000\r\n\r\n" + _body(7),
    "20 MB header line": b"X-Junk: " + b"a" * 20_000_000,
    "length 40 too large": b"Content-Length: %d\r\n\r\n%s" % (len(_body(7)) + 40, _body(7)),
    "length 10 too small": b"Content-Length: %d\r\n\r\n%s" % (len(_body(7)) - 10, _body(7)),
    "missing Content-Length": b"Content-Type: application/json\r\n\r\n" + _body(7),
}


def framed(message: dict[str, Any]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


class Answers:
    """Every answer the server writes, read in the background until its stdout closes."""

    def __init__(self, client: RawClient) -> None:
        self.client = client
        self.by_id: dict[Any, dict[str, Any]] = {}
        self.changed = asyncio.Event()
        self.closed = False
        self.task = asyncio.ensure_future(self._read())

    async def _read(self) -> None:
        try:
            while True:
                message = await self.client.read()
                if "id" in message and "method" not in message:
                    self.by_id[message["id"]] = message
                    self.changed.set()
        except (json.JSONDecodeError, asyncio.IncompleteReadError, ValueError):
            pass  # the stream ended (the server exited)
        finally:
            self.closed = True
            self.changed.set()

    async def wait(self, ids: set[Any], timeout: float) -> bool:
        """Whether all ``ids`` were answered before the stream closed and ``timeout``."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while not ids <= self.by_id.keys() and not self.closed:
                    self.changed.clear()
                    await self.changed.wait()
        return ids <= self.by_id.keys()


async def start(symfuse: Path, root: Path, index_dir: str) -> tuple[RawClient, Answers]:
    process = await asyncio.create_subprocess_exec(
        str(symfuse),
        "lsp",
        "--index-dir",
        index_dir,
        cwd=root,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    client = RawClient(process)
    answers = Answers(client)
    initialize: dict[str, Any] = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
    await client.send({"id": 0, "method": "initialize", "params": initialize})
    await client.send({"method": "initialized", "params": {}})
    for asked in range(1_000_000, 2_000_000):  # until the index and its ranking are ready
        await client.send({"id": asked, "method": "symfuse/status", "params": {}})
        if not await answers.wait({asked}, 60):
            raise RuntimeError("symfuse/status unanswered")
        status = answers.by_id[asked].get("result") or {}
        if status.get("ready") and status.get("ranking") and not status.get("indexing"):
            break
        await asyncio.sleep(0.2)
    return client, answers


async def leave(client: RawClient) -> None:
    with contextlib.suppress(BrokenPipeError, ConnectionResetError):
        await client.send({"id": "bye", "method": "shutdown"})
        await client.send({"method": "exit"})
    try:
        await asyncio.wait_for(client.process.wait(), 30)
    except TimeoutError:
        client.process.kill()
        await client.process.wait()


def queries(root: Path, count: int, seed: int = 38) -> list[str]:
    """``count`` distinct definition names of ``root``, no one a prefix of another
    (case-insensitively), padded with made-up names when the tree has too few."""
    found = {
        m.group(1)
        for path in root.rglob("*.py")
        for m in re.finditer(r"^\s*(?:def|class)\s+(\w{4,})", path.read_text("utf-8"), re.M)
    }
    found |= {f"made_up_{n:05d}_name" for n in range(count)}
    ordered = sorted(found, key=str.casefold)
    kept = [
        name
        for name, after in zip(ordered, [*ordered[1:], ""], strict=True)
        if not after.casefold().startswith(name.casefold())
    ]
    return random.Random(seed).sample(kept, count)


async def burst(symfuse: Path, root: Path) -> dict[str, int]:
    with tempfile.TemporaryDirectory() as index_dir:
        client, answers = await start(symfuse, root, index_dir)
        ids = list(range(1, BURST + 1))
        cancelled = set(random.Random(7).sample(ids, round(CANCELLED_SHARE * BURST)))
        messages: list[dict[str, Any]] = []
        for msg_id, query in zip(ids, queries(root, BURST), strict=True):
            params = {"query": query}
            messages.append({"id": msg_id, "method": "workspace/symbol", "params": params})
            if msg_id in cancelled:
                messages.append({"method": "$/cancelRequest", "params": {"id": msg_id}})
        writing = asyncio.ensure_future(client.send_all(messages))  # read while writing
        await answers.wait(set(ids), 1800)
        await writing
        await leave(client)

    def code(msg_id: int) -> int | None:
        error = answers.by_id.get(msg_id, {}).get("error")
        return None if error is None else int(error["code"])

    answered = [i for i in ids if i in answers.by_id]
    return {
        "requests": BURST,
        "answered_with_results": sum(code(i) is None for i in answered),
        "content_modified": sum(code(i) == CONTENT_MODIFIED for i in answered),
        "request_cancelled": sum(code(i) == REQUEST_CANCELLED for i in answered),
        "other_errors": sum(
            code(i) not in (None, CONTENT_MODIFIED, REQUEST_CANCELLED) for i in answered
        ),
        "unanswered": BURST - len(answered),
        "cancelled": len(cancelled),
        "cancelled_acknowledged": sum(code(i) == REQUEST_CANCELLED for i in cancelled),
        "not_cancelled_answered_with_results": sum(
            code(i) is None for i in answered if i not in cancelled
        ),
    }


async def framing_case(symfuse: Path, broken: bytes, wait: float) -> str:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "ws"
        shutil.copytree(FIXTURE, root)
        client, answers = await start(symfuse, root, str(Path(scratch) / "index"))
        stdin = client.process.stdin
        assert stdin is not None
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            for msg_id in (1, 2):  # the first may lend bytes to a frame declared too long
                request = {"id": msg_id, "method": "workspace/symbol", "params": {"query": "x"}}
                stdin.write((broken if msg_id == 1 else b"") + framed(request))
            await stdin.drain()
        served = await answers.wait({2}, wait)
        outcome = "served" if served else "crash" if answers.closed else "wedge"
        if outcome == "crash":
            await client.process.wait()
        else:
            await leave(client)
        return outcome


async def measure(symfuse: Path, root: Path, wait: float) -> dict[str, Any]:
    framing = {name: await framing_case(symfuse, broken, wait) for name, broken in FRAMING.items()}
    return {
        "symfuse": str(symfuse),
        "burst": await burst(symfuse, root),
        "framing": framing,
        "framing_crashes": sum(v == "crash" for v in framing.values()),
        "framing_wedges": sum(v == "wedge" for v in framing.values()),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=REPO / "ranking", help="the burst's tree")
    parser.add_argument("--symfuse", type=Path, action="append", help="symfuse command(s)")
    parser.add_argument("--wait", type=float, default=20.0, help="seconds before a wedge")
    args = parser.parse_args()
    for symfuse in args.symfuse or [SYMFUSE]:
        print(json.dumps(asyncio.run(measure(symfuse, args.root.resolve(), args.wait)), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
