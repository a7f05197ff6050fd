"""The operational tools: ``stats`` (latency per operation), ``cache_stats`` and ``cache_clear``."""

from __future__ import annotations

from symfuse.server.common.ops import (
    CacheRequest,
    LatencyRequest,
    cache_report,
    clear_cache,
    index_facts,
    latency_report,
)
from symfuse.server.mcp.models import CacheResult, StatsResult
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend
from symfuse.server.mcp.surface import Surface

STATS_DESCRIPTION = """\
Show how queries went, per tool: requests, errors, P50/P95/P99 latency in ms,
cache hit rate and time saved, with the index's size and age.
Examples: {} ; {"since": "1h", "front_end": "mcp"}"""

CACHE_STATS_DESCRIPTION = """\
Show the query cache: entries, hits, misses, hit rate and time saved. Example: {}"""

CACHE_CLEAR_DESCRIPTION = """\
Empty the query cache; never needed for correctness (an index change already
invalidates it). Example: {}"""

STATS_SURFACE = Surface(
    shown=("since", "front_end"),
    notes={"since": '"30m", "24h", "7d" (default: all kept)', "front_end": "mcp, lsp or cli"},
)


def register(server: Toolbox, backend: Backend) -> None:
    observer = backend.observer
    directory = backend.service.index_dir

    def stats(request: LatencyRequest, rendering: Rendering) -> ToolAnswer:
        updated = backend.service.live.status().updated_at
        data = latency_report(observer.metrics, request, index_facts(directory, updated))
        return backend.answer(data, "operations", rendering.format, rendering.max_tokens)

    def cache_stats(_request: CacheRequest, rendering: Rendering) -> ToolAnswer:
        data = cache_report(observer.cache, observer.metrics)
        return backend.answer(data, "operations", rendering.format, rendering.max_tokens)

    def cache_clear(_request: CacheRequest, rendering: Rendering) -> ToolAnswer:
        data = clear_cache(observer.cache, directory)
        return backend.answer(data, "operations", rendering.format, rendering.max_tokens)

    tools = (
        ("stats", LatencyRequest, stats, StatsResult, STATS_DESCRIPTION, "Query statistics"),
        ("cache_stats", CacheRequest, cache_stats, CacheResult, CACHE_STATS_DESCRIPTION, "Cache"),
        ("cache_clear", CacheRequest, cache_clear, CacheResult, CACHE_CLEAR_DESCRIPTION, "Clear"),
    )
    for name, model, body, result, description, title in tools:
        server.add_tool(
            backend.tool(
                name,
                model,
                body,  # type: ignore[arg-type]
                result,
                STATS_SURFACE if name == "stats" else Surface(),
                cached=False,
                light=True,
            ),
            name=name,
            description=description,
            annotations=Annotations(
                title=title,
                read_only_hint=name != "cache_clear",
                destructive_hint=False if name == "cache_clear" else None,
                open_world_hint=False,
            ),
        )
