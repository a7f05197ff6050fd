"""The MCP server (official SDK): tools generated from the query layer's request models.

:mod:`.server` builds it, :mod:`.schema` makes the tool functions and schemas,
:mod:`.tools` holds one module per tool family, :mod:`.errors` the error translation.
Reaches ranking only through its door; never imports the language server."""
