"""A shard kept loaded where it is queried: a Dask actor on a worker, or an object here.

:class:`ShardHolder` loads the shard's index and ranking structures once and
answers searches from memory. Before each answer it looks at the shard's
manifest and the global statistics (two ``stat``): a shard deleted since is an
error, a shard rebuilt since is loaded again (a corrupt one is an error), so a
shard changed under a running server never answers from what is no longer there;
when only the global statistics changed (another shard was rebuilt), its index is
kept and its ranking structures re-weighed. Hits come back keyed
as a multi-root index keys them (``alias/path``), so that ids from a sharded
answer and from a combined index are the same.
"""

from __future__ import annotations

import dataclasses
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import IndexCorrupt, SymfuseError
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.api import Prepared
from symfuse.ranking.query.intent import is_path_shaped
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchMode, SearchRequest
from symfuse.server.shards.manifest import (
    GLOBAL_MODELS,
    GLOBAL_STATS,
    INDEX,
    MANIFEST,
    STATS,
    ShardManifest,
    read_manifest,
)

if TYPE_CHECKING:
    from symfuse.ranking.api import JoinedShard, ShardPart


class ShardUnavailable(SymfuseError):
    """A shard that cannot answer: deleted, corrupt, or of another format."""


Stamp = tuple[int, int, int, int]  # the manifest's inode, size, mtime; the global stats' mtime


KEYED = 1 << 13  # keyed copies a shard keeps (those its answers named lately: a few MB)


class Keyed:
    """A shard's symbols keyed as a multi-root index keys them (``keyed_symbol``), each
    copy made once and kept: a search sends a few hundred candidates, and copying each
    of them again for every search took half a small shard's time to answer."""

    def __init__(self, alias: str) -> None:
        self.alias = alias
        self.made: dict[str, Symbol] = {}

    def __call__(self, symbol: Symbol) -> Symbol:
        found = self.made.get(symbol.symbol_id)
        if found is None:
            from symfuse.ranking.api import keyed_symbol

            if len(self.made) >= KEYED:
                self.made.clear()  # bounded: the copies of symbols not asked for lately go
            found = self.made[symbol.symbol_id] = keyed_symbol(symbol, self.alias)
        return found

    def part(self, part: ShardPart) -> ShardPart:
        """``part``'s symbols keyed."""
        return part.keyed(tuple(map(self, part.symbols)), self.alias)


@dataclass(frozen=True, slots=True)
class Loaded:
    stamp: Stamp  # when it was loaded
    manifest: ShardManifest
    index: Index
    prepared: Prepared
    keyed: Keyed  # its symbols behind ``alias/``


