"""A warm ``symfuse mcp``: spawn to first answer, and each search's cost (issue 39, items 4, 5).

    python tests/bench/mcp_start_bench.py --tree ROOT --source /tmp/before --label before \\
        --source . --label after --runs 20
    python tests/bench/mcp_start_bench.py --tree ROOT --source ... --latency 300 --runs 5 --threads

Each run spawns ``symfuse mcp ROOT`` under the SDK's ``ClientSession`` over stdio on an
index and ranking structures built once beforehand (``symfuse search`` with the first
code), and times the spawn to the first ``search`` answer (the client's ``call_tool``
returns once it has checked the answer against the tool list it then asks for). The
server's CPU (user + sys, all its threads) is read from ``/proc`` right after that answer:
on a shared machine CPU time moves far less than wall time with the load, and the codes
alternate run by run (A B A B ...), so both meet the same load. Each code serves its own
copy of the index directory with its own ranking file (:func:`index_dirs`). Reported per
code: min and median of wall and CPU. ``--source`` as in ``small_bench.py`` (a checkout holding
``indexer/``, ``ranking/``, ``server/``; none: this environment's code).

``--latency N``: each run instead asks N name queries of a server past its start (the
first answer given, ``index_status`` saying ``warmed``, the query cache cleared): the names
of definitions of the tree drawn with a fixed seed, as the SDK's client asks them. Per
code: p50 and p95 of the calls' wall time, the server's CPU per call (its whole
process, every thread) and its RSS after them; the client's own CPU per call (the SDK's
``ClientSession`` reading and checking each answer, inside the wall time). The answers of
the codes are compared (times aside): a change of the MCP layer must leave them as they were.
The client checks every structured answer against the tool's published output schema (the
SDK's ``ClientSession`` raises on one that does not validate), and the tokens of the tool
list it read are reported per code (all tools listed, as ``SYMFUSE_MCP_TOOLS=all``).
``--threads`` (Linux) also splits the server's CPU per call by thread: the server starts
with a ``sitecustomize`` that gives each OS thread its Python thread's name (15 characters,
``/proc/PID/task/TID/comm``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from small_bench import Code, make_code

READ_TIMEOUT = 300
_TIMES = re.compile(r'((?:\\?")?(?:elapsed_ms|index_age_seconds)(?:\\?")?: ?)[0-9.e+-]+')


def _server() -> str:
    """The pid of the ``symfuse mcp`` this process spawned (its newest child)."""
    found = subprocess.run(
        ["pgrep", "-n", "-P", str(os.getpid())], capture_output=True, text=True, check=False
    )
    return found.stdout.strip()


def server_cpu() -> float:
    """User + sys seconds of the ``symfuse mcp`` this process spawned."""
    fields = Path(f"/proc/{_server()}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_rss() -> float:
    """The RSS (MB) of the ``symfuse mcp`` this process spawned."""
    for line in Path(f"/proc/{_server()}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def first_answer(code: Code, root: Path, index_dir: Path, query: str) -> tuple[float, float]:
    """Seconds from the spawn to the first answer of ``query``, and the server's CPU then."""
    params = StdioServerParameters(
        command=code.command()[0],
        args=[*code.command()[1:], "mcp", str(root), "--index-dir", str(index_dir)],
        env=code.env(),
    )
    started = time.perf_counter()
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=READ_TIMEOUT) as session,
    ):
        await session.initialize()
        result = await session.call_tool("search", {"query": query, "limit": 5})
        wall = time.perf_counter() - started
        cpu = server_cpu()
    if result.is_error:
        raise RuntimeError(f"search {query!r} failed: {result.content}")
    return wall, cpu


def names_of(root: Path, index_dir: Path, count: int) -> list[str]:
    """``count`` names of the tree's classes, functions and methods (seed 39)."""
    from symfuse.indexer.config import IndexConfig
    from symfuse.indexer.update.workspace import load_index

    index = load_index(IndexConfig(roots=(root,), index_dir=index_dir, progress=False))
    kinds = ("class", "function", "method")
    names = sorted(
        {s.name for s in index.symbols if s.kind.value in kinds and s.name.isidentifier()}
    )
    return random.Random(39).sample(names, min(count, len(names)))


# Each OS thread named after its Python thread, for --threads (PR_SET_NAME, Linux).
THREAD_NAMES = """\
import ctypes, threading
_libc = ctypes.CDLL(None)
_inner = threading.Thread._bootstrap_inner
def _named(self):
    _libc.prctl(15, ctypes.c_char_p(self.name.encode()[:15]), 0, 0, 0)
    return _inner(self)
threading.Thread._bootstrap_inner = _named
"""


