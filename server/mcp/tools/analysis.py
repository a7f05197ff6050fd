"""The analysis tools: ``dead_code`` and ``impact``, read from the index's graph."""

from __future__ import annotations

from symfuse.ranking.query import operations
from symfuse.ranking.query.analysis_requests import DeadCodeRequest, ImpactRequest
from symfuse.server.common.present import Grouping
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.models import DeadCodeResult, ImpactResult
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend
from symfuse.server.mcp.surface import Surface

DEAD_DESCRIPTION = """\
List definitions nothing in the workspace refers to, surest first, in groups of
one `confidence` (0..1) and reason. Entry points, tests, dunder methods, exported
and overriding names are never listed; decorated ones and names mentioned in text
get a low confidence, which `min_confidence` (default 0.5) hides.
Examples: {} ; {"file_pattern": "shop/**", "kind": "function"}"""

IMPACT_DESCRIPTION = """\
Show what a change may break: for a symbol, a file (all its definitions) or a
unified `git diff` (the definitions whose lines it changes), the code that calls
or references them, subclasses, overrides and importing files, up to `depth`
hops, per file with product code first, and the test files that exercise it.
Examples: {"target": "shop/models.py::Order.total#method"} ;
{"target": "shop/service.py", "depth": 1} ; {"diff": "<git diff output>"}"""

DEAD_SURFACE = Surface(
    shown=("file_pattern", "kind", "language", "min_confidence"),
    notes={
        "file_pattern": 'only files matching these globs ("shop/**")',
        "kind": '"function", "class", "method", ... (one or a list)',
        "language": '"python", "go", ... (one or a list)',
        "min_confidence": "hide reports less sure than this (0..1)",
    },
)
IMPACT_SURFACE = Surface(
    shown=("target", "diff", "depth"),
    notes={
        "target": "a symbol_id, a name, or a file path",
        "diff": "instead of target: unified `git diff` text",
        "depth": "hops to follow",
    },
)

MAX_LISTED = 20  # changed symbols and test files named in full; the counts say the rest
_READ_ONLY = {"read_only_hint": True, "open_world_hint": False}
# The symbol id names the file and the kind ("path::Name#kind"): rows leave them out;
# rows of one confidence and reason are sent as one group, the reason written once.
_DEAD_COLUMNS = ("symbol_id", "line", "confidence", "reason")
_IMPACT_COLUMNS = ("line", "name", "kind", "relation", "depth")


def register(server: Toolbox, backend: Backend) -> None:
    def dead_code(request: DeadCodeRequest, rendering: Rendering) -> ToolAnswer:
        with tool_errors(), backend.reading() as index:
            result = operations.dead(index, request)
        data = result.to_dict()
        rows = [{k: item[k] for k in _DEAD_COLUMNS} for item in data["items"]]
        answer = {"items": rows, "total": result.total, "by_kind": result.by_kind}
        return backend.answer(
            answer,
            "items",
            rendering.format,
            rendering.max_tokens,
            offset=request.offset,
            total=result.total,
            grouping=Grouping.BY_REASON,
        )

    def impact(request: ImpactRequest, rendering: Rendering) -> ToolAnswer:
        with tool_errors(not_found="target"), backend.reading() as index:
            result = operations.impact(index, request)
        data = result.to_dict()
        rows = [
            {"file": group["file"], "test": group["test"], **{k: i[k] for k in _IMPACT_COLUMNS}}
            for group in data["files"]
            for i in group["items"]
        ]
        answer = {
            "changed": [c["symbol_id"] for c in data["changed"][:MAX_LISTED]],
            "changed_count": len(data["changed"]),
            "tests": data["tests"][:MAX_LISTED],
            "test_count": len(data["tests"]),
            "rows": rows,
            "total": result.total,
        }
        return backend.answer(
            answer,
            "rows",
            rendering.format,
            rendering.max_tokens,
            offset=request.offset,
            total=result.total,
            grouping=Grouping.IMPACT_BY_FILE,
        )

    server.add_tool(
        backend.tool(
            "dead_code",
            DeadCodeRequest,
            dead_code,
            DeadCodeResult,
            DEAD_SURFACE,
        ),
        name="dead_code",
        description=DEAD_DESCRIPTION,
        annotations=Annotations(title="Dead code", **_READ_ONLY),
    )
    server.add_tool(
        backend.tool("impact", ImpactRequest, impact, ImpactResult, IMPACT_SURFACE),
        name="impact",
        description=IMPACT_DESCRIPTION,
        annotations=Annotations(title="Impact of a change", **_READ_ONLY),
    )
