"""``symfuse index``, ``symfuse symbols`` and ``symfuse stats``."""

from __future__ import annotations

import argparse
import dataclasses
import fnmatch
import logging
from pathlib import Path
from typing import Any

from symfuse.indexer.config import IndexConfig, UpdateReport
from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from symfuse.indexer.update.workspace import load_index, refresh_index, update_index
from symfuse.server.cli.common import (
    add_history_flag,
    defer_options,
    format_option,
    hold,
    index_config,
)
from symfuse.server.cli.problems import Problems, register_problems
from symfuse.server.common.output import (
    OutputFormat,
    render,
    symbol_dict,
    update_counts,
)

log = logging.getLogger(__name__)

_FORMATS = (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON)

COMMANDS = frozenset({"index", "symbols", "stats", "languages", "problems"})


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    _register_index(sub, common)
    _register_symbols(sub, common)
    _register_stats(sub, common)
    _register_languages(sub)
    register_problems(sub, common, _FORMATS)


def _register_index(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "index",
        parents=[common],
        help="build or update the index of a workspace",
        description="Build the index, or update it incrementally, and print a summary.",
    )
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace roots (default: .)")
    defer_options(p, _reindex_options)
    add_history_flag(p)
    format_option(p, _FORMATS, OutputFormat.TEXT)
    p.set_defaults(handler=run_index)


def _register_symbols(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "symbols",
        parents=[common],
        help="dump definitions with every field",
        description="Dump the definitions of the index (updated first), one record per symbol.",
    )
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace roots (default: .)")
    p.add_argument(
        "--file", dest="file", default=None, metavar="PATH", help="only this file (glob)"
    )
    p.add_argument(
        "--kind",
        default=None,
        help=f"only this kind: {', '.join(k.value for k in Kind)}"
        ", or an alias (func, cls, ctor, ...)",
    )
    shown = (OutputFormat.JSON, OutputFormat.JSONL, OutputFormat.TOON, OutputFormat.TEXT)
    format_option(p, shown, OutputFormat.JSONL)
    p.add_argument(
        "--at-commit",
        default=None,
        metavar="REF",
        help="the definitions as of this commit (HEAD~5, a tag, a hash), read from git objects",
    )
    p.add_argument(
        "--repository",
        action="append",
        default=[],
        metavar="ALIAS",
        help="with --at-commit and several roots: the repository",
    )
    p.set_defaults(handler=run_symbols)


def _register_stats(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "stats",
        parents=[common],
        help="print index statistics",
        description="Files, definitions, references and edges, per language, of the index.",
    )
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace roots (default: .)")
    p.add_argument(
        "--latency",
        action="store_true",
        help="query latency, errors and cache hits per operation, from the metrics "
        "(with --since, --front-end); never indexes",
    )
    defer_options(p, _status_options)
    defer_options(p, _latency_options)
    format_option(p, (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON), OutputFormat.TEXT)
    p.set_defaults(handler=run_stats)


def _register_languages(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "languages",
        help="list the languages symfuse indexes",
        description="Every supported language with its file extensions and file names, "
        "and how a .h file's language is chosen.",
    )
    format_option(p, (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON), OutputFormat.TEXT)
    p.set_defaults(handler=run_languages)


def _reindex_options(parser: argparse.ArgumentParser) -> None:
    from symfuse.ranking.query.requests import ReindexRequest
    from symfuse.server.cli.options import add_request_options

    add_request_options(parser, ReindexRequest)


def _status_options(parser: argparse.ArgumentParser) -> None:
    from symfuse.ranking.query.requests import StatusRequest
    from symfuse.server.cli.options import add_request_options

    add_request_options(parser, StatusRequest)


def _latency_options(parser: argparse.ArgumentParser) -> None:
    from symfuse.server.cli.ops import add_latency_options

    add_latency_options(parser)


