"""``symfuse usages|text|get|callers|callees|hierarchy``: the navigation queries from a shell.

Each command brings the index up to date, asks one function of
:mod:`symfuse.ranking.navigate`, :mod:`symfuse.ranking.hierarchy` or
:mod:`symfuse.ranking.text`, and prints its answer as JSON, TOON or text.
Errors (unknown id, path outside the workspace, bad regex, time budget
exceeded) print one line on stderr and exit 1, through ``cli.main``.
"""

from __future__ import annotations

import argparse
from typing import Any

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.index import Index
from symfuse.ranking import hierarchy, navigate, text
from symfuse.server.common.output import OutputFormat, render, table

_FORMATS = (OutputFormat.TEXT, OutputFormat.JSON, OutputFormat.TOON)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = _parser(sub, common, "usages", "find the usages of a symbol (by id, or by name)")
    p.add_argument("target", nargs="?", help="a symbol id (with ::) or a name")
    p.add_argument("--symbol-id", default=None, help="the symbol's id")
    p.add_argument("--name", default=None, help="a definition name, or a qualified name")
    p.add_argument("--file", default=None, help="with --name: only definitions in this file")
    p.add_argument(
        "--kinds", default=None, help=f"comma-separated: {','.join(navigate.USAGE_KINDS)}"
    )
    p.add_argument("--group-by-file", action="store_true", help="group the usages by file")
    p.add_argument("--include-declaration", action="store_true", help="list the definition too")
    p.add_argument("--min-confidence", type=float, default=0.0, help="drop weaker matches")
    _paging(p, 50)
    p.set_defaults(handler=run_usages)

    p = _parser(sub, common, "text", "search the text of the indexed files")
    p.add_argument("pattern", help="literal text, or a regular expression with --regex")
    p.add_argument("--regex", action="store_true", help="PATTERN is a regular expression")
    p.add_argument("--case-sensitive", action="store_true", help="match case exactly")
    p.add_argument(
        "--edit-distance", type=int, default=0, help="fuzzy: allow 0-3 edits per word (literal)"
    )
    p.add_argument("--file-pattern", default=None, help="only paths matching these globs")
    p.add_argument("--language", default=None, help="only files of this language")
    p.add_argument("--exclude-path", default=None, help="skip paths matching these globs")
    p.add_argument("--snippet-lines", type=int, default=2, help="context lines, 0-50")
    p.add_argument(
        "--timeout", type=float, default=text.DEFAULT_TIMEOUT, help="time budget in seconds"
    )
    _paging(p, 20)
    p.set_defaults(handler=run_text)

    p = _parser(sub, common, "get", "show a symbol's source, or a file's outline")
    p.add_argument("target", nargs="?", help="a symbol id (with ::), a path, or path:line")
    p.add_argument("--symbol-id", default=None, help="the symbol's id")
    p.add_argument("--path", default=None, help="a file (its outline), or path:line")
    p.add_argument("--line", type=int, default=None, help="with --path: the symbol at this line")
    p.add_argument("--context-lines", type=int, default=3, help="lines shown around, 0-50")
    p.add_argument("--max-lines", type=int, default=400, help="cut longer sources")
    p.set_defaults(handler=run_get)

    for name, helptext in (("callers", "who calls a symbol"), ("callees", "what a symbol calls")):
        p = _parser(sub, common, name, helptext)
        p.add_argument("target", help="a symbol id (with ::) or a name")
        p.add_argument("--file", default=None, help="with a name: only definitions in this file")
        p.add_argument("--depth", type=int, default=1, help="hops to follow (1-10)")
        p.add_argument("--limit", type=int, default=100, help="at most this many symbols")
        p.set_defaults(handler=run_calls, direction=name)

    p = _parser(sub, common, "hierarchy", "supertypes and subtypes of a type")
    p.add_argument("target", help="a type's id (with ::) or its name")
    p.add_argument("--file", default=None, help="with a name: only definitions in this file")
    p.add_argument("--depth", type=int, default=1, help="levels to follow (1-10)")
    p.add_argument(
        "--direction", choices=("both", "supertypes", "subtypes"), default="both", help="which way"
    )
    p.set_defaults(handler=run_hierarchy)


def _parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
    common: argparse.ArgumentParser,
    name: str,
    helptext: str,
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
    p.add_argument(
        "--output-format",
        "-f",
        type=OutputFormat,
        choices=_FORMATS,
        default=OutputFormat.TEXT,
        metavar="|".join(c.value for c in _FORMATS),
        help="output format (default text)",
    )
    return p


def _paging(p: argparse.ArgumentParser, limit: int) -> None:
    p.add_argument("--limit", type=int, default=limit, help=f"page size (default {limit})")
    p.add_argument("--offset", type=int, default=0, help="skip this many results")


def _index(args: argparse.Namespace) -> Any:
    from symfuse.server.cli.index import fresh_index

    index, _ = fresh_index(args)
    return index


def _emit(data: dict[str, Any], fmt: OutputFormat, text_form: str) -> int:
    print(text_form if fmt is OutputFormat.TEXT else render(data, fmt))
    return 0


def _footer(data: dict[str, Any]) -> str:
    shown = data["offset"] + len(data.get("usages", data.get("hits", [])))
    more = f"; more with --offset {shown}" if data["truncated"] else ""
    return f"{data['total']} total{more}"


# --- handlers -------------------------------------------------------------------------


