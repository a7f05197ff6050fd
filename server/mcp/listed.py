"""The MCP server: the SDK's, answering a call to a symfuse tool it does not list (see
:mod:`.toolset`) with how to list it, not the SDK's "Unknown tool".

An agent may know a tool's name from another session, a README or a server started with
``--tools all``; one line saying which option lists it lets it (or its user) act.
"""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.context import Context
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, InputRequiredResult

from symfuse.server.mcp.toolset import TOOL_NAMES, not_listed


class ListedToolsServer(MCPServer[Any]):
    """``MCPServer`` with the tools given as ``tools``, naming how to list any other."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.listed = frozenset(tool.name for tool in kwargs.get("tools") or ())

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        if name in TOOL_NAMES and name not in self.listed:
            raise ToolError(not_listed(name))
        return await super().call_tool(name, arguments, context)
