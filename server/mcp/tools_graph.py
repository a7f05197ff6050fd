"""The graph tools: ``callers``, ``callees`` and ``type_hierarchy``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.server.mcp.budget import Format
from symfuse.server.mcp.models import (
    CallGraphResult,
    FileHint,
    HierarchyResult,
    MaxTokens,
    Offset,
    OutputFormat,
    SymbolId,
    SymbolName,
)
from symfuse.server.mcp.server import Backend, tool_errors

CALLS_DESCRIPTION = """\
{what}, read from the call graph of the index, breadth first up to `depth`
hops (1 = direct {who} only). Each row is a function or method with its
symbol_id, file, line, signature, its `depth`, `via` (the symbol one hop
nearer the one asked about), `confidence` (1 when scope or imports decided the
link, lower when only the name did) and `sites`, the call sites as
"file:line:column". Identify the symbol by `symbol_id`, or by `name` (with
`file` when several definitions share it).

Examples: {{"symbol_id": "shop/service.py::checkout#function"}} ;
{{"name": "{example}", "depth": 2}}"""

HIERARCHY_DESCRIPTION = """\
Show the type hierarchy of a class, interface or trait: its supertypes (what
it extends or implements) and subtypes (what extends or implements it), up to
`depth` levels each way, read from the inheritance graph. Bases defined
outside the workspace (library classes) appear by name with a null
symbol_id. Rows carry `relation` (extends / implements), `depth`, `via` and
`resolved` (false when matched by name only).

Examples: {"symbol_id": "shop/payments.py::PaymentGateway#class"} ;
{"name": "Order", "direction": "supertypes", "depth": 3}"""

Depth = Annotated[int, Field(ge=1, le=5, description="hops to follow (1 = direct)")]


def register(server: MCPServer[Any], backend: Backend) -> None:
    for direction in ("callers", "callees"):
        _register_calls(server, backend, direction)

    @server.tool(
        name="type_hierarchy",
        description=HIERARCHY_DESCRIPTION,
        annotations=ToolAnnotations(
            title="Type hierarchy", read_only_hint=True, open_world_hint=False
        ),
    )
    def type_hierarchy(
        symbol_id: SymbolId = None,
        name: SymbolName = None,
        file: FileHint = None,
        direction: Annotated[
            Literal["both", "supertypes", "subtypes"], Field(description="which way to walk")
        ] = "both",
        depth: Depth = 1,
        offset: Offset = 0,
        output_format: OutputFormat = "json",
        max_tokens: MaxTokens = None,
    ) -> Annotated[CallToolResult, HierarchyResult]:
        from symfuse.ranking.hierarchy import type_hierarchy as run

        with tool_errors(not_found="symbol_id"), backend.reading() as index:
            target = resolve_target(index, symbol_id, name, file)
            result = run(index, target.symbol_id, depth=depth, direction=direction)
        rows = [
            {**_type_row(link.to_dict()), "direction": "supertype"} for link in result.supertypes
        ] + [{**_type_row(link.to_dict()), "direction": "subtype"} for link in result.subtypes]
        data = {"symbol": _root(result.root), "types": rows[offset:]}
        return backend.answer(
            data,
            "types",
            Format(output_format),
            max_tokens,
            offset=offset,
            total=len(rows),
            shape=_split_types,
        )


def _register_calls(server: MCPServer[Any], backend: Backend, direction: str) -> None:
    callers = direction == "callers"
    description = CALLS_DESCRIPTION.format(
        what="List the functions and methods that call a symbol"
        if callers
        else "List the functions and methods a symbol calls",
        who="callers" if callers else "callees",
        example="compute_total" if callers else "checkout",
    )

    def calls(
        symbol_id: SymbolId = None,
        name: SymbolName = None,
        file: FileHint = None,
        depth: Depth = 1,
        limit: Annotated[int, Field(ge=1, le=500, description="most rows to return")] = 30,
        offset: Offset = 0,
        output_format: OutputFormat = "json",
        max_tokens: MaxTokens = None,
    ) -> Annotated[CallToolResult, CallGraphResult]:
        from symfuse.ranking import hierarchy

        walk = hierarchy.callers if callers else hierarchy.callees
        with tool_errors(not_found="symbol_id"), backend.reading() as index:
            target = resolve_target(index, symbol_id, name, file)
            result = walk(index, target.symbol_id, depth=depth, limit=offset + limit)
        rows = [_call_row(edge.to_dict()) for edge in result.items[offset:]]
        data = {
            "symbol": _root(result.root),
            "direction": direction,
            "items": rows,
            "total": result.total,
        }
        return backend.answer(
            data, "items", Format(output_format), max_tokens, offset=offset, total=result.total
        )

    calls.__name__ = direction
    server.add_tool(
        calls,
        name=direction,
        description=description,
        annotations=ToolAnnotations(
            title="Callers" if callers else "Callees", read_only_hint=True, open_world_hint=False
        ),
    )


def resolve_target(
    index: Index, symbol_id: str | None, name: str | None, file: str | None
) -> Symbol:
    """The one symbol a graph tool is about (errors become tool errors in tool_errors)."""
    from symfuse.ranking.navigate import resolve_one

    return resolve_one(index, symbol_id, name, file)


_ROW_FIELDS = ("symbol_id", "name", "kind", "file", "line", "signature")


def _root(symbol: Symbol) -> dict[str, Any]:
    return {
        "symbol_id": symbol.symbol_id,
        "name": symbol.name,
        "kind": symbol.kind.value,
        "file": symbol.file,
        "line": symbol.line,
        "signature": symbol.signature,
    }


def _call_row(edge: dict[str, Any]) -> dict[str, Any]:
    row = {k: edge.get(k) for k in _ROW_FIELDS}
    row.update(depth=edge["depth"], via=edge["via"], confidence=edge["confidence"])
    row["sites"] = " ".join(f"{s['file']}:{s['line']}:{s['column']}" for s in edge["sites"])
    return row


def _type_row(link: dict[str, Any]) -> dict[str, Any]:
    row = {k: link.get(k) for k in _ROW_FIELDS}
    for key in ("relation", "depth", "via", "confidence", "resolved"):
        row[key] = link.get(key)
    return row


def _split_types(data: dict[str, Any]) -> dict[str, Any]:
    rows = data.get("types") or []
    shaped = {k: v for k, v in data.items() if k != "types"}
    shaped["supertypes"] = [
        {k: v for k, v in r.items() if k != "direction"}
        for r in rows
        if r["direction"] == "supertype"
    ]
    shaped["subtypes"] = [
        {k: v for k, v in r.items() if k != "direction"}
        for r in rows
        if r["direction"] == "subtype"
    ]
    return shaped
