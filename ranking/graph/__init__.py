"""Graph answers: the symbols a question names, usages, callers and callees, type
hierarchies, call questions and file dependencies, read from the index's graph.

May import the indexer, the query door's records and :mod:`symfuse.ranking.text.search`'s
confinement; never the search pipeline's ranking.
"""
