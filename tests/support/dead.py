"""The dead-code report as the dead-code tests compare it: (file, name) -> (confidence, reason)."""

from __future__ import annotations

from symfuse.indexer.index import Index
from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from symfuse.ranking.query.search_request import IncludeTests

Found = dict[tuple[str, str], tuple[float, str]]


def dead(index: Index, min_confidence: float = 0.5) -> Found:
    """Every reported definition of ``index`` at ``min_confidence`` or more, tests included."""
    scope = DeadCodeScope(min_confidence=min_confidence, include_tests=IncludeTests.TRUE)
    result = dead_code(index, scope, limit=1000)
    return {(d.symbol.file, d.symbol.name): (d.confidence, d.reason) for d in result.items}