class ShardHolder:
    """One shard, loaded on first use and answered from memory."""

    def __init__(self, directory: str) -> None:
        self.directory = Path(directory)
        self._manifest = os.fspath(self.directory / MANIFEST)  # stat'ed before each answer
        self._loaded: Loaded | None = None
        self.loads = 0  # times the shard's index was read (a rebuild elsewhere reads none)
        self._lock = threading.Lock()

    def search(self, request: SearchRequest) -> SearchResponse:
        """``request`` over this shard; ShardUnavailable when the shard cannot answer."""
        from symfuse.ranking.api import search

        loaded = self._current()
        response = search(
            loaded.index, request, directory=self.directory / "index", prepared=loaded.prepared
        )
        items = tuple(dataclasses.replace(i, symbol=loaded.keyed(i.symbol)) for i in response.items)
        return dataclasses.replace(response, items=items)

    def part(self, request: SearchRequest) -> ShardPart:
        """This shard's channels for ``request``, to be fused with the other shards'."""
        found, keyed = self.unkeyed_part(request)
        return keyed.part(found)

    def unkeyed_part(self, request: SearchRequest) -> tuple[ShardPart, Keyed]:
        """:meth:`part` with its symbols as the shard holds them (not behind ``alias/``), and
        what keys them: a group keys only the candidates left once it has cut its shards'
        parts."""
        from symfuse.ranking.api import shard_part

        loaded = self._current()
        alias = loaded.manifest.alias
        found = shard_part(loaded.index, loaded.prepared, request, self.directory / INDEX)
        local = _local(request, alias)
        if local is not request and not found.found:
            found = shard_part(loaded.index, loaded.prepared, local, self.directory / INDEX)
        return found, loaded.keyed

    def code(
        self, request: SearchRequest, ids: dict[str, list[str]]
    ) -> list[tuple[str | None, str | None]]:
        """The snippet and source ``request`` asks for of each of this shard's symbol ids
        (``ids``: every asked shard's ``alias/`` ids by alias, so that a group is asked once)."""
        from symfuse.ranking.api import code_of

        loaded = self._current()
        index, alias = loaded.index, loaded.manifest.alias
        out: list[tuple[str | None, str | None]] = []
        for key in ids.get(alias, []):
            at = index.position.get(key.removeprefix(f"{alias}/"))
            out.append((None, None) if at is None else code_of(index, index.symbols[at], request))
        return out

    def memory(self) -> int:
        """This process's resident memory in bytes (for the benchmarks)."""
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    def warm(self) -> str:
        """Load the shard now (a server does this at start); its alias."""
        return self._current().manifest.alias

    def fresh(self, stats: int | None = None) -> Loaded | None:
        """The shard as loaded, when it is loaded and has not changed since (no reading:
        None when it must be read again, or cannot be); ``stats``: the global statistics'
        :func:`global_stats_stamp`, when the caller has it."""
        loaded = self._loaded
        try:
            return loaded if loaded is not None and loaded.stamp == self._stamp(stats) else None
        except ShardUnavailable:
            return None

    def joined(self, loaded: Loaded) -> JoinedShard:
        """``loaded`` as its group joins it (:class:`symfuse.ranking.api.GroupIndex`)."""
        from symfuse.ranking.api import CorpusStats, JoinedShard

        own = CorpusStats.from_bytes((self.directory / STATS).read_bytes())
        return JoinedShard(loaded.manifest.alias, loaded.index, loaded.prepared, own)

    def _current(self) -> Loaded:
        stamp = self._stamp()
        with self._lock:
            current = self._loaded
            if current is None or current.stamp[:3] != stamp[:3]:
                current = self._loaded = None  # the old copy goes before the new one is read
                current = self._load(stamp)
                self.loads += 1
            elif current.stamp != stamp:  # another shard was rebuilt: new global statistics
                current = self._reweighed(current, stamp)
            self._loaded = current
            return current

    def _stamp(self, stats: int | None = None) -> Stamp:
        if stats is None:
            stats = global_stats_stamp(self.directory.parent)
        try:
            st = os.stat(self._manifest)
        except FileNotFoundError as exc:
            raise ShardUnavailable(f"the shard at {self.directory} was deleted") from exc
        except OSError as exc:
            raise ShardUnavailable(f"the shard at {self.directory} cannot be read: {exc}") from exc
        return (st.st_ino, st.st_size, st.st_mtime_ns, stats)

    def _load(self, stamp: Stamp) -> Loaded:
        from symfuse.indexer.update.workspace import load_index
        from symfuse.server.shards.build import shard_config

        try:
            manifest = read_manifest(self.directory)
        except (OSError, IndexCorrupt) as exc:
            raise ShardUnavailable(f"the shard at {self.directory} is corrupt: {exc}") from exc
        config = shard_config(
            self.directory, manifest.alias, manifest.root, chosen=manifest.discovery
        )
        index = load_index(config)
        if index is None:
            raise ShardUnavailable(f"the index of shard {manifest.alias} is missing or corrupt")
        prepared = self._global(self._prepared(index, config, manifest.alias))
        prepared.names.index_suffixes()  # held to be searched many times, as a server's index
        return Loaded(stamp, manifest, index, prepared, Keyed(manifest.alias))

    def _reweighed(self, loaded: Loaded, stamp: Stamp) -> Loaded:
        """``loaded`` scoring by the global statistics now in place: its ranking structures
        read again from its ranking file (they were re-weighed in memory), its index kept."""
        from symfuse.server.shards.build import shard_config

        manifest = loaded.manifest
        config = shard_config(
            self.directory, manifest.alias, manifest.root, chosen=manifest.discovery
        )
        prepared = self._prepared(loaded.index, config, manifest.alias)
        return Loaded(stamp, manifest, loaded.index, self._global(prepared), loaded.keyed)

    def _prepared(self, index: Index, config: IndexConfig, alias: str) -> Prepared:
        """The shard's ranking structures, scoring with the models learned over every shard
        (:mod:`symfuse.ranking.prepared.shared`): a shard learns none of its own."""
        from symfuse.ranking.api import SharedModels, prepare_shared

        path = self.directory.parent / GLOBAL_MODELS
        prefix = f"{alias}/"
        try:
            models = SharedModels.load(path)
        except FileNotFoundError as exc:
            raise ShardUnavailable(
                f"the shared models of {self.directory.parent} are missing: "
                "run `symfuse shards build` to its end"
            ) from exc
        except (OSError, ValueError, KeyError) as exc:
            raise ShardUnavailable(f"the shared models cannot be read: {exc}") from exc
        return prepare_shared(index, config.store.directory, models, path_prefix=prefix)

    def _global(self, prepared: Prepared) -> Prepared:
        """``prepared`` scoring as part of every shard (the global statistics written at
        build time); as it is when there are none (shards of an older build)."""
        from symfuse.ranking.api import CorpusStats, with_stats

        try:
            raw = (self.directory.parent / GLOBAL_STATS).read_bytes()
        except FileNotFoundError:
            return prepared
        except OSError as exc:
            raise ShardUnavailable(f"the global statistics cannot be read: {exc}") from exc
        try:
            own = CorpusStats.from_bytes((self.directory / STATS).read_bytes())
            return with_stats(prepared, CorpusStats.from_bytes(raw), own)
        except OSError as exc:
            raise ShardUnavailable(f"the shard's statistics cannot be read: {exc}") from exc
        except IndexCorrupt as exc:
            raise ShardUnavailable(f"the shard directory's {exc}") from exc


def global_stats_stamp(out: Path) -> int:
    """When the global statistics of the shard directory ``out`` were written (0: none)."""
    try:
        return os.stat(out / GLOBAL_STATS).st_mtime_ns
    except OSError:
        return 0


def _local(request: SearchRequest, alias: str) -> SearchRequest:
    """``request`` with a lookup's or a drill's target named as a multi-root index names
    it (``alias/path``, ``alias/path::Name#kind``) named as this shard does, without its
    alias: asked when the target as written is not in the shard."""
    prefix = f"{alias}/"
    update: dict[str, str] = {}
    lookup = request.mode is SearchMode.GET or (
        request.mode is SearchMode.AUTO and is_path_shaped(request.query)
    )
    if lookup and request.query.startswith(prefix):
        update["query"] = request.query.removeprefix(prefix)
    if request.drill_from is not None and request.drill_from.startswith(prefix):
        update["drill_from"] = request.drill_from.removeprefix(prefix)
    return request.model_copy(update=update) if update else request
