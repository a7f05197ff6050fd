"""How the MCP server behaves: :class:`MCPOptions`, which the CLI fills from its options.

Apart from :mod:`.server` so that ``symfuse mcp`` makes them, and starts indexing, before
the MCP SDK is imported (:mod:`symfuse.server.cli.serve_mcp`).
"""

from __future__ import annotations

from dataclasses import dataclass

from symfuse.server.common.present import DEFAULT_MAX_TOKENS
from symfuse.server.mcp.toolset import DEFAULT


@dataclass(frozen=True, slots=True)
class MCPOptions:
    """How the server behaves; the CLI fills it from its options."""

    ready_timeout: float = 20.0  # seconds a tool waits for the first index
    # seconds a search waits for the first index before names answer it from the files
    # parsed so far, marked partial (Backend.partial)
    partial_after: float = 1.0
    partial_again: float = 0.5  # seconds between a waiting name's looks at what is parsed
    watch: bool = True  # watch the roots and re-index changed files
    debounce_ms: int = 50
    default_max_tokens: int = DEFAULT_MAX_TOKENS
    warm: bool = True  # build ranking structures in the background after each change
    stop_timeout: float = 5.0  # seconds stopping waits for each background thread
    similarity: bool = True  # False: a search with semantic "auto" leaves the channel out
    history: bool = False  # build or update the git history index in the background
    tools: str = DEFAULT  # the tools listed: "default", "all" or names (:mod:`.toolset`)
