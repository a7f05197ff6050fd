"""``symfuse mcp``: serve the MCP tools over stdio (default) or streamable HTTP."""

from __future__ import annotations

import argparse
import dataclasses
import logging
from pathlib import Path
from types import FrameType
from typing import TYPE_CHECKING, Any, NoReturn

from symfuse.indexer.errors import SymfuseError
from symfuse.server.cli.common import add_history_flag, roots_options
from symfuse.server.cli.shards import add_serving_options
from symfuse.server.common.leaving import STOP_WAIT, leave, leave_on_sigterm
from symfuse.server.common.present import DEFAULT_MAX_TOKENS, MAX_MAX_TOKENS, MIN_MAX_TOKENS

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from symfuse.indexer.config import IndexConfig
    from symfuse.server.common.service import IndexService
    from symfuse.server.mcp.options import MCPOptions

log = logging.getLogger(__name__)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "mcp",
        parents=[common],
        help="run the MCP server (stdio or streamable HTTP)",
        description=(
            "Serve symbol search, usages, text search, symbol source, call graph, type "
            "hierarchy and index tools to MCP clients. The index loads or builds in the "
            "background and follows file changes; stdout carries only the protocol."
        ),
    )
    roots_options(p)
    _add_http_options(p)
    p.add_argument(
        "--ready-timeout",
        type=float,
        default=20.0,
        metavar="SECONDS",
        help="how long a tool waits for the first index before answering 'retry' (default 20)",
    )
    p.add_argument(
        "--no-watch", action="store_true", help="do not follow file changes (reindex by hand)"
    )
    p.add_argument(
        "--max-tokens",
        type=int,
        default=None,
        metavar="N",
        help=f"default answer budget in tokens, chars/4 (default {DEFAULT_MAX_TOKENS})",
    )
    p.add_argument(
        "--tools",
        metavar="SET",
        help="the tools listed: default, all, or names, comma-separated "
        "(default: $SYMFUSE_MCP_TOOLS, else default)",
    )
    add_history_flag(p)
    add_serving_options(p, default_workers="one per shard, up to the CPUs")
    p.set_defaults(handler=run_mcp)


def _add_http_options(p: argparse.ArgumentParser) -> None:
    """The transport, and what an HTTP bind listens on and lets in."""
    p.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    p.add_argument("--host", default="127.0.0.1", help="HTTP bind address (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=8765, help="HTTP port (default 8765)")
    p.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="HTTP: a Host header to accept besides the loopback names and the bound address "
        "(repeatable; DNS-rebinding protection refuses the rest)",
    )
    p.add_argument(
        "--token-file",
        type=Path,
        metavar="PATH",
        help="HTTP: require 'Authorization: Bearer <token>' with the token in this file "
        "(default: $SYMFUSE_MCP_TOKEN; beyond loopback one is generated if neither is given)",
    )


def run_mcp(args: argparse.Namespace) -> NoReturn:
    from symfuse.server.cli.common import index_config
    from symfuse.server.cli.shards import serving_shards
    from symfuse.server.mcp.options import MCPOptions
    from symfuse.server.mcp.toolset import requested

    if args.max_tokens is None:
        args.max_tokens = DEFAULT_MAX_TOKENS
    if not MIN_MAX_TOKENS <= args.max_tokens <= MAX_MAX_TOKENS:
        raise SymfuseError(f"--max-tokens must be between {MIN_MAX_TOKENS} and {MAX_MAX_TOKENS}")
    if args.ready_timeout < 0:
        raise SymfuseError("--ready-timeout must not be negative")
    token = None  # read before anything starts: a bad file stops the server at once
    if args.token_file is not None and args.transport == "http":
        from symfuse.server.mcp.http import read_token

        token = read_token(args.token_file)
    roots = [*args.roots, *args.extra_roots] or None
    shards = serving_shards(args, roots)
    config = shards.config if shards is not None else index_config(args, roots)
    # Progress bars would go to stderr, but a server has nobody watching them.
    config = dataclasses.replace(config, progress=False)
    options = MCPOptions(
        ready_timeout=args.ready_timeout,
        watch=not args.no_watch and shards is None,
        default_max_tokens=args.max_tokens,
        similarity=getattr(args, "similarity_model", "repository") != "off",
        stop_timeout=STOP_WAIT,
        history=args.history,
        tools=requested(args.tools),
    )
    service = shards or _indexing(config, options)
    try:
        from symfuse.server.mcp.server import build_tools

        backend, tools = build_tools(config, options, service=service)
    except BaseException:
        service.stop(STOP_WAIT)
        raise
    leave_on_sigterm()
    log.info("serving %s over %s", ", ".join(map(str, config.roots)), args.transport)
    if args.transport == "http":
        from symfuse.server.mcp.sdk import sdk_server  # the MCP SDK: about half a second

        _serve_http(sdk_server(backend, tools), args, token)
    else:
        from symfuse.server.mcp.front import serve_stdio

        serve_stdio(backend, tools)  # the first answers come before the SDK has loaded
    leave(0)  # now: a cold index's parser processes and threads are not waited for


def _indexing(config: IndexConfig, options: MCPOptions) -> IndexService:
    """The index service over ``config``, started now: the index loads or builds (in worker
    processes) and the ranking layer loads (on the warming thread) while this thread loads
    the MCP SDK and makes the tools, rather than after (the server's start-up would start
    it, and does nothing more once it runs)."""
    from symfuse.indexer.update.first_index import fork_build

    forked = fork_build(config)  # a missing index, built beside the imports below
    from symfuse.server.common.forkserver import preload_parsers
    from symfuse.server.common.service import IndexService

    preload_parsers()
    service = IndexService(config, warm=options.warm)
    service.hold_work_ahead()  # until the server is up (Backend.start)
    service.live.built_apart(forked)
    service.start(watch=options.watch, debounce_ms=options.debounce_ms)
    return service


def _serve_http(server: MCPServer[Any], args: argparse.Namespace, token: str | None) -> None:
    """Streamable HTTP behind DNS-rebinding protection and, beyond loopback, a token."""
    import uvicorn

    from symfuse.server.mcp.http import announce, guard_for, http_app

    host, port = args.host, args.port
    guard = guard_for(host, port, args.allowed_host, token)
    announce(guard, host, port)
    app = http_app(server, guard, host)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning")

    class LeavingServer(uvicorn.Server):
        """uvicorn's server, leaving at once on SIGTERM or Ctrl-C as the stdio server does.

        uvicorn replaces our SIGTERM handler with its graceful shutdown, which waits for
        every request in flight: a ``search_text`` regex held a stopped server for the rest
        of its time budget, its worker process with it. Nothing an MCP
        server does needs finishing (index writes are atomic): it leaves as ``leave`` does.
        """

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            leave(128 + sig)

    served = LeavingServer(config)
    served.run()
    if not served.started:  # uvicorn said why (the port is taken, say) on stderr
        raise SymfuseError(f"could not serve MCP over HTTP on {host}:{port}")
