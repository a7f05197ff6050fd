"""The persisted index: a manifest, content-addressed packs of rows, atomic writes.

May import the indexer's model, errors and config.
"""
