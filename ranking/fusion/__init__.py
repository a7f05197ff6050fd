"""Fusion: weighted reciprocal rank over the channels' rankings, and what adjusts it.

The weights, the exact-name guard's order classes, the path roles behind demotions
(tests, examples, documents) and the learned re-ranking of prose answers. May import
the indexer's model, the query door and :mod:`symfuse.ranking.channels`' records.
"""
