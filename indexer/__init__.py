"""The indexer: source files -> tree-sitter -> symbols, references, graph -> a stored index.

Top level: ``model`` (the records that cross layers), ``errors``, ``config``,
``versions`` and ``index`` (the in-memory index). By job: ``files/`` (which files, which
language), ``extract/`` (tree-sitter extraction and the parse pool), ``link/``
(references resolved into a graph, PageRank), ``store/`` (the persisted index),
``update/`` (builds, incremental updates, live buffers), ``history/`` (the git history
index). Knows nothing of ranking or of any front end (an import-linter contract).
"""
