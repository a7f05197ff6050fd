"""The ``read_file`` tool: any text file under the roots, or a range of its lines."""

from __future__ import annotations

from typing import Any

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
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend, as_result
from symfuse.server.mcp.surface import Surface

DESCRIPTION = """\
Read a text file under the workspace roots (code, README, config, changelog),
whole or a range of lines; never outside the roots, never binary. A long file
comes in pages: when the answer says truncated, call again with `offset` =
next_offset.
Examples: {"target": "README.md"} ; {"target": "shop/models.py:10-40"}"""

SURFACE = Surface(
    shown=("target", "start_line", "end_line", "offset"),
    renamed={"target": "path"},
    notes={
        "target": 'a file relative to a root, optionally with lines: "shop/models.py:10-40"',
        "start_line": "first line (default 1)",
        "end_line": "last line, inclusive (default: the end)",
        "offset": "skip this many lines of the range (paging: next_offset)",
    },
)

MIN_LINE_CHARS = 80  # a line shown when nothing else fits is cut to this at least


def register(server: Toolbox, backend: Backend) -> None:
    def read_file(request: ReadRequest, rendering: Rendering) -> ToolAnswer:
        budget = rendering.max_tokens or backend.options.default_max_tokens
        # Only the roots are needed: no wait for the first index.
        with (
            tool_errors(not_found="target", public=SURFACE.public_of),
            backend.service.reading() as index,
        ):
            found = operations.read(index, request)
        data: dict[str, Any] = {**found.to_dict(), **backend.freshness()}
        return as_result(_fit_lines(data, request.offset, rendering.format, budget))

    server.add_tool(
        # Not cached: a file the index does not follow changes no index generation.
        backend.tool(
            "read_file",
            ReadRequest,
            read_file,
            FileTextResult,
            SURFACE,
            cached=False,
        ),
        name="read_file",
        description=DESCRIPTION,
        annotations=Annotations(title="Read file", read_only_hint=True, open_world_hint=False),
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
