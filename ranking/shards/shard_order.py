"""The parts' candidates in the shards' order, when one part holds several shards'.

The coordinator fuses the parts' candidates one after another, in the order the shards'
symbols have in a combined index, and that order breaks the ties of equal keys
(:func:`.fusion.fuse_shards`). A worker's group searched as one index sends one part
for all its shards (:mod:`.group_index`), placed where its first shard is; the other
workers' shards may come between its shards in that order. :func:`in_shard_order` says
where each candidate goes so that the fused order is the one the shards' own parts
would give: a stable sort by the shard a candidate's symbol belongs to (its root, the
shard's alias), which keeps each shard's candidates in the order its part had them.

A qualified name's offer (:mod:`.qualified`) is read part by part, so when a part
carries one and another part holds several shards, those parts are split into one part
per shard instead (:func:`split_by_shard`); a group answers a query whose part offers a
qualified name shard by shard, so a part of several shards carries none.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symfuse.ranking.shards.compact import kept_candidates, kept_rows
from symfuse.ranking.shards.packed import owners as owners_of
from symfuse.ranking.shards.part import ShardPart


@dataclass(frozen=True, slots=True, eq=False)  # arrays
class Moved:
    """Where the candidates go: ``order[new]`` is the old position of the candidate put
    at ``new``, ``to[old]`` the new position of the one at ``old``."""

    order: npt.NDArray[np.int64]
    to: npt.NDArray[np.int64]


def in_shard_order(
    parts: Sequence[ShardPart], order: Sequence[str]
) -> tuple[list[ShardPart], Moved | None]:
    """``parts`` and, when their candidates one after another are not in the shards'
    ``order`` (aliases), where each goes (None: they are, or the parts were split)."""
    if not order:
        return list(parts), None
    rank = {alias: k for k, alias in enumerate(order)}
    late = len(order)  # a root not named: after every shard named
    owners = [owners_of(p.symbols, rank, late) for p in parts]
    owner = np.concatenate(owners) if owners else np.zeros(0, dtype=np.int64)
    if not owner.shape[0] or bool(np.all(owner[1:] >= owner[:-1])):
        return list(parts), None
    if any(p.qualified is not None for p in parts):
        return split_by_shard(parts, owners), None
    moved = np.argsort(owner, kind="stable").astype(np.int64)
    to = np.empty_like(moved)
    to[moved] = np.arange(moved.shape[0], dtype=np.int64)
    return list(parts), Moved(moved, to)


def split_by_shard(
    parts: Sequence[ShardPart], owners: Sequence[npt.NDArray[np.int64]]
) -> list[ShardPart]:
    """Each part holding several shards' candidates as one part per shard (``owners``:
    each candidate's shard by its rank), all in the shards' order (parts without a
    candidate first: they add no position)."""
    placed: list[tuple[int, ShardPart]] = []
    for part, owner in zip(parts, owners, strict=True):
        shards = np.unique(owner)
        if shards.shape[0] <= 1:
            placed.append((int(shards[0]) if shards.shape[0] else -1, part))
            continue
        if part.qualified is not None:  # its offer's positions are the whole part's
            raise ValueError("a part of several shards offers no qualified name")
        for k, shard in enumerate(shards.tolist()):
            keep = owner == shard
            new = np.cumsum(keep) - 1
            one = dataclasses.replace(
                part,
                **kept_candidates(part, keep),
                channels={c: kept_rows(x, keep[x.at], new) for c, x in part.channels.items()},
                matched=part.matched if k == 0 else 0,  # the group's, counted once
                text=part.text if k == 0 else None,  # the group's pieces of text, sent once
                near=None if part.near is None else kept_rows(part.near, keep[part.near.at], new),
            )
            placed.append((shard, one))
    placed.sort(key=lambda kv: kv[0])
    return [part for _rank, part in placed]
