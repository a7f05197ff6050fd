"""The ``symfuse`` command: one subcommand per job, logs on stderr, results on stdout.

Each command module exposes ``register(subparsers, common)``; the common parent
parser carries the workspace options every command shares. Exit codes: 0 on
success (also when some files were skipped, which the result reports), 1 on a
fatal error (one line on stderr), 2 on bad usage.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.discover import DEFAULT_MAX_FILE_SIZE
from symfuse.indexer.errors import SymfuseError
from symfuse.server import cmd_index

log = logging.getLogger("symfuse")

# Modules that add subcommands, in help order, with the commands each adds: a command
# imports its own module alone (the others pull in the ranking layer, TOON, the MCP SDK).
_COMMAND_MODULES = {
    "symfuse.server.cmd_search": ("search",),
    "symfuse.server.cmd_query": ("usages", "text", "get", "callers", "callees", "hierarchy"),
    "symfuse.server.lsp_cli": ("lsp",),
    "symfuse.server.mcp_cli": ("mcp",),
}


def common_parser() -> argparse.ArgumentParser:
    """Options shared by every command that reads an index."""
    common = argparse.ArgumentParser(add_help=False)
    group = common.add_argument_group("workspace")
    group.add_argument(
        "--index-dir",
        type=Path,
        default=None,
        help="where the index lives (default: the user cache directory, keyed by the roots)",
    )
    group.add_argument(
        "--include", action="append", default=[], metavar="GLOB", help="only index matching paths"
    )
    group.add_argument(
        "--exclude", action="append", default=[], metavar="GLOB", help="skip matching paths"
    )
    group.add_argument(
        "--max-file-size",
        type=int,
        default=DEFAULT_MAX_FILE_SIZE,
        metavar="BYTES",
        help=f"skip larger files (default {DEFAULT_MAX_FILE_SIZE})",
    )
    group.add_argument(
        "--languages", default=None, metavar="LIST", help="comma-separated languages to index"
    )
    group.add_argument(
        "--jobs", type=int, default=None, metavar="N", help="parser processes (default: cores)"
    )
    group.add_argument("--no-progress", action="store_true", help="never show a progress bar")
    group.add_argument("-v", "--verbose", action="count", default=0, help="more logging on stderr")
    group.add_argument("--log-file", type=Path, default=None, help="write logs here, not stderr")
    return common


def index_config(
    args: argparse.Namespace, roots: Sequence[str | Path] | None = None
) -> IndexConfig:
    """The IndexConfig the common options describe."""
    chosen = roots if roots is not None else getattr(args, "roots", None) or [Path.cwd()]
    paths = tuple(Path(r).resolve() for r in chosen)
    for path in paths:
        if not path.is_dir():
            raise SymfuseError(f"workspace root {path} is not a directory")
    languages = None
    if args.languages:
        languages = frozenset(x.strip() for x in args.languages.split(",") if x.strip())
    return IndexConfig(
        roots=paths,
        index_dir=args.index_dir,
        include=tuple(args.include),
        exclude=tuple(args.exclude),
        max_file_size=args.max_file_size,
        languages=languages,
        jobs=args.jobs,
        progress=not args.no_progress,
    )


def configure_logging(args: argparse.Namespace) -> None:
    level = logging.WARNING - 10 * min(2, getattr(args, "verbose", 0))
    handler: logging.Handler
    log_file = getattr(args, "log_file", None)
    handler = logging.FileHandler(log_file) if log_file else logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("symfuse: %(levelname)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


_SERVERS = frozenset({"lsp", "mcp"})  # long-lived: they keep the cyclic collector


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone (with the index commands).

    Each command module imports what its commands run on: ``symfuse index``, run after
    every save by editor hooks and scripts, imports no ranking (40-60 ms), and
    ``symfuse search`` no TOON or navigation modules.
    """
    import importlib

    parser = argparse.ArgumentParser(
        prog="symfuse",
        description="Ranked symbol index for source code: CLI, language server and MCP server.",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    common = common_parser()
    cmd_index.register(sub, common)
    if command in cmd_index.COMMANDS:
        return parser
    known = any(command in commands for commands in _COMMAND_MODULES.values())
    for name, commands in _COMMAND_MODULES.items():
        if known and command not in commands:
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub, common)
    return parser


# What a one-shot command loaded (its index, ranking data): such a process ends with
# os._exit, never tearing down that heap of about a million objects one by one
# (0.1-0.3 s on Django's sdist that nobody waits for).
_held: list[object] = []


def hold(value: object) -> None:
    _held.append(value)


def _exit_now(code: int) -> NoReturn:
    """End a one-shot command: flush what it wrote, then skip the interpreter teardown."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError):  # a reader gone, a closed stream
            stream.flush()
    os._exit(code)


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words[0] if words and not words[0].startswith("-") else None)
    args, extras = parser.parse_known_args(argv)
    if extras:
        # Roots may follow the options (`symfuse search QUERY --limit 5 ROOT`).
        if isinstance(getattr(args, "roots", None), list) and not any(
            e.startswith("-") for e in extras
        ):
            args.roots = [*args.roots, *extras]
        else:
            parser.error(f"unrecognized arguments: {' '.join(extras)}")
    configure_logging(args)
    one_shot = args.command not in _SERVERS
    if one_shot:
        # A one-shot command builds or loads a large, acyclic heap and exits: the cyclic
        # collector would only walk it (about 0.1 s per full pass on Django's index).
        gc.disable()
    code = _run(args)
    if one_shot and argv is None:  # the console script, not a caller in this process
        _exit_now(code)
    return code


def _run(args: argparse.Namespace) -> int:
    try:
        code: int = args.handler(args)
    except SymfuseError as exc:
        print(f"symfuse: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("symfuse: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our stdout went away (e.g. `| head`): not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
