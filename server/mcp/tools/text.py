"""The ``search_text`` tool: literal, regex or fuzzy search over the code and text files."""

from __future__ import annotations

from typing import Any

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import TextRequest
from symfuse.ranking.query.smart_case import has_capital
from symfuse.server.mcp.errors import ToolError, tool_errors
from symfuse.server.mcp.models import TextResult
from symfuse.server.mcp.pools import Lane
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend
from symfuse.server.mcp.surface import Surface

DESCRIPTION = """\
Search the text of the workspace's files as they are on disk: code, docs and
config. For strings, comments, TODOs, config keys, error messages: anything that
is not a definition (for those use `search`). One hit per matching line: file,
line, column, text. Literal unless `regex`; smart case: a query in lower case
ignores case, one with a capital matches case (options.case_sensitive says
otherwise).
Examples: {"query": "TODO"} ; {"query": "raise \\\\w+Error", "regex": true,
"file_pattern": "shop/**"}"""

SURFACE = Surface(
    shown=("query", "regex", "file_pattern", "limit", "offset"),
    renamed={"query": "pattern"},
    notes={
        "query": "the text to find (a Python regular expression with regex)",
        "regex": "query is a regular expression",
        "file_pattern": 'only paths matching these globs ("shop/**/*.py")',
        "limit": "most hits",
        "offset": "skip this many (paging: next_offset)",
    },
)


def register(server: Toolbox, backend: Backend) -> None:
    def search_text(request: TextRequest, rendering: Rendering) -> ToolAnswer:
        if "case_sensitive" not in request.model_fields_set:  # smart case, as rg's
            smart = has_capital(request.pattern, request.regex)
            request = request.model_copy(update={"case_sensitive": smart})
        if not backend.scans.acquire(timeout=request.timeout):
            raise ToolError(
                f"other text searches kept the scanners busy for the {request.timeout:g} s "
                "budget; retry, or narrow file_pattern"
            )
        try:
            with tool_errors(public=SURFACE.public_of), backend.reading() as index:
                result = operations.text(index, request)
        finally:
            backend.scans.release()
        hits = []
        one_root = len(backend.service.config.roots) == 1
        for hit in result.hits:
            row = hit.to_dict()
            if one_root:
                del row["repository"]  # the one root every hit is in
            if not request.snippet_lines:
                del row["snippet"]
            if not request.distance:
                del row["distance"]
            hits.append(row)
        data: dict[str, Any] = {
            "query": result.pattern,
            "mode": result.mode,
            "hits": hits,
            "total": result.total,
            "files_searched": result.files_searched,
        }
        return backend.answer(
            data,
            "hits",
            rendering.format,
            rendering.max_tokens,
            offset=request.offset,
            total=result.total,
        )

    server.add_tool(
        # Not cached: it also reads text files the index does not follow, whose edits
        # change no index generation (a cached answer would miss them).
        backend.tool(
            "search_text",
            TextRequest,
            search_text,
            TextResult,
            SURFACE,
            cached=False,
            lane=Lane.SCAN,
        ),
        name="search_text",
        description=DESCRIPTION,
        annotations=Annotations(title="Search text", read_only_hint=True, open_world_hint=False),
    )
