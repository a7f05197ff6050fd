"""The LSP half of ``large_bench.py``: ``workspace/symbol`` latency and edit visibility.

``symfuse lsp`` runs over stdio under pygls' LanguageClient on a warm index:

- latency: the bench's queries through ``workspace/symbol`` once the fused ranking is
  warm (the ``symfuse/status`` request says so), p50/p95;
- edit visibility (issue 16 target 6: <= 150 ms): a file is opened, a definition with
  a new name is appended through ``didChange``, and ``workspace/symbol`` is asked for
  that name until it is answered; the time from the change to that answer, over
  ``edits`` edits of the same file;
- the same latency through a bare JSON-RPC client (:func:`raw_latency`): bytes out,
  ``json.loads`` in, so that what the server costs is told apart from what pygls'
  client adds (turning 200 symbols into lsprotocol objects takes it about 6 ms).
"""

from __future__ import annotations

import asyncio
import json
import statistics
import time
from pathlib import Path
from typing import Any

from lsp_bench import _client, _symbols, start
from lsprotocol import types as lsp
from pygls.uris import from_fs_path


async def _started(command: list[str], tree: Path) -> Any:
    client = _client("symfuse")
    await start(client, command, tree, tree.name)
    while True:  # the fused ranking is warm
        status = await client.protocol.send_request_async("symfuse/status", None)
        if getattr(status, "ranking", False):
            return client
        await asyncio.sleep(0.1)


async def _edits(client: Any, target: Path, edits: int) -> list[float]:
    """Milliseconds from each ``didChange`` to the first answer naming the new definition."""
    uri = from_fs_path(str(target)) or ""
    text = target.read_text(encoding="utf-8")
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
        )
    )
    seen: list[float] = []
    for n in range(edits):
        name = f"symfuse_probe_edit_{n}"
        text += f"\n\ndef {name}():\n    return {n}\n"
        began = time.perf_counter()
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                lsp.VersionedTextDocumentIdentifier(version=n + 2, uri=uri),
                [lsp.TextDocumentContentChangeWholeDocument(text)],
            )
        )
        while not any(found == name for found, _ in await _symbols(client, name)):
            pass
        seen.append((time.perf_counter() - began) * 1000)
    return seen


async def lsp_serving(
    symfuse: Path, tree: Path, index_dir: Path, queries: list[str], edit_file: Path, edits: int
) -> dict[str, float]:
    """p50/p95 of ``workspace/symbol``, and edit visibility p50/max, on a warm index."""
    client = await _started([str(symfuse), "lsp", "--index-dir", str(index_dir)], tree)
    try:
        for text in queries[:5]:  # warm-up
            await _symbols(client, text)
        samples = []
        for text in queries:
            began = time.perf_counter()
            await _symbols(client, text)
            samples.append((time.perf_counter() - began) * 1000)
        visible = await _edits(client, edit_file, edits)
    finally:
        await asyncio.wait_for(client.shutdown_async(None), 30)
        client.exit(None)
        await asyncio.wait_for(client.stop(), 30)
    ordered = sorted(samples)
    return {
        "p50_ms": statistics.median(ordered),
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))],
        "edit_p50_ms": statistics.median(visible),
        "edit_max_ms": max(visible),
    }


class _Raw:
    """A bare JSON-RPC client over a server's stdio: what an editor's client costs."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.next_id = 0

    async def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        body = json.dumps({"jsonrpc": "2.0", **message}).encode()
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        await self.process.stdin.drain()

    async def ask(self, method: str, params: Any) -> Any:
        self.next_id += 1
        mine = self.next_id
        await self.send({"id": mine, "method": method, "params": params})
        while True:
            message = await self._read()
            if message.get("id") == mine and "method" not in message:
                return message.get("result")
            if "method" in message and "id" in message:  # a request of the server's
                await self.send({"id": message["id"], "result": None})

    async def _read(self) -> dict[str, Any]:
        assert self.process.stdout is not None
        length = 0
        while (line := await self.process.stdout.readline()) not in (b"\r\n", b""):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        found: dict[str, Any] = json.loads(await self.process.stdout.readexactly(length))
        return found


async def raw_latency(
    symfuse: Path, tree: Path, index_dir: Path, queries: list[str]
) -> dict[str, float]:
    """p50/p95 of ``workspace/symbol`` through :class:`_Raw` once the fused ranking is warm."""
    process = await asyncio.create_subprocess_exec(
        str(symfuse), "lsp", "--index-dir", str(index_dir),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    client = _Raw(process)
    init = {"processId": None, "rootUri": from_fs_path(str(tree)), "capabilities": {}}
    await client.ask("initialize", init)
    await client.send({"method": "initialized", "params": {}})
    while not (await client.ask("symfuse/status", None) or {}).get("ranking"):
        await asyncio.sleep(0.1)
    for text in queries[:5]:  # warm-up
        await client.ask("workspace/symbol", {"query": text})
    samples = []
    for text in queries:
        began = time.perf_counter()
        await client.ask("workspace/symbol", {"query": text})
        samples.append((time.perf_counter() - began) * 1000)
    await client.ask("shutdown", None)
    await client.send({"method": "exit"})
    await asyncio.wait_for(process.wait(), 30)
    ordered = sorted(samples)
    return {"p50_ms": statistics.median(ordered), "p95_ms": ordered[int(0.95 * (len(ordered) - 1))]}
