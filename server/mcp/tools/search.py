"""The ``search`` tool: ranked symbol search, and call-graph questions routed to the graph.

Its parameters are :class:`SearchRequest`'s fields (:mod:`.schema`).
"""

from __future__ import annotations

from typing import Annotated

from mcp_types import CallToolResult, ToolAnnotations

from symfuse.ranking.api import CallGraphAnswer
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest, SemanticMode
from symfuse.server.common.present import search_grouping
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.models import SearchResult
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend

DESCRIPTION = """\
Find definitions (classes, functions, methods, fields, ...) in the workspace by
name, part of a name, or words about what they do. Prefer it to grep for code:
answers are ranked (exact names first, then BM25 over names, signatures and
docs, PageRank centrality, name similarity and fuzzy matches, fused) and cost
few tokens. Each item: symbol_id (pass it to get_symbol, find_usages, callers,
callees, type_hierarchy), name, kind, fqn, signature, file, line, score.

- Filters: `kind` ("class", "method", "function", ... or a list), `language` /
  `exclude_language`, `file_pattern` / `exclude_path` (globs),
  `file_extensions` (".py"), `extends`, `implements`, `decorator`
  ("dataclass", "Route"), `min_score` (0..1, on the items' score).
- `total` counts every match whatever `limit` and `offset`; paging reaches them.
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
  search_mode is then callers or callees, `targets` every definition so
  named, and items the calling or called symbols, with `sites`
  (file:line:column of each call, each once).

Examples: {"query": "compute total"} ; {"query": "Gateway", "kind": "class"} ;
{"query": "who calls compute_total"} ; {"query": "chekout", "output_format":
"toon"} ; {"query": "total", "drill_from": "shop/models.py", "mode": "drill"}"""


def register(server: Toolbox, backend: Backend) -> None:
    def search(request: SearchRequest, rendering: Rendering) -> CallToolResult:
        if not backend.options.similarity and request.semantic is SemanticMode.AUTO:
            request = request.model_copy(update={"semantic": SemanticMode.OFF})
        with tool_errors(not_found="drill_from"):
            histories = backend.histories() if request.include_removed else None
            backend.wait_ready()
            answer, stale = backend.service.search(request, histories=histories)
        if isinstance(answer, CallGraphAnswer):
            return backend.answer(
                answer.to_dict(),
                "items",
                rendering.format,
                rendering.max_tokens,
                offset=request.offset,
                total=answer.total,
                stale=stale,
            )
        return _ranked(backend, answer, request, rendering, stale)

    server.add_tool(
        backend.tool("search", SearchRequest, search, Annotated[CallToolResult, SearchResult]),
        name="search",
        description=DESCRIPTION,
        annotations=ToolAnnotations(
            title="Search symbols", read_only_hint=True, open_world_hint=False
        ),
    )


def _ranked(
    backend: Backend,
    response: SearchResponse,
    request: SearchRequest,
    rendering: Rendering,
    stale: bool,
) -> CallToolResult:
    data = response.to_dict()
    for key in ("offset", "limit", "semantic"):
        data.pop(key, None)
    if not request.fusion_debug:
        data.pop("channels", None)
    return backend.answer(
        data,
        "items",
        rendering.format,
        rendering.max_tokens,
        offset=request.offset,
        total=response.total,
        grouping=search_grouping(response),
        stale=stale,
    )
