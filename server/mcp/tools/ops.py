"""The operational tools: ``stats`` (latency per operation), ``cache_stats`` and ``cache_clear``."""

from __future__ import annotations

from typing import Annotated

from mcp_types import CallToolResult, ToolAnnotations

from symfuse.server.common.ops import (
    CacheRequest,
    LatencyRequest,
    cache_report,
    clear_cache,
    index_facts,
    latency_report,
)
from symfuse.server.mcp.models import CacheResult, StatsResult
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend

STATS_DESCRIPTION = """\
Show how the queries went, per operation (tool): requests, errors, P50/P95/P99
latency in ms, cache hit rate and the time the cache saved, over every front
end (mcp, lsp, cli) or one (`front_end`), for all kept queries or those within
`since` ("30m", "24h", "7d"); with the index's size on disk and age.

Examples: {} ; {"since": "1h", "front_end": "mcp"}"""

CACHE_STATS_DESCRIPTION = """\
Show the query cache: entries, hits, misses, hit rate and time saved in this
server (a repeated identical request on an unchanged index is answered from
it), and the cache hits the metrics recorded.

Example: {}"""

CACHE_CLEAR_DESCRIPTION = """\
Empty the query cache (answers are recomputed on their next request). Never
needed for correctness: any change to the index already invalidates it.

Example: {}"""


def register(server: Toolbox, backend: Backend) -> None:
    observer = backend.observer
    directory = backend.service.config.store.directory

    def stats(request: LatencyRequest, rendering: Rendering) -> CallToolResult:
        updated = backend.service.live.status().updated_at
        data = latency_report(observer.metrics, request, index_facts(directory, updated))
        return backend.answer(data, "operations", rendering.format, rendering.max_tokens)

    def cache_stats(_request: CacheRequest, rendering: Rendering) -> CallToolResult:
        data = cache_report(observer.cache, observer.metrics)
        return backend.answer(data, "operations", rendering.format, rendering.max_tokens)

    def cache_clear(_request: CacheRequest, rendering: Rendering) -> CallToolResult:
        data = clear_cache(observer.cache, directory)
        return backend.answer(data, "operations", rendering.format, rendering.max_tokens)

    tools = (
        ("stats", LatencyRequest, stats, StatsResult, STATS_DESCRIPTION, "Query statistics"),
        ("cache_stats", CacheRequest, cache_stats, CacheResult, CACHE_STATS_DESCRIPTION, "Cache"),
        ("cache_clear", CacheRequest, cache_clear, CacheResult, CACHE_CLEAR_DESCRIPTION, "Clear"),
    )
    for name, model, body, result, description, title in tools:
        server.add_tool(
            backend.tool(name, model, body, Annotated[CallToolResult, result], cached=False),  # type: ignore[arg-type]
            name=name,
            description=description,
            annotations=ToolAnnotations(
                title=title,
                read_only_hint=name != "cache_clear",
                destructive_hint=False if name == "cache_clear" else None,
                open_world_hint=False,
            ),
        )
