"""Load on both servers (issue 15's acceptance): an LSP burst with cancellations, and many
MCP sessions over streamable HTTP, on the Django tree.

    python tests/bench/load_bench.py [--part lsp|mcp|both] [--symfuse PATH ...]

1. **LSP burst**: ``symfuse lsp`` over stdio, driven by a raw JSON-RPC client; once the
   index and its ranking data are ready, 1,000 ``workspace/symbol`` requests (names of
   Django definitions, cut to a prefix) are written at once, then a
   ``$/cancelRequest`` for 30 % of them. Reported: latency p50/p95 of the others
   (answered with symbols, or ContentModified when a newer request overtook them),
   the cancelled requests answered RequestCancelled (-32800) of those cancelled, other
   errors, unanswered requests, the server's RSS after the burst and its peak.
2. **MCP over HTTP**: ``symfuse mcp --transport http`` on 127.0.0.1; 50 sessions of the
   SDK's client make 40 ``search`` calls each, all at once (distinct queries: the
   query cache answers none). Reported: p50/p95 per call, calls/s, RSS. Then the same
   with a slow ``search_text`` regex running in one more session the whole time
   (a pattern that backtracks on every line, stopped by its 10 s budget): the
   other sessions' ``search`` p50/p95.

Each ``--symfuse`` (default: this environment's) is measured in turn, so a checkout of
main and a branch run back to back on the same machine. Figures taken while other work
runs on the machine are indicative only. Django comes from ``tests/bench/corpus.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import socket
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent.parent))  # the repository: tests.support

from mcp import ClientSession  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp_types import CallToolResult, TextContent  # noqa: E402

from tests.support.jsonrpc import RawClient  # noqa: E402

sys.path.insert(0, str(HERE))
import mcp_bench  # noqa: E402 - tests/bench/mcp_bench.py: django_root, percentiles
from mcp_bench import percentiles  # noqa: E402

SYMFUSE = Path(sys.executable).with_name("symfuse")
BURST = 1000
CANCELLED_SHARE = 0.3
SESSIONS = 50
CALLS = 40
SLOW_PATTERN = r".*.*.*.*.*.*Q$"  # risky: O(n^6) backtracking on a line without Q at its end
SLOW_BUDGET = 10.0
REQUEST_CANCELLED = -32800
CONTENT_MODIFIED = -32801


def django_root() -> Path:
    return mcp_bench.django_root(None)


def names(root: Path, count: int, seed: int = 15) -> list[str]:
    """``count`` query strings: prefixes (4+ characters) of Django definition names."""
    found = sorted(
        {
            m.group(1)
            for path in root.rglob("*.py")
            for m in re.finditer(r"^\s*(?:def|class)\s+(\w{4,})", path.read_text("utf-8"), re.M)
        }
    )
    rng = random.Random(seed)
    return [n[: rng.randint(4, len(n))] for n in rng.choices(found, k=count)]


def rss_mb(pid: int) -> dict[str, float]:
    """The process's resident memory now and at its peak (Linux /proc), in MB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    return {"rss_mb": fields.get("VmRSS", 0.0), "peak_rss_mb": fields.get("VmHWM", 0.0)}


@contextmanager
def index_directory(kept: Path | None) -> Iterator[str]:
    """``kept`` (an index the runs share: one cold index for all), else a fresh one."""
    if kept is not None:
        yield str(kept)
        return
    with tempfile.TemporaryDirectory() as fresh:
        yield fresh


async def until(check: Callable[[], Awaitable[bool]], what: str, limit: float = 1800) -> None:
    async with asyncio.timeout(limit):
        while not await check():
            await asyncio.sleep(0.5)
    print(f"  {what}", file=sys.stderr)


# --- LSP burst ---------------------------------------------------------------------------