def run_usages(args: argparse.Namespace) -> int:
    symbol_id, name = args.symbol_id, args.name
    if args.target and symbol_id is None and name is None:
        symbol_id, name = (args.target, None) if "::" in args.target else (None, args.target)
    if symbol_id is None and name is None:
        raise InvalidRequest("target", "give a symbol id or a name")
    result = navigate.find_usages(
        _index(args),
        symbol_id=symbol_id,
        name=name,
        file=args.file,
        kinds=args.kinds,
        group_by_file=args.group_by_file,
        limit=args.limit,
        offset=args.offset,
        include_declaration=args.include_declaration,
        min_confidence=args.min_confidence,
    )
    data = result.to_dict()
    columns = ("file", "line", "column", "kind", "confidence", "enclosing", "text")
    rows = [u.to_dict() for u in result.usages]
    body = table(rows, columns)
    footer = _footer({**data, "usages": rows})
    targets = ", ".join(t.symbol_id for t in result.targets[: navigate.MAX_SHOWN_TARGETS])
    return _emit(data, args.output_format, f"usages of {targets}\n{body}\n{footer}")


def run_text(args: argparse.Namespace) -> int:
    result = text.search_text(
        _index(args),
        args.pattern,
        regex=args.regex,
        case_sensitive=args.case_sensitive,
        edit_distance=args.edit_distance,
        file_pattern=args.file_pattern,
        language=args.language,
        exclude_path=args.exclude_path,
        snippet_lines=args.snippet_lines,
        limit=args.limit,
        offset=args.offset,
        timeout=args.timeout,
    )
    data = result.to_dict()
    blocks = []
    for hit in result.hits:
        head = f"{hit.file}:{hit.line}:{hit.column}: {hit.text.strip()}"
        blocks.append(f"{head}\n{hit.snippet}" if hit.snippet else head)
    separator = "\n--\n" if args.snippet_lines else "\n"
    body = separator.join(blocks) or "(no results)"
    return _emit(data, args.output_format, f"{body}\n{_footer(data)}")


def run_get(args: argparse.Namespace) -> int:
    symbol_id, path = args.symbol_id, args.path
    if args.target and symbol_id is None and path is None:
        symbol_id, path = (args.target, None) if "::" in args.target else (None, args.target)
    result = navigate.get_symbol(
        _index(args),
        symbol_id=symbol_id,
        path=path,
        line=args.line,
        context_lines=args.context_lines,
        max_lines=args.max_lines,
    )
    data = result.to_dict()
    if isinstance(result, navigate.FileOutline):
        lines = [f"{result.file} ({result.language}, {result.count} symbols)"]
        lines.extend(_outline_lines(result.symbols, 1))
        return _emit(data, args.output_format, "\n".join(lines))
    return _emit(data, args.output_format, _detail_text(result))


def _outline_lines(nodes: tuple[navigate.OutlineNode, ...], level: int) -> list[str]:
    out: list[str] = []
    for node in nodes:
        s = node.symbol
        out.append(f"{'  ' * level}{s.kind.value} {s.name}  {s.line}-{s.end_line}  {s.symbol_id}")
        out.extend(_outline_lines(node.children, level + 1))
    return out


def _numbered(source: str, first: int) -> list[str]:
    return [f"{n:>5}  {line}" for n, line in enumerate(source.split("\n"), first)] if source else []


def _detail_text(d: navigate.SymbolDetail) -> str:
    s = d.symbol
    out = [f"{s.kind.value} {s.fqn}  ({s.file}:{s.line}-{s.end_line})", f"id: {s.symbol_id}"]
    if s.decorators:
        out.append("decorators: " + ", ".join(s.decorators))
    if s.extends or s.implements:
        out.append("bases: " + ", ".join((*s.extends, *s.implements)))
    if d.parent is not None:
        out.append(f"parent: {d.parent.symbol_id}")
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


def _one(index: Index, args: argparse.Namespace) -> str:
    """The id of the symbol ``args.target`` names: an id as given, a name resolved."""
    target: str = args.target
    if "::" in target:
        return navigate.resolve_one(index, target, None).symbol_id
    return navigate.resolve_one(index, None, target, args.file).symbol_id


def run_calls(args: argparse.Namespace) -> int:
    walk = hierarchy.callers if args.direction == "callers" else hierarchy.callees
    index = _index(args)
    result = walk(index, _one(index, args), depth=args.depth, limit=args.limit)
    data = result.to_dict()
    rows = [
        {
            **item,
            "sites": ",".join(f"{s['line']}:{s['column']}" for s in item["sites"]),
        }
        for item in data["items"]
    ]
    body = table(rows, ("depth", "kind", "name", "file", "line", "confidence", "sites"))
    head = f"{result.direction} of {result.root.symbol_id}"
    more = " (cut; raise --limit)" if result.truncated else ""
    return _emit(data, args.output_format, f"{head}\n{body}\n{result.total} total{more}")


def run_hierarchy(args: argparse.Namespace) -> int:
    index = _index(args)
    result = hierarchy.type_hierarchy(
        index, _one(index, args), depth=args.depth, direction=args.direction
    )
    data = result.to_dict()
    columns = ("depth", "relation", "name", "kind", "file", "line", "resolved")
    parts = [f"type hierarchy of {result.root.symbol_id}"]
    if args.direction != "subtypes":
        parts += ["supertypes:", table(data["supertypes"], columns)]
    if args.direction != "supertypes":
        parts += ["subtypes:", table(data["subtypes"], columns)]
    return _emit(data, args.output_format, "\n".join(parts))
