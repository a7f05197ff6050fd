"""A worker's parts cut to what can reach the fused answer give the same answer.

:func:`symfuse.ranking.api.compacted` runs where the shards are held (a group's actor)
before the parts leave the worker; here the shards' holders are in this process, so
that the parts can be fused with and without the cut and compared, query by query.
The repositories mix the same words, so each channel finds more candidates over the
shards than it ranks.
"""

from __future__ import annotations

import os
import pickle
from typing import Any

import numpy as np
import pytest

from symfuse.ranking.api import compacted, fuse_shards
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.ranking.shards.packed import Packed
from symfuse.ranking.shards.shard_order import in_shard_order, split_by_shard
from symfuse.server.shards.build import build_shards
from symfuse.server.shards.fanout import Asked, coordinator_request, merge_parts, shard_request
from symfuse.server.shards.fleet import Fleet
from symfuse.server.shards.groups import ShardGroup, packed_call
from symfuse.server.shards.holders import ShardHolder
from symfuse.server.shards.manifest import GLOBAL_STATS, shard_dirs
from tests.server.shards.conftest import word_repository

FIELDS = (
    {"query": "order_total"},
    {"query": "OrderTotal", "mode": "tiered"},
    {"query": "order_totl"},  # fuzzy on its own
    {"query": "TotalOrdr"},  # fuzzy one edit away, where some shard matched
    {"query": "render report"},
    {"query": "the report of a ledger", "semantic": "on"},
    {"query": "Ledger.order"},
    {"query": "ledger", "aggregation_mode": "per_repo"},
    {"query": "invoice", "limit": 3, "offset": 4},
    {"query": "payment", "min_score": 0.3},
    {"query": "invoice ledger", "mode": "flat"},
)


@pytest.fixture(scope="module")
def holders(tmp_path_factory: pytest.TempPathFactory) -> list[ShardHolder]:
    base = tmp_path_factory.mktemp("compact")
    roots = {
        name: word_repository(base / "repos", name, modules, 12)
        for name, modules in (("one", 4), ("two", 12), ("three", 30))
    }
    build_shards(roots, base / "out")
    found = [ShardHolder(str(d)) for d in shard_dirs(base / "out")]
    return sorted(found, key=lambda h: h.warm())


@pytest.mark.parametrize("fields", FIELDS, ids=[str(f) for f in FIELDS])
def test_the_cut_parts_fuse_to_the_same_answer(
    holders: list[ShardHolder], fields: dict[str, object]
) -> None:
    request = SearchRequest.from_mapping({"limit": 5, "semantic": "off", **fields})
    asked = shard_request(request, len(holders))
    parts = [h.part(asked) for h in holders]
    cut = compacted(asked, parts)
    merged = coordinator_request(request, len(holders))
    whole, kept = fuse_shards(merged, parts), fuse_shards(merged, cut)
    assert whole.items, "a query that finds nothing proves nothing"
    assert [(i.symbol.symbol_id, i.score) for i in kept.items] == [
        (i.symbol.symbol_id, i.score) for i in whole.items
    ]
    assert kept.total == whole.total


def test_the_cut_leaves_out_what_cannot_reach_the_answer(holders: list[ShardHolder]) -> None:
    request = shard_request(SearchRequest.from_mapping({"query": "order", "limit": 5}), 3)
    parts = [h.part(request) for h in holders]
    before = sum(len(p.symbols) for p in parts)
    after = sum(len(p.symbols) for p in compacted(request, parts))
    assert after < before


@pytest.mark.slow  # a Dask cluster of worker processes (conftest.py)
def test_groups_on_a_cluster_answer_as_the_shards_asked_here(
    tmp_path_factory: pytest.TempPathFactory, cluster: Any
) -> None:
    """Six shards on the two workers of a real LocalCluster, three to a group actor that
    cuts their parts before sending them, answer as the same shards asked one by one
    in this process (nothing cut)."""
    base = tmp_path_factory.mktemp("groups")
    sizes = (("a", 2), ("b", 3), ("c", 5), ("d", 8), ("e", 13), ("f", 21))
    roots = {name: word_repository(base / "repos", name, modules, 8) for name, modules in sizes}
    build_shards(roots, base / "out", client=cluster)
    here, there = Fleet(base / "out"), Fleet(base / "out", cluster)
    assert there.warm() == []
    for fields in FIELDS:
        request = SearchRequest.from_mapping({"limit": 5, "semantic": "off", **fields})
        mine, theirs = here.search(request), there.search(request)
        assert theirs.errors == ()
        assert _hits(theirs) == _hits(mine), fields
        assert theirs.total == mine.total, fields
    here.close()
    there.close()


def _hits(response: SearchResponse) -> list[tuple[str, float]]:
    return [(i.symbol.symbol_id, i.score) for i in response.items]


@pytest.fixture
def group(holders: list[ShardHolder]) -> ShardGroup:
    """The three shards in one group (as one worker holds them), not loaded yet."""
    return ShardGroup({h.warm(): str(h.directory) for h in holders})


