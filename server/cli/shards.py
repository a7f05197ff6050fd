"""``symfuse shards build``, and the ``--shards`` options of search, mcp and lsp.

    symfuse shards build ROOT... --out DIR [--workers N | --scheduler tcp://H:P]
    symfuse search QUERY --shards DIR
    symfuse mcp --shards DIR [--scheduler tcp://H:P]

Progress goes to stderr, one line per repository as it finishes; the summary to
stdout. The cluster options are those of :class:`ClusterOptions`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from symfuse.indexer.config import root_aliases, split_alias
from symfuse.indexer.errors import SymfuseError
from symfuse.server.cli.common import format_option, index_config
from symfuse.server.common.output import OutputFormat, render
from symfuse.server.shards.cluster import LOOPBACK, ClusterOptions

if TYPE_CHECKING:
    from symfuse.server.shards.service import ShardService

_FORMATS = (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "shards",
        help="build repository shards (one index per repository) on Dask",
        description="Build one self-contained index per repository into a shard directory, "
        "one Dask task per repository, the largest first; only changed repositories are "
        "rebuilt. Serve them with `symfuse mcp --shards DIR` (or lsp, search).",
    )
    actions = p.add_subparsers(dest="shards_action", required=True, metavar="ACTION")
    # The workspace options of `symfuse index` (--include, --exclude, --languages, ...):
    # the same parser, so that a shard indexes what `symfuse index` of its root would.
    build = actions.add_parser(
        "build", parents=[common], help="build or update the shards of ROOTs"
    )
    build.add_argument("roots", nargs="+", metavar="ROOT", help="repositories (ALIAS=PATH too)")
    build.add_argument("--out", required=True, type=Path, metavar="DIR", help="shard directory")
    add_cluster_options(build)
    format_option(build, _FORMATS, OutputFormat.TEXT)
    build.set_defaults(handler=run_build)


def add_cluster_options(parser: argparse.ArgumentParser, *, workers_help: str = "") -> None:
    """Where the work runs: an existing scheduler, local worker processes, or here."""
    parser.add_argument(
        "--scheduler", metavar="ADDRESS", help="an existing Dask scheduler (tcp://HOST:PORT)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help=workers_help or "start a local Dask cluster of N processes (default: in-process)",
    )
    parser.add_argument(
        "--bind",
        default=LOOPBACK,
        metavar="HOST",
        help="address a cluster started here listens on (default 127.0.0.1; another one "
        "prints a warning, and should come with the TLS files)",
    )
    parser.add_argument("--tls-ca-file", metavar="PEM", help="Dask TLS: the CA certificate")
    parser.add_argument("--tls-cert", metavar="PEM", help="Dask TLS: this side's certificate")
    parser.add_argument("--tls-key", metavar="PEM", help="Dask TLS: this side's private key")


def add_serving_options(parser: argparse.ArgumentParser, *, default_workers: str) -> None:
    """``--shards DIR`` and the cluster options of a command that queries shards."""
    parser.add_argument(
        "--shards",
        type=Path,
        metavar="DIR",
        help="answer by fan-out over the repository shards in DIR (symfuse shards build)",
    )
    parser.add_argument(
        "--shard-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="a shard that has not answered by then is reported in errors (default 30)",
    )
    parser.add_argument(
        "--route-names",
        action="store_true",
        help="with --shards: a name query asks only the shards defining a name equal to it "
        "or starting with it (the table shards build writes); hits other shards would add "
        "below the name matches are then not seen",
    )
    add_cluster_options(
        parser,
        workers_help=f"with --shards: hold the shards in N local Dask worker processes "
        f"(default {default_workers}; 0: in this process)",
    )


def cluster_options(args: argparse.Namespace, default_workers: int = 0) -> ClusterOptions:
    workers = default_workers if args.workers is None else args.workers
    if workers < 0:
        raise SymfuseError("--workers must not be negative")
    return ClusterOptions(
        scheduler=args.scheduler,
        workers=0 if args.scheduler else workers,
        bind=args.bind,
        tls_ca_file=args.tls_ca_file,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
    )


def run_build(args: argparse.Namespace) -> int:
    from symfuse.server.shards.build import ShardBuilt, build_shards
    from symfuse.server.shards.cluster import connected

    named = [split_alias(r) for r in args.roots]
    for _alias, path in named:
        if not Path(path).is_dir():
            raise SymfuseError(f"repository root {path} is not a directory")
    roots = root_aliases([Path(p) for _a, p in named], [a for a, _p in named])

    def report(result: ShardBuilt, done: int, total: int) -> None:
        line = f"symfuse: shards [{done}/{total}] {result.alias}: {result.outcome}"
        if result.outcome == "built":
            line += f" ({result.counts.get('files', 0)} files, {result.seconds:.1f} s)"
        if result.error:
            line += f": {result.error}"
        print(line, file=sys.stderr, flush=True)

    chosen = index_config(args, list(roots.values())).discovery()
    with connected(cluster_options(args)) as client:
        out = args.out.resolve()
        results = build_shards(roots, out, client=client, report=report, chosen=chosen)
    rows = [r.to_dict() for r in results]
    if args.output_format is OutputFormat.TEXT:
        print(
            render(
                rows,
                OutputFormat.TEXT,
                columns=("repository", "outcome", "files", "definitions", "seconds"),
            )
        )
    else:
        print(render({"shards": rows}, args.output_format))
    # Partial failures are reported in the result (exit 0, as elsewhere); all failed: 1.
    return 1 if results and all(r.outcome == "failed" for r in results) else 0


def serving_shards(args: argparse.Namespace, roots: Sequence[str] | None) -> ShardService | None:
    """The sharded query service ``--shards`` asks for (None without it): the shards held
    by ``--workers`` local processes (one per shard up to the CPUs by default), or on
    ``--scheduler``'s cluster, or here with ``--workers 0``."""
    if args.shards is None:
        return None
    if roots:
        raise SymfuseError("--shards serves the shards in DIR: give no ROOT with it")
    if getattr(args, "history", False):
        raise SymfuseError("--history is not available over shards")
    from symfuse.server.shards.manifest import shard_dirs
    from symfuse.server.shards.service import ShardService

    out = args.shards.resolve()
    default = min(len(shard_dirs(out)), os.cpu_count() or 1)
    routes = args.route_names
    return ShardService(out, cluster_options(args, default), args.shard_timeout, routes)
