"""The index tools: ``index_status`` and ``reindex``."""

from __future__ import annotations

import datetime as dt
import os
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp_types import CallToolResult, ToolAnnotations
from pydantic import Field

from symfuse.indexer.index import Index
from symfuse.server.mcp.budget import Format
from symfuse.server.mcp.models import (
    MaxTokens,
    Offset,
    OutputFormat,
    ReindexResult,
    StatusResult,
)
from symfuse.server.mcp.server import Backend, tool_errors

STATUS_DESCRIPTION = """\
Report the state of the symbol index: workspace roots, files and symbols per
language, when it last changed, whether it is still being built, which files
changed on disk and wait to be re-indexed (stale_files), and which ranking
channels are available (lexical, structural, similarity, identity, fuzzy).
Call it when answers look incomplete or `stale` is true. Never waits for the
index. Example: {} or {"output_format": "toon"}."""

REINDEX_DESCRIPTION = """\
Re-index the workspace from disk: everything (no `paths`), or only the given
files, relative to a workspace root. Changed files are normally picked up on
their own within a second; use this after bulk changes (a branch switch) or if
index_status lists stale files that stay stale. Unchanged files are skipped by
size, mtime and hash, so a full reindex is cheap when little changed.
Examples: {} ; {"paths": ["shop/models.py", "shop/service.py"]}."""


def register(server: MCPServer[Any], backend: Backend) -> None:
    @server.tool(
        name="index_status",
        description=STATUS_DESCRIPTION,
        annotations=ToolAnnotations(
            title="Index status", read_only_hint=True, open_world_hint=False
        ),
    )
    def index_status(
        offset: Offset = 0,
        output_format: OutputFormat = "json",
        max_tokens: MaxTokens = None,
    ) -> Annotated[CallToolResult, StatusResult]:
        status = backend.live.status()
        with backend.live.reading() as index:
            languages = _languages(index)
            roots = dict(index.roots)
        pending = backend.live.pending_paths()
        updated = (
            dt.datetime.fromtimestamp(status.updated_at, dt.UTC).isoformat(timespec="seconds")
            if status.updated_at
            else None
        )
        data: dict[str, Any] = {
            "roots": roots,
            "ready": status.ready,
            "indexing": status.indexing,
            "files": status.files,
            "symbols": status.symbols,
            "languages": languages,
            "updated_at": updated,
            "channels": _channels(),
            "index_dir": str(backend.live.config.store.directory),
            "error": status.error,
            "stale_files": [_display(p, roots) for p in pending][offset:],
        }
        return backend.answer(
            data,
            "stale_files",
            Format(output_format),
            max_tokens,
            offset=offset,
            total=len(pending),
        )

    @server.tool(
        name="reindex",
        description=REINDEX_DESCRIPTION,
        annotations=ToolAnnotations(
            title="Re-index files",
            read_only_hint=False,
            destructive_hint=False,
            idempotent_hint=True,
            open_world_hint=False,
        ),
    )
    def reindex(
        paths: Annotated[
            list[Annotated[str, Field(min_length=1, max_length=4096)]] | None,
            Field(
                max_length=1000,
                description="files to re-index, relative to a workspace root; omit for all",
            ),
        ] = None,
        output_format: OutputFormat = "json",
        max_tokens: MaxTokens = None,
    ) -> Annotated[CallToolResult, ReindexResult]:
        backend.wait_ready()
        targets: list[str] | None = None
        if paths:
            from symfuse.ranking.paths import confine

            targets = []
            with tool_errors(), backend.live.reading() as index:
                for i, path in enumerate(paths):
                    place = confine(index, path, argument=f"paths[{i}]")
                    targets.append(place.real)
            if any(os.path.isdir(t) for t in targets):
                targets = None  # a directory: check everything (cheap for unchanged files)
        with tool_errors():
            report = backend.live.refresh(targets)
        data: dict[str, Any] = {"scope": "full" if targets is None else "paths"}
        if report is None:
            data.update(files=0, parsed=0, unchanged=0, removed=0, skipped=0, seconds=0.0)
            data["problems"] = []
        else:
            data.update(
                files=report.files,
                parsed=report.parsed,
                unchanged=report.unchanged,
                removed=report.removed,
                skipped=len(report.skipped),
                seconds=round(report.seconds, 3),
                problems=[{"file": f, "problem": p} for f, p in report.problems],
            )
        return backend.answer(data, "problems", Format(output_format), max_tokens)


def _languages(index: Index) -> list[dict[str, Any]]:
    files: dict[str, int] = {}
    symbols: dict[str, int] = {}
    for entry in index.files.values():
        files[entry.language] = files.get(entry.language, 0) + 1
        symbols[entry.language] = symbols.get(entry.language, 0) + len(entry.symbols)
    return [
        {"language": lang, "files": files[lang], "symbols": symbols[lang]} for lang in sorted(files)
    ]


def _display(path: str, roots: dict[str, str]) -> str:
    """A pending path as the agent sees paths: relative to its root."""
    for alias, root in roots.items():
        if path.startswith(root.rstrip("/") + "/"):
            rel = path[len(root.rstrip("/")) + 1 :]
            return rel if len(roots) == 1 else f"{alias}/{rel}"
    return path


def _channels() -> dict[str, bool]:
    """Which ranking channels can run, as the query layer reports them."""
    from symfuse.ranking import available_channels

    return dict(available_channels())
