"""Symbols of the index -> lsprotocol types (locations, symbols, hierarchy items, hover).

Everything here is a pure translation; :class:`Positions` supplies the line texts
needed to express code-point columns in the client's position encoding.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from lsprotocol import types as lsp
from pygls.uris import from_fs_path

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.server.lsp.positions import FileMapper
from symfuse.server.lsp.questions import Span

MapperOf = Callable[[Index, str], FileMapper]


def uri_of(index: Index, key: str) -> str:
    return _uri(index.abs_path(key))


@functools.lru_cache(maxsize=1 << 16)
def _uri(path: str) -> str:
    """A path's URI, made once per path: pygls' ``from_fs_path`` (urllib's quoting) is a
    noticeable part of a long ``workspace/symbol`` answer."""
    return from_fs_path(path) or f"file://{path}"


def symbol_kind(kind: Kind) -> lsp.SymbolKind:
    return lsp.SymbolKind(kind.lsp_number)


def full_range(mapper: FileMapper, s: Symbol) -> lsp.Range:
    """The definition's whole span, stretched to contain the name if it does not."""
    start = min((s.line, s.col), (s.name_line, s.name_col))
    end = max((s.end_line, s.end_col), (s.name_end_line, s.name_end_col))
    return mapper.range(*start, *end)


def name_range(mapper: FileMapper, s: Symbol) -> lsp.Range:
    return mapper.range(s.name_line, s.name_col, s.name_end_line, s.name_end_col)


def location(index: Index, mapper: FileMapper, s: Symbol) -> lsp.Location:
    return lsp.Location(uri=uri_of(index, s.file), range=name_range(mapper, s))


def span_range(mapper: FileMapper, span: Span) -> lsp.Range:
    return mapper.range(span.line, span.col, span.line, span.end_col)


def span_location(index: Index, mapper: FileMapper, span: Span) -> lsp.Location:
    return lsp.Location(uri=uri_of(index, span.file), range=span_range(mapper, span))


def container_name(s: Symbol) -> str | None:
    """What an editor shows beside the name: the enclosing scope; a region's file, a file
    unit's folder (their qualified names are paths, not scopes)."""
    if s.kind is Kind.REGION:
        return s.file
    if s.kind is Kind.FILE:
        return s.file.rpartition("/")[0] or None
    return s.container or None


def workspace_symbol(index: Index, s: Symbol, mapper: FileMapper | None) -> dict[str, Any]:
    """A workspace symbol as the protocol's JSON; without a mapper its location is the URI
    alone (resolved later, ``data`` names the symbol).

    JSON, not an lsprotocol object: building and unstructuring the objects (validated
    attrs classes) costs many times what the dictionaries do.
    """
    where: dict[str, Any] = {"uri": uri_of(index, s.file)}
    found: dict[str, Any] = {"name": s.name, "kind": s.kind.lsp_number, "location": where}
    if container := container_name(s):
        found["containerName"] = container
    if mapper is None:
        found["data"] = s.symbol_id  # only a lazy location needs resolving
    else:
        start = mapper.position_json(s.name_line, s.name_col)
        where["range"] = {
            "start": start,
            "end": mapper.position_json(s.name_end_line, s.name_end_col),
        }
    return found


def document_symbols(mapper: FileMapper, symbols: list[Symbol]) -> list[lsp.DocumentSymbol]:
    """The file's symbols as a tree (children under their parent), in source order."""
    children: dict[str, list[lsp.DocumentSymbol]] = {}
    roots: list[lsp.DocumentSymbol] = []
    for s in symbols:
        mine: list[lsp.DocumentSymbol] = []
        node = lsp.DocumentSymbol(
            name=s.name,
            kind=symbol_kind(s.kind),
            range=full_range(mapper, s),
            selection_range=name_range(mapper, s),
            detail=_detail(s),
            children=mine,
        )
        children[s.symbol_id] = mine
        siblings = children.get(s.parent) if s.parent is not None else None
        (siblings if siblings is not None else roots).append(node)
    return roots


def _detail(s: Symbol) -> str | None:
    first = s.signature.splitlines()[0].strip() if s.signature else ""
    return first or None


def _item_fields(index: Index, mapper: FileMapper, s: Symbol) -> dict[str, Any]:
    """What a call hierarchy item and a type hierarchy item both carry."""
    return {
        "name": s.name,
        "kind": symbol_kind(s.kind),
        "uri": uri_of(index, s.file),
        "range": full_range(mapper, s),
        "selection_range": name_range(mapper, s),
        "detail": s.fqn,
        "data": s.symbol_id,
    }


def call_item(index: Index, mapper: FileMapper, s: Symbol) -> lsp.CallHierarchyItem:
    return lsp.CallHierarchyItem(**_item_fields(index, mapper, s))


def type_item(index: Index, mapper: FileMapper, s: Symbol) -> lsp.TypeHierarchyItem:
    return lsp.TypeHierarchyItem(**_item_fields(index, mapper, s))


def hover(s: Symbol, word_range: lsp.Range | None, code: str | None = None) -> lsp.Hover:
    """Markdown: the signature in a code block, the kind and qualified name, the doc, and
    ``code`` (the definition's first lines, shown when hovering a use of it)."""
    parts = [f"```{s.language}\n{s.signature.strip() or s.name}\n```"]
    about = f"*{s.kind.value}* `{s.fqn}`"
    if s.decorators:
        about += " — " + ", ".join(f"`@{d}`" for d in s.decorators)
    parts.append(about)
    if s.doc:
        parts.append(s.doc)
    if code:
        parts.append(f"```{s.language}\n{code}\n```")
    return lsp.Hover(
        contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n\n".join(parts)),
        range=word_range,
    )


def locations(index: Index, mapper_of: MapperOf, symbols: Iterable[Symbol]) -> list[lsp.Location]:
    return [location(index, mapper_of(index, s.file), s) for s in symbols]
