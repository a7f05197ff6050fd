"""``symfuse search``: ranked symbol search from the shell, one option per request field.

    symfuse search QUERY [ROOT...] [--kind K] [--language L] [--file-pattern GLOB]
        [--implements I] [--extends E] [--decorator D] [--exclude-path GLOB]
        [--fuzzy | --no-fuzzy] [--fuzzy-threshold X] [--max-edit-distance N]
        [--semantic auto|on|off|only] [--semantic-weight X] [--fusion | --no-fusion]
        [--fusion-weights lexical=0.5,identity=0.3] [--fusion-debug]
        [--limit N] [--offset N] [--mode auto|single|tiered|drill|flat|get]
        [--drill-from PATH|SYMBOL_ID] [--detail-level minimal|default|full]
        [--output-format json|toon|text]

The options are translated into the request mapping and validated by
:meth:`SearchRequest.from_mapping`, like MCP arguments; a bad value exits 1
with one line naming the field.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.request import DetailLevel, SearchMode, SearchRequest, SemanticMode
from symfuse.ranking.response import SearchResponse
from symfuse.server.common.output import OutputFormat, render

_FORMATS = (OutputFormat.JSON, OutputFormat.TOON, OutputFormat.TEXT)


def register(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], common: argparse.ArgumentParser
) -> None:
    p = sub.add_parser(
        "search",
        parents=[common],
        help="ranked symbol search (Signal Fusion)",
        description=(
            "Find symbols by name, abbreviation, typo or description: lexical (BM25), "
            "structural (PageRank), similarity, identity and fuzzy channels fused by "
            "weighted reciprocal rank. The index is brought up to date first."
        ),
    )
    p.add_argument("query", metavar="QUERY", help="a name, camel-hump, typo, path or sentence")
    p.add_argument("roots", nargs="*", metavar="ROOT", help="workspace roots (default: .)")
    p.add_argument("--root", dest="extra_roots", action="append", default=[], metavar="ROOT")
    f = p.add_argument_group("filters")
    f.add_argument("--kind", action="append", metavar="KIND", help="only these kinds (repeatable)")
    f.add_argument("--language", action="append", metavar="LANG", help="only these languages")
    f.add_argument("--file-pattern", action="append", metavar="GLOB", help="only matching files")
    f.add_argument("--exclude-path", action="append", metavar="GLOB", help="skip matching files")
    f.add_argument("--implements", metavar="NAME", help="only types implementing NAME")
    f.add_argument("--extends", metavar="NAME", help="only types extending NAME")
    f.add_argument("--decorator", metavar="NAME", help="only symbols decorated with NAME")
    r = p.add_argument_group("ranking")
    r.add_argument(
        "--fuzzy",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="typo-tolerant matching (default: only when nothing matched as typed)",
    )
    r.add_argument("--fuzzy-threshold", type=float, metavar="X", help="trigram Jaccard (0.3)")
    r.add_argument("--max-edit-distance", type=int, metavar="N", help="Levenshtein bound (3)")
    r.add_argument(
        "--semantic", choices=[m.value for m in SemanticMode], help="similarity channel (auto)"
    )
    r.add_argument("--semantic-weight", type=float, metavar="X", help="0 lexical .. 1 semantic")
    r.add_argument(
        "--fusion",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="weighted reciprocal rank fusion (default on)",
    )
    r.add_argument(
        "--fusion-weights",
        metavar="C=W,...",
        help="channel weights, e.g. lexical=0.5,identity=0.3 (or a JSON object)",
    )
    r.add_argument("--fusion-debug", action="store_true", default=None, help="per-channel ranks")
    o = p.add_argument_group("answer")
    o.add_argument("--limit", type=int, metavar="N", help="results per page (20)")
    o.add_argument("--offset", type=int, metavar="N", help="skip this many results")
    o.add_argument("--mode", choices=[m.value for m in SearchMode], help="retrieval mode (auto)")
    o.add_argument("--drill-from", metavar="PATH|ID", help="scope of --mode drill")
    o.add_argument(
        "--detail-level", choices=[d.value for d in DetailLevel], help="item fields (default)"
    )
    o.add_argument(
        "--output-format",
        "-f",
        type=OutputFormat,
        choices=_FORMATS,
        default=OutputFormat.TEXT,
        metavar="json|toon|text",
        help="output format (default text)",
    )
    p.set_defaults(handler=run_search)


def parse_weights(text: str | None) -> dict[str, Any] | None:
    """``lexical=0.5,identity=0.3`` or a JSON object -> a mapping (validated by the request)."""
    if text is None:
        return None
    text = text.strip()
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRequest("fusion_weights", f"not valid JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise InvalidRequest("fusion_weights", "must be an object of channel -> weight")
        return value
    weights: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, number = part.partition("=")
        if not sep:
            raise InvalidRequest("fusion_weights", f"expected CHANNEL=WEIGHT, got {part!r}")
        try:
            weights[name.strip()] = float(number)
        except ValueError:
            raise InvalidRequest(f"fusion_weights.{name.strip()}", "must be a number") from None
    return weights


def request_of(args: argparse.Namespace) -> SearchRequest:
    """The validated request the options describe (``None`` options take the defaults)."""
    fmt = args.output_format
    mapping: dict[str, Any] = {
        "query": args.query,
        "kind": args.kind,
        "language": args.language,
        "file_pattern": args.file_pattern,
        "implements": args.implements,
        "extends": args.extends,
        "decorator": args.decorator,
        "exclude_path": args.exclude_path,
        "fuzzy": args.fuzzy,
        "fuzzy_threshold": args.fuzzy_threshold,
        "max_edit_distance": args.max_edit_distance,
        "semantic": args.semantic,
        "semantic_weight": args.semantic_weight,
        "fusion": args.fusion,
        "fusion_weights": parse_weights(args.fusion_weights),
        "fusion_debug": args.fusion_debug,
        "limit": args.limit,
        "offset": args.offset,
        "mode": args.mode,
        "drill_from": args.drill_from,
        "detail_level": args.detail_level,
        "output_format": fmt.value if fmt is not OutputFormat.TEXT else None,
    }
    return SearchRequest.from_mapping(mapping)


_TEXT_COLUMNS = {
    DetailLevel.MINIMAL: ("kind", "name", "file", "line"),
    DetailLevel.DEFAULT: ("score", "kind", "name", "file", "line", "signature"),
    DetailLevel.FULL: ("score", "kind", "fqn", "file", "line", "signature", "doc"),
}


def render_text(response: SearchResponse) -> str:
    """A terminal table (per tier in tiered mode) and a one-line summary."""
    data = response.to_dict()
    columns = _TEXT_COLUMNS[response.detail_level]
    if response.fusion_debug:
        columns = (*columns, *(f"{c.value}_rank" for c in response.channels))
    blocks: list[str] = []
    if "tiers" in data:
        for tier, items in data["tiers"].items():
            blocks.append(f"[{tier}]\n" + render(items, OutputFormat.TEXT, columns=columns))
    else:
        blocks.append(render(data["items"], OutputFormat.TEXT, columns=columns))
    summary = (
        f"{len(response.items)} of {response.total} (offset {response.offset}), "
        f"mode {response.search_mode.value}, channels: "
        f"{', '.join(c.value for c in response.channels) or 'none'}"
    )
    if response.intent is not None:
        summary += f"; asks for {response.intent.direction} of {response.intent.target}"
    return "\n".join([*blocks, summary])


def run_search(args: argparse.Namespace) -> int:
    from symfuse.ranking.search import search
    from symfuse.server.cli.index import fresh_index
    from symfuse.server.cli.main import index_config

    request = request_of(args)  # validate before any indexing work
    args.roots = [*args.roots, *args.extra_roots]
    index, _ = fresh_index(args)
    response = search(index, request, directory=index_config(args).store.directory)
    if response.intent is not None:  # "who calls X": answered from the call graph
        from symfuse.ranking.routing import call_graph_answer

        routed = call_graph_answer(index, response, request.limit, request.offset)
        if routed is not None:
            if args.output_format is OutputFormat.TEXT:
                columns = ("score", "kind", "name", "file", "line", "sites")
                print(render(routed, OutputFormat.TEXT, rows_key="items", columns=columns))
            else:
                print(render(routed, args.output_format))
            return 0
    if args.output_format is OutputFormat.TEXT:
        print(render_text(response))
    else:
        print(render(response.to_dict(), args.output_format))
    return 0
