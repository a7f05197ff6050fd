"""JSON-RPC conformance of ``symfuse lsp`` under bad input, over real stdio bytes: every
request is answered (an error where the params do not fit), nothing hangs."""

from __future__ import annotations

import asyncio
import json
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from tests.support.jsonrpc import RawClient
from tests.support.lsp import READY_TIMEOUT, SYMFUSE, copy_fixture

pytestmark = pytest.mark.slow  # each test starts symfuse lsp over stdio

INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
SERVER_NOT_INITIALIZED = -32002
REQUEST_CANCELLED = -32800
CONTENT_MODIFIED = -32801


async def start(root: Path, index_dir: Path, *args: str) -> RawClient:
    """``symfuse lsp [args]`` in ``root``, its stderr beside ``index_dir`` (see :func:`exited`)."""
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    with (index_dir.parent / "server.err").open("wb") as err:
        process = await asyncio.create_subprocess_exec(
            str(SYMFUSE),
            "lsp",
            "--index-dir",
            str(index_dir),
            *args,
            cwd=root,
            env={**os.environ, "PYTHONFAULTHANDLER": "1"},
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
        )
    return RawClient(process)


async def exited(client: RawClient, index_dir: Path) -> int:
    """The server's exit code; a server still running after READY_TIMEOUT is aborted,
    and the failure shows where each of its threads was (faulthandler's dump)."""
    try:
        return await asyncio.wait_for(client.process.wait(), READY_TIMEOUT)
    except TimeoutError:
        client.process.send_signal(signal.SIGABRT)
        await client.process.wait()
        err = (index_dir.parent / "server.err").read_text(errors="replace")
        raise AssertionError(f"the server did not exit; its stderr ends:\n{err[-6000:]}") from None


def error_code(answer: dict[str, Any]) -> int | None:
    error = answer.get("error")
    return None if error is None else int(error["code"])


async def test_every_bad_request_gets_an_answer(tmp_path: Path) -> None:
    root = copy_fixture(tmp_path)
    client = await start(root, tmp_path / "index")
    uri = (root / "geometry" / "shapes.py").as_uri()
    early = await client.ask(0, "workspace/symbol", params={"query": "Shape"})
    assert error_code(early) == SERVER_NOT_INITIALIZED
    init = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
    assert "result" in await client.ask(1, "initialize", params=init)
    await client.send({"method": "initialized", "params": {}})
    document = {"uri": uri}
    bad: list[tuple[str, dict[str, Any]]] = [
        ("workspace/symbol", {}),
        ("workspace/symbol", {"params": "Shape"}),
        ("workspace/symbol", {"params": {"query": 123}}),
        ("workspace/symbol", {"params": {"query": None}}),
        (
            "textDocument/definition",
            {"params": {"textDocument": document, "position": {"line": "1", "character": "2"}}},
        ),
        ("textDocument/definition", {"params": {"position": {"line": 1, "character": 2}}}),
        (
            "textDocument/definition",
            {"params": {"textDocument": {"uri": 42}, "position": {"line": 1, "character": 2}}},
        ),
        (
            "textDocument/references",
            {"params": {"textDocument": document, "position": {"line": 1, "character": 2}}},
        ),
        ("textDocument/references", {"params": []}),
        ("textDocument/hover", {"params": {"textDocument": document, "position": None}}),
        (
            "textDocument/hover",
            {"params": {"textDocument": document, "position": {"line": 0, "character": -1}}},
        ),
        (
            "textDocument/hover",
            {"params": {"textDocument": document, "position": {"line": 2**31, "character": 0}}},
        ),
        (
            "textDocument/hover",
            {"params": {"textDocument": document, "position": {"line": 10**30, "character": 0}}},
        ),
    ]
    for number, (method, fields) in enumerate(bad, 10):
        answer = await client.ask(number, method, **fields)
        assert error_code(answer) == INVALID_PARAMS, (method, fields, answer)
    await client.send({"id": None, "method": "workspace/symbol", "params": {"query": "x"}})
    assert error_code(await client.answer(None)) == INVALID_REQUEST
    good = await client.ask(50, "workspace/symbol", params={"query": "Shape"})
    assert "result" in good  # the server is still serving
    assert "result" in await client.ask(51, "shutdown")
    late = await client.ask(52, "workspace/symbol", params={"query": "Shape"})
    assert error_code(late) == INVALID_REQUEST
    await client.send({"method": "exit"})
    assert await exited(client, tmp_path / "index") == 0


async def test_exit_without_shutdown_exits_with_1(tmp_path: Path) -> None:
    client = await start(copy_fixture(tmp_path), tmp_path / "index")
    await client.ask(1, "initialize", params={"processId": None, "capabilities": {}})
    await client.send({"method": "exit"})
    assert await exited(client, tmp_path / "index") == 1


async def test_header_lines_ending_in_a_bare_newline_are_read(tmp_path: Path) -> None:
    client = await start(copy_fixture(tmp_path), tmp_path / "index")
    body = json.dumps(
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}}
    ).encode()
    assert client.process.stdin is not None
    client.process.stdin.write(b"Content-Length: %d\n\n%s" % (len(body), body))
    assert "result" in await client.answer(1)
    assert "result" in await client.ask(2, "shutdown")
    await client.send({"method": "exit"})
    assert await exited(client, tmp_path / "index") == 0


async def test_a_burst_with_cancellations_is_answered_as_one(tmp_path: Path) -> None:
    """Requests and their cancellations written at once are read at once: every cancelled
    request gets RequestCancelled, every overtaken one ContentModified, the newest an
    answer (one write under PIPE_BUF reaches the server's reader whole)."""
    root = copy_fixture(tmp_path)
    client = await start(root, tmp_path / "index")
    init = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
    assert "result" in await client.ask(0, "initialize", params=init)
    await client.send({"method": "initialized", "params": {}})
    burst: list[dict[str, Any]] = []
    ids = range(1, 20)
    for n in ids:
        burst.append({"id": n, "method": "workspace/symbol", "params": {"query": "Square"}})
        if n % 4 == 0:
            burst.append({"method": "$/cancelRequest", "params": {"id": n}})
    assert len(json.dumps(burst)) + 40 * len(burst) < 4096  # PIPE_BUF: one atomic write
    await client.send_all(burst)
    answers = {n: await client.answer(n) for n in ids}
    for n in ids[:-1]:
        wanted = REQUEST_CANCELLED if n % 4 == 0 else CONTENT_MODIFIED
        assert error_code(answers[n]) == wanted, (n, answers[n])
    assert isinstance(answers[ids[-1]]["result"], list)  # computed (the index may be cold)
    await client.ask(99, "shutdown")
    await client.send({"method": "exit"})
    assert await exited(client, tmp_path / "index") == 0
