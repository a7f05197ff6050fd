"""The graph tools: ``callers``, ``callees``, ``type_hierarchy`` and ``file_dependencies``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from symfuse.indexer.model import Symbol
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import CallsRequest, DepsRequest, HierarchyRequest
from symfuse.server.common.present import IN_THE_ID, Grouping
from symfuse.server.mcp.errors import given, tool_errors
from symfuse.server.mcp.models import CallGraphResult, DependenciesResult, HierarchyResult
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend
from symfuse.server.mcp.surface import Surface

CALLS_DESCRIPTION = """\
{what}, from the call graph, breadth first up to `depth` hops (1: direct {who}).
Rows: symbol_id ("path::Qualified.name#kind"), line, signature, depth, via (the
symbol one hop nearer, when not the target), confidence (below 1 where only the
name decided) and the call sites ("line:column" in the calling definition's file).
Examples: {{"target": "shop/service.py::checkout#function"}} ;
{{"target": "{example}", "depth": 2}}"""

HIERARCHY_DESCRIPTION = """\
Show a class's, interface's or trait's supertypes (what it extends or implements)
and subtypes, up to `depth` levels each way; `via` names the type one level nearer
past the first. Bases outside the workspace appear by name with a null symbol_id.
Examples: {"target": "shop/payments.py::PaymentGateway#class"} ;
{"target": "Order", "direction": "supertypes", "depth": 3}"""

DEPS_DESCRIPTION = """\
List a file's imports resolved through the index: the workspace files it imports,
the files that import it, and the modules from outside, each with the import
lines; import cycles through the file are listed.
Examples: {"target": "shop/models.py"} ; {"target": "shop.service", "depth": 2}"""

TARGET = 'a symbol_id from search, or a name ("Order.total")'
_OLD_TARGETS = ("symbol_id", "name")
CALLS_SURFACE = Surface(
    shown=("target", "depth", "limit"),
    required={"target": _OLD_TARGETS},
    unlisted=_OLD_TARGETS,
    notes={"target": TARGET, "depth": "hops to follow", "limit": "most symbols"},
)
HIERARCHY_SURFACE = Surface(
    shown=("target", "direction", "depth"),
    required={"target": _OLD_TARGETS},
    unlisted=_OLD_TARGETS,
    notes={"target": TARGET, "direction": "both, supertypes or subtypes", "depth": "levels"},
)
DEPS_SURFACE = Surface(
    shown=("target", "depth"),
    notes={
        "target": 'a workspace file ("shop/models.py") or Python module ("shop.models")',
        "depth": "import hops to follow",
    },
)

_READ_ONLY = {"read_only_hint": True, "open_world_hint": False}


def register(server: Toolbox, backend: Backend) -> None:
    for direction in ("callers", "callees"):
        _register_calls(server, backend, direction)

    def type_hierarchy(request: HierarchyRequest, rendering: Rendering) -> ToolAnswer:
        with (
            tool_errors(not_found=given(request, "target", "symbol_id", "name")),
            backend.reading() as index,
        ):
            result = operations.hierarchy(index, request)
        root = result.root.symbol_id
        rows = [
            {**_type_row(link.to_dict(), root), "direction": "supertype"}
            for link in result.supertypes
        ] + [
            {**_type_row(link.to_dict(), root), "direction": "subtype"} for link in result.subtypes
        ]
        data = {"symbol": _root(result.root), "types": rows[request.offset :]}
        return backend.answer(
            data,
            "types",
            rendering.format,
            rendering.max_tokens,
            offset=request.offset,
            total=len(rows),
            grouping=Grouping.TYPES_BY_DIRECTION,
        )

    def file_dependencies(request: DepsRequest, rendering: Rendering) -> ToolAnswer:
        with tool_errors(not_found="target"), backend.reading() as index:
            result = operations.deps(index, request)
        rows = [_dependency(link.to_dict(), "imports") for link in result.imports]
        rows += [_dependency(link.to_dict(), "imported_by") for link in result.importers]
        rows += [
            {"relation": "external", "target": e.module, "depth": 1, "lines": _lines(e.lines)}
            for e in result.external
        ]
        data = {"file": result.file, "dependencies": rows, "cycles": list(result.cycles)}
        return backend.answer(data, "dependencies", rendering.format, rendering.max_tokens)

    server.add_tool(
        backend.tool(
            "file_dependencies",
            DepsRequest,
            file_dependencies,
            DependenciesResult,
            DEPS_SURFACE,
        ),
        name="file_dependencies",
        description=DEPS_DESCRIPTION,
        annotations=Annotations(title="File dependencies", **_READ_ONLY),
    )

    server.add_tool(
        backend.tool(
            "type_hierarchy",
            HierarchyRequest,
            type_hierarchy,
            HierarchyResult,
            HIERARCHY_SURFACE,
        ),
        name="type_hierarchy",
        description=HIERARCHY_DESCRIPTION,
        annotations=Annotations(title="Type hierarchy", **_READ_ONLY),
    )


def _register_calls(server: Toolbox, backend: Backend, direction: str) -> None:
    callers = direction == "callers"
    description = CALLS_DESCRIPTION.format(
        what="List the functions and methods that call a symbol"
        if callers
        else "List the functions and methods a symbol calls",
        who="callers" if callers else "callees",
        example="compute_total" if callers else "checkout",
    )
    walk = operations.callers if callers else operations.callees

    def calls(request: CallsRequest, rendering: Rendering) -> ToolAnswer:
        with (
            tool_errors(not_found=given(request, "target", "symbol_id", "name")),
            backend.reading() as index,
        ):
            result = walk(index, request)
        root = result.root.symbol_id
        rows = [_call_row(edge.to_dict(), root, callers) for edge in result.items[request.offset :]]
        data = {
            "symbol": _root(result.root),
            "direction": direction,
            "items": rows,
            "total": result.total,
        }
        if result.overloads:  # a name overloads bear: each row's `via` says which it reaches
            data["overloads"] = [s.symbol_id for s in result.overloads]
        return backend.answer(
            data,
            "items",
            rendering.format,
            rendering.max_tokens,
            offset=request.offset,
            total=result.total,
        )

    server.add_tool(
        backend.tool(
            direction,
            CallsRequest,
            calls,
            CallGraphResult,
            CALLS_SURFACE,
        ),
        name=direction,
        description=description,
        annotations=Annotations(title="Callers" if callers else "Callees", **_READ_ONLY),
    )


_ROW_FIELDS = ("symbol_id", "name", "kind", "file", "line", "signature")
_CALL_FIELDS = tuple(k for k in _ROW_FIELDS if k not in IN_THE_ID)
# a type's row keeps its name, which a base outside the workspace has alone
_TYPE_FIELDS = tuple(k for k in _ROW_FIELDS if k == "name" or k not in IN_THE_ID)


def _root(symbol: Symbol) -> dict[str, Any]:
    return {
        "symbol_id": symbol.symbol_id,
        "name": symbol.name,
        "kind": symbol.kind.value,
        "file": symbol.file,
        "line": symbol.line,
        "signature": symbol.signature,
    }


def _call_row(edge: dict[str, Any], root: str, callers: bool) -> dict[str, Any]:
    """A row without what its symbol_id says (file, name, kind), ``via`` when it is the
    target itself, or the calling definition's file before each call site."""
    row = {k: edge.get(k) for k in _CALL_FIELDS}
    row["depth"] = edge["depth"]
    if edge["via"] != root:
        row["via"] = edge["via"]
    row["confidence"] = edge["confidence"]
    home = edge["file"] if callers else str(edge["via"]).partition("::")[0]
    row["sites"] = " ".join(
        f"{s['line']}:{s['column']}"
        if s["file"] == home
        else f"{s['file']}:{s['line']}:{s['column']}"
        for s in edge["sites"]
    )
    return row


def _type_row(link: dict[str, Any], root: str) -> dict[str, Any]:
    """A type's row: its file and kind only for a base outside the workspace (a symbol_id
    says them), ``via`` when it is not the target itself."""
    fields = _ROW_FIELDS if link.get("symbol_id") is None else _TYPE_FIELDS
    row = {k: link.get(k) for k in fields}
    for key in ("relation", "depth", "via", "confidence", "resolved"):
        if key != "via" or link.get(key) != root:
            row[key] = link.get(key)
    return row


def _dependency(link: dict[str, Any], relation: str) -> dict[str, Any]:
    return {
        "relation": relation,
        "target": link["file"],
        "depth": link["depth"],
        "lines": _lines(link["lines"]),
    }


def _lines(lines: Sequence[int]) -> str:
    """Import lines as one cell ("5,12", a multi-line import "37-45"), so rows stay one
    flat table."""
    runs: list[list[int]] = []
    for line in sorted(set(lines)):
        if runs and line == runs[-1][1] + 1:
            runs[-1][1] = line
        else:
            runs.append([line, line])
    return ",".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
