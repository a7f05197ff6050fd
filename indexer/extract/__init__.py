"""Source -> definitions and references: tree-sitter extraction and the parse pool.

One tags query per language in ``queries/``. May import the indexer's model and
:mod:`symfuse.indexer.files`.
"""
