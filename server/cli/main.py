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
from typing import NoReturn, cast

from symfuse.indexer.errors import InvalidRequest, SymfuseError
from symfuse.server.cli import index as cmd_index
from symfuse.server.cli.common import (
    CommandParser,
    common_parser,
    configure_logging,
    new_command,
)
from symfuse.server.cli.config import apply_settings
from symfuse.server.cli.launch import SERVERS
from symfuse.server.common.about import version

log = logging.getLogger("symfuse")

# Modules that add subcommands, in help order, with the commands each adds: a command
# imports its own module alone (the others pull in the ranking layer, TOON, the MCP SDK).
_COMMAND_MODULES = {
    "symfuse.server.cli.search": ("search",),
    "symfuse.server.cli.query": (
        *("usages", "text", "get", "callers", "callees", "hierarchy", "deps", "repos", "read"),
        *("dead", "impact", "history", "evolution"),
    ),
    "symfuse.server.cli.ops": ("cache",),
    "symfuse.server.cli.config": ("config",),
    "symfuse.server.cli.doctor": ("doctor",),
    "symfuse.server.cli.serve_lsp": ("lsp",),
    "symfuse.server.cli.serve_mcp": ("mcp",),
    "symfuse.server.cli.shards": ("shards",),
    "symfuse.server.cli.resident": ("resident",),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone (with the index commands).

    Each command module imports what its commands run on: ``symfuse index``, run after
    every save by editor hooks and scripts, imports no ranking (slow to import), and
    ``symfuse search`` no TOON or navigation modules.
    """
    import importlib

    parser = argparse.ArgumentParser(
        prog="symfuse",
        description="Ranked symbol index for source code: CLI, language server and MCP server.",
    )
    parser.add_argument(
        "-V", "--version", action=_Version, nargs=0, help="print the version and exit"
    )
    # Each subcommand's parser is a CommandParser (request options added on first need).
    sub = cast(
        "argparse._SubParsersAction[argparse.ArgumentParser]",
        parser.add_subparsers(
            dest="command", required=True, metavar="COMMAND", parser_class=CommandParser
        ),
    )
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


def _output_formats(parser: argparse.ArgumentParser, command: str) -> tuple[object, ...]:
    """The output formats ``command`` accepts (none when it has no such option)."""
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    command_parser = sub.choices[command]
    found = next((a for a in command_parser._actions if a.dest == "output_format"), None)
    return tuple(found.choices or ()) if found is not None else ()


def _exit_now(code: int) -> NoReturn:
    """End a one-shot command: flush what it wrote, then skip the interpreter teardown."""
    logging.shutdown()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(BrokenPipeError, ValueError):  # a reader gone, a closed stream
            stream.flush()
    os._exit(code)


# glibc's M_MMAP_THRESHOLD, and the value it starts with: blocks from this size up are
# mapped on their own and unmapped when freed.
_M_MMAP_THRESHOLD = -3
_MMAP_THRESHOLD = 128 * 1024


def _fixed_mmap_threshold() -> None:
    """Keep large blocks out of the heap (glibc; nothing elsewhere).

    glibc raises its mmap threshold to the size of each mapped block freed, up to 32 MB,
    so after the first large numpy temporary every array below that size comes from the
    heap, whose free middle is never given back. Building a large workspace's ranking
    structures left much of the heap free (``malloc_trim`` returned it) and raised the
    first search's peak; a fixed threshold keeps the heap to small objects and the peak
    lower.
    One-shot commands only: a server answers many searches, each with arrays of a few
    hundred KB (a float per symbol), which would each be mapped, faulted in and unmapped.
    """
    if not sys.platform.startswith("linux"):
        return
    import ctypes  # (numpy imports it anyway)

    try:
        ctypes.CDLL(None).mallopt(_M_MMAP_THRESHOLD, _MMAP_THRESHOLD)
    except (OSError, AttributeError):  # another C library
        return


def _one_blas_thread() -> None:
    """Let numpy's BLAS start no threads of its own (unless the user set how many).

    OpenBLAS starts a thread per core as numpy loads, and the threads spin while they wait
    for work: CPU taken from the command and from whatever else runs. A one-shot command
    has no use for them: a search does no BLAS work but embedding one sentence (with the
    semantic extra), too small to share out, and building the ranking structures limits
    BLAS to one thread anyway (``ranking/prepared/blas.py``). Servers keep them (the
    semantic extra embeds a workspace with BLAS). Before numpy loads.
    """
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


class _Version(argparse.Action):
    """``--version``: the version, looked up only when asked (not at every command)."""

    def __call__(self, parser: argparse.ArgumentParser, *_args: object, **_kw: object) -> None:
        print(f"symfuse {version()}")
        parser.exit()


def parsed(words: Sequence[str]) -> tuple[argparse.Namespace, SymfuseError | None]:
    """The options of ``symfuse WORDS`` with the settings applied, and the settings'
    error if any (bad usage exits as argparse does)."""
    command = words[0] if words and not words[0].startswith("-") else None
    parser = build_parser(command)
    args, extras = parser.parse_known_args(words)
    if extras:
        # Roots may follow the options (`symfuse search QUERY --limit 5 ROOT`).
        if isinstance(getattr(args, "roots", None), list) and not any(
            e.startswith("-") for e in extras
        ):
            args.roots = [*args.roots, *extras]
        else:
            parser.error(f"unrecognized arguments: {' '.join(extras)}")
    try:
        apply_settings(args, words, _output_formats(parser, args.command))
    except SymfuseError as exc:
        return args, exc
    return args, None


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    new_command()
    if words == ["version"]:  # as `symfuse --version`, for those who type it as a command
        print(f"symfuse {version()}")
        return 0
    command = words[0] if words and not words[0].startswith("-") else None
    if argv is None and command not in SERVERS:  # this process is the command's own
        _one_blas_thread()
    args, error = parsed(words)
    if error is not None:
        if args.command != "doctor":  # the doctor reports it with the other checks
            print(f"symfuse: error: {error}", file=sys.stderr)
            return 2
        args.settings_error = str(error)
    configure_logging(args)
    one_shot = args.command not in SERVERS
    if one_shot:
        # A one-shot command builds or loads a large, acyclic heap and exits: the cyclic
        # collector would only walk it (a full pass over a large index takes a while).
        gc.disable()
        if argv is None:  # this process is the command's own (not a caller's, as a test's)
            _fixed_mmap_threshold()
    elif argv is None:
        from symfuse.server.common.heap import fewer_arenas

        fewer_arenas()  # before the server's threads start
    ending = one_shot and argv is None  # the console script, not a caller in this process
    code = _run(args, ending=ending)
    if ending:
        _exit_now(code)
    return code


def _run(args: argparse.Namespace, *, ending: bool = False) -> int:
    """The command's exit code; ``ending``: this process ends with it (:func:`_observed`)."""
    try:
        code: int = _observed(args, ending=ending)
    except InvalidRequest as exc:  # bad usage, as argparse's own errors: exit 2
        print(f"symfuse: error: {exc}", file=sys.stderr)
        return 2
    except SymfuseError as exc:
        print(f"symfuse: error: {exc}", file=sys.stderr)
        return int(getattr(args, "error_exit", 1))  # text's is 2: its 1 means "no match"
    except KeyboardInterrupt:
        print("symfuse: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader of our stdout went away (e.g. `| head`): not an error of ours.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0
    return code


def _observed(args: argparse.Namespace, *, ending: bool = False) -> int:
    """Run the command; a query (a command with an ``operation``) is timed, logged and
    recorded in the metrics beside its index. When the process ends with the command
    (``ending``), the metrics file is left open to the end: its row is committed as the
    query ends, and closing the last connection to a WAL file checkpoints it into the
    file with three fdatasyncs (2-10 ms of a warm query's wall here), which the writers'
    automatic checkpoint does once in a few hundred queries instead."""
    operation = getattr(args, "operation", None)
    if operation is None:
        return int(args.handler(args))
    from symfuse.server.cli.common import index_config
    from symfuse.server.common.observe import Observer

    roots = [*(getattr(args, "roots", None) or []), *getattr(args, "extra_roots", [])]
    observer = Observer("cli", index_config(args, roots or None).store.directory)
    try:
        with observer.query(operation):
            return int(args.handler(args))
    finally:
        if not ending:
            observer.close()


if __name__ == "__main__":
    sys.exit(main())