async def test_a_group_answers_from_its_shards_joined_as_one_index(
    holders: list[ShardHolder], group: ShardGroup
) -> None:
    """Warmed, a group joins its shards into one index and answers a search with one
    search over it, one part for all its shards: merged, the same answer as the shards
    asked one by one (a search it does not answer so, the shards answer)."""
    aliases = list(group.holders)
    assert (await group.ask("warm", aliases, 60.0)).errors == {}
    joined = group.joined.current(aliases)
    assert joined is not None
    for fields in FIELDS:
        request = SearchRequest.from_mapping({"limit": 5, "semantic": "off", **fields})
        asked = shard_request(request, len(holders))
        answer = await group.ask("part", aliases, 60.0, asked)
        assert answer.errors == {}
        assert answer.late == ()
        mine = merge_parts(request, Asked(answer.answers, ()), aliases, len(holders))
        each = {h.warm(): h.part(asked) for h in holders}
        alone = merge_parts(request, Asked(dict(each), ()), aliases, len(holders))
        assert _hits(mine) == _hits(alone), fields
        assert mine.total == alone.total, fields
    ranked = shard_request(SearchRequest.from_mapping({"query": "render report"}), 3)
    assert joined.part(ranked) is not None


async def test_a_groups_part_is_fused_in_the_shards_order(
    holders: list[ShardHolder], group: ShardGroup
) -> None:
    """Another worker's shard may come between a group's shards in the combined order:
    the group's one part, its candidates put in that order, fuses as its shards' own
    parts would, ties included (a shard of each word repeated under other aliases
    would tie; here the order is the reverse of the group's, which moves them)."""
    aliases = list(group.holders)
    await group.ask("warm", aliases, 60.0)
    joined = group.joined.current(aliases)
    assert joined is not None
    order = aliases[::-1]
    moved = 0
    for fields in FIELDS:
        request = SearchRequest.from_mapping({"limit": 5, "semantic": "off", **fields})
        asked = shard_request(request, len(holders))
        part = joined.part(asked)
        if part is None:
            continue  # a search the group does not answer as one index
        merged = coordinator_request(request, len(holders))
        whole = fuse_shards(merged, [part], order)
        moved += in_shard_order([part], order)[1] is not None
        each = [h.part(asked) for h in sorted(holders, key=lambda h: order.index(h.warm()))]
        assert _hits(whole) == _hits(fuse_shards(merged, each)), fields
        # split into one part per shard instead (as beside a qualified name's offer)
        owner = np.fromiter((order.index(s.root) for s in part.symbols), np.int64)
        assert _hits(fuse_shards(merged, split_by_shard([part], [owner]))) == _hits(whole)
    assert moved >= 5  # the ranked searches' candidates came from several shards


async def test_a_group_asks_its_shards_until_it_has_joined_them_again(
    holders: list[ShardHolder], group: ShardGroup
) -> None:
    """New global statistics (another shard rebuilt): the joined index no longer answers
    for the shards as they are; they answer one by one, then it is made again."""
    aliases = list(group.holders)
    await group.ask("warm", aliases, 60.0)
    before = group.joined.current(aliases)
    assert before is not None
    stats = holders[0].directory.parent / GLOBAL_STATS
    later = stats.stat().st_mtime_ns + 10**9
    os.utime(stats, ns=(later, later))
    assert group.joined.current(aliases) is None
    request = shard_request(SearchRequest.from_mapping({"query": "order_total"}), 3)
    answer = await group.ask("part", aliases, 60.0, request)  # re-weighed, one by one
    assert sorted(answer.answers) == sorted(aliases)
    group.joined.build()  # as the background refresh the search started does
    again = group.joined.current(aliases)
    assert again is not None
    assert again is not before


async def test_a_groups_parts_leave_packed_and_fuse_as_they_were(
    holders: list[ShardHolder], group: ShardGroup
) -> None:
    """What a group sends (its symbols packed, :mod:`symfuse.ranking.shards.packed`),
    pickled as Dask carries it, fuses to the answer its shards' own parts give here."""
    aliases = list(group.holders)
    await group.ask("warm", aliases, 60.0)
    for fields in FIELDS:
        request = SearchRequest.from_mapping({"limit": 5, "semantic": "off", **fields})
        asked = shard_request(request, len(holders))
        sent = pickle.loads(await group.call(packed_call("part", aliases, 60.0, asked)))
        assert any(isinstance(p.symbols, Packed) for p in sent.answers.values() if p), fields
        mine = merge_parts(request, Asked(sent.answers, ()), aliases, len(holders))
        each = {h.warm(): h.part(asked) for h in holders}
        alone = merge_parts(request, Asked(dict(each), ()), aliases, len(holders))
        assert [(i.symbol, i.score) for i in mine.items] == [
            (i.symbol, i.score) for i in alone.items
        ], fields
        assert mine.total == alone.total, fields
