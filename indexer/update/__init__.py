"""Keeping an index current: builds and incremental updates, live buffers for servers.

The top of the indexer: may import every other indexer package.
"""