class _Kept:
    """The indexes a resident process keeps loaded between commands, by index folder
    (:mod:`symfuse.server.cli.resident_serve`); a one-shot command keeps none."""

    LIMIT = 2  # index folders

    def __init__(self) -> None:
        self.on = False
        self.indexes: dict[Path, Index] = {}

    def put(self, directory: Path, index: Index) -> None:
        self.indexes.pop(directory, None)
        self.indexes[directory] = index  # the most recent last
        while len(self.indexes) > self.LIMIT:
            del self.indexes[next(iter(self.indexes))]


_KEPT = _Kept()


def keep_indexes() -> None:
    """This process answers many commands: each index stays loaded for the next one,
    checked against the files and patched as a server's is (its ranking structures,
    cached per index object, with it)."""
    _KEPT.on = True


def kept_indexes() -> int:
    return len(_KEPT.indexes)


def fresh_index(args: argparse.Namespace) -> tuple[Index, UpdateReport]:
    """The index of the roots in ``args``, brought up to date first (for one answer: its
    load does not share equal strings, a good part of a one-shot load)."""
    config: IndexConfig = dataclasses.replace(index_config(args), resident=_KEPT.on)
    directory = config.store.directory
    index, report = update_index(config, index=_KEPT.indexes.get(directory))
    if _KEPT.on:
        _KEPT.put(directory, index)
    else:
        hold(index)
    if report.rebuilt_because:
        log.warning("index rebuilt: %s", report.rebuilt_because)
    return index, report


def run_index(args: argparse.Namespace) -> int:
    config = index_config(args)
    # No paths option without a request model: the plain command never loads one.
    if getattr(args, "paths", None):
        index, report = _reindex_paths(config, args)
    else:
        index, report = refresh_index(config)
    hold(index)
    if report.rebuilt_because:
        log.warning("index rebuilt: %s", report.rebuilt_because)
    found = Problems.of(config, report)
    counts = report.counts
    summary: dict[str, Any] = {
        **update_counts(report),
        "definitions": counts.get("definitions", 0),
        "references": counts.get("references", 0),
        "edges": counts.get("edges", 0),
        "languages": counts.get("languages", {}),
        "seconds": round(report.seconds, 3),
        **found.to_dict(),
    }
    if args.history:
        summary["history"] = _index_history(config)
    if args.output_format is OutputFormat.TEXT:
        langs = ", ".join(f"{k} {v}" for k, v in summary["languages"].items()) or "none"
        print(
            f"{summary['files']} files ({summary['parsed']} parsed, "
            f"{summary['unchanged']} unchanged, {summary['removed']} removed, "
            f"{summary['skipped']} skipped), "
            f"{summary['definitions']} definitions, {summary['references']} references, "
            f"{summary['edges']} edges in {summary['seconds']:.2f} s\nlanguages: {langs}"
        )
        for line in found.summary(verbose=args.verbose > 0):
            print(line)
        for h in summary.get("history", ()):
            print(
                f"history of {h['repository']}: {h['read']} new commits, {h['commits']} in all "
                f"in {h['seconds']:.2f} s"
                + (f" (rebuilt: {h['rebuilt_because']})" if h["rebuilt_because"] else "")
            )
    else:
        print(render(summary, args.output_format))
    return 0


def _index_history(config: IndexConfig) -> list[dict[str, Any]]:
    """``symfuse index --history``: each root's history, updated (a root outside git is
    logged and left out)."""
    from symfuse.server.common.history import HistoryKeeper

    keeper = HistoryKeeper(config)
    return [
        {
            "repository": r.alias,
            "read": r.read,
            "commits": r.commits,
            "tip": r.tip,
            "seconds": round(r.seconds, 3),
            "bytes": r.size,
            "rebuilt_because": r.rebuilt_because,
        }
        for r in keeper.update()
    ]


