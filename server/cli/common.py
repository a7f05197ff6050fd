"""What every command shares: the workspace options, the IndexConfig they describe, logging.

The subcommand modules import from here, never from :mod:`.main` (the entry point).
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symfuse.indexer.config import IndexConfig, split_alias
from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.files.discover import DEFAULT_MAX_FILE_SIZE
from symfuse.indexer.store.objects import default_index_dir
from symfuse.server.common.output import OutputFormat

if TYPE_CHECKING:
    from symfuse.ranking.api import Histories

AddOptions = Callable[[argparse.ArgumentParser], None]


class CommandParser(argparse.ArgumentParser):
    """The parser of one subcommand, whose request options may be added on first need.

    ``symfuse index`` runs after every save (editor hooks), so it starts without
    importing the request models (pydantic, slow to import). The options generated
    from them are :meth:`defer`-red: added when the command line has an option
    the parser does not know yet, or when help is shown.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deferred: list[AddOptions] = []

    def defer(self, add: AddOptions) -> None:
        self._deferred.append(add)

    def complete(self) -> CommandParser:
        """Add the deferred options now."""
        deferred, self._deferred = self._deferred, []
        for add in deferred:
            add(self)
        return self

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        words = sys.argv[1:] if args is None else args
        if self._deferred and any(self._unknown_option(word) for word in words):
            self.complete()
        return super().parse_known_args(args, namespace)

    def format_help(self) -> str:
        from symfuse.server.cli.help import arrange

        self.complete()
        arrange(self, self.prog.rsplit(" ", 1)[-1])
        return super().format_help()

    def _unknown_option(self, word: str) -> bool:
        return word.startswith("-") and word.split("=", 1)[0] not in self._option_string_actions


def defer_options(parser: argparse.ArgumentParser, add: AddOptions) -> None:
    """``add(parser)`` once needed (:class:`CommandParser`), or at once on another parser."""
    if isinstance(parser, CommandParser):
        parser.defer(add)
    else:
        add(parser)


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
        default=None,
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
    group.add_argument(
        "--log-level",
        choices=("debug", "info", "warning", "error"),
        default=None,
        help="the least severe log records written (default warning; -v lowers it)",
    )
    group.add_argument(
        "--log-format",
        choices=("text", "json"),
        default=None,
        help="json: one object per line (with request_id, operation, elapsed_ms for queries)",
    )
    return common


def roots_options(p: argparse.ArgumentParser) -> None:
    """A command's workspace roots: positional, and ``--root ROOT`` (repeatable) beside
    them (``args.roots`` and ``args.extra_roots``)."""
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace roots (default: .)")
    p.add_argument(
        "--root",
        dest="extra_roots",
        action="append",
        default=[],
        metavar="ROOT",
        help="a workspace root (repeatable; same as positional roots)",
    )


def format_option(
    p: argparse.ArgumentParser, choices: tuple[OutputFormat, ...], default: OutputFormat
) -> None:
    """The ``--output-format``/``-f`` option of a command: these ``choices``, ``default``."""
    p.add_argument(
        "--output-format",
        "-f",
        type=OutputFormat,
        choices=choices,
        default=default,
        metavar="|".join(c.value for c in choices),
        help=f"output format (default {default.value})"
        + ("; text: file:line:col: lines, table: the scored table" if "table" in choices else ""),
    )


def stored_histories(args: argparse.Namespace) -> Histories:
    """The stored git history, brought up to date first (only repositories that have one)."""
    from symfuse.server.common.history import HistoryKeeper

    keeper = HistoryKeeper(index_config(args))
    keeper.update(only_existing=True)
    return keeper.histories()


def index_config(
    args: argparse.Namespace, roots: Sequence[str | Path] | None = None
) -> IndexConfig:
    """The IndexConfig the common options describe."""
    chosen = roots if roots is not None else getattr(args, "roots", None) or [Path.cwd()]
    named = [split_alias(str(r)) for r in chosen]
    one_file = _file_root(named)
    if one_file is not None:  # a single file: its folder, that file alone
        named = [(named[0][0], str(one_file.parent))]
    present = [(alias, path) for alias, path in named if Path(path).resolve().is_dir()]
    if len(present) < len(named):
        gone = [Path(path).resolve() for alias, path in named if (alias, path) not in present]
        if not present:
            raise SymfuseError(f"no such directory: {gone[0]}")
        for path in set(gone) - _reported:  # the other roots answer: one line each, once
            _reported.add(path)
            print(f"symfuse: error: workspace root {path} is not a directory", file=sys.stderr)
        named = present
    paths = tuple(Path(path).resolve() for _alias, path in named)
    languages = None
    if args.languages:
        languages = frozenset(x.strip() for x in args.languages.split(",") if x.strip())
    index_dir = args.index_dir
    include = tuple(args.include)
    if one_file is not None:
        # Its own index (not its folder's, which holds every file and would be rebuilt).
        index_dir = index_dir or default_index_dir([one_file])
        include = (*include, "/" + re.sub(r"([\\*?\[\]!#])", r"\\\1", one_file.name))
    return IndexConfig(
        roots=paths,
        index_dir=index_dir,
        include=include,
        exclude=tuple(args.exclude),
        max_file_size=args.max_file_size or DEFAULT_MAX_FILE_SIZE,
        languages=languages,
        jobs=args.jobs,
        progress=not args.no_progress,
        names=tuple(alias for alias, _path in named) if any(a for a, _ in named) else (),
    )


_reported: set[Path] = set()  # missing roots already named on stderr by this command


def new_command() -> None:
    """A command begins: it names each missing root once (a process may run many)."""
    _reported.clear()


def _file_root(named: list[tuple[str | None, str]]) -> Path | None:
    """The file given as the only root, if one is; a file among other roots is refused."""
    files = [Path(path).resolve() for _alias, path in named if Path(path).resolve().is_file()]
    if not files:
        return None
    if len(named) > 1:
        raise SymfuseError(
            f"{files[0]} is a file: give it as the only root to search that file alone, or "
            f"give its folder with --include {files[0].name}"
        )
    return files[0]


def configure_logging(args: argparse.Namespace) -> None:
    """Logs on stderr (or ``--log-file``): ``--log-level`` less ten per ``-v``, as text or
    as one JSON object per line (``--log-format json``)."""
    from symfuse.server.common.logs import JsonFormatter

    named = getattr(logging, str(getattr(args, "log_level", None) or "warning").upper())
    level = max(logging.DEBUG, named - 10 * min(2, getattr(args, "verbose", 0)))
    handler: logging.Handler
    log_file = getattr(args, "log_file", None)
    handler = logging.FileHandler(log_file) if log_file else logging.StreamHandler(sys.stderr)
    if getattr(args, "log_format", None) == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("symfuse: %(levelname)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)


# What a one-shot command loaded (its index, ranking data): such a process ends with
# os._exit, never tearing down that heap of up to millions of objects one by one (time
# nobody waits for).
_held: list[object] = []


def hold(value: object) -> None:
    _held.append(value)


def add_history_flag(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--history",
        action="store_true",
        help="also index each root's git history (commits, and the definitions each diff "
        "touched), incrementally; servers build it in the background",
    )
