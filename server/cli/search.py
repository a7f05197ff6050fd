"""``symfuse search``: ranked symbol search from the shell, one option per request field.

    symfuse search QUERY [ROOT...] [--kind K] [--language L] [--file-pattern GLOB] ...

The options are generated from :class:`SearchRequest` (:mod:`.options`) and
validated by it, like MCP arguments; a bad value exits 2 with one line naming
the field. No match says so on stderr (the exit stays 0: only ``text`` exits as grep).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from symfuse.indexer.errors import SymfuseError
from symfuse.ranking.api import MAX_SHOWN_TARGETS, SearchMode
from symfuse.ranking.query.operations import operation
from symfuse.ranking.query.responses import SearchItem, SearchResponse
from symfuse.ranking.query.search_request import DetailLevel, SearchRequest
from symfuse.server.cli.common import format_option, roots_options
from symfuse.server.cli.locations import summary_on_stderr, symbol_line, with_code
from symfuse.server.cli.options import add_request_options, request_of
from symfuse.server.cli.shards import add_serving_options
from symfuse.server.common.observe import note_results
from symfuse.server.common.output import OutputFormat, render

if TYPE_CHECKING:  # a search that asks no call question loads no call graph code
    from symfuse.indexer.index import Index
    from symfuse.ranking.api import CallGraphAnswer

_FORMATS = (OutputFormat.TEXT, OutputFormat.TABLE, OutputFormat.JSON, OutputFormat.TOON)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "search",
        parents=[common],
        help=operation("search").summary,
        description=(
            "Find symbols by name, abbreviation, typo or description: lexical (BM25), "
            "structural (PageRank), similarity, identity and fuzzy channels fused by "
            "weighted reciprocal rank. The index is brought up to date first."
        ),
    )
    add_request_options(p, SearchRequest, primary_required=True)
    roots_options(p)
    format_option(p, _FORMATS, OutputFormat.TEXT)
    add_serving_options(p, default_workers="0")
    p.set_defaults(handler=run_search, operation="search")


_TEXT_COLUMNS = {
    DetailLevel.MINIMAL: ("kind", "name", "file", "line"),
    DetailLevel.DEFAULT: ("score", "kind", "name", "file", "line", "signature"),
    DetailLevel.FULL: ("score", "kind", "fqn", "file", "line", "signature", "doc"),
}


def render_lines(response: SearchResponse) -> str:
    """One ``file:line:col: Client.send method`` line per hit (:mod:`.locations`), its
    snippet or source indented below it; with ``group_by`` file each file, then its hits'
    ``line:col`` lines; in tiered mode a ``[tier]`` line before each tier's hits."""
    out: list[str] = []
    if response.by_file:
        current = None
        for item in response.items:
            if item.symbol.file != current:
                current = item.symbol.file
                out.append(current)
            out.extend(_hit_lines(item, file_shown=False))
    elif response.search_mode is SearchMode.TIERED:
        for tier, items in response.tiers().items():
            if items:
                out.append(f"[{tier.value}]")
                for item in items:
                    out.extend(_hit_lines(item))
    else:
        for item in response.items:
            out.extend(_hit_lines(item))
    files = {i.symbol.file for i in response.items}
    shown = len(files) if response.by_file else len(response.items)
    more = response.offset + shown < response.total
    summary_on_stderr(
        [
            f"{shown} of {response.total}{' files' if response.by_file else ''}"
            f"; more with --offset {response.offset + shown}"
            if more
            else "",
            *(f"{e.repository}: {e.reason}" for e in response.errors),
        ]
    )
    return "\n".join(out)


def _hit_lines(item: SearchItem, *, file_shown: bool = True) -> list[str]:
    note = f"removed in {item.removed_in[:12]}" if item.removed_in else ""
    line = symbol_line(item.symbol, note, file_shown=file_shown)
    return with_code(line if file_shown else f"  {line}", item.source or item.snippet)


