"""The operational queries: latency figures from the metrics store, and the query cache.

They are about the servers, not the code, so their request models live here
rather than with the code queries; the CLI options and MCP tool parameters are
generated from them all the same. ``symfuse stats --latency`` and the MCP
``stats`` tool print :func:`latency_report`; ``symfuse cache stats|clear`` and
the ``cache_stats``/``cache_clear`` tools the cache's figures.
"""

from __future__ import annotations

import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, field_validator

from symfuse.ranking.query.fields import Request
from symfuse.server.common.cache import QueryCache, request_clear
from symfuse.server.common.metrics import MetricsStore, parse_since


class FrontEnd(StrEnum):
    CLI = "cli"
    MCP = "mcp"
    LSP = "lsp"


class LatencyRequest(Request):
    """Query latency and errors per operation, from the metrics beside the index."""

    since: Annotated[
        str | None,
        Field(
            max_length=20,
            description='only queries this recent: "90s", "30m", "24h", "7d" (default: all kept)',
        ),
    ] = None
    front_end: Annotated[
        FrontEnd | None, Field(description="only the queries of this front end (cli, mcp, lsp)")
    ] = None

    @field_validator("since")
    @classmethod
    def _duration(cls, value: str | None) -> str | None:
        if value is not None:
            parse_since(value)  # a ValueError names the accepted forms
        return value


class CacheRequest(Request):
    """The query cache (no parameters)."""


def latency_report(
    store: MetricsStore, request: LatencyRequest, index: dict[str, Any]
) -> dict[str, Any]:
    """Per operation: requests, errors, P50/P95/P99 ms, cache hit rate and time saved; with
    ``index`` (its size and age) alongside."""
    since = None if request.since is None else parse_since(request.since)
    front_end = None if request.front_end is None else request.front_end.value
    stats = store.summary(since, front_end)
    return {
        "operations": [s.to_dict() for s in stats],
        "requests": sum(s.requests for s in stats),
        "errors": sum(s.errors for s in stats),
        "since": request.since,
        "front_end": front_end,
        "metrics_file": str(store.path),
        "index": index,
    }


def index_facts(directory: Path, updated_at: float) -> dict[str, Any]:
    """The index's size on disk and its age."""
    size = sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())
    age = max(0.0, time.time() - updated_at) if updated_at else None
    return {
        "directory": str(directory),
        "size_bytes": size,
        "age_seconds": None if age is None else round(age, 1),
    }


def cache_report(cache: QueryCache[Any] | None, store: MetricsStore) -> dict[str, Any]:
    """A server's cache (its entries and hit rate), and what the metrics recorded of every
    front end's cache hits."""
    recorded = store.records()
    hits = [r for r in recorded if r[3]]
    return {
        "cache": None if cache is None else cache.stats().to_dict(),
        "recorded": {
            "queries": len(recorded),
            "hits": len(hits),
            "hit_rate": round(len(hits) / len(recorded), 3) if recorded else 0.0,
            "saved_ms": round(sum(r[4] for r in hits), 1),
        },
    }


def clear_cache(cache: QueryCache[Any] | None, directory: Path) -> dict[str, Any]:
    """Empty ``cache`` (this process's) and ask every server on the index to empty its own."""
    dropped = cache.clear() if cache is not None else 0
    request_clear(directory)
    return {"cleared": True, "entries_dropped": dropped}
