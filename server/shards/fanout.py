"""Fan-out: a search asked of every selected shard where it is loaded, the answers merged.

A ranked search (single or tiered, the default) is **fused once over every shard**
(:func:`merge_parts`): each shard, scoring with the global statistics written at
build time, sends each channel's first candidates with raw scores and order keys
(:mod:`symfuse.ranking.shards.part`), and the coordinator orders each channel over all
shards and fuses them with the single index's own code
(:mod:`symfuse.ranking.shards.fusion`). The other searches (get, flat, drill,
``min_score``) are answered by each shard for its first ``offset + limit`` hits and
merged by rank (:func:`merge`): exact-name level first (the tiers of
:func:`symfuse.ranking.channels.identity.tiers`, which depend on the name alone), then the
shards' fused scores. ``aggregation_mode`` and ``response_format`` are then applied
by :mod:`symfuse.ranking.search.repositories`, exactly as for a multi-root index. A shard
that fails, is gone or corrupt, or does not answer within the time limit goes into
``errors``; the others answer.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.api import NameTable, RepositoryError, is_identifier_shaped, spread
from symfuse.ranking.api import name_tiers as tiers
from symfuse.ranking.query.intent import call_query, is_path_shaped
from symfuse.ranking.query.responses import SearchItem, SearchResponse
from symfuse.ranking.query.search_request import (
    MAX_LIMIT,
    Aggregation,
    ResponseFormat,
    SearchMode,
    SearchRequest,
)

if TYPE_CHECKING:
    from symfuse.ranking.api import ShardPart

SHARD_TIMEOUT = 30.0  # seconds a search waits for the slowest shard


T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Pending(Protocol[T_co]):
    """A shard's answer on its way (a Dask ActorFuture, a concurrent Future)."""

    def result(self, timeout: float | None = None) -> T_co: ...


@dataclass(frozen=True, slots=True)
class Asked(Generic[T]):
    """The answers that arrived, by alias, and the shards that could not answer."""

    answers: dict[str, T]
    errors: tuple[RepositoryError, ...]


def shard_request(request: SearchRequest) -> SearchRequest:
    """What each shard is asked: the first ``offset + limit`` hits, flat, unfiltered by
    repository (a shard is one); questions one shard cannot answer alone are refused."""
    if call_query(request.query) is not None:
        raise InvalidRequest(
            "query",
            "call-graph questions ('who calls X') are not answered over shards: each "
            "shard's graph stops at its repository; serve a multi-root index for them",
        )
    if request.at_commit is not None:
        raise InvalidRequest("at_commit", "is not answered over shards (no git history there)")
    if request.include_removed:
        raise InvalidRequest("include_removed", "is not answered over shards (no git history)")
    return request.model_copy(
        update={
            "limit": min(MAX_LIMIT, request.offset + request.limit),
            "offset": 0,
            "repository": (),
            "exclude_repository": (),
            "aggregation_mode": Aggregation.GLOBAL,
            "response_format": ResponseFormat.FLAT,
        }
    )


def gather(
    pending: Mapping[str, Pending[T]], paths: Mapping[str, str], timeout: float = SHARD_TIMEOUT
) -> Asked[T]:
    """Wait for every shard's answer, all within one ``timeout``; errors by shard."""
    deadline = time.monotonic() + timeout
    answers: dict[str, T] = {}
    errors: list[RepositoryError] = []
    for alias, future in pending.items():
        left = max(0.0, deadline - time.monotonic())
        try:
            answers[alias] = future.result(timeout=left)
        except TimeoutError:
            errors.append(RepositoryError(alias, paths[alias], f"timed out after {timeout:g} s"))
        except Exception as exc:  # the shard's own failure, named in errors; others answer
            errors.append(RepositoryError(alias, paths[alias], _reason(exc)))
    return Asked(answers, tuple(errors))


def _reason(exc: BaseException) -> str:
    text = str(exc) or type(exc).__name__
    return text if "shard" in text else f"the shard failed: {text}"


