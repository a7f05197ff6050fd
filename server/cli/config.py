"""Settings on the command line: fill the options not given from the other sources, and
``symfuse config``, which prints the effective settings and where each came from.

:func:`apply_settings` runs after parsing and before anything else: an option
given on the command line wins; one not given takes the value of
``SYMFUSE_<KEY>``, then of ``symfuse.toml`` at the first root, then of the
user's ``config.toml`` (:mod:`symfuse.server.common.settings`).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from symfuse.server.common.config_files import any_source

# Settings the command line can give, by the name of its option's destination.
_FROM_OPTIONS = (
    "include",
    "exclude",
    "languages",
    "max_file_size",
    "index_dir",
    "jobs",
    "limit",
    "max_tokens",
    "log_level",
    "log_format",
    "log_file",
)


def workspace_of(args: argparse.Namespace) -> Path:
    roots = [*(getattr(args, "roots", None) or []), *getattr(args, "extra_roots", [])]
    return Path(roots[0]).resolve() if roots else Path.cwd()


def apply_settings(
    args: argparse.Namespace, argv: Sequence[str], formats: Sequence[Any] = ()
) -> None:
    """Fill ``args`` from the settings sources (nothing to do when there are none);
    ``formats``: the output formats the command accepts."""
    workspace = workspace_of(args)
    if args.command != "config" and not any_source(workspace):
        return
    from symfuse.server.common.settings import resolve

    given = {k: getattr(args, k) for k in _FROM_OPTIONS if hasattr(args, k)}
    if hasattr(args, "output_format") and _option_given(argv, ("-f", "--output-format")):
        given["output_format"] = str(args.output_format.value)
    resolved = resolve(workspace, given)
    args.resolved_settings = resolved
    _fill(args, resolved.settings.model_dump(), tuple(formats))


def _fill(args: argparse.Namespace, values: dict[str, Any], formats: tuple[Any, ...]) -> None:
    for key in ("include", "exclude"):
        if hasattr(args, key):
            setattr(args, key, list(values[key]))
    if hasattr(args, "languages"):
        args.languages = ",".join(values["languages"]) or None
    for key in ("max_file_size", "index_dir", "jobs", "log_level", "log_format", "log_file"):
        if hasattr(args, key):
            setattr(args, key, values[key])
    if getattr(args, "limit", 0) is None:  # a query command, no --limit given
        args.limit = values["limit"]
    if hasattr(args, "max_tokens"):
        args.max_tokens = values["max_tokens"]
    chosen = values["output_format"]
    matching = [f for f in formats if getattr(f, "value", None) == chosen]
    if matching:
        args.output_format = matching[0]
    if values["similarity_model"] == "off" and getattr(args, "semantic", 0) is None:
        args.semantic = "off"
    args.similarity_model = values["similarity_model"]


def _option_given(argv: Sequence[str], names: tuple[str, ...]) -> bool:
    return any(w in names or w.startswith(tuple(n + "=" for n in names)) for w in argv)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    from symfuse.server.cli.common import format_option
    from symfuse.server.common.output import OutputFormat

    p = sub.add_parser(
        "config",
        parents=[common],
        help="print the effective settings and where each came from",
        description="Every setting with its effective value and its source: the command "
        "line, SYMFUSE_* variables, symfuse.toml at the workspace root, or the user's "
        "config.toml (highest first).",
    )
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace root (default: .)")
    choices = (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON)
    format_option(p, choices, OutputFormat.TEXT)
    p.set_defaults(handler=run_config)


def run_config(args: argparse.Namespace) -> int:
    from symfuse.server.common.config_files import WORKSPACE_FILE, user_file
    from symfuse.server.common.output import OutputFormat, render

    rows = args.resolved_settings.rows()
    for row in rows:
        if isinstance(row["value"], list):
            row["value"] = ",".join(row["value"])
    files = {
        "workspace_file": str(workspace_of(args) / WORKSPACE_FILE),
        "user_file": str(user_file()),
    }
    if args.output_format is OutputFormat.TEXT:
        print(render(rows, OutputFormat.TEXT, columns=("key", "value", "source")))
        print(f"files read: {files['workspace_file']}, {files['user_file']} (when present)")
    else:
        print(render({"settings": rows, **files}, args.output_format))
    return 0
