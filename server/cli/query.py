"""``symfuse usages|text|get|callers|callees|hierarchy|deps|repos|dead|impact|read|history|
evolution``: the navigation, analysis and history queries from a shell.

Each command's options are generated from its request model; the command brings
the index up to date, asks the query layer's function for it
(:mod:`symfuse.ranking.query.operations`), and prints its answer as JSON, TOON
or text.
Errors (unknown id, path outside the workspace, bad regex, time budget
exceeded) print one line on stderr and exit 1, through ``cli.main``.
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.model import Kind
from symfuse.ranking.api import FileOutline, OutlineNode, SymbolDetail
from symfuse.ranking.query import operations
from symfuse.ranking.query.analysis_requests import DeadCodeRequest, ImpactRequest
from symfuse.ranking.query.history_requests import HistoryRequest
from symfuse.ranking.query.operations import operation
from symfuse.ranking.query.requests import (
    CallsRequest,
    DepsRequest,
    Direction,
    GetRequest,
    HierarchyRequest,
    ReadRequest,
    ReposRequest,
    TextRequest,
    UsagesRequest,
)
from symfuse.ranking.query.smart_case import has_capital
from symfuse.server.cli.common import format_option, stored_histories
from symfuse.server.cli.locations import (
    grep_lines,
    inner_name,
    location,
    summary_on_stderr,
    symbol_line,
)
from symfuse.server.cli.options import add_request_options, request_of
from symfuse.server.common.observe import note_results
from symfuse.server.common.output import OutputFormat, render, table
from symfuse.server.common.present import Grouping, group

_FORMATS = (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON)
# Commands whose text form is location lines (:mod:`.locations`), the table kept as -f table.
_LOCATED_COMMANDS = frozenset({"usages", "callers", "callees"})
_LOCATED = (OutputFormat.TEXT, OutputFormat.TABLE, OutputFormat.JSON, OutputFormat.TOON)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    handlers = {
        "usages": run_usages,
        "text": run_text,
        "get": run_get,
        "callers": run_calls,
        "callees": run_calls,
        "hierarchy": run_hierarchy,
        "deps": run_deps,
        "repos": run_repos,
        "dead": run_dead,
        "impact": run_impact,
        "read": run_read,
        "history": run_history,
    }
    for name, handler in handlers.items():
        op = operation(name)
        formats = _LOCATED if name in _LOCATED_COMMANDS else _FORMATS
        p = _parser(sub, common, name, op.summary, formats)
        add_request_options(p, op.request, primary_required=name in ("text", "deps", "read"))
        p.set_defaults(handler=handler, operation=name)
        if name == "text":
            _case_options(p)
            p.set_defaults(error_exit=TEXT_ERROR)
    # `get --show-evolution` under its own name, a symbol (id or name) as the argument
    p = _parser(sub, common, "evolution", "the commits that changed a definition, newest first")
    add_request_options(p, GetRequest, primary_required=True)
    p.set_defaults(handler=run_evolution, operation="get")


def _parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    common: argparse.ArgumentParser,
    name: str,
    helptext: str,
    formats: tuple[OutputFormat, ...] = _FORMATS,
) -> argparse.ArgumentParser:
    p = sub.add_parser(
        name, parents=[common], help=helptext, description=helptext[0].upper() + helptext[1:] + "."
    )
    p.add_argument(
        "--root",
        dest="roots",
        action="append",
        default=[],
        metavar="ROOT",
        help="a workspace root (repeatable; default: .)",
    )
    format_option(p, formats, OutputFormat.TEXT)
    return p


def _index(args: argparse.Namespace) -> Any:
    from symfuse.server.cli.index import fresh_index

    index, _ = fresh_index(args)
    return index


def _emit(data: dict[str, Any], fmt: OutputFormat, text_form: str, table_form: str = "") -> int:
    total = data.get("total")
    note_results(total if isinstance(total, int) else 1)
    if fmt is OutputFormat.TABLE:
        print(table_form)
    elif fmt is not OutputFormat.TEXT:
        print(render(data, fmt))
    elif text_form:  # no line at all for no answer, as grep prints none
        print(text_form)
    return 0


def _footer(data: dict[str, Any]) -> str:
    shown = data["offset"] + len(data.get("usages", data.get("hits", [])))
    more = f"; more with --offset {shown}" if data["truncated"] else ""
    return f"{data['total']} total{more}"


@contextmanager
def _one_target(args: argparse.Namespace) -> Iterator[None]:
    """A name several definitions answer to, worded for this command line: the command
    to run for each (its target as the positional TARGET), with its kind, qualified
    name, file and id."""
    try:
        yield
    except operations.AmbiguousTarget as exc:
        runs = " | ".join(
            f"symfuse {args.command} {shlex.quote(c.target)} "
            f"({c.kind} {c.qualified_name}, {c.file}:{c.line}, id {c.symbol_id})"
            for c in exc.candidates[:MAX_SHOWN_CANDIDATES]
        )
        more = len(exc.candidates) - MAX_SHOWN_CANDIDATES
        runs += f" | and {more} more" if more > 0 else ""
        raise InvalidRequest(
            "TARGET", f"{exc.name!r} names {len(exc.candidates)} definitions; say which: {runs}"
        ) from None


MAX_SHOWN_CANDIDATES = 8


# --- handlers -------------------------------------------------------------------------


def run_usages(args: argparse.Namespace) -> int:
    request = request_of(UsagesRequest, args)
    with _one_target(args):
        result = operations.usages(_index(args), request)
    data = result.to_dict()
    if request.group_by_file:
        data = group(data, "usages", Grouping.USAGES_BY_FILE)
    columns = ("file", "line", "column", "kind", "confidence", "enclosing", "text")
    rows = [u.to_dict() for u in result.usages]
    body = table(rows, columns)
    footer = _footer({**data, "usages": rows})
    others = len(result.targets) - 1
    targets = result.targets[0].symbol_id + (f" and {others} overloads" if others else "")
    if args.output_format is OutputFormat.TEXT:
        summary_on_stderr([f"usages of {targets}", footer])
    lines = "\n".join(_usage_line(row) for row in rows)
    table_form = f"usages of {targets}\n{body}\n{footer}"
    return _emit(data, args.output_format, lines, table_form)


def _usage_line(row: dict[str, Any]) -> str:
    """``file:line:col: call in Order.label: return format_price(x)``."""
    enclosing = row.get("enclosing")
    where = f" in {inner_name(enclosing) or enclosing}" if enclosing else ""
    sure = "" if row["confidence"] >= 1 else f" ({row['confidence']:.2f})"
    message = f"{row['kind']}{where}{sure}: {str(row['text']).strip()}"
    return location(row["file"], row["line"], row["column"], message)


# symfuse text's exit codes, as grep's and rg's: 0 a match, 1 none, 2 an error (main
# exits with the command's error_exit on an error)
NO_MATCH = 1
TEXT_ERROR = 2


def run_text(args: argparse.Namespace) -> int:
    """Smart case as rg's: a pattern without a capital letter ignores case, one with a
    capital matches it exactly; ``-s``/``--case-sensitive`` and ``-i``/``--ignore-case``
    force either. Exits as grep and rg do: 0 on a match, 1 on none, 2 on an error (so a
    script's ``if symfuse text ...`` reads as ``if rg ...``)."""
    if args.case_exact or args.case_ignored:
        args.case_sensitive = bool(args.case_exact)
    elif args.case_sensitive is None:
        args.case_sensitive = has_capital(args.pattern or "", bool(args.regex))
    request = request_of(TextRequest, args)
    result = operations.text(_index(args), request)
    data = result.to_dict()
    if args.output_format is OutputFormat.TEXT:
        summary_on_stderr([_footer(data) if result.total else "no match"])
    lines = grep_lines(result.hits, context=request.snippet_lines > 0)
    _emit(data, args.output_format, "\n".join(lines))
    return 0 if result.total else NO_MATCH


def _case_options(p: argparse.ArgumentParser) -> None:
    """``-s`` and ``-i`` beside the generated ``--case-sensitive``/``--no-case-sensitive``
    (rg's letters); with none of them, the case is smart (:func:`run_text`)."""
    for action in p._actions:
        if action.dest == "case_sensitive":
            action.help = (
                "match case exactly, or not (--no-case-sensitive); with neither, nor -s or "
                "-i, the case is smart: a pattern with a capital letter matches case"
            )
    p.add_argument(
        "-s", dest="case_exact", action="store_true", help="match case exactly (smart case off)"
    )
    p.add_argument(
        "-i", "--ignore-case", dest="case_ignored", action="store_true", help="ignore case"
    )


def run_get(args: argparse.Namespace, request: GetRequest | None = None) -> int:
    request = request or request_of(GetRequest, args)
    histories = stored_histories(args) if request.needs_history else None
    with _one_target(args):
        result = operations.get(_index(args), request, histories)
    data = result.to_dict()
    if isinstance(result, FileOutline):
        lines = [f"{result.file} ({result.language}, {result.count} symbols)"]
        lines.extend(_outline_lines(result.symbols, 1))
        return _emit(data, args.output_format, "\n".join(lines))
    if args.handler is run_evolution:
        return _emit(data, args.output_format, _evolution_text(result, data))
    text = _detail_text(result)
    if request.show_evolution:
        text += "\n\n" + _evolution_text(result, data)
    return _emit(data, args.output_format, text)


def _outline_lines(nodes: tuple[OutlineNode, ...], level: int) -> list[str]:
    out: list[str] = []
    for node in nodes:
        s = node.symbol
        out.append(f"{'  ' * level}{s.kind.value} {s.name}  {s.line}-{s.end_line}  {s.symbol_id}")
        out.extend(_outline_lines(node.children, level + 1))
    return out


def _numbered(source: str, first: int) -> list[str]:
    return [f"{n:>5}  {line}" for n, line in enumerate(source.split("\n"), first)] if source else []


def _detail_text(d: SymbolDetail) -> str:
    s = d.symbol
    out = [f"{s.kind.value} {s.fqn}  ({s.file}:{s.line}-{s.end_line})", f"id: {s.symbol_id}"]
    if s.decorators:
        out.append("decorators: " + ", ".join(s.decorators))
    if s.extends or s.implements:
        out.append("bases: " + ", ".join((*s.extends, *s.implements)))
    if d.parent is not None:
        out.append(f"parent: {d.parent.symbol_id}")
    if d.overloads:
        out.append(f"overloads: {', '.join(d.overloads)}")
    if s.kind not in Kind.UNITS:  # a file or a region is no node of the call graph
        out.append(f"callers: {d.callers_count}  callees: {d.callees_count}")
    if s.doc:
        out.append("doc: " + s.doc.replace("\n", " ")[:200])
    before = d.context_before.split("\n") if d.context_before else []
    out.append("")
    out.extend(_numbered(d.context_before, s.line - len(before)))
    out.extend(_numbered(d.source, d.start_line))
    if d.source_truncated:
        out.append("  ... (cut; raise --max-lines)")
    else:
        out.extend(_numbered(d.context_after, d.end_line + 1))
    if d.children:
        out.append("")
        out.append("children: " + ", ".join(c.name for c in d.children))
    return "\n".join(out)


def run_calls(args: argparse.Namespace) -> int:
    request = request_of(CallsRequest, args)
    walk = operations.callers if args.operation == "callers" else operations.callees
    with _one_target(args):
        result = walk(_index(args), request)
    data = result.to_dict()
    rows = [
        {
            **item,
            "sites": ",".join(f"{s['line']}:{s['column']}" for s in item["sites"]),
        }
        for item in data["items"][request.offset :]
    ]
    body = table(rows, ("depth", "kind", "name", "file", "line", "confidence", "sites"))
    overloads = f" and {len(result.overloads)} overloads" if result.overloads else ""
    head = f"{result.direction} of {result.root.symbol_id}{overloads}"
    more = " (cut; raise --limit)" if result.truncated else ""
    if args.output_format is OutputFormat.TEXT:
        summary_on_stderr([head, f"{result.total} total{more}"])
    verb = "calls at" if result.direction == "callers" else "called at"
    lines = [
        symbol_line(
            edge.symbol,
            f"{f'depth {edge.depth}, ' if edge.depth > 1 else ''}{verb} "
            + ", ".join(f"{site.line}:{site.column}" for site in edge.sites),
        )
        for edge in result.items[request.offset :]
    ]
    table_form = f"{head}\n{body}\n{result.total} total{more}"
    return _emit(data, args.output_format, "\n".join(lines), table_form)


def run_hierarchy(args: argparse.Namespace) -> int:
    request = request_of(HierarchyRequest, args)
    with _one_target(args):
        result = operations.hierarchy(_index(args), request)
    data = result.to_dict()
    columns = ("depth", "relation", "name", "kind", "file", "line", "resolved")
    parts = [f"type hierarchy of {result.root.symbol_id}"]
    if request.direction is not Direction.SUBTYPES:
        parts += ["supertypes:", table(data["supertypes"], columns)]
    if request.direction is not Direction.SUPERTYPES:
        parts += ["subtypes:", table(data["subtypes"], columns)]
    return _emit(data, args.output_format, "\n".join(parts))


def run_deps(args: argparse.Namespace) -> int:
    request = request_of(DepsRequest, args)
    data = operations.deps(_index(args), request).to_dict()
    columns = ("depth", "file", "lines")
    parts = [
        f"dependencies of {data['file']}",
        "imports:",
        table(data["imports"], columns),
        "imported by:",
        table(data["importers"], columns),
        "external:",
        table(data["external"], ("module", "lines")),
    ]
    if data["cycles"]:
        parts += ["cycles:", *(" -> ".join([*cycle, cycle[0]]) for cycle in data["cycles"])]
    return _emit(data, args.output_format, "\n".join(parts))


def run_repos(args: argparse.Namespace) -> int:
    request = request_of(ReposRequest, args)
    from symfuse.server.cli.common import index_config

    directory = index_config(args).store.directory
    rows = [r.to_dict() for r in operations.repos(_index(args), request, directory)]
    data = {"repositories": rows, "total": len(rows)}
    shown = [
        {**r, "languages": ", ".join(f"{k} {v}" for k, v in r["languages"].items())} for r in rows
    ]
    columns = ("repository", "files", "symbols", "history", "languages", "path")
    return _emit(data, args.output_format, table(shown, columns))


def run_dead(args: argparse.Namespace) -> int:
    data = operations.dead(_index(args), request_of(DeadCodeRequest, args)).to_dict()
    columns = ("confidence", "kind", "name", "file", "line", "reason")
    body = table(data["items"], columns, limit=120)
    return _emit(data, args.output_format, f"{body}\n{_footer({**data, 'usages': data['items']})}")


def run_impact(args: argparse.Namespace) -> int:
    """``--diff FILE`` or ``--diff -`` (stdin) is read here: the request takes the text."""
    if args.diff == "-":
        args.diff = sys.stdin.read()
    elif args.diff is not None and "\n" not in args.diff:  # one line: a file's name
        if not Path(args.diff).is_file():
            raise InvalidRequest(
                "--diff", f"no such file {args.diff!r}: give a file, or - for stdin"
            )
        args.diff = Path(args.diff).read_text(encoding="utf-8", errors="replace")
    with _one_target(args):
        data = operations.impact(_index(args), request_of(ImpactRequest, args)).to_dict()
    columns = ("depth", "relation", "kind", "name", "line", "via")
    changed = data["changed"]
    beyond = f" and {len(changed) - 20} more (-f json lists them)" if len(changed) > 20 else ""
    parts = ["changed: " + ", ".join(c["symbol_id"] for c in changed[:20]) + beyond]
    for impacted in data["files"]:
        parts += [
            f"{impacted['file']}{' (test)' if impacted['test'] else ''}",
            table(impacted["items"], columns),
        ]
    parts.append(f"tests that exercise it: {', '.join(data['tests']) or '(none found)'}")
    more = f"; more with --offset {data['offset'] + sum(len(g['items']) for g in data['files'])}"
    guesses = f"; unresolved: {data['unresolved']} (see --min-confidence)"
    parts.append(
        f"{data['total']} total{more if data['truncated'] else ''}"
        f"{guesses if data['unresolved'] else ''}"
    )
    return _emit(data, args.output_format, "\n".join(parts))


def run_read(args: argparse.Namespace) -> int:
    """The lines themselves in text form (as ``sed -n`` prints them); no index is built:
    confining the path needs the roots alone."""
    from symfuse.indexer.index import Index
    from symfuse.server.cli.common import index_config

    request = request_of(ReadRequest, args)
    found = operations.read(Index(index_config(args).aliases), request)
    return _emit(found.to_dict(), args.output_format, found.content)


def run_history(args: argparse.Namespace) -> int:
    request = request_of(HistoryRequest, args)
    data = operations.history(stored_histories(args), request).to_dict()
    blocks = [_commit_text(item) for item in data["items"]]
    blocks.append(f"{data['total']} total")
    return _emit(data, args.output_format, "\n\n".join(blocks))


def _commit_text(item: dict[str, Any]) -> str:
    lines = [
        f"{item['commit'][:12]} {item['date']} {item['author']} <{item['email']}> "
        f"[{item['repository']}]",
        f"    {item['subject']}",
    ]
    lines += [f"  {f['status']:8} {f['path']}" for f in item["files"]]
    for sym in item["symbols"]:
        lines.append(f"  {sym['change']} {sym['kind']} {sym['name']} ({sym['file']}:{sym['line']})")
        lines += [f"      {line}" for line in sym["diff"].splitlines()]
    return "\n".join(lines)


def run_evolution(args: argparse.Namespace) -> int:
    """``symfuse evolution SYMBOL``: ``get --show-evolution``, shown as the list of commits."""
    request = request_of(GetRequest, args).model_copy(update={"show_evolution": True})
    return run_get(args, request)


def _evolution_text(result: SymbolDetail, data: dict[str, Any]) -> str:
    s = result.symbol
    lines = [f"{s.kind.value} {s.fqn}  ({s.file}:{s.line}-{s.end_line})"]
    for entry in data.get("evolution") or []:
        lines.append(
            f"{entry['commit'][:12]} {entry['date']} {entry['author']}: {entry['subject']} "
            f"({entry['change']}, {entry['file']})"
        )
        lines += [f"      {line}" for line in entry["diff"].splitlines()]
    if not data.get("evolution"):
        lines.append("(no commit in the history index changed it)")
    return "\n".join(lines)
