"""Load on both servers (issue 15's acceptance): an LSP burst with cancellations, and many
MCP sessions over streamable HTTP, on the Django tree.

    python tests/bench/load_bench.py [--part lsp|mcp|both|soak] [--symfuse PATH ...]

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
   other sessions' ``search`` p50/p95. Then one session's 40 searches alone, beside one
   slow regex, and beside ``SCAN_BURST`` slow regexes from other sessions.

3. **LSP soak** (``--part soak``, not part of ``both``): ``symfuse lsp`` once ready,
   ``workspace/symbol`` requests at a steady ``--rate`` (20/s) for ``--soak-seconds``
   (180), distinct names, each answer read as it comes. Reported: the server's RSS every
   ``SOAK_SAMPLE`` seconds, per minute, and its growth in MB/min after ``--warmup`` (60 s:
   the ranking structures' first queries, the line texts read ahead; a server that built
   its structures itself warms up for about two minutes). With
   ``--tracemalloc DIR`` the server runs under tracemalloc, a snapshot is written at
   each sample, and the allocations that grew most between the end of warm-up and the
   last sample are printed (figures then include tracemalloc's own overhead).

Each ``--symfuse`` (default: this environment's) is measured in turn, so a checkout of
main and a branch run back to back on the same machine. Figures taken while other work
runs on the machine are indicative only. Django comes from ``tests/bench/corpus.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import signal
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
SCAN_BURST = 45  # slow regexes at once: more than the SDK's shared pool of 40 threads
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
    """The process's resident memory now and at its peak (Linux /proc), in MB; and of it
    now, the anonymous memory (the heap) and the pages of mapped files (the stored
    ranking structures, shared with the page cache)."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    return {
        "rss_mb": fields.get("VmRSS", 0.0),
        "peak_rss_mb": fields.get("VmHWM", 0.0),
        "anon_mb": fields.get("RssAnon", 0.0),
        "file_mb": fields.get("RssFile", 0.0),
    }


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


