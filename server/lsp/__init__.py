"""The language server (pygls): workspace symbols, navigation, hierarchies, live buffers.

Reaches ranking only through its door; never imports the MCP server."""
