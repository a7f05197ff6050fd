"""The ``search`` tool: ranked symbol search, and call-graph questions routed to the graph.

Its parameters are :class:`SearchRequest`'s fields (:mod:`.schema`).
"""

from __future__ import annotations

from symfuse.ranking.api import CallGraphAnswer
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import DetailLevel, SearchRequest, SemanticMode
from symfuse.server.common.present import IN_THE_ID, Grouping, lean, search_grouping
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.models import SearchResult
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend
from symfuse.server.mcp.surface import Surface

DESCRIPTION = """\
Find definitions by name, part of a name, a typo, or words about what they do,
ranked best first; prefer it to grep for code. Each item: symbol_id
("path::Qualified.name#kind": pass it as `target` to get_symbol, find_usages,
impact), line, signature, score and the first lines of its code. "who calls X"
or "what does X call" is answered from the call graph.
Examples: {"query": "compute total"} ; {"query": "Gateway", "kind": "class"} ;
{"query": "who calls checkout"}"""

PARTIAL = (
    "partial: the first index is still being built; answered by names from the {files} "
    "files indexed so far: ask again for the whole answer"
)
# A names-only answer once the index is whole: the ranking structures are still being built.
NAMES_ONLY = (
    "partial: ranked by names alone while the ranking structures are first built: ask "
    "again in a few seconds for the whole answer"
)
UNNAMED = (
    "no definition is named {name}: these are the nearest names and definitions that share "
    "its words (search_text finds it in strings and comments)"
)

SURFACE = Surface(
    shown=("query", "kind", "file_pattern", "limit", "offset"),
    notes={
        "query": 'a name ("checkout"), words ("compute order total"), a path, '
        '"who calls X", or a bug report',
        "kind": '"class", "function", "method", ... (one or a list)',
        "file_pattern": 'only files matching these globs ("shop/**")',
        "limit": "most items",
        "offset": "skip this many (paging: next_offset)",
    },
    defaults={"limit": 10},
)


def register(server: Toolbox, backend: Backend) -> None:
    def search(request: SearchRequest, rendering: Rendering) -> ToolAnswer:
        if not backend.options.similarity and request.semantic is SemanticMode.AUTO:
            request = request.model_copy(update={"semantic": SemanticMode.OFF})
        with tool_errors(not_found="drill_from"):
            histories = backend.histories() if request.include_removed else None
            partial = backend.partial(request) if histories is None else None
            if partial is not None:  # the first index is still being built
                hint = PARTIAL.format(files=partial[1])
                return _ranked(backend, partial[0], request, rendering, stale=True, hint=hint)
            backend.wait_ready()
            answer, stale = backend.service.search(request, histories=histories)
        if isinstance(answer, CallGraphAnswer):
            graph = answer.to_dict()
            graph.pop("query", None)  # the agent has it; a long one would cost tokens again
            return backend.answer(
                graph,
                "items",
                rendering.format,
                rendering.max_tokens,
                offset=request.offset,
                total=answer.total,
                stale=stale,
            )
        return _ranked(backend, answer, request, rendering, stale, _hint(backend, answer))

    server.add_tool(
        backend.tool("search", SearchRequest, search, SearchResult, SURFACE),
        name="search",
        description=DESCRIPTION,
        annotations=Annotations(title="Search symbols", read_only_hint=True, open_world_hint=False),
    )


def _hint(backend: Backend, answer: SearchResponse) -> str | None:
    """Names-only, or asked for a name that no definition bears (the first page only)."""
    from symfuse.ranking.api import asks_one_name, named_nowhere

    if answer.names_only:
        return NAMES_ONLY
    if backend.service.sharded or not asks_one_name(answer):  # (shards: no index to read)
        return None

    with backend.service.reading() as index:
        name = named_nowhere(index, answer)
    return None if name is None else UNNAMED.format(name=name)


# What a row's symbol_id ("path::Qualified.name#kind") says already, and the span an agent
# reads with get_symbol: left out of a row unless detail_level is full.


def _ranked(
    backend: Backend,
    response: SearchResponse,
    request: SearchRequest,
    rendering: Rendering,
    stale: bool,
    hint: str | None = None,
) -> ToolAnswer:
    data = response.to_dict()
    if hint is not None:
        data["hint"] = hint
    for key in ("offset", "limit", "semantic", "query"):
        data.pop(key, None)
    if not request.fusion_debug:
        data.pop("channels", None)
    grouping = search_grouping(response)
    if request.detail_level is not DetailLevel.FULL:
        dropped = set(IN_THE_ID)
        if len(backend.service.config.roots) == 1 and grouping is not Grouping.REPOSITORIES:
            dropped.add("repository")  # the one root every row is in
        # a row an agent reads: its id, line, signature, score and snippet, and whatever
        # else the request asked for (fusion_debug columns, removed_in)
        data["items"] = [lean(item, dropped) for item in data.get("items") or []]
    return backend.answer(
        data,
        "items",
        rendering.format,
        rendering.max_tokens,
        offset=request.offset,
        total=response.total,
        grouping=grouping,
        stale=stale,
    )
