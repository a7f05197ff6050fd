"""The search pipeline: plans per query shape, filters, modes, snippets, repositories.

``pipeline.search`` is the one query function; it runs the channels of
:mod:`symfuse.ranking.channels`, fuses them with :mod:`symfuse.ranking.fusion.rrf` over the
structures of :mod:`symfuse.ranking.prepared`. May import the indexer, the query door's
records and every ranking package but ``analysis``, ``history`` and ``shards``.
"""
