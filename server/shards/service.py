"""The query service of a shard directory: what the servers call, answered by fan-out.

:class:`ShardService` is an :class:`IndexService` whose :meth:`search` asks the
shards (:class:`.fleet.Fleet`) and whose status sums their manifests, so the MCP
``search`` tool and LSP ``workspace/symbol`` run on it unchanged. Operations
that need one index of every repository (usages, the call graph, text search,
reading files, reindexing) cannot fan out: they answer :class:`NotOverShards`,
which names the limitation.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

from symfuse.indexer.config import IndexConfig, UpdateReport
from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.index import Index
from symfuse.indexer.update.live import LiveIndex, ProgressCallback, Status
from symfuse.ranking.api import CallGraphAnswer, Histories, Repository, selected
from symfuse.ranking.query.requests import ReindexRequest, ReposRequest
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.server.common.service import IndexService
from symfuse.server.common.service_records import Ranked, Reindexed, ServiceStatus
from symfuse.server.shards.cluster import ClusterOptions, connected
from symfuse.server.shards.fanout import SHARD_TIMEOUT
from symfuse.server.shards.fleet import Fleet, read_shards
from symfuse.server.shards.manifest import ShardManifest

SERVE_DIR = ".serve"  # under the shard directory: the servers' metrics and query log


class NotOverShards(SymfuseError):
    """An operation a sharded server cannot answer: it needs one index of every repository."""

    def __init__(self, what: str = "this operation") -> None:
        super().__init__(
            f"{what} is not answered over shards (--shards): only search, index_status and "
            "list_repositories are; it needs one index of every repository, so "
            "serve a multi-root index (symfuse mcp ROOT...) for it"
        )


class ShardLive(LiveIndex):
    """The live index's place in a sharded service: always ready, never indexing, and
    no index to read (each shard's is where the shard is held)."""

    def __init__(
        self, config: IndexConfig, manifests: Sequence[ShardManifest], built: float
    ) -> None:
        super().__init__(config)
        self.manifests = tuple(manifests)
        self.built = built

    @contextmanager
    def reading(self) -> Iterator[Index]:
        yield from _refused()

    def wait_ready(self, timeout: float | None) -> bool:
        return True

    @property
    def ready(self) -> bool:
        return True

    def status(self) -> Status:
        counts = [m.counts for m in self.manifests]
        return Status(
            ready=True,
            indexing=False,
            files=sum(int(c.get("files", 0)) for c in counts),
            symbols=sum(int(c.get("definitions", 0)) for c in counts),
            updated_at=self.built,
            age_seconds=max(0.0, time.time() - self.built),
            stale=False,
            pending=0,
            overlays=0,
            error=None,
        )

    def start(self, progress: ProgressCallback | None = None) -> None:
        return None

    def watch(self, debounce_ms: int = 50) -> None:
        return None

    def refresh(self, paths: Sequence[str] | None = None) -> UpdateReport | None:
        raise NotOverShards("reindexing")


class ShardService(IndexService):
    """Searches fanned out to the shards in ``out``, on the cluster ``cluster`` names."""

    sharded = True

    def __init__(
        self,
        out: Path,
        cluster: ClusterOptions,
        timeout: float = SHARD_TIMEOUT,
        route_names: bool = False,
    ) -> None:
        shards = read_shards(out)  # fails here, before serving, when there are none
        manifests = [m for _d, m in shards.values()]
        config = IndexConfig(
            roots=tuple(Path(m.root) for m in manifests),
            names=tuple(m.alias for m in manifests),
            index_dir=out / SERVE_DIR,
            progress=False,
        )
        super().__init__(config, warm=False)
        newest = max((d / "shard.json").stat().st_mtime for d, _m in shards.values())
        self.manifests = tuple(manifests)
        self.live = ShardLive(config, manifests, newest)
        self.out = out
        self.cluster = cluster
        self.timeout = timeout
        self.route_names = route_names
        self._stack = ExitStack()
        self._fleet: Fleet | None = None
        self._reads = 0

    def start(self, *, watch: bool, debounce_ms: int = 50) -> None:
        """Connect to (or start) the cluster and load every shard where it is held."""
        client = self._stack.enter_context(connected(self.cluster))
        self._fleet = Fleet(self.out, client, self.timeout, route_names=self.route_names)
        self._stack.callback(self._fleet.close)
        self._fleet.warm()

    def stop(self, timeout: float = 5.0) -> None:
        super().stop(timeout)
        self._stack.close()

    @property
    def version(self) -> int:
        """Another number at each read: a shard may be rebuilt or deleted under a running
        server at any time, so no answer is ever taken from the query cache."""
        self._reads += 1
        return self._reads

    @property
    def fleet(self) -> Fleet:
        if self._fleet is None:
            raise SymfuseError("the shards are not loaded yet")
        return self._fleet

    def search(
        self, request: SearchRequest, *, histories: Histories | None = None
    ) -> tuple[SearchResponse | CallGraphAnswer, bool]:
        return self.fleet.search(request), False

    def editor_search(self, request: SearchRequest) -> SearchResponse:
        """An editor's name search (the picker's request) over the shards: one identifier
        keeps what a name channel ranked, as :func:`editor_search` does on one index."""
        from symfuse.ranking.api import one_identifier

        return self.fleet.search(request, named=one_identifier(request.query))

    @contextmanager
    def ranked(self) -> Iterator[Ranked]:
        yield from _refused()

    def repositories(self, request: ReposRequest) -> list[Repository]:
        """Every shard's repository, as its manifest describes it (no shard is asked)."""
        found = []
        for m in self.manifests:
            if not selected(m.alias, request.repository, ()):
                continue
            languages = m.counts.get("languages")
            found.append(
                Repository(
                    m.alias,
                    m.root,
                    dict(languages) if isinstance(languages, dict) else {},
                    int(m.counts.get("files", 0)),
                    int(m.counts.get("definitions", 0)),
                    os.path.isdir(m.root),
                )
            )
        return found

    def status(self) -> ServiceStatus:
        return ServiceStatus(
            index=self.live.status(),
            ranking=True,
            roots=self.config.aliases,
            index_dir=self.out,
            stale_files=(),
            languages=(),
        )

    def reindex(self, request: ReindexRequest) -> Reindexed:
        raise NotOverShards("reindexing (rebuild the shards with `symfuse shards build`)")

    def refresh(self, paths: Sequence[str] | None = None) -> UpdateReport | None:
        raise NotOverShards("reindexing (rebuild the shards with `symfuse shards build`)")


def _refused() -> Iterator[Any]:
    """What reading a sharded service's one index gives: it has none."""
    raise NotOverShards()
