"""Fan-out: a search asked of every selected shard where it is loaded, the answers merged.

Every search is **answered once over all the shards' parts** (:func:`merge_parts`), as
one combined index of the same repositories answers it. Each shard, scoring with the
global statistics written at build time, sends its part
(:mod:`symfuse.ranking.shards.part`): for a ranked search (single, tiered, drill with a
query, ``min_score``) each channel's first candidates with raw scores and order keys,
which the coordinator orders over all shards and fuses once with the single index's
own code (:mod:`symfuse.ranking.shards.fusion`); for ``get``, ``flat`` and an empty
drill its hits in source order or by raw BM25F score, put in one order
(:mod:`symfuse.ranking.shards.listing`). ``per_repo`` reads as deep as a combined index
does (``limit`` times the repositories) and spreads the limit over the repositories
that match; ``response_format`` is then applied as for a multi-root index. A shard
that fails, is gone or corrupt, or does not answer within the deadline goes into
``errors``; the others answer.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.api import RepositoryError, spread
from symfuse.ranking.query.intent import call_query
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import (
    MAX_LIMIT,
    Aggregation,
    ResponseFormat,
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


def shard_request(request: SearchRequest, shards: int = 1) -> SearchRequest:
    """What each shard is asked: the first hits down to the end of the page a combined
    index of ``shards`` roots reads (:func:`coordinator_request`), flat, unfiltered by
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
    wider = coordinator_request(request, shards).limit
    return request.model_copy(
        update={
            "limit": min(MAX_LIMIT, request.offset + wider),
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


def coordinator_request(request: SearchRequest, shards: int) -> SearchRequest:
    """What the parts are merged for: ``request`` over every repository, its page as deep
    as a combined index of ``shards`` roots reads it (``per_repo`` reads ``limit`` times
    the repositories, then spreads them: :func:`paged`)."""
    wider = request.limit * shards if _per_repo(request, shards) else request.limit
    return request.model_copy(
        update={
            "limit": min(MAX_LIMIT, wider),
            "repository": (),
            "exclude_repository": (),
            "aggregation_mode": Aggregation.GLOBAL,
            "response_format": ResponseFormat.FLAT,
        }
    )


def _per_repo(request: SearchRequest, shards: int) -> bool:
    return request.aggregation_mode is Aggregation.PER_REPO and shards > 1


def merge_parts(
    request: SearchRequest,
    asked: Asked[ShardPart | None],
    order: Sequence[str],
    shards: int,
    named: bool = False,
) -> SearchResponse:
    """One answer from the shards' parts: fused once over all shards for a ranked search,
    listed in one order for the others (:func:`symfuse.ranking.shards.fusion.fuse_shards`),
    ``order`` being the shards' order in a combined index, ``shards`` their number;
    ``named``: only what a name channel ranked (the editor's name being typed)."""
    from symfuse.ranking.api import fuse_shards

    # a group searched as one index answers for its shards with one part (the others None)
    parts = [part for alias in order if (part := asked.answers.get(alias)) is not None]
    fused = fuse_shards(coordinator_request(request, shards), parts, order, named=named)
    items = list(fused.items)
    if _per_repo(request, shards):
        items = spread(items, request.limit, lambda i: i.symbol.root)
    return dataclasses.replace(
        fused,
        items=tuple(items),
        limit=request.limit,
        response_format=request.response_format,
        errors=asked.errors,
    )
