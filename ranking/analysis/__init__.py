"""Analysis over the graph: dead code (each item with its reasons) and impact.

May import the indexer, the query door's records and :mod:`symfuse.ranking.graph`.
"""
