"""A group's shards searched as one index, kept in step with its holders.

A worker's shards each answered a search on their own, a few hundred microseconds of
Python per channel and shard whatever its size, so a worker's cost grew with the shards
it holds. :class:`Joined` keeps one :class:`symfuse.ranking.api.GroupIndex` of the shards
as their holders hold them (made when the group is warmed, made again in the background
once a shard was rebuilt or re-weighed), and a search over every shard of the group is
one search over it. Until it is made for the shards as they are now (a shard changed,
one is not loaded, or a search over it is still running past its deadline), and for a
search it does not answer (:meth:`GroupIndex.part`), the group asks its shards one by
one as before.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from concurrent.futures import Executor
from typing import TYPE_CHECKING, Any

from symfuse.indexer.errors import SymfuseError
from symfuse.server.shards.holders import Loaded, ShardHolder, global_stats_stamp
from symfuse.server.shards.manifest import GLOBAL_MODELS, GLOBAL_STATS

if TYPE_CHECKING:
    from symfuse.ranking.api import GroupIndex

log = logging.getLogger(__name__)


class Joined:
    """The joined index of a group's holders (the module docstring)."""

    def __init__(self, holders: dict[str, ShardHolder]) -> None:
        self.holders = holders
        self._made: tuple[tuple[Loaded, ...], GroupIndex] | None = None
        self._lock = threading.Lock()  # one build at a time
        self._building = False
        self.busy: Any = None  # a search over it still running (an asyncio future)
        parents = {h.directory.parent for h in holders.values()}
        self.parent = next(iter(parents)) if len(parents) == 1 else None
        # one shard directory's shards, with their global statistics: else never joined
        self.possible = (
            len(holders) > 1 and self.parent is not None and (self.parent / GLOBAL_STATS).exists()
        )

    def current(self, aliases: Sequence[str]) -> GroupIndex | None:
        """The joined index when it answers for ``aliases`` as the shards are now."""
        made = self._made
        if made is None or set(aliases) != set(self.holders):
            return None
        if self.busy is not None and not self.busy.done():
            return None  # an earlier search over it hangs: the shards answer one by one
        loaded = self._fresh()
        return made[1] if loaded is not None and _same(loaded, made[0]) else None

    def refresh(self, pool: Executor) -> None:
        """Make the joined index again in the background when the shards changed since."""
        if not self.possible or self._building:
            return
        loaded = self._fresh()
        made = self._made
        if loaded is None or (made is not None and _same(loaded, made[0])):
            return
        self._building = True
        pool.submit(self.build)

    def build(self) -> None:
        """Join the shards as their holders hold them now (not when one is not loaded)."""
        from symfuse.ranking.api import CorpusStats, GroupIndex, SharedModels

        try:
            with self._lock:
                loaded = self._fresh() if self.possible else None
                parent = self.parent
                if loaded is None or parent is None:
                    return
                models = SharedModels.load(parent / GLOBAL_MODELS)
                stats = CorpusStats.from_bytes((parent / GLOBAL_STATS).read_bytes())
                members = [
                    h.joined(one) for h, one in zip(self.holders.values(), loaded, strict=True)
                ]
                group = GroupIndex(members, models, stats)
                group.prepared.names.index_suffixes()  # substrings by binary search, as a server's
                self._made = (loaded, group)
        except (OSError, ValueError, KeyError, SymfuseError) as exc:
            # rebuilt meanwhile, or unreadable: the shards answer one by one (and say so)
            log.warning("the shards of %s not joined: %s", self.parent, exc)
        finally:
            self._building = False

    def _fresh(self) -> tuple[Loaded, ...] | None:
        # the global statistics are the group's shard directory's: read once, not a shard
        stats = global_stats_stamp(self.parent) if self.parent is not None else None
        found = tuple(h.fresh(stats) for h in self.holders.values())
        return None if any(f is None for f in found) else found  # type: ignore[return-value]


def _same(a: tuple[Loaded, ...], b: tuple[Loaded, ...]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))
