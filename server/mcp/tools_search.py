"""The ``search`` tool: ranked symbol search, and call-graph questions routed to the graph."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from symfuse.ranking.routing import call_graph_answer
from symfuse.server.mcp.budget import Format
from symfuse.server.mcp.models import MaxTokens, Offset, OutputFormat, SearchResult
from symfuse.server.mcp.server import Backend, tool_errors

DESCRIPTION = """\
Find definitions (classes, functions, methods, fields, ...) in the workspace by
name, part of a name, or words about what they do. Prefer it to grep for code:
answers are ranked (exact names first, then BM25 over names, signatures and
docs, PageRank centrality, name similarity and fuzzy matches, fused) and cost
few tokens. Each item: symbol_id (pass it to get_symbol, find_usages, callers,
callees, type_hierarchy), name, kind, fqn, signature, file, line, score.

- Filters: `kind` ("class", "method", "function", ... or a list), `language`,
  `file_pattern` / `exclude_path` (globs), `extends`, `implements`,
  `decorator` ("dataclass", "Route").
- Typos: matched automatically when nothing matches as typed; `fuzzy: true`
  forces it (`fuzzy_threshold`, `max_edit_distance`).
- Ranking: `semantic` (auto|on|off|only) and `semantic_weight` for the
  similarity channel; `fusion: false` for one plain ranking;
  `fusion_weights` per channel; `fusion_debug` shows each channel's rank.
- Modes: single (top results), tiered (high/medium/low buckets), drill
  (only inside `drill_from`, a file or symbol_id), flat (cheapest), get
  (exact path or symbol_id lookup); auto picks get for a path-shaped query.
- `detail_level`: minimal (id, name, kind, file, line: fewest tokens),
  default, full (adds doc, decorators, bases...).
- A question about the call graph, "who calls checkout", "callers of
  Order.total", "what does checkout call", is answered from the call graph:
  search_mode is then callers or callees and items are the calling or called
  symbols, with `sites` (file:line:column of each call).

Examples: {"query": "compute total"} ; {"query": "Gateway", "kind": "class"} ;
{"query": "who calls compute_total"} ; {"query": "chekout", "output_format":
"toon"} ; {"query": "total", "drill_from": "shop/models.py", "mode": "drill"}"""

TextList = Annotated[
    str | list[str] | None,
    Field(description="one value, a comma-separated string, or a list"),
]


def register(server: MCPServer[Any], backend: Backend) -> None:
    @server.tool(
        name="search",
        description=DESCRIPTION,
        annotations=ToolAnnotations(
            title="Search symbols", read_only_hint=True, open_world_hint=False
        ),
    )
    def search(
        query: Annotated[
            str,
            Field(
                max_length=1000,
                description='a name ("checkout"), part of one, words ("compute order '
                'total"), or "who calls X"',
            ),
        ],
        kind: TextList = None,
        language: TextList = None,
        file_pattern: TextList = None,
        exclude_path: TextList = None,
        implements: Annotated[
            str | None, Field(max_length=500, description="only types implementing this")
        ] = None,
        extends: Annotated[
            str | None, Field(max_length=500, description="only types extending this")
        ] = None,
        decorator: Annotated[
            str | None, Field(max_length=500, description="only symbols with this decorator")
        ] = None,
        fuzzy: Annotated[
            bool | None,
            Field(description="typo-tolerant matching; default: only when nothing else matched"),
        ] = None,
        fuzzy_threshold: Annotated[
            float, Field(ge=0.0, le=1.0, description="least trigram similarity for fuzzy hits")
        ] = 0.3,
        max_edit_distance: Annotated[
            int, Field(ge=0, le=10, description="most edits (Levenshtein) for fuzzy hits")
        ] = 3,
        semantic: Annotated[
            Literal["auto", "on", "off", "only"],
            Field(description="similarity channel: auto, on, off, or only it"),
        ] = "auto",
        semantic_weight: Annotated[
            float, Field(ge=0.0, le=1.0, description="weight of the similarity channel")
        ] = 0.5,
        fusion: Annotated[bool, Field(description="fuse every channel's ranking")] = True,
        fusion_weights: Annotated[
            dict[str, float] | None,
            Field(
                description="channel -> weight (normalized), e.g. "
                '{"lexical": 0.4, "structural": 0.25, "similarity": 0.2, "identity": 0.15}'
            ),
        ] = None,
        fusion_debug: Annotated[
            bool, Field(description="add each channel's rank and contribution to every item")
        ] = False,
        limit: Annotated[int, Field(ge=1, le=200, description="most items to return")] = 20,
        offset: Offset = 0,
        mode: Annotated[
            Literal["auto", "single", "tiered", "drill", "flat", "get"],
            Field(description="retrieval mode (see the tool description)"),
        ] = "auto",
        drill_from: Annotated[
            str | None,
            Field(max_length=4096, description="drill mode: a file path or symbol_id to search in"),
        ] = None,
        detail_level: Annotated[
            Literal["minimal", "default", "full"], Field(description="fields per item")
        ] = "default",
        output_format: OutputFormat = "json",
        max_tokens: MaxTokens = None,
    ) -> Annotated[CallToolResult, SearchResult]:
        from symfuse.ranking.api import SearchRequest
        from symfuse.ranking.api import search as run

        raw = {
            "query": query,
            "kind": kind,
            "language": language,
            "file_pattern": file_pattern,
            "exclude_path": exclude_path,
            "implements": implements,
            "extends": extends,
            "decorator": decorator,
            "fuzzy": fuzzy,
            "fuzzy_threshold": fuzzy_threshold,
            "max_edit_distance": max_edit_distance,
            "semantic": semantic,
            "semantic_weight": semantic_weight,
            "fusion": fusion,
            "fusion_weights": fusion_weights,
            "fusion_debug": fusion_debug,
            "limit": limit,
            "offset": offset,
            "mode": mode,
            "drill_from": drill_from,
            "detail_level": detail_level,
            "output_format": output_format,
        }
        directory = backend.live.config.store.directory
        with tool_errors(not_found="drill_from"):
            request = SearchRequest.from_mapping(raw)
            with backend.ranked() as (index, prepared, stale):
                response = run(index, request, directory=directory, prepared=prepared)
                if response.intent is not None:
                    routed = call_graph_answer(index, response, limit, offset)
                    if routed is not None:
                        return backend.answer(
                            routed,
                            "items",
                            Format(output_format),
                            max_tokens,
                            offset=offset,
                            total=routed["total"],
                            stale=stale,
                        )
        data = response.to_dict()
        for key in ("offset", "limit", "semantic"):
            data.pop(key, None)
        if not fusion_debug:
            data.pop("channels", None)
        fmt = Format(output_format)
        if "tiers" in data:
            tiers = data.pop("tiers")
            data["items"] = [
                {**row, "tier": tier} for tier in ("high", "medium", "low") for row in tiers[tier]
            ]
            return backend.answer(
                data,
                "items",
                fmt,
                max_tokens,
                offset=offset,
                total=response.total,
                shape=_tiers,
                stale=stale,
            )
        return backend.answer(
            data, "items", fmt, max_tokens, offset=offset, total=response.total, stale=stale
        )


def _tiers(data: dict[str, Any]) -> dict[str, Any]:
    rows = data.get("items") or []
    shaped = {k: v for k, v in data.items() if k != "items"}
    shaped["tiers"] = {
        tier: [{k: v for k, v in r.items() if k != "tier"} for r in rows if r["tier"] == tier]
        for tier in ("high", "medium", "low")
    }
    return shaped
