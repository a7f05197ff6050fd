"""``symfuse lsp``: the language server over stdio (default) or TCP.

stdout carries the protocol and nothing else: logs go to stderr or --log-file.
The workspace options on the command line are the defaults that a client's
``initializationOptions`` override.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import NoReturn

from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.files.discover import DEFAULT_MAX_FILE_SIZE
from symfuse.server.cli.common import add_history_flag
from symfuse.server.cli.shards import add_serving_options
from symfuse.server.common.leaving import STOP_WAIT, leave, leave_on_sigterm

log = logging.getLogger(__name__)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "lsp",
        parents=[common],
        help="run the language server",
        description=(
            "Run the symfuse language server. The workspace comes from the client's "
            "workspace folders unless ROOTs are given."
        ),
    )
    p.add_argument(
        "roots", nargs="*", metavar="ROOT", help="workspace roots (default: the client's)"
    )
    p.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (the default)")
    p.add_argument("--tcp", action="store_true", help="listen on a TCP port instead of stdio")
    p.add_argument("--host", default="127.0.0.1", help="TCP host (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=2087, help="TCP port (default 2087)")
    p.add_argument(
        "--result-limit", type=int, default=None, metavar="N", help="workspace/symbol cap (200)"
    )
    p.add_argument(
        "--no-watch",
        action="store_true",
        help="do not watch files when the client cannot (rely on didChangeWatchedFiles)",
    )
    p.add_argument(
        "--max-header-line",
        type=_positive_bytes,
        default=None,
        metavar="BYTES",
        help="longest protocol header line read (default 64 KB; longer: a parse error)",
    )
    p.add_argument(
        "--max-message",
        type=_positive_bytes,
        default=None,
        metavar="BYTES",
        help="largest message body read (default 64 MB; larger: a parse error)",
    )
    add_history_flag(p)
    add_serving_options(p, default_workers="one per shard, up to the CPUs")
    p.set_defaults(handler=run_lsp)


def _positive_bytes(text: str) -> int:
    """A byte count: digits with an optional K, M or G suffix (powers of 1024)."""
    scale = {"K": 1024, "M": 1024**2, "G": 1024**3}.get(text[-1:].upper(), 1)
    digits = text[:-1] if scale > 1 else text
    if not digits.isdigit() or int(digits) == 0:
        raise argparse.ArgumentTypeError(f"{text!r}: a positive byte count such as 65536 or 64K")
    return int(digits) * scale


def run_lsp(args: argparse.Namespace) -> NoReturn:
    from lsprotocol import types as lsp_types

    from symfuse.server.cli.shards import serving_shards
    from symfuse.server.common.forkserver import preload_parsers
    from symfuse.server.lsp.base import SymfuseLanguageServer
    from symfuse.server.lsp.framing import FrameLimits
    from symfuse.server.lsp.options import IndexOptions, LspOptions, SearchOptions
    from symfuse.server.lsp.server import build_lsp_server
    from symfuse.server.lsp.state import LaunchConfig

    if args.tcp and args.stdio:
        raise SymfuseError("choose one of --stdio and --tcp")
    shards = serving_shards(args, args.roots)
    roots = tuple(Path(r).resolve() for r in args.roots)
    for root in roots:
        if not root.exists():
            raise SymfuseError(f"no such directory: {root}")
        if not root.is_dir():
            raise SymfuseError(f"workspace root {root} is a file; give its folder")
    languages = None
    if args.languages:
        languages = frozenset(x.strip() for x in args.languages.split(",") if x.strip())
    search = SearchOptions() if args.result_limit is None else SearchOptions(args.result_limit)
    defaults = LspOptions(
        index=IndexOptions(
            include=tuple(args.include),
            exclude=tuple(args.exclude),
            max_file_size=args.max_file_size or DEFAULT_MAX_FILE_SIZE,
            languages=languages,
        ),
        search=search,
    )
    launch = LaunchConfig(
        index_dir=args.index_dir,
        jobs=args.jobs,
        roots=roots,
        watch_fallback=not args.no_watch,
        defaults=defaults,
        history=args.history,
        shards=shards,
        framing=FrameLimits(
            header_line=args.max_header_line or FrameLimits().header_line,
            body=args.max_message or FrameLimits().body,
        ),
    )
    preload_parsers()  # the index starts after the client's initialize, from a fork server
    server = build_lsp_server(launch)
    leave_on_sigterm()

    @server.feature(lsp_types.EXIT)
    def leave_at_exit(ls: SymfuseLanguageServer, params: None) -> None:
        # At once, as after the loop below: pygls would first end its event loop, which
        # waits for every thread its executors run, with no time limit.
        ls.state.stop(STOP_WAIT)
        leave(ls.exit_code)

    if args.tcp:
        log.info("symfuse lsp listening on %s:%d", args.host, args.port)
        server.start_tcp(args.host, args.port)
    else:
        server.start_io()
    server.state.stop(STOP_WAIT)
    leave(server.exit_code)  # 1 for an exit without shutdown, as the spec says
