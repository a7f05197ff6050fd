"""Text as it is on disk: text search, reading files, workspace confinement, line caches.

May import the indexer and the query door's records; nothing of the ranking.
"""
