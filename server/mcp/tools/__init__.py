"""Every MCP tool, put in a toolbox the server is made with; each group in its own module."""

from __future__ import annotations

from symfuse.server.mcp.schema import Toolbox
from symfuse.server.mcp.server import Backend
from symfuse.server.mcp.tools import analysis as mcp_tools_analysis
from symfuse.server.mcp.tools import files as mcp_tools_files
from symfuse.server.mcp.tools import graph as mcp_tools_graph
from symfuse.server.mcp.tools import history as mcp_tools_history
from symfuse.server.mcp.tools import index as mcp_tools_index
from symfuse.server.mcp.tools import nav as mcp_tools_nav
from symfuse.server.mcp.tools import ops as mcp_tools_ops
from symfuse.server.mcp.tools import search as mcp_tools_search
from symfuse.server.mcp.tools import text as mcp_tools_text


def register(server: Toolbox, backend: Backend) -> None:
    mcp_tools_search.register(server, backend)
    mcp_tools_nav.register(server, backend)
    mcp_tools_text.register(server, backend)
    mcp_tools_files.register(server, backend)
    mcp_tools_graph.register(server, backend)
    mcp_tools_analysis.register(server, backend)
    mcp_tools_history.register(server, backend)
    mcp_tools_index.register(server, backend)
    mcp_tools_ops.register(server, backend)
