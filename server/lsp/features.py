"""workspace/symbol (+ resolve), textDocument/documentSymbol and hover.

workspace/symbol answers best first, capped at ``resultLimit``. When the client
can resolve ``location.range`` lazily, the answer carries only URIs and
``workspaceSymbol/resolve`` fills the range of the item the user picks (no file
needs reading to answer). When the client sends a ``partialResultToken``, the
results stream as ``$/progress`` batches, the best batch first. A question about
the call graph ("who calls save", "callers of Order.save") lists the calling
definitions instead of ranked names.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any, cast

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcContentModified
from pygls.uris import from_fs_path

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.api import Stopped, snippet
from symfuse.ranking.query.parse import SymbolQuery, parse_symbol_query
from symfuse.server.lsp import convert as lsp_convert
from symfuse.server.lsp import questions as lsp_nav
from symfuse.server.lsp.base import SymfuseLanguageServer, path_of, query
from symfuse.server.lsp.positions import Encoding, FileMapper
from symfuse.server.lsp.protocol import ProtocolJson
from symfuse.server.lsp.search import call_graph, search

if TYPE_CHECKING:
    from symfuse.server.shards.service import ShardService

PARTIAL_BATCH = 50


def register(ls: SymfuseLanguageServer) -> None:
    symbols = lsp.WorkspaceSymbolOptions(resolve_provider=True)
    ls.feature(lsp.WORKSPACE_SYMBOL, symbols)(workspace_symbol)
    ls.feature(lsp.WORKSPACE_SYMBOL_RESOLVE)(workspace_symbol_resolve)
    ls.feature(lsp.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(document_symbol)
    ls.feature(lsp.TEXT_DOCUMENT_HOVER)(hover)


async def workspace_symbol(
    ls: SymfuseLanguageServer, params: lsp.WorkspaceSymbolParams
) -> list[lsp.WorkspaceSymbol] | list[dict[str, Any]]:
    wanted = parse_symbol_query(params.query)
    limit = ls.state.options.search.result_limit
    service = ls.state.service
    if service is not None and service.sharded:
        shards = cast("ShardService", service)
        return await asyncio.to_thread(_sharded, shards, wanted, limit, ls.state.encoding)
    lazy = _lazy_locations(ls)
    # the user typed on: a newer query extends or shortens this one
    superseded = ls.conforming.symbol_queries.overtaken(ls.protocol.msg_id)

    def answer(index: Index) -> ProtocolJson:
        found = _found(ls, index, wanted, limit)
        if lazy:
            return ProtocolJson(lsp_convert.workspace_symbol(index, s, None) for s in found)
        mappers = {key: ls.state.mapper(index, key) for key in {s.file for s in found}}
        return ProtocolJson(lsp_convert.workspace_symbol(index, s, mappers[s.file]) for s in found)

    try:
        # names only, unless a call-graph question needs the edges
        linked = wanted.call is not None
        found = await query(ls, answer, superseded, linked)
    except Stopped as exc:
        typed_on = "a newer workspace/symbol query extends or shortens this one"
        raise JsonRpcContentModified(typed_on) from exc
    token = params.partial_result_token
    if token is None or len(found) <= PARTIAL_BATCH:
        return found
    for start in range(0, len(found), PARTIAL_BATCH):
        batch = found[start : start + PARTIAL_BATCH]
        ls.protocol.notify(lsp.PROGRESS, lsp.ProgressParams(token=token, value=batch))
    return []


def _found(
    ls: SymfuseLanguageServer, index: Index, wanted: SymbolQuery, limit: int
) -> list[Symbol]:
    """The callers (or callees) a call-graph question asks for, else the ranked names."""
    ranking = ls.state.ranking(index)
    routed = call_graph(index, wanted, limit, ranking.prepared)
    if routed is not None:
        return routed
    return search(index, wanted, limit, ranking.prepared, ranking.previous)


def _sharded(
    service: ShardService, wanted: SymbolQuery, limit: int, encoding: Encoding
) -> list[lsp.WorkspaceSymbol]:
    """The ranked names of a sharded service (:mod:`symfuse.server.shards`), located by
    their root: no index here to read lines from, so columns are the stored ones."""
    answer = service.editor_search(wanted.request(limit))
    roots = service.config.aliases
    mapper = FileMapper({}, encoding)
    found: list[lsp.WorkspaceSymbol] = []
    for item in answer.items:
        s = item.symbol
        alias, _, rel = s.file.partition("/")
        path = os.path.join(roots.get(alias, alias), rel)
        found.append(
            lsp.WorkspaceSymbol(
                name=s.name,
                kind=lsp_convert.symbol_kind(s.kind),
                location=lsp.Location(
                    uri=from_fs_path(path) or f"file://{path}",
                    range=lsp_convert.name_range(mapper, s),
                ),
                container_name=lsp_convert.container_name(s),
            )
        )
    return found


async def workspace_symbol_resolve(
    ls: SymfuseLanguageServer, item: lsp.WorkspaceSymbol
) -> lsp.WorkspaceSymbol:
    if isinstance(item.location, lsp.Location) or not isinstance(item.data, str):
        return item
    symbol_id = item.data

    def answer(index: Index) -> lsp.WorkspaceSymbol:
        s = index.get(symbol_id)
        if s is None:
            return item
        item.location = lsp_convert.location(index, ls.state.mapper(index, s.file), s)
        return item

    return await query(ls, answer)


async def document_symbol(
    ls: SymfuseLanguageServer, params: lsp.DocumentSymbolParams
) -> list[lsp.DocumentSymbol] | None:
    path = path_of(params.text_document.uri)
    key = ls.state.key_of(path) if path else None
    if key is None:
        return None

    def answer(index: Index) -> list[lsp.DocumentSymbol] | None:
        entry = index.files.get(key)
        if entry is None:
            return None
        return lsp_convert.document_symbols(ls.state.mapper(index, key), entry.definitions())

    return await query(ls, answer, file=key)


async def hover(ls: SymfuseLanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
    path = path_of(params.text_document.uri)
    key = ls.state.key_of(path) if path else None
    if key is None:
        return None

    def answer(index: Index) -> lsp.Hover | None:
        mapper = ls.state.mapper(index, key)
        line, col = mapper.column(params.position)
        found = lsp_nav.definitions_at(index, key, line, col)
        if not found:
            return None
        s = found[0]
        on_name = s.file == key and s.name_line == line and s.name_col <= col < s.name_end_col
        if on_name:  # the definition itself: its code is on screen already
            return lsp_convert.hover(s, lsp_convert.name_range(mapper, s))
        lines = ls.state.options.search.hover_snippet_lines
        return lsp_convert.hover(s, None, snippet(index, s, lines, skip_doc=True))

    return await query(ls, answer, whole=True)


def _lazy_locations(ls: SymfuseLanguageServer) -> bool:
    """Whether the client resolves ``location.range`` of workspace symbols itself."""
    caps = ls.client_capabilities.workspace
    symbol = caps.symbol if caps is not None else None
    support = symbol.resolve_support if symbol is not None else None
    return support is not None and "location.range" in support.properties
