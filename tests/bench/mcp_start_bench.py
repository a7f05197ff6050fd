"""A warm ``symfuse mcp``'s spawn to first answer, codes alternating (issue 39, item 4).

    python tests/bench/mcp_start_bench.py --tree ROOT --source /tmp/before --label before \\
        --source . --label after --runs 20

Each run spawns ``symfuse mcp ROOT`` under the SDK's ``ClientSession`` over stdio on an
index and ranking structures built once beforehand (``symfuse search`` with the first
code), and times the spawn to the first ``search`` answer (the client's ``call_tool``
returns once it has checked the answer against the tool list it then asks for). The
server's CPU (user + sys, all its threads) is read from ``/proc`` right after that answer:
on a shared machine CPU time moves far less than wall time with the load, and the codes
alternate run by run (A B A B ...), so both meet the same load. Reported per code: min and
median of wall and CPU. ``--source`` as in ``small_bench.py`` (a checkout holding
``indexer/``, ``ranking/``, ``server/``; none: this environment's code).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from small_bench import Code, make_code

READ_TIMEOUT = 300


def server_cpu() -> float:
    """User + sys seconds of the ``symfuse mcp`` this process spawned (its newest child)."""
    found = subprocess.run(
        ["pgrep", "-n", "-P", str(os.getpid())], capture_output=True, text=True, check=False
    )
    fields = Path(f"/proc/{found.stdout.strip()}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, required=True, help="the repository served")
    parser.add_argument("--source", type=Path, action="append", default=[])
    parser.add_argument("--label", action="append", default=[])
    parser.add_argument("--runs", type=int, default=20, help="runs of each code")
    parser.add_argument("--query", default="Session")
    parser.add_argument("--index-dir", type=Path, help="default: a temporary one")
    args = parser.parse_args()
    root = args.tree.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        sources = args.source or [None]
        labels = args.label or [s.name if s else "this" for s in sources]
        codes = [make_code(s, label, scratch) for s, label in zip(sources, labels, strict=True)]
        for code in codes:
            print(f"{code.label}: {code.origin}", file=sys.stderr)
        index_dir = args.index_dir or scratch / "index"
        build = codes[0].command("search", args.query, str(root), "--index-dir", str(index_dir))
        subprocess.run(build, env=codes[0].env(), check=True, capture_output=True)
        figures: dict[str, list[tuple[float, float]]] = {code.label: [] for code in codes}
        for run in range(args.runs):
            for code in codes:
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


if __name__ == "__main__":
    main()