async def start_lsp(symfuse: Path, root: Path, index_dir: str) -> RawClient:
    process = await asyncio.create_subprocess_exec(
        str(symfuse),
        "lsp",
        "--index-dir",
        index_dir,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    client = RawClient(process)
    folder = {"uri": root.as_uri(), "name": "django"}
    initialize = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
    await client.ask(0, "initialize", params={**initialize, "workspaceFolders": [folder]})
    await client.send({"method": "initialized", "params": {}})
    asked = iter(range(1_000_000, 2_000_000))

    async def ready() -> bool:
        status = (await client.ask(next(asked), "symfuse/status", params={})).get("result") or {}
        return bool(status.get("ready") and status.get("ranking") and not status.get("indexing"))

    await until(ready, "lsp: index and ranking data ready")
    await client.ask(next(asked), "workspace/symbol", params={"query": "QuerySet"})
    return client


async def lsp_burst(
    symfuse: Path, root: Path, queries: list[str], kept: Path | None
) -> dict[str, Any]:
    """1,000 workspace/symbol at once, 30 % of them cancelled right after (see the module)."""
    with index_directory(kept) as index_dir:
        client = await start_lsp(symfuse, root, index_dir)
        ids = list(range(1, BURST + 1))
        cancelled = set(random.Random(7).sample(ids, round(CANCELLED_SHARE * BURST)))
        requests = [
            {"id": i, "method": "workspace/symbol", "params": {"query": q}}
            for i, q in zip(ids, queries, strict=False)
        ]
        cancels = [{"method": "$/cancelRequest", "params": {"id": i}} for i in sorted(cancelled)]
        arrived: dict[int, tuple[float, dict[str, Any]]] = {}
        started = time.perf_counter()

        async def read_answers() -> None:
            while len(arrived) < BURST:
                message = await client.read()
                if isinstance(message.get("id"), int) and "method" not in message:
                    arrived[message["id"]] = (time.perf_counter() - started, message)

        # Read while writing, as a client must: the server answers as it reads, and a
        # full pipe each way would stop both.
        reading = asyncio.ensure_future(read_answers())
        await client.send_all(requests + cancels)
        await asyncio.wait_for(reading, 1800)
        memory = rss_mb(client.process.pid)
        await client.ask("bye", "shutdown")
        await client.send({"method": "exit"})
        await client.process.wait()
    return burst_summary(arrived, cancelled) | memory


def burst_summary(
    arrived: dict[int, tuple[float, dict[str, Any]]], cancelled: set[int]
) -> dict[str, Any]:
    def code(message: dict[str, Any]) -> int | None:
        error = message.get("error")
        return None if error is None else int(error["code"])

    kept = {i: v for i, v in arrived.items() if i not in cancelled}
    return {
        "requests": BURST,
        "cancelled": len(cancelled),
        "cancel_acknowledged": sum(code(arrived[i][1]) == REQUEST_CANCELLED for i in cancelled),
        # Overtaken and answered ContentModified before its cancel was read: dropped too.
        "cancelled_dropped_first": sum(code(arrived[i][1]) == CONTENT_MODIFIED for i in cancelled),
        "cancelled_but_computed": sum(code(arrived[i][1]) is None for i in cancelled),
        "kept_latency": percentiles([t for t, _ in kept.values()]) if kept else {},
        "kept_with_symbols": sum(code(m) is None for _, m in kept.values()),
        "kept_content_modified": sum(code(m) == CONTENT_MODIFIED for _, m in kept.values()),
        "other_errors": sum(
            code(m) not in (None, CONTENT_MODIFIED, REQUEST_CANCELLED) for _, m in arrived.values()
        ),
        "burst_wall_s": round(max(t for t, _ in arrived.values()), 2),
    }


# --- MCP over HTTP -----------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Session:
    """One SDK client session over streamable HTTP, timing each call."""

    def __init__(self, url: str) -> None:
        self.url = url

    async def run(
        self, calls: list[tuple[str, dict[str, Any]]], start: asyncio.Barrier | None = None
    ) -> list[float]:
        """Each call's seconds; with ``start``, the calls begin once every session is open."""
        async with (
            streamable_http_client(self.url) as (read, write),
            ClientSession(read, write, read_timeout_seconds=900) as session,
        ):
            await session.initialize()
            if start is not None:
                await start.wait()
            took = []
            for tool, arguments in calls:
                started = time.perf_counter()
                result = await session.call_tool(tool, arguments)
                took.append(time.perf_counter() - started)
                assert isinstance(result, CallToolResult)
                if result.is_error and tool == "search":
                    text = "".join(c.text for c in result.content if isinstance(c, TextContent))
                    raise RuntimeError(f"{tool} {arguments}: {text}")
            return took


async def start_mcp(symfuse: Path, root: Path, index_dir: str) -> tuple[Any, str]:
    port = free_port()
    process = await asyncio.create_subprocess_exec(
        *(str(symfuse), "mcp", str(root), "--index-dir", index_dir, "--no-watch"),
        *("--transport", "http", "--port", str(port), "--ready-timeout", "1800"),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )

    async def listening() -> bool:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            assert process.returncode is None, "symfuse mcp exited"
            return False
        return True

    await until(listening, "mcp: listening")
    url = f"http://127.0.0.1:{port}/mcp"
    await Session(url).run([("search", {"query": "QuerySet"})])  # waits for the index
    return process, url


async def sessions(
    url: str, queries: list[str], count: int, calls: int
) -> tuple[list[float], float]:
    """``count`` sessions of ``calls`` searches each, started together; every call's
    seconds, and the wall time of them all."""
    start = asyncio.Barrier(count + 1)  # the sessions initialize first, off the clock
    batches = [
        [("search", {"query": q}) for q in queries[n * calls : (n + 1) * calls]]
        for n in range(count)
    ]
    running = asyncio.gather(*(Session(url).run(b, start) for b in batches))
    await start.wait()
    started = time.perf_counter()
    took = [t for batch in await running for t in batch]
    return took, time.perf_counter() - started


async def mcp_load(
    symfuse: Path, root: Path, queries: list[str], kept: Path | None
) -> dict[str, Any]:
    with index_directory(kept) as index_dir:
        process, url = await start_mcp(symfuse, root, index_dir)
        try:
            alone, _ = await sessions(url, queries[-CALLS:], 1, CALLS)
            took, wall = await sessions(url, queries, SESSIONS, CALLS)
            figures: dict[str, Any] = {
                "search_one_session": percentiles(alone),  # each call's own cost
                "sessions": SESSIONS,
                "calls_each": CALLS,
                "search": percentiles(took),
                "calls_per_s": round(len(took) / wall, 1),
            }
            figures |= rss_mb(process.pid)
            scan = [
                ("search_text", {"pattern": SLOW_PATTERN, "regex": True, "timeout": SLOW_BUDGET})
            ]
            regex = asyncio.ensure_future(Session(url).run(scan))
            await asyncio.sleep(1.0)  # the scan is under way (a benchmark may wait on the clock)
            later = queries[SESSIONS * CALLS :]
            took, _ = await sessions(url, later, 10, 20)
            figures["search_during_slow_regex"] = percentiles(took)
            figures["regex_still_running_after"] = not regex.done()
            figures["regex_s"] = round((await regex)[0], 2)
            return figures
        finally:
            process.terminate()
            await process.wait()


# --- main --------------------------------------------------------------------------------


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    root = args.django or django_root()
    queries = names(root, BURST + SESSIONS * CALLS + 200 + CALLS)
    report: dict[str, Any] = {"root": str(root)}
    for symfuse in args.symfuse or [SYMFUSE]:
        figures: dict[str, Any] = {}
        if args.part in ("lsp", "both"):
            print(f"{symfuse}: LSP burst", file=sys.stderr)
            figures["lsp_burst"] = await lsp_burst(symfuse, root, queries[:BURST], args.index_dir)
        if args.part in ("mcp", "both"):
            print(f"{symfuse}: MCP over HTTP", file=sys.stderr)
            figures["mcp_http"] = await mcp_load(symfuse, root, queries[BURST:], args.index_dir)
        report[str(symfuse)] = figures
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("lsp", "mcp", "both"), default="both")
    parser.add_argument("--symfuse", type=Path, action="append", help="a symfuse to measure")
    parser.add_argument("--django", type=Path, help="the django package directory")
    parser.add_argument("--index-dir", type=Path, help="an index directory every run shares")
    report = asyncio.run(main_async(parser.parse_args()))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
