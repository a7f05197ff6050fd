"""The ranking contract in one place: import from here.

from symfuse.ranking.api import SearchRequest, search

request = SearchRequest.from_mapping({"query": "getUserById", "kind": "method"})
response = search(index, request, directory=config.store.directory)
response.to_dict()  # {"items": [...], "total": ..., "search_mode": ..., ...}
"""

from __future__ import annotations

from symfuse.ranking.channels.similarity import Embedder, RepositoryEmbedder
from symfuse.ranking.fusion.rrf import K as FUSION_K
from symfuse.ranking.prepared.build import Prepared, has_stored, prepare
from symfuse.ranking.query.intent import call_query, is_path_shaped
from symfuse.ranking.query.responses import CallQuery, ChannelHit, SearchItem, SearchResponse, Tier
from symfuse.ranking.query.search_request import (
    Channel,
    DetailLevel,
    FusionWeights,
    SearchMode,
    SearchRequest,
    SemanticMode,
)
from symfuse.ranking.search.pipeline import search

__all__ = [
    "FUSION_K",
    "CallQuery",
    "Channel",
    "ChannelHit",
    "DetailLevel",
    "Embedder",
    "FusionWeights",
    "Prepared",
    "RepositoryEmbedder",
    "SearchItem",
    "SearchMode",
    "SearchRequest",
    "SearchResponse",
    "SemanticMode",
    "Tier",
    "call_query",
    "has_stored",
    "is_path_shaped",
    "prepare",
    "search",
]