async def start_lsp(
    symfuse: Path, root: Path, index_dir: str, before: list[str] | None = None
) -> RawClient:
    """``symfuse lsp`` (``before``: arguments ahead of ``lsp``), once it answers searches."""
    process = await asyncio.create_subprocess_exec(
        str(symfuse),
        *(before or []),
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
            figures |= await one_session_beside_scans(url, queries, scan)
            return figures
        finally:
            process.terminate()
            await process.wait()


async def one_session_beside_scans(
    url: str, queries: list[str], scan: list[tuple[str, dict[str, Any]]]
) -> dict[str, Any]:
    """One session's searches beside one slow regex, then beside a burst of
    ``SCAN_BURST`` of them from another session (more than a shared pool has threads):
    each search's latency, against the same searches alone."""
    ahead = queries[-CALLS:]
    alone, _ = await sessions(url, ahead, 1, CALLS)
    figures: dict[str, Any] = {"one_session_alone": percentiles(alone)}
    for label, count in (("one_slow_regex", 1), ("burst_of_slow_regexes", SCAN_BURST)):
        running = [asyncio.ensure_future(Session(url).run(scan)) for _ in range(count)]
        await asyncio.sleep(1.0)  # the scans are under way
        took, _ = await sessions(url, ahead, 1, CALLS)
        figures[f"one_session_beside_{label}"] = percentiles(took)
        figures[f"{label}_still_running_after"] = not any(r.done() for r in running)
        await asyncio.gather(*running)
    return figures


# --- LSP soak ----------------------------------------------------------------------------

SOAK_SAMPLE = 10.0  # seconds between RSS samples
SOAK_WARMUP = 60.0  # seconds left out of the growth figure (--warmup)
# Runs ``symfuse lsp`` with tracemalloc: the first SIGUSR1 starts tracing (loading the index
# under it would take minutes), each later one writes a snapshot to a numbered file.
TRACED = """
import signal, sys, tracemalloc
count = [0]
folder = sys.argv[1]
def dump(_sig, _frame):
    if not tracemalloc.is_tracing():
        tracemalloc.start(12)
        return
    count[0] += 1
    tracemalloc.take_snapshot().dump(f"{folder}/snapshot-{count[0]:03d}.bin")
signal.signal(signal.SIGUSR1, dump)
from symfuse.server.cli.main import main
sys.argv = ["symfuse", *sys.argv[2:]]
sys.exit(main())
"""


async def lsp_soak(
    symfuse: Path, root: Path, queries: list[str], args: argparse.Namespace
) -> dict[str, Any]:
    """Steady workspace/symbol load; RSS over time (see the module docstring)."""
    with index_directory(args.index_dir) as index_dir:
        traced = args.tracemalloc
        if traced is not None:
            traced.mkdir(parents=True, exist_ok=True)
            python = symfuse.with_name("python")
            client = await start_lsp(python, root, index_dir, ["-c", TRACED, str(traced)])
        else:
            client = await start_lsp(symfuse, root, index_dir)
        pid = client.process.pid
        answered: list[float] = []
        errors = 0
        sent: dict[int, float] = {}

        async def read_answers() -> None:
            nonlocal errors
            while True:
                message = await client.read()
                msg_id = message.get("id")
                if isinstance(msg_id, int) and "method" not in message and msg_id in sent:
                    answered.append(time.perf_counter() - sent.pop(msg_id))
                    errors += "error" in message

        reading = asyncio.ensure_future(read_answers())
        samples: list[tuple[float, float, float]] = [(0.0, *_rss_anon(pid))]
        started = time.perf_counter()
        gap = 1.0 / args.rate
        n = 0
        next_sample = SOAK_SAMPLE
        while (now := time.perf_counter() - started) < args.soak_seconds:
            if now >= next_sample:
                samples.append((round(now, 1), *_rss_anon(pid)))
                if traced is not None:
                    client.process.send_signal(signal.SIGUSR1)
                print(
                    f"  {now:6.1f} s  rss {samples[-1][1]} MB, anon {samples[-1][2]}",
                    file=sys.stderr,
                )
                next_sample += SOAK_SAMPLE
            n += 1
            sent[n] = time.perf_counter()
            await client.send(
                {
                    "id": n,
                    "method": "workspace/symbol",
                    "params": {"query": queries[n % len(queries)]},
                }
            )
            await asyncio.sleep(max(0.0, started + n * gap - time.perf_counter()))
        await asyncio.sleep(2.0)  # the last answers
        samples.append((round(time.perf_counter() - started, 1), *_rss_anon(pid)))
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading
        await client.ask("bye", "shutdown")
        await client.send({"method": "exit"})
        await client.process.wait()
    figures = soak_summary(samples, n, answered, errors, args.warmup)
    if traced is not None:
        figures["grew_most"] = grew_most(traced, samples, args.warmup)
    return figures


def _rss_anon(pid: int) -> tuple[float, float]:
    memory = rss_mb(pid)
    return memory["rss_mb"], memory["anon_mb"]


def soak_summary(
    samples: list[tuple[float, float, float]],
    sent: int,
    answered: list[float],
    errors: int,
    warmup: float = SOAK_WARMUP,
) -> dict[str, Any]:
    """RSS (and its anonymous part) per minute, and their growth in MB/min after warm-up."""
    per_minute = {
        f"{int(t // 60)} min": (mb, anon) for t, mb, anon in samples if t % 60 < SOAK_SAMPLE
    }
    warm = [sample for sample in samples if sample[0] >= warmup]
    growth: dict[str, float] = {}
    if len(warm) >= 2:
        (t0, m0, a0), (t1, m1, a1) = warm[0], warm[-1]
        minutes = (t1 - t0) / 60
        growth = {"rss": round((m1 - m0) / minutes, 2), "anon": round((a1 - a0) / minutes, 2)}
    return {
        "sent": sent,
        "answered": len(answered),
        "errors": errors,
        "latency": percentiles(answered) if answered else {},
        "rss_mb_start": samples[0][1],
        "rss_mb_end": samples[-1][1],
        "rss_and_anon_mb_per_minute": per_minute,
        "growth_mb_per_min_after_warmup": growth,
        "samples": samples,
    }


def grew_most(
    traced: Path, samples: list[tuple[float, float, float]], warmup: float, top: int = 15
) -> list[str]:
    """The allocation sites that grew most from the first snapshot after warm-up to the last."""
    import tracemalloc

    files = sorted(traced.glob("snapshot-*.bin"))
    first = sum(1 for sample in samples[2:-1] if sample[0] < warmup)  # the first starts tracing
    if len(files) < 2:
        return []
    before = tracemalloc.Snapshot.load(str(files[min(first, len(files) - 2)]))
    after = tracemalloc.Snapshot.load(str(files[-1]))
    stats = after.compare_to(before, "traceback")
    lines = []
    for stat in stats[:top]:
        recent = reversed(stat.traceback[-6:])  # the allocating line first
        frames = " <- ".join(f"{Path(f.filename).name}:{f.lineno}" for f in recent)
        lines.append(f"{stat.size_diff / 1e6:+.2f} MB {stat.count_diff:+d} blocks: {frames}")
    return lines


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
        if args.part == "soak":
            print(f"{symfuse}: LSP soak", file=sys.stderr)
            figures["lsp_soak"] = await lsp_soak(symfuse, root, queries, args)
        if args.part in ("mcp", "both"):
            print(f"{symfuse}: MCP over HTTP", file=sys.stderr)
            figures["mcp_http"] = await mcp_load(symfuse, root, queries[BURST:], args.index_dir)
        report[str(symfuse)] = figures
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("lsp", "mcp", "both", "soak"), default="both")
    parser.add_argument("--rate", type=float, default=20.0, help="soak: requests per second")
    parser.add_argument("--soak-seconds", type=float, default=180.0, help="soak: how long")
    parser.add_argument("--tracemalloc", type=Path, help="soak: snapshot directory")
    parser.add_argument(
        "--warmup", type=float, default=SOAK_WARMUP, help="soak: seconds before growth counts"
    )
    parser.add_argument("--symfuse", type=Path, action="append", help="a symfuse to measure")
    parser.add_argument("--django", type=Path, help="the django package directory")
    parser.add_argument("--index-dir", type=Path, help="an index directory every run shares")
    report = asyncio.run(main_async(parser.parse_args()))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
