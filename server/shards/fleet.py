"""Every shard of a shard directory with its holder, asked in parallel.

With a Dask client the shards are placed on the workers (:func:`placement`) and each
worker's are held by one long-lived actor (:class:`.groups.ShardGroup`), asked once per
search for all of them; without one the holders live in this process and a thread pool
asks them.
"""

from __future__ import annotations

import dataclasses
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symfuse.indexer.errors import SymfuseError
from symfuse.ranking.api import RepositoryError, code_wanted, selected
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import DetailLevel, SearchRequest
from symfuse.server.shards.fanout import (
    SHARD_TIMEOUT,
    Pending,
    gather,
    merge_parts,
    shard_request,
)
from symfuse.server.shards.groups import GROUP_SHARE, Member, ShardGroup, Shared, packed_call
from symfuse.server.shards.holders import ShardHolder
from symfuse.server.shards.manifest import ShardManifest, read_manifest, shard_dirs
from symfuse.server.shards.name_table import NameRoutes

if TYPE_CHECKING:
    from distributed import Client

    from symfuse.ranking.api import ShardPart

log = logging.getLogger(__name__)


def read_shards(out: Path) -> dict[str, tuple[Path, ShardManifest]]:
    """alias -> (shard folder, manifest) of every shard in ``out``; an error when none."""
    found: dict[str, tuple[Path, ShardManifest]] = {}
    for directory in shard_dirs(out):
        try:
            manifest = read_manifest(directory)
        except (OSError, SymfuseError) as exc:
            log.warning("skipping shard %s: %s", directory, exc)
            continue
        found[manifest.alias] = (directory, manifest)
    if not found:
        raise SymfuseError(
            f"no shards in {out}: build them with `symfuse shards build ROOT... --out {out}`"
        )
    return found


def placement(shards: dict[str, tuple[Path, ShardManifest]], workers: list[str]) -> dict[str, str]:
    """alias -> worker: the largest shard first, each to the worker holding the fewest
    definitions so far (a round robin put Django and SQLAlchemy on one worker, whose
    memory then dwarfed the other's)."""
    load = dict.fromkeys(workers, 0)
    placed: dict[str, str] = {}
    by_size = sorted(shards.items(), key=lambda kv: -int(kv[1][1].counts.get("definitions", 0)))
    for alias, (_d, manifest) in by_size:
        worker = min(workers, key=lambda w: (load[w], w))
        placed[alias] = worker
        load[worker] += int(manifest.counts.get("definitions", 0))
    return placed


class Fleet:
    """The holders of every shard in ``out``, on ``client``'s workers or here."""

    def __init__(
        self,
        out: Path,
        client: Client | None = None,
        timeout: float = SHARD_TIMEOUT,
        *,
        route_names: bool = False,
    ) -> None:
        self.shards = read_shards(out)
        # --route-names: name queries ask only the shards defining the name (:mod:`.routing`)
        self.routes = NameRoutes.read(out) if route_names else None
        self.asked = 0  # shards asked so far (benchmarks)
        self.paths = {alias: m.root for alias, (_d, m) in self.shards.items()}
        self.timeout = timeout
        self._client = client
        self._pool = ThreadPoolExecutor(
            max_workers=max(1, len(self.shards)), thread_name_prefix="shard"
        )
        self.holders: dict[str, Any] = self._holders()

    def _holders(self) -> dict[str, Any]:
        """alias -> its holder here, or the group actor holding it on its worker."""
        if self._client is None:
            return {alias: ShardHolder(str(d)) for alias, (d, _m) in self.shards.items()}
        placed = placement(self.shards, sorted(self._client.nthreads()))
        folders: dict[str, dict[str, str]] = {}
        for alias, (d, _m) in self.shards.items():
            folders.setdefault(placed[alias], {})[alias] = str(d)
        futures = {
            worker: self._client.submit(ShardGroup, held, actor=True, workers=[worker])
            for worker, held in folders.items()
        }
        actors = {worker: future.result() for worker, future in futures.items()}
        return {alias: actors[placed[alias]] for alias in self.shards}

    def _ask(
        self, method: str, aliases: list[str], *args: Any, timeout: float | None = None
    ) -> dict[str, Pending[Any]]:
        if self._client is None:
            return {a: self._pool.submit(getattr(self.holders[a], method), *args) for a in aliases}
        by_group: dict[int, tuple[Any, list[str]]] = {}
        for alias in aliases:
            group = self.holders[alias]
            by_group.setdefault(id(group), (group, []))[1].append(alias)
        deadline = GROUP_SHARE * (self.timeout if timeout is None else timeout)
        pending: dict[str, Pending[Any]] = {}
        for group, members in by_group.values():
            shared = Shared(group.call(packed_call(method, members, deadline, *args)))
            pending.update({alias: Member(shared, alias) for alias in members})
        return {a: pending[a] for a in aliases}

    def warm(self) -> list[RepositoryError]:
        """Load every shard now; the shards that could not be loaded."""
        long = self.timeout * 10
        asked = gather(self._ask("warm", list(self.shards), timeout=long), self.paths, long)
        for error in asked.errors:
            log.warning("shard %s: %s", error.repository, error.reason)
        return list(asked.errors)

    def search(self, request: SearchRequest, named: bool = False) -> SearchResponse:
        """``request`` fanned out to the selected shards and merged (:mod:`.fanout`);
        ``named``: only what a name channel ranked."""
        shards = len(self.shards)
        asked_for = shard_request(request, shards)
        aliases = [
            a for a in self.shards if selected(a, request.repository, request.exclude_repository)
        ]
        routed = self.routes.shards_for(request.query) if self.routes is not None else None
        if routed is not None:
            aliases = [a for a in aliases if a in routed]
        self.asked += len(aliases)
        parts: dict[str, Pending[ShardPart | None]] = self._ask("part", aliases, asked_for)
        answers = gather(parts, self.paths, self.timeout)
        merged = merge_parts(request, answers, aliases, shards, named)
        if request.detail_level is DetailLevel.MINIMAL:
            return dataclasses.replace(merged, snippet_lines=0)
        return self._with_code(request, merged) if code_wanted(request) else merged

    def _with_code(self, request: SearchRequest, response: SearchResponse) -> SearchResponse:
        """The page's snippets (and sources), asked of the shards that hold its items."""
        ids: dict[str, list[str]] = {}
        for item in response.items:
            ids.setdefault(item.symbol.root, []).append(item.symbol.symbol_id)
        # one call a group, not one a shard: each holder reads the ids of its own alias
        asked = gather(self._ask("code", list(ids), request, ids), self.paths, self.timeout)
        code = {
            key: found
            for alias, answer in asked.answers.items()
            for key, found in zip(ids[alias], answer, strict=True)
        }
        items = tuple(
            dataclasses.replace(i, snippet=code[k][0], source=code[k][1])
            if (k := i.symbol.symbol_id) in code
            else i
            for i in response.items
        )
        return dataclasses.replace(response, items=items)

    def memory(self) -> dict[str, int]:
        """Peak resident bytes of the process holding each shard (benchmarks)."""
        asked = gather(self._ask("memory", list(self.shards)), self.paths, self.timeout)
        return {alias: int(value) for alias, value in asked.answers.items()}

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
        self.holders.clear()
