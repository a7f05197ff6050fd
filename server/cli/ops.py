"""``symfuse stats --latency`` and ``symfuse cache stats|clear``: how the queries went.

They read the metrics beside the index (:mod:`symfuse.server.common.metrics`)
and never index anything. ``cache clear`` reaches running servers through the
stamp file their caches watch (:mod:`symfuse.server.common.cache`).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from symfuse.indexer.store.objects import Store
from symfuse.server.cli.common import format_option, index_config
from symfuse.server.cli.options import add_request_options, request_of
from symfuse.server.common.metrics import MetricsStore
from symfuse.server.common.ops import (
    CacheRequest,
    LatencyRequest,
    cache_report,
    clear_cache,
    index_facts,
    latency_report,
)
from symfuse.server.common.output import OutputFormat, render

_FORMATS = (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON)
_COLUMNS = ("operation", "requests", "errors", "p50_ms", "p95_ms", "p99_ms", "cache_hit_rate")


def add_latency_options(parser: argparse.ArgumentParser) -> None:
    add_request_options(parser, LatencyRequest)


def run_latency(args: argparse.Namespace) -> int:
    request = request_of(LatencyRequest, args)
    directory = index_config(args).store.directory
    store = MetricsStore(directory)
    try:
        data = latency_report(store, request, index_facts(directory, _updated_at(directory)))
    finally:
        store.close()
    if args.output_format is OutputFormat.TEXT:
        print(render(data["operations"], OutputFormat.TEXT, columns=_COLUMNS))
        facts = data["index"]
        age = facts["age_seconds"]
        print(
            f"{data['requests']} requests, {data['errors']} errors; index "
            f"{facts['size_bytes'] / 1e6:.1f} MB, "
            + ("never built" if age is None else f"updated {age:g} s ago")
        )
    else:
        print(render(data, args.output_format))
    return 0


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "cache",
        parents=[common],
        help="the query cache: stats or clear",
        description="Show the query cache's hit rate and time saved, as recorded by every "
        "front end, or empty the caches of the servers running on this index.",
    )
    p.add_argument("action", choices=("stats", "clear"), help="what to do")
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace roots (default: .)")
    format_option(p, _FORMATS, OutputFormat.TEXT)
    p.set_defaults(handler=run_cache)


def run_cache(args: argparse.Namespace) -> int:
    request_of(CacheRequest, args)
    directory = index_config(args).store.directory
    store = MetricsStore(directory)
    try:
        data = clear_cache(None, directory) if args.action == "clear" else cache_report(None, store)
    finally:
        store.close()
    if args.output_format is not OutputFormat.TEXT:
        print(render(data, args.output_format))
    elif args.action == "clear":
        print("asked every server on this index to empty its query cache")
    else:
        r = data["recorded"]
        print(
            f"{r['hits']} cache hits in {r['queries']} recorded queries "
            f"(hit rate {r['hit_rate']:.1%}), {r['saved_ms']:g} ms saved"
        )
    return 0


def _updated_at(directory: Path) -> float:
    manifest = Store(directory).read_manifest()
    return 0.0 if manifest is None else manifest.updated_at
