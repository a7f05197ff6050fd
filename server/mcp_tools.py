"""Registers every MCP tool on a server; each group of tools lives in its own module."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer

from symfuse.server import (
    mcp_tools_graph,
    mcp_tools_index,
    mcp_tools_nav,
    mcp_tools_search,
    mcp_tools_text,
)
from symfuse.server.mcp_server import Backend


def register(server: MCPServer[Any], backend: Backend) -> None:
    mcp_tools_search.register(server, backend)
    mcp_tools_nav.register(server, backend)
    mcp_tools_text.register(server, backend)
    mcp_tools_graph.register(server, backend)
    mcp_tools_index.register(server, backend)
