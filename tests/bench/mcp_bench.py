"""MCP acceptance figures on Django, measured through the SDK's client over stdio.

    python tests/bench/mcp_bench.py [--rounds 5] [--django PATH]

1. Start-up: time from spawning ``symfuse mcp`` to the first answered search,
   cold (empty index directory) and warm (the index persisted by the cold run).
2. Latency: p50/p95 per call of search, find_usages and get_symbol, end to
   end through ClientSession (the index ready and its ranking data warm; the
   query cache emptied before each round, so every answer is computed).
3. Tokens: a default ``search`` answer in JSON and in TOON (characters / 4)
   over 20 queries: the median of each and their ratio.

The Django sources come from ``tests/bench/corpus.py`` (``pip download
django==5.2.* --no-deps --no-binary :all:`` into ``tests/bench/.corpus/``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp_types import CallToolResult, TextContent

HERE = Path(__file__).parent
SYMFUSE = Path(sys.executable).with_name("symfuse")

QUERIES = [
    "QuerySet",
    "get_object_or_404",
    "render to string",
    "HttpResponseRedirect",
    "reverse url",
    "csrf token",
    "Model save",
    "migration autodetector",
    "url resolver",
    "cache backend",
    "send_mail",
    "ValidationError",
    "template loader",
    "Paginator",
    "authenticate user",
    "session middleware",
    "ForeignKey",
    "JsonResponse",
    "sql compiler",
    "signal receiver",
]


def django_root(given: Path | None) -> Path:
    """The ``django`` package directory of the Django 5.2 sdist (corpus.py fetches it)."""
    if given is not None:
        return given
    sys.path.insert(0, str(HERE))
    import corpus  # tests/bench/corpus.py: registry downloads shared by the benchmarks

    return Path(corpus.django_tree()) / "django"


def text_of(result: CallToolResult) -> str:
    return "".join(c.text for c in result.content if isinstance(c, TextContent))


async def call(session: ClientSession, tool: str, **arguments: Any) -> CallToolResult:
    result = await session.call_tool(tool, arguments)
    assert isinstance(result, CallToolResult)
    if result.is_error:
        raise RuntimeError(f"{tool} {arguments}: {text_of(result)}")
    return result


def params(root: Path, index_dir: Path) -> StdioServerParameters:
    return StdioServerParameters(
        command=str(SYMFUSE),
        args=[
            *("mcp", str(root), "--index-dir", str(index_dir), "--ready-timeout", "600"),
            *("--tools", "all"),  # index_status, cache_clear and (ops_bench) stats too
        ],
        env=dict(os.environ),  # (the SDK passes on only HOME, PATH and a few more)
    )


async def first_search(root: Path, index_dir: Path) -> float:
    """Seconds from spawning the server to the first answered search."""
    started = time.perf_counter()
    async with (
        stdio_client(params(root, index_dir)) as (read, write),
        ClientSession(read, write, read_timeout_seconds=900) as session,
    ):
        await session.initialize()
        await call(session, "search", query="QuerySet")
        return time.perf_counter() - started


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {
        "calls": len(ordered),
        "p50_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(p95 * 1000, 2),
        "max_ms": round(ordered[-1] * 1000, 2),
    }


async def measure(root: Path, index_dir: Path, rounds: int) -> dict[str, Any]:
    async with (
        stdio_client(params(root, index_dir)) as (read, write),
        ClientSession(read, write, read_timeout_seconds=900) as session,
    ):
        await session.initialize()
        await call(session, "search", query="QuerySet")
        while True:  # the background update and the ranking data are in place
            status = json.loads(text_of(await call(session, "index_status")))
            if not status["stale"]:
                break
            await asyncio.sleep(0.2)
        ids: list[str] = []
        json_tokens: list[float] = []
        toon_tokens: list[float] = []
        for query in QUERIES:
            as_json = await call(session, "search", query=query)
            as_toon = await call(session, "search", query=query, output_format="toon")
            json_tokens.append(len(text_of(as_json)) / 4)
            toon_tokens.append(len(text_of(as_toon)) / 4)
            items = (as_json.structured_content or {}).get("items") or []
            ids.extend(item["symbol_id"] for item in items[:1])
        timings: dict[str, list[float]] = {"search": [], "find_usages": [], "get_symbol": []}
        for _ in range(rounds):
            await call(session, "cache_clear")  # latency of computed answers, not cache hits
            for query, symbol_id in zip(QUERIES, ids, strict=False):
                for tool, arguments in (
                    ("search", {"query": query}),
                    ("find_usages", {"symbol_id": symbol_id}),
                    ("get_symbol", {"symbol_id": symbol_id}),
                ):
                    started = time.perf_counter()
                    await call(session, tool, **arguments)
                    timings[tool].append(time.perf_counter() - started)
        files = status["files"]
        symbols = status["symbols"]
    json_median = statistics.median(json_tokens)
    toon_median = statistics.median(toon_tokens)
    return {
        "index": {"files": files, "symbols": symbols},
        "latency": {tool: percentiles(samples) for tool, samples in timings.items()},
        "tokens": {
            "queries": len(QUERIES),
            "json_median": round(json_median, 1),
            "toon_median": round(toon_median, 1),
            "toon_over_json": round(toon_median / json_median, 3),
            "json_max": round(max(json_tokens), 1),
        },
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="latency rounds over 20 queries")
    parser.add_argument("--django", type=Path, default=None, help="a django package directory")
    args = parser.parse_args()
    root = django_root(args.django)
    with tempfile.TemporaryDirectory(prefix="symfuse-mcp-bench-") as tmp:
        index_dir = Path(tmp) / "index"
        cold = await first_search(root, index_dir)
        warm = await first_search(root, index_dir)
        figures = await measure(root, index_dir, args.rounds)
    figures["startup_to_first_search_s"] = {"cold": round(cold, 2), "warm": round(warm, 2)}
    figures["corpus"] = str(root)
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
