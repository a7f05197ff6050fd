"""The index tools: ``index_status``, ``reindex`` and ``list_repositories``.

Their parameters are :class:`StatusRequest`'s and :class:`ReindexRequest`'s fields
(:mod:`.schema`); both answer through the index service, its one status and its
one reindex path.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from typing import Any

from symfuse.ranking.api import available_channels
from symfuse.ranking.query.requests import ReindexRequest, ReposRequest, StatusRequest
from symfuse.server.common.output import problem_rows, update_counts
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.models import ReindexResult, ReposResult, StatusResult
from symfuse.server.mcp.pools import Lane
from symfuse.server.mcp.protocol import Annotations, ToolAnswer
from symfuse.server.mcp.schema import Rendering, Toolbox
from symfuse.server.mcp.server import Backend
from symfuse.server.mcp.surface import Surface

STATUS_DESCRIPTION = """\
Report the index: roots, files and symbols per language, when it last changed,
whether it is still being built, files waiting to be re-indexed (stale_files)
and the ranking channels available. Call it when `stale` is true or answers look
incomplete; it never waits for the index. Example: {}"""

REINDEX_DESCRIPTION = """\
Re-index from disk: everything, or only `paths`. Changes are picked up on their
own within a second; use it after bulk changes (a branch switch) or when
index_status shows files that stay stale. `add_root` / `remove_root` change the
repositories served. Examples: {} ; {"paths": ["shop/models.py"]}"""

REPOS_DESCRIPTION = """\
List the repositories (workspace roots) served: alias, path, files per language,
file and symbol counts, whether it can be read, whether its history is indexed.
Example: {} or {"repository": "svc-*"}"""

STATUS_SURFACE = Surface()
REINDEX_SURFACE = Surface(
    shown=("paths", "add_root", "remove_root"),
    notes={
        "paths": "only these files, relative to a root (default: everything)",
        "add_root": 'serve one more repository: "PATH" or "ALIAS=PATH"',
        "remove_root": "stop serving this repository (its alias)",
    },
)
REPOS_SURFACE = Surface(shown=("repository",), notes={"repository": 'names or wildcards ("svc-*")'})

_STATUS_HINTS = Annotations(title="Index status", read_only_hint=True, open_world_hint=False)
_REINDEX_HINTS = Annotations(
    title="Re-index files",
    read_only_hint=False,
    destructive_hint=False,
    idempotent_hint=True,
    open_world_hint=False,
)


def register(server: Toolbox, backend: Backend) -> None:
    def index_status(request: StatusRequest, rendering: Rendering) -> ToolAnswer:
        return _status(backend, request, rendering)

    def reindex(request: ReindexRequest, rendering: Rendering) -> ToolAnswer:
        return _reindex(backend, request, rendering)

    def list_repositories(request: ReposRequest, rendering: Rendering) -> ToolAnswer:
        backend.wait_ready()
        rows = [r.to_dict() for r in backend.service.repositories(request)]
        data = {"repositories": rows, "total": len(rows)}
        return backend.answer(data, "repositories", rendering.format, rendering.max_tokens)

    server.add_tool(
        backend.tool(
            "list_repositories",
            ReposRequest,
            list_repositories,
            ReposResult,
            REPOS_SURFACE,
            cached=False,
        ),
        name="list_repositories",
        description=REPOS_DESCRIPTION,
        annotations=dataclasses.replace(_STATUS_HINTS, title="Repositories"),
    )

    server.add_tool(
        backend.tool(
            "index_status",
            StatusRequest,
            index_status,
            StatusResult,
            STATUS_SURFACE,
            cached=False,
            light=True,
        ),
        name="index_status",
        description=STATUS_DESCRIPTION,
        annotations=_STATUS_HINTS,
    )
    server.add_tool(
        backend.tool(
            "reindex",
            ReindexRequest,
            reindex,
            ReindexResult,
            REINDEX_SURFACE,
            cached=False,
            lane=Lane.SCAN,
        ),
        name="reindex",
        description=REINDEX_DESCRIPTION,
        annotations=_REINDEX_HINTS,
    )


def _status(backend: Backend, request: StatusRequest, rendering: Rendering) -> ToolAnswer:
    """The service's status as the agent reads it (never waits for the index)."""
    status = backend.service.status()
    st = status.index
    updated = (
        dt.datetime.fromtimestamp(st.updated_at, dt.UTC).isoformat(timespec="seconds")
        if st.updated_at
        else None
    )
    pending = status.stale_files
    data: dict[str, Any] = {
        "roots": status.roots,
        "ready": st.ready,
        "indexing": st.indexing,
        "files": st.files,
        "symbols": st.symbols,
        "languages": [
            {"language": c.language, "files": c.files, "symbols": c.symbols}
            for c in status.languages
        ],
        "updated_at": updated,
        "channels": dict(available_channels()),
        "similarity_model": status.similarity_model,
        "index_dir": str(status.index_dir),
        "error": st.error,
        "warmed": status.warmed,
        "stale_files": [_display(p, status.roots) for p in pending][request.offset :],
    }
    return backend.answer(
        data,
        "stale_files",
        rendering.format,
        rendering.max_tokens,
        offset=request.offset,
        total=len(pending),
    )


def _reindex(backend: Backend, request: ReindexRequest, rendering: Rendering) -> ToolAnswer:
    roots: dict[str, str] | None = None
    if request.add_root is not None or request.remove_root is not None:
        with tool_errors():
            roots = backend.change_roots(request.add_root, request.remove_root)
    backend.wait_ready()
    with tool_errors():
        done = backend.service.reindex(
            request.model_copy(update={"add_root": None, "remove_root": None})
        )
    data: dict[str, Any] = {"scope": done.scope}
    if roots is not None:
        data["roots"] = roots
    report = done.report
    if report is None:
        data.update(files=0, parsed=0, unchanged=0, removed=0, skipped=0, seconds=0.0)
        data["problems"] = []
    else:
        data.update(update_counts(report))
        data.update(seconds=round(report.seconds, 3), problems=problem_rows(report))
    return backend.answer(data, "problems", rendering.format, rendering.max_tokens)


def _display(path: str, roots: dict[str, str]) -> str:
    """A pending path as the agent sees paths: relative to its root."""
    for alias, root in roots.items():
        if path.startswith(root.rstrip("/") + "/"):
            rel = path[len(root.rstrip("/")) + 1 :]
            return rel if len(roots) == 1 else f"{alias}/{rel}"
    return path