def thread_cpu() -> dict[str, float]:
    """CPU seconds (user + sys) of each thread of the ``symfuse mcp`` this process spawned,
    summed by thread name."""
    found: dict[str, float] = {}
    for task in Path(f"/proc/{_server()}/task").iterdir():
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            name = (task / "comm").read_text().strip()
        except OSError:  # the thread ended
            continue
        ticks = int(fields[11]) + int(fields[12])
        found[name] = found.get(name, 0.0) + ticks / os.sysconf("SC_CLK_TCK")
    return found


async def latency(
    code: Code, root: Path, index_dir: Path, names: list[str], named: Path | None = None
) -> dict[str, Any]:
    """Wall seconds of each search of ``names`` on a server past its start, the server's
    CPU over them (and by thread, with ``named``: a folder holding :data:`THREAD_NAMES` as
    ``sitecustomize.py``), the client's, and the answers (times blanked)."""
    env = code.env(SYMFUSE_MCP_TOOLS="all")
    if named is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(named), env.get("PYTHONPATH")) if p)
    params = StdioServerParameters(
        command=code.command()[0],
        args=[*code.command()[1:], "mcp", str(root), "--index-dir", str(index_dir)],
        env=env,
    )
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=READ_TIMEOUT) as session,
    ):
        await session.initialize()
        listed = list_tokens((await session.list_tools()).tools)
        await session.call_tool("search", {"query": names[0]})
        while not (await session.call_tool("index_status", {})).structured_content.get("warmed"):
            await asyncio.sleep(0.1)
        await session.call_tool("cache_clear", {})
        threads = thread_cpu() if named is not None else {}
        cpu, client, walls, answers = server_cpu(), time.process_time(), [], []
        for name in names:
            began = time.perf_counter()
            result = await session.call_tool("search", {"query": name})
            walls.append(time.perf_counter() - began)
            text = result.content[0].text if result.content else ""  # type: ignore[union-attr]
            answers.append(_TIMES.sub(r"\g<1>0", text))
        cpu, client = server_cpu() - cpu, time.process_time() - client
        after = thread_cpu() if named is not None else {}
        rss = server_rss()
    per_call = 1000 / len(names)
    return {
        "walls": sorted(walls),
        "cpu_ms": cpu * per_call,
        "client_ms": client * per_call,
        "threads_ms": {t: (c - threads.get(t, 0.0)) * per_call for t, c in after.items()},
        "rss_mb": rss,
        "answers": answers,
        "listed": listed,
    }