def _reindex_paths(
    config: IndexConfig, args: argparse.Namespace
) -> tuple[Index | None, UpdateReport]:
    """``symfuse index --paths``: only those files (relative to a root, or absolute), checked
    against the stored index; everything when there is none yet, or a path is a directory."""
    from symfuse.ranking.query.requests import ReindexRequest
    from symfuse.server.cli.options import request_of
    from symfuse.server.common.targets import reindex_targets

    request = request_of(ReindexRequest, args)
    stored = load_index(config)
    if stored is None or stored.roots != config.aliases:
        return refresh_index(config)  # an update of the given files alone would be the index
    return update_index(config, index=stored, only=reindex_targets(stored, request.paths))


def run_symbols(args: argparse.Namespace) -> int:
    from symfuse.ranking.query.vocabulary import kind_of, kind_words, matched_kinds

    kinds: frozenset[Kind] | None = None
    if args.kind:
        kind = kind_of(args.kind)
        if kind is None:
            raise InvalidRequest("--kind", f"unknown kind {args.kind!r}; one of {kind_words()}")
        kinds = matched_kinds((kind,))
    index, _ = fresh_index(args)
    if args.at_commit:
        from symfuse.ranking.api import repository_for, snapshot

        alias = repository_for(index, tuple(args.repository), ())
        directory = index_config(args).store.directory
        index = snapshot(index, alias, args.at_commit, directory).index
    selected = [
        symbol_dict(s)
        for s in index.symbols
        if (s.kind in kinds if kinds is not None else s.kind not in Kind.UNITS)
        and (args.file is None or s.file == args.file or fnmatch.fnmatch(s.file, args.file))
    ]
    columns = ("kind", "name", "fqn", "language", "file", "line", "signature")
    if args.output_format in (OutputFormat.JSON, OutputFormat.TOON):
        print(render({"symbols": selected, "total": len(selected)}, args.output_format))
    elif selected or args.output_format is OutputFormat.TEXT:
        print(render(selected, args.output_format, columns=columns))
    return 0


def run_languages(args: argparse.Namespace) -> int:
    """``symfuse languages``: the language table (:mod:`symfuse.indexer.files.languages`)."""
    from symfuse.indexer.files import languages

    rows = [
        {
            "language": spec.name,
            "extensions": list(spec.extensions),
            "file_names": list(spec.filenames),
        }
        for spec in sorted(languages.supported().values(), key=lambda spec: spec.name)
    ]
    data = {"languages": rows, "total": len(rows), "h_files": languages.HEADER_RULE}
    columns = ("language", "extensions", "file_names")
    print(render(data, args.output_format, rows_key="languages", columns=columns))
    return 0


def run_stats(args: argparse.Namespace) -> int:
    if args.latency:
        from symfuse.server.cli.ops import run_latency

        return run_latency(args)
    index, _report = fresh_index(args)
    stats: dict[str, Any] = dict(index.stats())
    stats["roots"] = index.roots
    stats["kinds"] = _kinds(index)
    stats["problems"] = sum(1 for e in index.files.values() if e.problems)
    stats["updated_at"] = index.updated_at
    stats["index_dir"] = _index_dir(args)
    from symfuse.ranking.api import describe_semantic  # here: `symfuse index` imports no ranking

    stats["similarity_model"] = describe_semantic(index, Path(stats["index_dir"]))
    if args.output_format is OutputFormat.TEXT:
        rows = [
            {
                "language": lang,
                "files": n,
                "definitions": stats["definitions_by_language"].get(lang, 0),
            }
            for lang, n in stats["languages"].items()
        ]
        print(render(rows, OutputFormat.TEXT, columns=("language", "files", "definitions")))
        print(
            f"total: {stats['files']} files, {stats['definitions']} definitions, "
            f"{stats['references']} references, {stats['edges']} edges\n"
            f"index: {stats['index_dir']}\n"
            f"similarity: {stats['similarity_model']}"
        )
    else:
        print(render(stats, args.output_format))
    return 0


def _kinds(index: Index) -> dict[str, int]:
    counts: dict[str, int] = {}
    for s in index.symbols:
        counts[s.kind.value] = counts.get(s.kind.value, 0) + 1
    return dict(sorted(counts.items()))


def _index_dir(args: argparse.Namespace) -> str:
    return str(index_config(args).store.directory)