def render_text(response: SearchResponse) -> str:
    """A terminal table (per tier in tiered mode) and a one-line summary (``-f table``)."""
    data = presented(response)
    columns = _TEXT_COLUMNS[response.detail_level]
    if response.fusion_debug:
        columns = (*columns, *(f"{c.value}_rank" for c in response.channels))
    blocks: list[str] = []
    if "tiers" in data:
        for tier, items in data["tiers"].items():
            blocks.append(f"[{tier}]\n" + _with_snippets(items, columns))
    elif "files" in data:  # group_by file: each file, then its hits
        inner = tuple(c for c in columns if c != "file")
        for entry in data["files"]:
            blocks.append(f"{entry['file']}\n" + _with_snippets(entry["items"], inner))
    else:
        blocks.append(_with_snippets(data["items"], columns))
    shown = len(data["files"]) if "files" in data else len(response.items)
    summary = (
        f"{shown} of {response.total}{' files' if response.by_file else ''} "
        f"(offset {response.offset}), "
        f"mode {response.search_mode.value}, channels: "
        f"{', '.join(c.value for c in response.channels) or 'none'}"
    )
    if response.intent is not None:
        summary += f"; asks for {response.intent.direction} of {response.intent.target}"
    if response.fusion_debug and response.shape:
        summary += f"; query shape {response.shape}"
    return "\n".join([*blocks, summary])


def _with_snippets(items: list[dict[str, Any]], columns: Sequence[str]) -> str:
    """The table of ``items``, each row followed by its snippet (or source), indented."""
    text = render(items, OutputFormat.TEXT, columns=columns)
    if not items or not any(item.get("snippet") or item.get("source") for item in items):
        return text
    header, *rows = text.split("\n")
    out = [header]
    for row, item in zip(rows, items, strict=True):
        out.append(row)
        code = item.get("source") or item.get("snippet") or ""
        out.extend(f"    │ {line}" for line in code.splitlines())
    return "\n".join(out)


def run_search(args: argparse.Namespace) -> int:
    from symfuse.ranking.query import operations
    from symfuse.server.cli.common import index_config, stored_histories
    from symfuse.server.cli.index import fresh_index

    request = request_of(SearchRequest, args)  # validate before any indexing work
    answer: SearchResponse | CallGraphAnswer
    unnamed = None
    if args.shards is not None:
        answer = _sharded(args, request)
    else:
        args.roots = [*args.roots, *args.extra_roots]
        index, _ = fresh_index(args)
        histories = stored_histories(args) if request.include_removed else None
        answer = operations.search(
            index, request, directory=index_config(args).store.directory, histories=histories
        )
        unnamed = _unnamed(index, answer)
    note_results(answer.total)
    if not isinstance(answer, SearchResponse):  # "who calls X": answered from the call graph
        data = answer.to_dict()
        if args.output_format is OutputFormat.TEXT:
            lines = [symbol_line(item.symbol, f"calls at {item.sites}") for item in answer.items]
            print("\n".join(lines))
            shown = ", ".join(answer.targets[:MAX_SHOWN_TARGETS])
            more = answer.target_count - MAX_SHOWN_TARGETS
            shown += f" and {more} more" if more > 0 else ""
            summary_on_stderr([f"{answer.intent.direction} of {shown}"])
        elif args.output_format is OutputFormat.TABLE:
            columns = ("score", "kind", "name", "file", "line", "sites")
            print(render(data, OutputFormat.TEXT, rows_key="items", columns=columns))
        else:
            print(render(data, args.output_format))
        return 0
    if args.output_format is OutputFormat.TEXT:
        if answer.items:
            print(render_lines(answer))
        summary_on_stderr(["" if answer.total else "no match", unnamed or ""])
    elif args.output_format is OutputFormat.TABLE:
        print(render_text(answer))
    else:
        data = presented(answer)
        if unnamed:
            data["hint"] = unnamed
        print(render(data, args.output_format))
    return 0


def _unnamed(index: Index, answer: SearchResponse | CallGraphAnswer) -> str | None:
    """What to say of an answer's first page to one identifier that no definition bears."""
    from symfuse.ranking.api import named_nowhere

    if not isinstance(answer, SearchResponse):
        return None
    name = named_nowhere(index, answer)
    return None if name is None else f"no definition is named {name}; the nearest first"


def presented(response: SearchResponse) -> dict[str, Any]:
    """The answer as the CLI prints it: grouped as the request asked (present.group)."""
    from symfuse.server.common.present import group, search_grouping

    data = response.to_dict()
    grouping = search_grouping(response)
    return data if grouping is None else group(data, "items", grouping)


def _sharded(args: argparse.Namespace, request: SearchRequest) -> SearchResponse:
    """``request`` fanned out over the shards in ``--shards`` (here, or on the cluster)."""
    from symfuse.server.cli.shards import cluster_options
    from symfuse.server.shards.cluster import connected
    from symfuse.server.shards.fleet import Fleet

    if args.roots or args.extra_roots:
        raise SymfuseError("--shards answers from the shards: give no ROOT with it")
    with connected(cluster_options(args)) as client:
        fleet = Fleet(args.shards.resolve(), client, args.shard_timeout)
        try:
            return fleet.search(request)
        finally:
            fleet.close()
