"""The ``search_text`` tool: literal, regex or fuzzy search over the indexed files."""

from __future__ import annotations

from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from symfuse.server.mcp.budget import Format
from symfuse.server.mcp.models import MaxTokens, Offset, OutputFormat, TextResult
from symfuse.server.mcp.server import Backend, tool_errors

DESCRIPTION = """\
Search the text of the indexed source files, line by line, as they are on disk
now: string literals, comments, TODOs, config keys, error messages, anything
that is not a symbol name (for definitions use `search`). One hit per matching
line, in file and line order, with file, line, column, the line's text and
optionally `snippet_lines` of context around it.

- literal (default), or `regex: true` for a Python regular expression; patterns
  that could backtrack for ever are refused or stopped after a time budget;
- `case_sensitive` (default false);
- `fuzzy: true` or `edit_distance` 1-3 matches words within that many edits
  (typos, spelling variants);
- `file_pattern` / `exclude_path`: globs, comma-separated ("shop/**/*.py",
  "tests/"); `language`: "python", "java", ...

Examples: {"pattern": "TODO"} ; {"pattern": "raise \\\\w+Error", "regex": true,
"file_pattern": "shop/**"} ; {"pattern": "recieve", "fuzzy": true}"""


def register(server: MCPServer[Any], backend: Backend) -> None:
    @server.tool(
        name="search_text",
        description=DESCRIPTION,
        annotations=ToolAnnotations(
            title="Search text", read_only_hint=True, open_world_hint=False
        ),
    )
    def search_text(
        pattern: Annotated[
            str, Field(min_length=1, max_length=1000, description="text or regex to find")
        ],
        regex: Annotated[bool, Field(description="treat pattern as a regular expression")] = False,
        case_sensitive: bool = False,
        fuzzy: Annotated[
            bool, Field(description="typo-tolerant word match (edit_distance 1 unless set)")
        ] = False,
        edit_distance: Annotated[
            int, Field(ge=0, le=3, description="fuzzy: most edits per word (0 = exact)")
        ] = 0,
        file_pattern: Annotated[
            str | None, Field(max_length=2000, description="only paths matching these globs")
        ] = None,
        language: Annotated[
            str | None, Field(max_length=100, description="only files of this language")
        ] = None,
        exclude_path: Annotated[
            str | None, Field(max_length=2000, description="skip paths matching these globs")
        ] = None,
        snippet_lines: Annotated[
            int, Field(ge=0, le=50, description="lines of context before and after each hit")
        ] = 0,
        limit: Annotated[int, Field(ge=1, le=500, description="most hits to return")] = 20,
        offset: Offset = 0,
        output_format: OutputFormat = "json",
        max_tokens: MaxTokens = None,
    ) -> Annotated[CallToolResult, TextResult]:
        from symfuse.ranking.text import search_text as run

        distance = edit_distance or (1 if fuzzy else 0)
        if regex and distance:
            from mcp.server.mcpserver.exceptions import ToolError

            raise ToolError(
                "invalid argument regex: fuzzy matching (fuzzy / edit_distance) works on "
                "literal words; drop regex or set edit_distance to 0"
            )
        with tool_errors(), backend.reading() as index:
            result = run(
                index,
                pattern,
                regex=regex,
                case_sensitive=case_sensitive,
                edit_distance=distance,
                file_pattern=file_pattern,
                language=language,
                exclude_path=exclude_path,
                snippet_lines=snippet_lines,
                limit=limit,
                offset=offset,
            )
        hits = []
        for hit in result.hits:
            row = hit.to_dict()
            if not snippet_lines:
                del row["snippet"]
            if not distance:
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
            data, "hits", Format(output_format), max_tokens, offset=offset, total=result.total
        )