def merge(request: SearchRequest, asked: Asked[SearchResponse]) -> SearchResponse:
    """One answer from the shards' own answers, merged by rank (the module docstring):
    for the searches :func:`fused_globally` does not cover."""
    items = [i for answer in asked.answers.values() for i in answer.items]
    levels = _levels(items, request.query)
    order = sorted(
        range(len(items)), key=lambda at: (levels[at], -items[at].score, items[at].symbol.symbol_id)
    )
    items = _lifted([items[at] for at in order])
    first = next(iter(asked.answers.values()), None)
    base = first if first is not None else _empty(request)
    total = sum(a.total for a in asked.answers.values())
    return paged(request, items, base, total, asked.errors, len(asked.answers))


def fused_globally(request: SearchRequest) -> bool:
    """Whether ``request`` is a ranked search (single or tiered, no ``min_score``), which
    the shards answer by parts fused once here (:func:`merge_parts`)."""
    mode = request.mode
    if mode is SearchMode.AUTO:
        mode = SearchMode.GET if is_path_shaped(request.query) else SearchMode.SINGLE
    return mode in (SearchMode.SINGLE, SearchMode.TIERED) and request.min_score <= 0


def merge_parts(
    request: SearchRequest, asked: Asked[ShardPart], order: Sequence[str]
) -> SearchResponse:
    """One answer from the shards' parts: every channel ordered over all shards and fused
    once (:func:`symfuse.ranking.shards.fusion.fuse_shards`), ``order`` being the
    shards' order in a combined index."""
    from symfuse.ranking.api import fuse_shards

    parts = [asked.answers[alias] for alias in order if alias in asked.answers]
    fused = fuse_shards(shard_request(request), parts)
    count = len(parts)
    return paged(request, list(fused.items), fused, fused.total, asked.errors, count)


def paged(
    request: SearchRequest,
    items: list[SearchItem],
    base: SearchResponse,
    total: int,
    errors: tuple[RepositoryError, ...],
    shards: int,
) -> SearchResponse:
    """The page ``request`` asks for of the merged ``items`` (spread over the repositories
    for ``per_repo``), with the shards' ``errors``."""
    if request.aggregation_mode is Aggregation.PER_REPO and shards > 1:
        page = spread(items, request.limit, lambda i: i.symbol.root)
    else:
        page = items[request.offset : request.offset + request.limit]
    return dataclasses.replace(
        base,
        items=tuple(page),
        total=total,
        offset=request.offset,
        limit=request.limit,
        response_format=request.response_format,
        errors=errors,
    )


def _lifted(items: list[SearchItem]) -> list[SearchItem]:
    """Scores lifted so that they never increase down the list (an exact name put first
    gets the score of the best hit below it, as :func:`guard_first` lifts them)."""
    best = 0.0
    out: list[SearchItem] = []
    for item in reversed(items):
        best = max(best, item.score)
        out.append(item if item.score >= best else dataclasses.replace(item, score=best))
    return out[::-1]


def _levels(items: list[SearchItem], query: str) -> list[int]:
    """Each hit's name-match tier for an identifier-shaped ``query`` (exact, then in
    another case, fqn suffix, prefix, segment, camel hump, substring, none: the tiers of
    :func:`symfuse.ranking.channels.identity.tiers`, which depend on the name alone and so
    compare across shards); all equal for other queries."""
    text = query.strip()
    if not items or not is_identifier_shaped(text):
        return [0] * len(items)
    table = NameTable.build([i.symbol for i in items])
    return [int(t) for t in tiers(table, text)]


def _empty(request: SearchRequest) -> SearchResponse:
    return SearchResponse(
        query=request.query,
        items=(),
        total=0,
        search_mode=request.mode,
        channels=(),
        detail_level=request.detail_level,
        fusion_debug=request.fusion_debug,
        semantic=request.semantic,
    )
