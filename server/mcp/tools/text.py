"""The ``search_text`` tool: literal, regex or fuzzy search over the code and text files."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, ToolAnnotations

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import TextRequest
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.models import TextResult
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend

DESCRIPTION = """\
Search the text of the workspace's files, line by line, as they are on disk
now: the code, and the documentation, configuration and plain text beside it
(Markdown, reStructuredText, YAML, TOML, JSON, .txt; `code_only: true` leaves
them out). For string literals, comments, TODOs, config keys, error messages,
anything that is not a symbol name (for definitions use `search`). One hit per
matching line, in file and line order, with file, line, column, the line's
text and optionally `snippet_lines` of context around it; `read_file` shows
more of a file.

- literal (default), or `regex: true` for a Python regular expression; patterns
  that could backtrack for ever are refused or stopped after a time budget;
- `case_sensitive` (default false);
- `fuzzy: true` or `edit_distance` 1-3 matches words within that many edits
  (typos, spelling variants);
- `file_pattern` / `exclude_path`: globs, comma-separated ("shop/**/*.py",
  "tests/"); `language`: "python", "java", ...

Examples: {"pattern": "TODO"} ; {"pattern": "raise \\\\w+Error", "regex": true,
"file_pattern": "shop/**"} ; {"pattern": "recieve", "fuzzy": true}"""


def register(server: Toolbox, backend: Backend) -> None:
    def search_text(request: TextRequest, rendering: Rendering) -> CallToolResult:
        if not backend.scans.acquire(timeout=request.timeout):
            raise ToolError(
                f"other text searches kept the scanners busy for the {request.timeout:g} s "
                "budget; retry, or narrow file_pattern"
            )
        try:
            with tool_errors(), backend.reading() as index:
                result = operations.text(index, request)
        finally:
            backend.scans.release()
        hits = []
        for hit in result.hits:
            row = hit.to_dict()
            if not request.snippet_lines:
                del row["snippet"]
            if not request.distance:
                del row["distance"]
            hits.append(row)
        data: dict[str, Any] = {
            "pattern": result.pattern,
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
            Annotated[CallToolResult, TextResult],
            cached=False,
        ),
        name="search_text",
        description=DESCRIPTION,
        annotations=ToolAnnotations(
            title="Search text", read_only_hint=True, open_world_hint=False
        ),
    )
