"""The history tool: ``search_history`` (commit messages and diffs, with filters)."""

from __future__ import annotations

from symfuse.ranking.query import operations
from symfuse.ranking.query.history_requests import HistoryRequest
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.models import HistoryResult
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend
from symfuse.server.mcp.surface import Surface

HISTORY_DESCRIPTION = """\
Search the git history (needs the history index: `symfuse index --history`, or
the server started with --history): commit messages and diffs by `query`, by
`author` and `time_range`, newest first without a query. Each hit: commit, date,
author, subject, changed files, and the definitions the diff touched with the
diff of their own lines.
Examples: {"query": "fix race in expire"} ;
{"author": "alice", "time_range": "2024-01-01..2024-06-30"}"""

SURFACE = Surface(
    shown=("query", "author", "time_range", "limit"),
    notes={
        "query": "words matched against commit messages and diffs",
        "author": "name or email, any part",
        "time_range": '"YYYY-MM-DD..YYYY-MM-DD" (either side may be open)',
        "limit": "most commits",
    },
)


def register(server: Toolbox, backend: Backend) -> None:
    def search_history(request: HistoryRequest, rendering: Rendering) -> ToolAnswer:
        with tool_errors():
            result = operations.history(backend.histories(), request)
        data = result.to_dict()
        return backend.answer(
            data,
            "items",
            rendering.format,
            request.max_tokens,
            offset=request.offset,
            total=result.total,
        )

    server.add_tool(
        # not cached: the cache keys on the index's generation, history updates apart
        backend.tool(
            "search_history",
            HistoryRequest,
            search_history,
            HistoryResult,
            SURFACE,
            cached=False,
        ),
        name="search_history",
        description=HISTORY_DESCRIPTION,
        annotations=Annotations(title="Search history", read_only_hint=True, open_world_hint=False),
    )
