"""Searches fused across repository shards: each shard's part, one fusion, global statistics.

May import the search pipeline, the channels and the prepared structures.
"""