def list_tokens(tools: list[Any]) -> dict[str, int]:
    """Tokens of ``tools/list`` (``estimate_tokens``: compact JSON, 4 characters a token):
    every tool in all, their output schemas, and ``search``'s output schema."""

    def tokens(value: object) -> int:
        return -(-len(json.dumps(value, separators=(",", ":"))) // 4)

    entries = [t.model_dump(mode="json", by_alias=True, exclude_none=True) for t in tools]
    search = next((e for e in entries if e["name"] == "search"), {})
    return {
        "all": tokens(entries),
        "output_schemas": sum(tokens(e.get("outputSchema", {})) for e in entries),
        "search_output_schema": tokens(search.get("outputSchema", {})),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True, help="the repository served")
    parser.add_argument("--source", type=Path, action="append", default=[])
    parser.add_argument("--label", action="append", default=[])
    parser.add_argument("--runs", type=int, default=20, help="runs of each code")
    parser.add_argument("--query", default="Session")
    parser.add_argument("--index-dir", type=Path, help="default: a temporary one")
    parser.add_argument("--latency", type=int, default=0, metavar="N", help="N name queries")
    parser.add_argument("--threads", action="store_true", help="--latency: CPU per thread")
    args = parser.parse_args()
    root = args.tree.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        sources = args.source or [None]
        labels = args.label or [s.name if s else "this" for s in sources]
        codes = [make_code(s, label, scratch) for s, label in zip(sources, labels, strict=True)]
        for code in codes:
            print(f"{code.label}: {code.origin}", file=sys.stderr)
        dirs = index_dirs(codes, root, args.index_dir or scratch / "index", scratch, args.query)
        if args.latency:
            names = names_of(root, dirs[codes[0].label], args.latency)
            named = None
            if args.threads:
                named = scratch / "named"
                named.mkdir()
                (named / "sitecustomize.py").write_text(THREAD_NAMES)
            latencies(codes, root, dirs, names, args.runs, named)
            return
        figures: dict[str, list[tuple[float, float]]] = {code.label: [] for code in codes}
        for run in range(args.runs):
            for code in codes:
                index_dir = dirs[code.label]
                wall, cpu = asyncio.run(first_answer(code, root, index_dir, args.query))
                figures[code.label].append((wall, cpu))
                print(f"run {run + 1} {code.label}: wall {wall:.3f} s, cpu {cpu:.2f} s")
    print(f"\n{root.name}, {args.runs} runs each, codes alternating (min / median):")
    for label, runs in figures.items():
        walls, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(
            f"  {label}: wall {min(walls):.3f} / {statistics.median(walls):.3f} s, "
            f"cpu {min(cpus):.2f} / {statistics.median(cpus):.2f} s"
        )


def index_dirs(
    codes: list[Code], root: Path, first: Path, scratch: Path, query: str
) -> dict[str, Path]:
    """An index directory per code: the first code builds the index and its ranking file
    (``symfuse search``); each other code starts from a copy of that directory without
    the ranking file and runs the same search once, so that it serves a ranking file it
    wrote itself (one of another format or fingerprint would be rebuilt in every run, or
    overwritten; one of the same format but written differently would be timed as the
    other code's)."""
    dirs: dict[str, Path] = {}
    for code in codes:
        index_dir = first if not dirs else scratch / f"index-{code.label}"
        if dirs:
            shutil.copytree(first, index_dir, ignore=shutil.ignore_patterns("ranking-*.npz"))
        build = code.command("search", query, str(root), "--index-dir", str(index_dir))
        subprocess.run(build, env=code.env(), check=True, capture_output=True)
        dirs[code.label] = index_dir
    return dirs


def thread_medians(runs: list[dict[str, float]]) -> list[tuple[str, float]]:
    """Each thread's median CPU per call over ``runs`` (0 where a run had no such thread),
    busiest first, those under 0.01 ms left out."""
    names = {name for run in runs for name in run}
    medians = {name: statistics.median([run.get(name, 0.0) for run in runs]) for name in names}
    return sorted(((n, ms) for n, ms in medians.items() if ms >= 0.01), key=lambda i: -i[1])


def latencies(
    codes: list[Code],
    root: Path,
    dirs: dict[str, Path],
    names: list[str],
    runs: int,
    named: Path | None = None,
) -> None:
    """``--latency``: the runs, codes alternating, then p50 / p95 and CPU per call."""
    results: dict[str, list[dict[str, Any]]] = {code.label: [] for code in codes}
    for run in range(runs):
        for code in codes:
            found = asyncio.run(latency(code, root, dirs[code.label], names, named))
            results[code.label].append(found)
            walls = found["walls"]
            print(
                f"run {run + 1} {code.label}: p50 {statistics.median(walls) * 1000:.2f} ms, "
                f"p95 {walls[int(0.95 * (len(walls) - 1))] * 1000:.2f} ms, "
                f"cpu {found['cpu_ms']:.2f} ms a call (client {found['client_ms']:.2f}), "
                f"RSS {found['rss_mb']:.1f} MB"
            )
            busy = sorted(found["threads_ms"].items(), key=lambda item: -item[1])
            if busy:
                print("    " + ", ".join(f"{t} {ms:.2f}" for t, ms in busy if ms > 0))
    print(f"\n{root.name}, {len(names)} name queries, {runs} runs each (min / median of runs):")
    for label, found in results.items():
        p50 = [statistics.median(f["walls"]) * 1000 for f in found]
        p95 = [f["walls"][int(0.95 * (len(f["walls"]) - 1))] * 1000 for f in found]
        cpu = [f["cpu_ms"] for f in found]
        client = [f["client_ms"] for f in found]
        rss = [f["rss_mb"] for f in found]
        print(
            f"  {label}: p50 {min(p50):.2f} / {statistics.median(p50):.2f} ms, "
            f"p95 {min(p95):.2f} / {statistics.median(p95):.2f} ms, "
            f"cpu {min(cpu):.2f} / {statistics.median(cpu):.2f} ms a call "
            f"(client {min(client):.2f} / {statistics.median(client):.2f}), "
            f"RSS {min(rss):.1f} / {statistics.median(rss):.1f} MB after the searches"
        )
        busy = thread_medians([f["threads_ms"] for f in found])
        if busy:
            print("    by thread (median): " + ", ".join(f"{t} {ms:.2f}" for t, ms in busy))
        listed = found[0]["listed"]
        print(
            f"    tools/list {listed['all']} tokens, output schemas {listed['output_schemas']}, "
            f"search's {listed['search_output_schema']}"
        )
    first = [found[0]["answers"] for found in results.values()]
    same = all(answers == first[0] for answers in first)
    print(f"  answers {'identical' if same else 'DIFFER'} across codes ({len(names)} queries)")


if __name__ == "__main__":
    main()
