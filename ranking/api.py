"""The door of the ranking layer: everything a front end uses, and nothing else.

``server/`` imports from ranking only this module and :mod:`symfuse.ranking.query` (the
typed requests, responses and the one function per operation); an import-linter contract
in ``pyproject.toml`` holds it. Grouped by job below. Names past the first group are
loaded on first use (:func:`__getattr__`), so a command that never ranks (``symfuse
index``) or a server before its first query imports none of that code::

    from symfuse.ranking.api import SearchRequest, search

    request = SearchRequest.from_mapping({"query": "getUserById", "kind": "method"})
    response = search(index, request, directory=config.store.directory)
    response.to_dict()  # {"items": [...], "total": ..., "search_mode": ..., ...}
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# The search contract (loaded with the module: every server ranks).
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

if TYPE_CHECKING:
    from symfuse.ranking import available_channels
    from symfuse.ranking.channels.identity import NameTable
    from symfuse.ranking.channels.identity import tiers as name_tiers
    from symfuse.ranking.channels.names.names_only import forget as forget_names
    from symfuse.ranking.channels.names.names_only import quick_table as names_table
    from symfuse.ranking.channels.neural import describe as describe_semantic
    from symfuse.ranking.channels.neural import engine as semantic_engine
    from symfuse.ranking.channels.neural import fill as fill_semantic
    from symfuse.ranking.channels.neural import status as semantic_status
    from symfuse.ranking.channels.neural.model import available as semantic_installed
    from symfuse.ranking.channels.neural.model import find_model as semantic_model
    from symfuse.ranking.channels.tokens import is_identifier_shaped
    from symfuse.ranking.graph.call_questions import CallGraphAnswer
    from symfuse.ranking.graph.hierarchy import (
        CallGraphResult,
        callees,
        callers,
        subtypes,
        supertypes,
    )
    from symfuse.ranking.graph.positions import definition_at, symbol_at
    from symfuse.ranking.graph.usages import MAX_LIMIT as USAGES_MAX_LIMIT
    from symfuse.ranking.graph.usages import find_usages
    from symfuse.ranking.history.search import (
        NO_HISTORY,
        Histories,
        HistoryNotIndexed,
        load_histories,
    )
    from symfuse.ranking.history.tree_at import repository_for, snapshot
    from symfuse.ranking.prepared.build import prepare_shared
    from symfuse.ranking.prepared.shared import ShardParts, SharedModels
    from symfuse.ranking.query.records import MAX_SHOWN_TARGETS
    from symfuse.ranking.search.cancel import ShouldStop, Stopped, checkpoint, stoppable
    from symfuse.ranking.search.cold_start import early_answer, names_answer
    from symfuse.ranking.search.details import FileOutline, OutlineNode, SymbolDetail
    from symfuse.ranking.search.picker import editor_request, editor_search
    from symfuse.ranking.search.repositories import (
        Repository,
        RepositoryError,
        grouped,
        selected,
        spread,
    )
    from symfuse.ranking.search.snippets import code_of, code_wanted, snippet
    from symfuse.ranking.search.unnamed import asks_one_name, named_nowhere, one_identifier
    from symfuse.ranking.shards.compact import compacted
    from symfuse.ranking.shards.fusion import fuse_shards
    from symfuse.ranking.shards.global_stats import CorpusStats, stats_of, with_stats
    from symfuse.ranking.shards.group_index import GroupIndex, JoinedShard
    from symfuse.ranking.shards.group_index import keyed as keyed_symbol
    from symfuse.ranking.shards.packed import Packer
    from symfuse.ranking.shards.part import ShardPart, shard_part
    from symfuse.ranking.shards.pieces import shard_pieces
    from symfuse.ranking.text.paths import confine

_R = "symfuse.ranking"
# name -> (module, its name there), loaded on first use.
_LAZY: dict[str, tuple[str, str]] = {
    # Which channels can run, and the semantic extra's engine.
    "available_channels": (_R, "available_channels"),
    "describe_semantic": (f"{_R}.channels.neural", "describe"),
    "semantic_engine": (f"{_R}.channels.neural", "engine"),
    "fill_semantic": (f"{_R}.channels.neural", "fill"),
    "semantic_status": (f"{_R}.channels.neural", "status"),
    "semantic_installed": (f"{_R}.channels.neural.model", "available"),
    "semantic_model": (f"{_R}.channels.neural.model", "find_model"),
    # Names: the editor's picker, a cold start's names-only answer, the name tables.
    "NameTable": (f"{_R}.channels.identity", "NameTable"),
    "name_tiers": (f"{_R}.channels.identity", "tiers"),
    "names_table": (f"{_R}.channels.names.names_only", "quick_table"),
    "forget_names": (f"{_R}.channels.names.names_only", "forget"),
    "is_identifier_shaped": (f"{_R}.channels.tokens", "is_identifier_shaped"),
    "editor_request": (f"{_R}.search.picker", "editor_request"),
    "editor_search": (f"{_R}.search.picker", "editor_search"),
    "names_answer": (f"{_R}.search.cold_start", "names_answer"),
    "early_answer": (f"{_R}.search.cold_start", "early_answer"),
    "named_nowhere": (f"{_R}.search.unnamed", "named_nowhere"),
    "asks_one_name": (f"{_R}.search.unnamed", "asks_one_name"),
    "one_identifier": (f"{_R}.search.unnamed", "one_identifier"),
    # A running search: stopping it between channels.
    "ShouldStop": (f"{_R}.search.cancel", "ShouldStop"),
    "Stopped": (f"{_R}.search.cancel", "Stopped"),
    "checkpoint": (f"{_R}.search.cancel", "checkpoint"),
    "stoppable": (f"{_R}.search.cancel", "stoppable"),
    # What an answer shows: code, a symbol's details, repositories.
    "code_of": (f"{_R}.search.snippets", "code_of"),
    "code_wanted": (f"{_R}.search.snippets", "code_wanted"),
    "snippet": (f"{_R}.search.snippets", "snippet"),
    "FileOutline": (f"{_R}.search.details", "FileOutline"),
    "OutlineNode": (f"{_R}.search.details", "OutlineNode"),
    "SymbolDetail": (f"{_R}.search.details", "SymbolDetail"),
    "Repository": (f"{_R}.search.repositories", "Repository"),
    "RepositoryError": (f"{_R}.search.repositories", "RepositoryError"),
    "grouped": (f"{_R}.search.repositories", "grouped"),
    "selected": (f"{_R}.search.repositories", "selected"),
    "spread": (f"{_R}.search.repositories", "spread"),
    "confine": (f"{_R}.text.paths", "confine"),
    # The graph: call questions, usages, hierarchies, what is at a position.
    "CallGraphAnswer": (f"{_R}.graph.call_questions", "CallGraphAnswer"),
    "CallGraphResult": (f"{_R}.graph.hierarchy", "CallGraphResult"),
    "callers": (f"{_R}.graph.hierarchy", "callers"),
    "callees": (f"{_R}.graph.hierarchy", "callees"),
    "subtypes": (f"{_R}.graph.hierarchy", "subtypes"),
    "supertypes": (f"{_R}.graph.hierarchy", "supertypes"),
    "definition_at": (f"{_R}.graph.positions", "definition_at"),
    "symbol_at": (f"{_R}.graph.positions", "symbol_at"),
    "USAGES_MAX_LIMIT": (f"{_R}.graph.usages", "MAX_LIMIT"),
    "MAX_SHOWN_TARGETS": (f"{_R}.query.records", "MAX_SHOWN_TARGETS"),
    "find_usages": (f"{_R}.graph.usages", "find_usages"),
    # Git history.
    "Histories": (f"{_R}.history.search", "Histories"),
    "HistoryNotIndexed": (f"{_R}.history.search", "HistoryNotIndexed"),
    "NO_HISTORY": (f"{_R}.history.search", "NO_HISTORY"),
    "load_histories": (f"{_R}.history.search", "load_histories"),
    "repository_for": (f"{_R}.history.tree_at", "repository_for"),
    "snapshot": (f"{_R}.history.tree_at", "snapshot"),
    # Shards: each shard's part, one fusion, global statistics.
    "fuse_shards": (f"{_R}.shards.fusion", "fuse_shards"),
    "compacted": (f"{_R}.shards.compact", "compacted"),
    "CorpusStats": (f"{_R}.shards.global_stats", "CorpusStats"),
    "stats_of": (f"{_R}.shards.global_stats", "stats_of"),
    "with_stats": (f"{_R}.shards.global_stats", "with_stats"),
    "ShardParts": (f"{_R}.prepared.shared", "ShardParts"),
    "SharedModels": (f"{_R}.prepared.shared", "SharedModels"),
    "prepare_shared": (f"{_R}.prepared.build", "prepare_shared"),
    "ShardPart": (f"{_R}.shards.part", "ShardPart"),
    "shard_part": (f"{_R}.shards.part", "shard_part"),
    "shard_pieces": (f"{_R}.shards.pieces", "shard_pieces"),
    "GroupIndex": (f"{_R}.shards.group_index", "GroupIndex"),
    "JoinedShard": (f"{_R}.shards.group_index", "JoinedShard"),
    "keyed_symbol": (f"{_R}.shards.group_index", "keyed"),
    "Packer": (f"{_R}.shards.packed", "Packer"),
}


def __getattr__(name: str) -> object:
    """A name of :data:`_LAZY`, imported on first use and kept."""
    where = _LAZY.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(where[0]), where[1])
    globals()[name] = value
    return value


__all__ = [
    "FUSION_K",
    "MAX_SHOWN_TARGETS",
    "NO_HISTORY",
    "USAGES_MAX_LIMIT",
    "CallGraphAnswer",
    "CallGraphResult",
    "CallQuery",
    "Channel",
    "ChannelHit",
    "CorpusStats",
    "DetailLevel",
    "Embedder",
    "FileOutline",
    "FusionWeights",
    "GroupIndex",
    "Histories",
    "HistoryNotIndexed",
    "JoinedShard",
    "NameTable",
    "OutlineNode",
    "Packer",
    "Prepared",
    "Repository",
    "RepositoryEmbedder",
    "RepositoryError",
    "SearchItem",
    "SearchMode",
    "SearchRequest",
    "SearchResponse",
    "SemanticMode",
    "ShardPart",
    "ShardParts",
    "SharedModels",
    "ShouldStop",
    "Stopped",
    "SymbolDetail",
    "Tier",
    "asks_one_name",
    "available_channels",
    "call_query",
    "callees",
    "callers",
    "checkpoint",
    "code_of",
    "code_wanted",
    "compacted",
    "confine",
    "definition_at",
    "describe_semantic",
    "early_answer",
    "editor_request",
    "editor_search",
    "fill_semantic",
    "find_usages",
    "forget_names",
    "fuse_shards",
    "grouped",
    "has_stored",
    "is_identifier_shaped",
    "is_path_shaped",
    "keyed_symbol",
    "load_histories",
    "name_tiers",
    "named_nowhere",
    "names_answer",
    "names_table",
    "one_identifier",
    "prepare",
    "prepare_shared",
    "repository_for",
    "search",
    "selected",
    "semantic_engine",
    "semantic_installed",
    "semantic_model",
    "semantic_status",
    "shard_part",
    "shard_pieces",
    "snapshot",
    "snippet",
    "spread",
    "stats_of",
    "stoppable",
    "subtypes",
    "supertypes",
    "symbol_at",
    "with_stats",
]
