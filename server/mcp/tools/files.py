"""The ``read_file`` tool: any text file under the roots, or a range of its lines."""

from __future__ import annotations

from typing import Annotated, Any

from mcp_types import CallToolResult, ToolAnnotations

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import ReadRequest
from symfuse.server.common.present import (
    CHARS_PER_TOKEN,
    Fitted,
    Format,
    clip_lines,
    clip_strings,
    estimate_tokens,
    render,
)
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.models import FileTextResult
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend, as_result

DESCRIPTION = """\
Read a text file under the workspace roots: code, but also a README, a config
file, a changelog, anything `search` and `search_text` point at. Give `path`
relative to a root (as answers show it), with an optional line range
"shop/models.py:10-40" (or `start_line` / `end_line`). Paths never lead out of
the roots (no "..", no symlink escapes); binary and non-UTF-8 files are refused.
The answer holds as many lines as `max_tokens` allows: when it says
truncated: true, call again with its `next_offset` as `offset`.

Examples: {"path": "README.md"} ; {"path": "shop/models.py:10-40"} ;
{"path": "pyproject.toml", "start_line": 1, "end_line": 30}"""

MIN_LINE_CHARS = 80  # a line shown when nothing else fits is cut to this at least


def register(server: Toolbox, backend: Backend) -> None:
    def read_file(request: ReadRequest, rendering: Rendering) -> CallToolResult:
        budget = rendering.max_tokens or backend.options.default_max_tokens
        # Only the roots are needed: no wait for the first index.
        with tool_errors(not_found="path"), backend.service.reading() as index:
            found = operations.read(index, request)
        data: dict[str, Any] = {**found.to_dict(), **backend.freshness()}
        return as_result(_fit_lines(data, request.offset, rendering.format, budget))

    server.add_tool(
        # Not cached: a file the index does not follow changes no index generation.
        backend.tool(
            "read_file",
            ReadRequest,
            read_file,
            Annotated[CallToolResult, FileTextResult],
            cached=False,
        ),
        name="read_file",
        description=DESCRIPTION,
        annotations=ToolAnnotations(title="Read file", read_only_hint=True, open_world_hint=False),
    )


def _fit_lines(data: dict[str, Any], offset: int, fmt: Format, budget: int) -> Fitted:
    """``data`` with as many of its content lines as ``budget`` allows (one at least, cut
    if it must be), and the offset to read on from."""
    lines = str(data["content"]).split("\n") if data["content"] else []
    data["content"] = ""
    room = (budget - estimate_tokens(render(data, fmt)) - 60) * CHARS_PER_TOKEN
    shown, cut = clip_lines(lines, max(0, room))
    if lines and not shown:
        shown, cut = [clip_strings(lines[0], max(MIN_LINE_CHARS, room))], len(lines) > 1
    data["content"] = "\n".join(shown)
    data["truncated"] = cut
    if cut:
        data["end_line"] = data["start_line"] + len(shown) - 1
        data["next_offset"] = offset + len(shown)
        data["hint"] = (
            f"cut to fit max_tokens={budget}: lines {data['start_line']}-{data['end_line']} "
            f"shown; call again with offset={offset + len(shown)} to read on, or raise max_tokens"
        )
    text = render(data, fmt)
    return Fitted(data, text, estimate_tokens(text), len(shown))
