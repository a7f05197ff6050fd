"""definition, references, call hierarchy and type hierarchy.

Hierarchy items carry the symbol id in ``data``; the follow-up requests
(incoming/outgoing calls, super/subtypes) look it up in the index as it is then.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from lsprotocol import types as lsp

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.server.lsp import convert as lsp_convert
from symfuse.server.lsp import questions as lsp_nav
from symfuse.server.lsp.base import SymfuseLanguageServer, path_of, query
from symfuse.server.lsp.positions import FileMapper

T = TypeVar("T")

PositionQuestion = Callable[[Index, str, FileMapper, int, int], T]


def register(ls: SymfuseLanguageServer) -> None:
    ls.feature(lsp.TEXT_DOCUMENT_DEFINITION)(definition)
    ls.feature(lsp.TEXT_DOCUMENT_REFERENCES)(references)
    ls.feature(lsp.TEXT_DOCUMENT_PREPARE_CALL_HIERARCHY)(prepare_call_hierarchy)
    ls.feature(lsp.CALL_HIERARCHY_INCOMING_CALLS)(incoming_calls)
    ls.feature(lsp.CALL_HIERARCHY_OUTGOING_CALLS)(outgoing_calls)
    ls.feature(lsp.TEXT_DOCUMENT_PREPARE_TYPE_HIERARCHY)(prepare_type_hierarchy)
    ls.feature(lsp.TYPE_HIERARCHY_SUPERTYPES)(supertypes)
    ls.feature(lsp.TYPE_HIERARCHY_SUBTYPES)(subtypes)


async def definition(
    ls: SymfuseLanguageServer, params: lsp.DefinitionParams
) -> list[lsp.Location] | None:
    def answer(index: Index, key: str, _m: FileMapper, line: int, col: int) -> list[lsp.Location]:
        found = lsp_nav.definitions_at(index, key, line, col)
        return lsp_convert.locations(index, ls.state.mapper, found)

    return await _at(ls, params.text_document.uri, params.position, answer)


async def references(
    ls: SymfuseLanguageServer, params: lsp.ReferenceParams
) -> list[lsp.Location] | None:
    declaration = params.context.include_declaration

    def answer(index: Index, key: str, _m: FileMapper, line: int, col: int) -> list[lsp.Location]:
        target = lsp_nav.symbol_at(index, key, line, col)
        if target is None:
            return []
        spans = lsp_nav.usages(index, target, declaration)
        return [lsp_convert.span_location(index, ls.state.mapper(index, u.file), u) for u in spans]

    return await _at(ls, params.text_document.uri, params.position, answer)


async def prepare_call_hierarchy(
    ls: SymfuseLanguageServer, params: lsp.CallHierarchyPrepareParams
) -> list[lsp.CallHierarchyItem] | None:
    def find(index: Index, key: str, line: int, col: int) -> Symbol | None:
        return lsp_nav.symbol_at(index, key, line, col) or lsp_nav.enclosing(index, key, line, col)

    where = params.text_document.uri, params.position
    return await _hierarchy_root(ls, *where, find, lsp_convert.call_item)


async def incoming_calls(
    ls: SymfuseLanguageServer, params: lsp.CallHierarchyIncomingCallsParams
) -> list[lsp.CallHierarchyIncomingCall] | None:
    def answer(index: Index, s: Symbol) -> list[lsp.CallHierarchyIncomingCall]:
        return [
            lsp.CallHierarchyIncomingCall(from_=item, from_ranges=sites)
            for item, sites in _linked(ls, index, s, incoming=True)
        ]

    return await _item(ls, params.item.data, answer)


async def outgoing_calls(
    ls: SymfuseLanguageServer, params: lsp.CallHierarchyOutgoingCallsParams
) -> list[lsp.CallHierarchyOutgoingCall] | None:
    def answer(index: Index, s: Symbol) -> list[lsp.CallHierarchyOutgoingCall]:
        return [
            lsp.CallHierarchyOutgoingCall(to=item, from_ranges=sites)
            for item, sites in _linked(ls, index, s, incoming=False)
        ]

    return await _item(ls, params.item.data, answer)


def _linked(
    ls: SymfuseLanguageServer, index: Index, s: Symbol, *, incoming: bool
) -> list[tuple[lsp.CallHierarchyItem, list[lsp.Range]]]:
    """The callers (``incoming``) or callees of ``s`` as items, each with the ranges of
    its call sites, which lie in the calling symbol's file."""
    here = ls.state.mapper(index, s.file)
    linked = []
    for call in (lsp_nav.callers if incoming else lsp_nav.callees)(index, s):
        mapper = ls.state.mapper(index, call.symbol.file)
        sites = mapper if incoming else here
        item = lsp_convert.call_item(index, mapper, call.symbol)
        linked.append((item, [lsp_convert.span_range(sites, c) for c in call.sites]))
    return linked


async def prepare_type_hierarchy(
    ls: SymfuseLanguageServer, params: lsp.TypeHierarchyPrepareParams
) -> list[lsp.TypeHierarchyItem] | None:
    where = params.text_document.uri, params.position
    return await _hierarchy_root(ls, *where, lsp_nav.symbol_at, lsp_convert.type_item)


async def supertypes(
    ls: SymfuseLanguageServer, params: lsp.TypeHierarchySupertypesParams
) -> list[lsp.TypeHierarchyItem] | None:
    return await _item(ls, params.item.data, _types(ls, lsp_nav.supertypes))


async def subtypes(
    ls: SymfuseLanguageServer, params: lsp.TypeHierarchySubtypesParams
) -> list[lsp.TypeHierarchyItem] | None:
    return await _item(ls, params.item.data, _types(ls, lsp_nav.subtypes))


async def _hierarchy_root(
    ls: SymfuseLanguageServer,
    uri: str,
    position: lsp.Position,
    find: Callable[[Index, str, int, int], Symbol | None],
    item: Callable[[Index, FileMapper, Symbol], T],
) -> list[T] | None:
    """The item a hierarchy starts from: the symbol ``find`` sees at a position."""

    def answer(index: Index, key: str, _m: FileMapper, line: int, col: int) -> list[T]:
        s = find(index, key, line, col)
        return [] if s is None else [item(index, ls.state.mapper(index, s.file), s)]

    return await _at(ls, uri, position, answer)


def _types(
    ls: SymfuseLanguageServer, walk: Callable[[Index, Symbol], list[Symbol]]
) -> Callable[[Index, Symbol], list[lsp.TypeHierarchyItem]]:
    def answer(index: Index, s: Symbol) -> list[lsp.TypeHierarchyItem]:
        return [
            lsp_convert.type_item(index, ls.state.mapper(index, t.file), t) for t in walk(index, s)
        ]

    return answer


async def _at(
    ls: SymfuseLanguageServer, uri: str, position: lsp.Position, fn: PositionQuestion[T]
) -> T | None:
    """Answer a question about a position of a document, or None outside the workspace."""
    path = path_of(uri)
    key = ls.state.key_of(path) if path else None
    if key is None:
        return None

    def answer(index: Index) -> T | None:
        if key not in index.files:
            return None
        mapper = ls.state.mapper(index, key)
        line, col = mapper.column(position)
        return fn(index, key, mapper, line, col)

    return await query(ls, answer, whole=True)


async def _item(
    ls: SymfuseLanguageServer, data: object, fn: Callable[[Index, Symbol], T]
) -> T | None:
    """Answer a question about the symbol a hierarchy item names (None when gone)."""
    if not isinstance(data, str):
        return None

    def answer(index: Index) -> T | None:
        s = index.get(data)
        return None if s is None else fn(index, s)

    return await query(ls, answer)
