"""``symfuse lsp`` over real stdio bytes never wedges (issue 38): a malformed frame is
answered with a parse error and the next request is served; only typing supersedes a
``workspace/symbol`` request; every cancel is acknowledged; none leaves a traceback.

Every wait is on the server's answers; the timeouts only turn a hang into a failure.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.server.lsp.test_protocol import error_code, exited, start
from tests.support.jsonrpc import RawClient
from tests.support.lsp import READY_TIMEOUT, copy_fixture

pytestmark = pytest.mark.slow  # each test starts symfuse lsp over stdio

PARSE_ERROR = -32700
REQUEST_CANCELLED = -32800
CONTENT_MODIFIED = -32801


def framed(message: dict[str, Any]) -> bytes:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def symbol_request(msg_id: int, query: str) -> dict[str, Any]:
    return {"id": msg_id, "method": "workspace/symbol", "params": {"query": query}}


@asynccontextmanager
async def ready_server(tmp_path: Path, *args: str) -> AsyncIterator[RawClient]:
    """An initialized ``symfuse lsp [args]`` on the fixture whose first index is complete;
    shut down and exited (code 0) at the end, with no traceback on its stderr."""
    root = copy_fixture(tmp_path)
    client = await start(root, tmp_path / "index", *args)
    init: dict[str, Any] = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
    assert "result" in await client.ask(0, "initialize", params=init)
    await client.send({"method": "initialized", "params": {}})
    asked = iter(range(10_000, 20_000))
    async with asyncio.timeout(READY_TIMEOUT):  # waits on the server's status answers
        while not (await client.ask(next(asked), "symfuse/status", params={}))["result"]["ready"]:
            await asyncio.sleep(0.05)
    yield client
    assert "result" in await client.ask(99_999, "shutdown")
    await client.send({"method": "exit"})
    assert await exited(client, tmp_path / "index") == 0
    stderr = (tmp_path / "server.err").read_text(errors="replace")
    assert "Traceback" not in stderr, stderr[-4000:]


async def still_serves(client: RawClient, msg_id: int) -> None:
    answer = await client.ask(msg_id, "workspace/symbol", params={"query": "Square"})
    assert "Square" in [item["name"] for item in answer["result"]], answer


def body(msg_id: int) -> bytes:
    return framed(symbol_request(msg_id, "Circle")).split(b"\r\n\r\n", 1)[1]


def declared(extra: int) -> bytes:
    """Request 7 framed with a Content-Length ``extra`` bytes off its body's length."""
    return b"Content-Length: %d\r\n\r\n%s" % (len(body(7)) + extra, body(7))


BROKEN = {
    "non-numeric length": (b"Content-Length: abc\r\n\r\n" + body(7), 7),
    "absurd length": (b"Content-Length: 1000000000000\r\n\r\n" + body(7), 7),
    "20 MB header line, no newline": (b"X-Junk: " + b"a" * 20_000_000, None),
    "length 40 bytes too large": (declared(40), 7),
    "length 10 bytes too small": (declared(-10), 7),
    "missing Content-Length": (b"Content-Type: application/json\r\n\r\n" + body(7), 7),
    "no header at all": (body(7), 7),
}


@pytest.mark.parametrize(("broken", "msg_id"), BROKEN.values(), ids=BROKEN.keys())
async def test_a_broken_frame_is_answered_and_the_server_serves_on(
    tmp_path: Path, broken: bytes, msg_id: int | None
) -> None:
    async with ready_server(tmp_path) as client:
        stdin = client.process.stdin
        assert stdin is not None
        # The broken frame and a good request in one write: a frame declared too long
        # takes its missing bytes from the next message, as it would from any client.
        stdin.write(broken + framed(symbol_request(1, "Square")))
        await stdin.drain()
        unreadable = await client.answer(msg_id)
        assert error_code(unreadable) == PARSE_ERROR, unreadable
        answered = await client.answer(1)
        assert "Square" in [item["name"] for item in answered["result"]], answered
        await still_serves(client, 2)
    stderr = (tmp_path / "server.err").read_text(errors="replace")
    assert stderr.count("unreadable message") == 1, stderr[-4000:]


