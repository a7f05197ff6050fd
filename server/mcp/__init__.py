"""The MCP server (official SDK): tools generated from the query layer's request models."""
