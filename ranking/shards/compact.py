"""The parts of the shards one worker holds, cut to what can reach the fused answer.

The coordinator orders each channel's candidates of every shard by their keys and keeps
the first ``depth`` (:func:`symfuse.ranking.shards.fusion.fuse_shards`). A candidate that
is not among the first ``depth`` of the shards one worker holds is not among the first
``depth`` of all shards either: its worker need not send it. :func:`compacted` cuts each
channel of a group of parts (given in the coordinator's order) so, and keeps only the
candidates some cut list still names, plus the definitions a qualified name offers
(:mod:`.qualified`): the fused answer is the same, and what a worker sends no longer grows
with the shards it holds (a few hundred candidates per shard otherwise, each a symbol).

Fuzzy is cut once for every way the corpus may run it: each shard's own list (fuzzy
asked for, or run on its own everywhere), and the lists of a look one edit away (its own
where it looked so, its offered look where fuzzy ran on its own). A search that reads
every candidate (``min_score``) and a listed one are left as they are.
"""

from __future__ import annotations

import dataclasses
import itertools
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from symfuse.ranking.query.search_request import Channel, SearchRequest
from symfuse.ranking.search.pipeline import channel_depth
from symfuse.ranking.shards.part import ChannelPart, ShardPart
from symfuse.ranking.shards.qualified import Offer

Rows = dict[tuple[int, str], npt.NDArray[np.bool_]]  # (part, list) -> its rows kept


def compacted(request: SearchRequest, parts: Sequence[ShardPart]) -> list[ShardPart]:
    """``parts`` (in the coordinator's order) with the candidates that cannot reach the
    first ``depth`` of any channel over these shards left out (the module docstring)."""
    depth = channel_depth(request, sys.maxsize)
    if request.min_score > 0 or any(p.listing is not None for p in parts):
        return list(parts)
    starts = np.concatenate([[0], np.cumsum([len(p.symbols) for p in parts])]).astype(np.int64)
    kept: Rows = {}
    channels = dict.fromkeys(c for p in parts for c in p.channels)
    for channel in channels:
        if channel is not Channel.FUZZY:
            entries = [(k, channel.value, p.channels.get(channel)) for k, p in enumerate(parts)]
            _cut(entries, starts, depth, kept)
    own = [(k, "fuzzy", p.channels.get(Channel.FUZZY)) for k, p in enumerate(parts)]
    _cut(own, starts, depth, kept)
    near = [
        (k, "fuzzy", p.channels.get(Channel.FUZZY)) if p.near_typo else (k, "near", p.near)
        for k, p in enumerate(parts)
    ]
    _cut(near, starts, depth, kept)
    return [_kept(k, p, kept) for k, p in enumerate(parts)]


def _cut(
    entries: Sequence[tuple[int, str, ChannelPart | None]],
    starts: npt.NDArray[np.int64],
    depth: int,
    kept: Rows,
) -> None:
    """Mark in ``kept`` the rows of these lists among their first ``depth`` together, in
    the coordinator's order (keys, then position)."""
    present = [(k, name, one) for k, name, one in entries if one is not None and len(one.at)]
    if not present:
        return
    at = np.concatenate([one.at + starts[k] for k, _n, one in present])
    key = np.concatenate([one.keys for _k, _n, one in present])
    order = np.lexsort((at, *[key[:, i] for i in reversed(range(key.shape[1]))]))[:depth]
    chosen = np.zeros(at.shape[0], dtype=np.bool_)
    chosen[order] = True
    begin = 0
    for k, name, one in present:
        rows = chosen[begin : begin + len(one.at)]
        begin += len(one.at)
        before = kept.get((k, name))
        kept[(k, name)] = rows if before is None else before | rows


def _kept(k: int, part: ShardPart, kept: Rows) -> ShardPart:
    """``part`` with the rows ``kept`` marks and the candidates they (or its qualified
    names' offer) name, its candidates numbered again in the same order."""
    keep = np.zeros(len(part.symbols), dtype=np.bool_)
    rows = {
        c: kept.get((k, c.value), np.zeros(len(one.at), np.bool_))
        for c, one in part.channels.items()
    }
    for channel, one in part.channels.items():
        keep[one.at[rows[channel]]] = True
    near_rows = None
    if part.near is not None:
        near_rows = _marked(kept, k, "near", part.near)
        keep[part.near.at[near_rows]] = True
    if part.qualified is not None:
        keep[part.qualified.at] = True
    if keep.all():
        return part
    new = np.cumsum(keep) - 1  # a kept candidate's number among the kept
    channels = {c: kept_rows(one, rows[c], new) for c, one in part.channels.items()}
    return dataclasses.replace(
        part,
        **kept_candidates(part, keep),
        channels=channels,
        near=None
        if part.near is None or near_rows is None
        else kept_rows(part.near, near_rows, new),
        qualified=None if part.qualified is None else _offer(part.qualified, new),
    )


def kept_candidates(part: ShardPart, keep: npt.NDArray[np.bool_]) -> dict[str, Any]:
    """What ``part`` says of each candidate, of the candidates ``keep`` marks (the fields
    of :class:`ShardPart` to replace)."""
    return {
        "symbols": tuple(itertools.compress(part.symbols, keep.tolist())),
        "pagerank": part.pagerank[keep],
        "tiers": part.tiers[keep],
        "levels": part.levels[keep],
        "plain": part.plain[keep],
        "side": part.side[keep],
        "documents": part.documents[keep],
        "translated": None if part.translated is None else part.translated[keep],
        "near_levels": None if part.near_levels is None else part.near_levels[keep],
    }


def _marked(kept: Rows, k: int, name: str, one: ChannelPart) -> npt.NDArray[np.bool_]:
    """The rows of part ``k``'s list ``name`` that ``kept`` marks (none when unmarked)."""
    found = kept.get((k, name))
    return found if found is not None else np.zeros(len(one.at), dtype=np.bool_)


def kept_rows(
    one: ChannelPart, rows: npt.NDArray[np.bool_], new: npt.NDArray[np.int64]
) -> ChannelPart:
    """``one``'s ``rows``, its candidates numbered ``new``."""
    return ChannelPart(new[one.at[rows]].astype(np.int64), one.scores[rows], one.keys[rows])


def _offer(offer: Offer, new: npt.NDArray[np.int64]) -> Offer:
    fits = tuple(f.moved(lambda p: int(new[p])) for f in offer.fits)
    return dataclasses.replace(offer, fits=fits, at=new[offer.at].astype(np.int64))
