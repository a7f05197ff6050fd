"""symfuse front ends: one package each, translating the query layer's answers.

- :mod:`.cli`: the ``symfuse`` command (entry point :mod:`.cli.main`; the shared
  workspace options in :mod:`.cli.common`; query options generated from the
  request models in :mod:`.cli.options`);
- :mod:`.lsp`: the language server (``build_lsp_server``);
- :mod:`.mcp`: the MCP server (``build_mcp_server``; tool schemas generated from
  the request models in :mod:`.mcp.schema`);
- :mod:`.common`: what they share (the presentation path, the output formats, and the
  live-index service of the two servers).

Nothing here decides a query: requests are validated and answered behind ranking's door,
:mod:`symfuse.ranking.api` and :mod:`symfuse.ranking.query`, the only ranking modules
imported here.
"""
