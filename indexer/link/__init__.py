"""References -> definitions -> the graph: bindings, resolution, edges and PageRank.

May import the indexer's model and :mod:`symfuse.indexer.files`.
"""