async def test_every_broken_frame_in_turn_leaves_one_server_serving(tmp_path: Path) -> None:
    async with ready_server(tmp_path) as client:
        stdin = client.process.stdin
        assert stdin is not None
        for n, (broken, msg_id) in enumerate(BROKEN.values(), start=1):
            stdin.write(broken + framed(symbol_request(100 + n, "Square")))
            await stdin.drain()
            assert error_code(await client.answer(msg_id)) == PARSE_ERROR
            assert "result" in await client.answer(100 + n)
            await still_serves(client, 200 + n)


async def test_the_framing_limits_are_set_on_the_command_line(tmp_path: Path) -> None:
    async with ready_server(tmp_path, "--max-header-line", "100", "--max-message", "1K") as client:
        stdin = client.process.stdin
        assert stdin is not None
        padded = symbol_request(7, "Square")
        padded["params"]["padding"] = "x" * 1100  # a good request, over the 1 KB set
        stdin.write(framed(padded) + framed(symbol_request(8, "Circle")))
        await stdin.drain()
        assert error_code(await client.answer(7)) == PARSE_ERROR
        assert "result" in await client.answer(8)
        # a header line over the 100 bytes set: that frame is skipped, the next is read
        noted = framed(symbol_request(9, "Square")).replace(
            b"\r\n", b"\r\nX-Note: " + b"y" * 120 + b"\r\n", 1
        )
        stdin.write(noted + framed(symbol_request(10, "Circle")))
        await stdin.drain()
        assert "result" in await client.answer(10)
        await still_serves(client, 50)
    stderr = (tmp_path / "server.err").read_text(errors="replace")
    assert stderr.count("unreadable message") == 2, stderr[-4000:]


def unrelated(count: int) -> list[str]:
    """``count`` queries no two of which extend one another: not typing."""
    names = ["Square", "Circle", "Shape", "Greeter", "registry", "report"]
    queries = [f"{names[n % len(names)][:3]}_{n:04d}" for n in range(count - len(names))]
    return names + queries


async def test_a_burst_of_distinct_queries_is_answered_in_full(tmp_path: Path) -> None:
    async with ready_server(tmp_path) as client:
        queries = unrelated(200)
        await client.send_all([symbol_request(n, q) for n, q in enumerate(queries, start=1)])
        answers = {n: await client.answer(n) for n in range(1, len(queries) + 1)}
        dropped = [n for n, a in answers.items() if "result" not in a]
        assert not dropped, [answers[n] for n in dropped[:3]]
        assert "Square" in [item["name"] for item in answers[1]["result"]]


async def test_typing_supersedes_all_but_the_last_query(tmp_path: Path) -> None:
    async with ready_server(tmp_path) as client:
        typed = ["s", "sq", "squ", "SQUA", "Squ", "Squar"]  # on, on, on, back, on
        await client.send_all([symbol_request(n, q) for n, q in enumerate(typed, start=1)])
        answers = [await client.answer(n) for n in range(1, len(typed) + 1)]
        for answer in answers[:-1]:
            assert "result" in answer or error_code(answer) == CONTENT_MODIFIED, answer
        assert "Square" in [item["name"] for item in answers[-1]["result"]]
        await still_serves(client, 50)


async def test_every_cancel_in_a_burst_is_acknowledged(tmp_path: Path) -> None:
    """Cancels written with their requests (under PIPE_BUF, so read in one go) are each
    answered RequestCancelled; the requests not cancelled are answered with results."""
    async with ready_server(tmp_path) as client:
        burst: list[dict[str, Any]] = []
        queries = unrelated(24)
        for n, query in enumerate(queries, start=1):
            burst.append(symbol_request(n, query))
            if n % 3 == 0:
                burst.append({"method": "$/cancelRequest", "params": {"id": n}})
        assert sum(len(framed(m)) for m in burst) < 4096  # PIPE_BUF: one atomic write
        await client.send_all(burst)
        for n in range(1, len(queries) + 1):
            answer = await client.answer(n)
            if n % 3 == 0:
                assert error_code(answer) == REQUEST_CANCELLED, (n, answer)
            else:
                assert "result" in answer, (n, answer)
        await still_serves(client, 50)
