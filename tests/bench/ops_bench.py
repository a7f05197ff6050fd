"""Operations figures on Django through ``symfuse mcp`` over stdio: the ``stats`` tool after a
query run, the query cache's hit rate and time saved on a repeated query set, and what
recording a query costs.

    python tests/bench/ops_bench.py [--repeats 2] [--django PATH]

1. A query set (``mcp_bench.QUERIES`` through search, find_usages and get_symbol on each
   query's top hit) runs once on an empty cache, then ``--repeats`` more times: the
   first pass computes every answer, the repeats are what an agent asking again gets.
2. ``stats`` and ``cache_stats`` are printed as the server reports them.
3. In process: the mean cost of one :meth:`MetricsStore.record` (a SQLite insert in WAL
   mode), against a search's p50 from the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import ClientSession
from mcp.client.stdio import stdio_client

from symfuse.server.common.metrics import MetricsStore, QueryRecord

sys.path.insert(0, str(Path(__file__).parent))
from mcp_bench import QUERIES, call, django_root, params, text_of

RECORDS = 2000


async def run(root: Path, index_dir: Path, repeats: int) -> dict[str, Any]:
    async with (
        stdio_client(params(root, index_dir)) as (read, write),
        ClientSession(read, write, read_timeout_seconds=900) as session,
    ):
        await session.initialize()
        await call(session, "reindex")
        while json.loads(text_of(await call(session, "index_status")))["stale"]:
            await asyncio.sleep(0.2)
        await call(session, "search", query="QuerySet")  # the ranking structures are built
        await call(session, "cache_clear")
        for _ in range(1 + repeats):
            for query in QUERIES:
                found = await call(session, "search", query=query)
                items = (found.structured_content or {}).get("items") or []
                if items:
                    await call(session, "find_usages", symbol_id=items[0]["symbol_id"])
                    await call(session, "get_symbol", symbol_id=items[0]["symbol_id"])
        stats = (await call(session, "stats", front_end="mcp")).structured_content
        cache = (await call(session, "cache_stats")).structured_content
    return {"stats": stats, "cache": cache}


def record_cost(directory: Path) -> float:
    """Mean milliseconds per recorded query."""
    store = MetricsStore(directory)
    started = time.perf_counter()
    for i in range(RECORDS):
        store.record(QueryRecord("search", "bench", 1.0 + i % 7, results=10))
    elapsed = time.perf_counter() - started
    store.close()
    return elapsed * 1000 / RECORDS


def table(stats: dict[str, Any]) -> str:
    columns = ("operation", "requests", "errors", "p50_ms", "p95_ms", "p99_ms", "cache_hit_rate")
    lines = ["  ".join(f"{c:>14}" for c in columns)]
    for row in stats["operations"]:
        lines.append("  ".join(f"{row[c]!s:>14}" for c in columns))
    return "\n".join(lines)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=2, help="repeats of the query set")
    parser.add_argument("--django", type=Path, default=None, help="a django package directory")
    args = parser.parse_args()
    root = django_root(args.django)
    with tempfile.TemporaryDirectory(prefix="symfuse-ops-bench-") as tmp:
        figures = await run(root, Path(tmp) / "index", args.repeats)
        cost = record_cost(Path(tmp) / "index")
    print(table(figures["stats"]))
    print("cache:", json.dumps(figures["cache"]["cache"]))
    search = next(r for r in figures["stats"]["operations"] if r["operation"] == "search")
    print(
        f"recording one query: {cost:.3f} ms (search p50 {search['p50_ms']} ms, "
        f"{cost / max(search['p50_ms'], 1e-9):.1%} of it)"
    )


if __name__ == "__main__":
    asyncio.run(main())
