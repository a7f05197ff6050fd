"""The shards one worker holds searched as one index: one search, not one per shard.

Each shard's part of a search costs a few hundred microseconds of Python per channel
whatever the shard's size, so a worker holding many small shards spent most of a search
on that. A :class:`GroupIndex` joins the shards' loaded indexes and ranking structures
into one (their symbols behind ``alias/``, as one index of many roots has them; their
stored pieces, not tokenized again; the shared models), scoring with the global
statistics and each shard's own PageRank, and answers a search with one
:func:`.part.shard_part`: one part, its candidates each behind their shard's alias, which
the coordinator puts in the shards' order and reads as it reads the shards' own parts
(:mod:`.fusion`). A worker sends one part, not one a shard: pickling twenty parts cost
four times what one with the same candidates does.

What a shard decides for itself is decided over the group. Whether fuzzy ran on its
own and an exact match the coordinator reads over every part (all, any): the same.
Words that spell a name of one shard spell one of the group's, as they do one combined
index's, and the name guard then reads the group's candidates: prose may be answered
otherwise than by the shards asked one by one (closer to the combined index, on the
agreement bench). The number of matches is the group's.

A search this cannot answer as the shards would (a listed one, a drill, a qualified
name's offer, ``min_score``, one the semantic model's vectors may take part in) returns
None: the group asks its shards.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels import neural
from symfuse.ranking.prepared.build import Prepared, fingerprint
from symfuse.ranking.prepared.corpus import Corpus
from symfuse.ranking.prepared.shared import SharedModels
from symfuse.ranking.prepared.tokenize_pool import remapped_piece
from symfuse.ranking.query.parse import parse
from symfuse.ranking.query.search_request import SearchMode, SearchRequest, SemanticMode
from symfuse.ranking.search.plans import PLANS, Shape
from symfuse.ranking.shards.global_stats import CorpusStats, with_stats
from symfuse.ranking.shards.listing import is_listed
from symfuse.ranking.shards.part import ShardPart, shard_part


@dataclass(frozen=True, slots=True)
class JoinedShard:
    """One shard of a group as its holder loaded it."""

    alias: str
    index: Index
    prepared: Prepared  # with the global statistics
    own: CorpusStats  # its own statistics


def keyed(symbol: Symbol, alias: str) -> Symbol:
    """``symbol`` with its file and ids behind ``alias/``, and of the root ``alias``, as a
    multi-root index has them (a shard's root is its alias: a copy under another alias,
    as the fan-out bench makes, borrows docstrings within its own root too)."""
    parent = None if symbol.parent is None else f"{alias}/{symbol.parent}"
    return dataclasses.replace(
        symbol,
        file=f"{alias}/{symbol.file}",
        symbol_id=f"{alias}/{symbol.symbol_id}",
        parent=parent,
        root=alias,
    )


class GroupIndex:
    """Several shards joined into one index (the module docstring)."""

    def __init__(
        self, members: Sequence[JoinedShard], models: SharedModels, stats: CorpusStats
    ) -> None:
        self.aliases = tuple(m.alias for m in members)
        self.index = _joined_index(members)
        pagerank = np.zeros(len(self.index.symbols), dtype=np.float64)
        position = self.index.position
        for m in members:
            rows = np.fromiter(
                (position[f"{m.alias}/{s.symbol_id}"] for s in m.index.symbols),
                np.int64,
                len(m.index.symbols),
            )
            pagerank[rows] = m.prepared.pagerank
        prepared = _joined_prepared(self.index, members, models)
        # the joined vectors are this group's own copy: the product over them in one call
        similarity = prepared.similarity
        wide = dataclasses.replace(similarity, doc_vectors=similarity.doc_vectors.widened())
        prepared = dataclasses.replace(prepared, similarity=wide)
        own = CorpusStats.merged(m.own for m in members)
        self.prepared = dataclasses.replace(with_stats(prepared, stats, own), pagerank=pagerank)

    def part(self, request: SearchRequest) -> ShardPart | None:
        """The group's part of ``request``, from one search over it (its candidates each
        behind their shard's alias, the coordinator puts them in the shards' order); None
        when the shards must answer it themselves (the module docstring)."""
        parsed = parse(request)
        if is_listed(parsed) or parsed.mode is SearchMode.DRILL or request.min_score > 0:
            return None
        if _semantic(request, parsed.shape) and neural.loaded():
            return None  # the semantic model's vectors are each shard's (its directory's)
        part = shard_part(self.index, self.prepared, request)
        if part.qualified is not None or part.listing is not None:
            return None
        return part


def _semantic(request: SearchRequest, shape: Shape) -> bool:
    return PLANS[shape].described and request.semantic is not SemanticMode.OFF


def _joined_index(members: Sequence[JoinedShard]) -> Index:
    """One index of the members' files, symbols and edges, each behind its alias."""
    joined = Index({m.alias: next(iter(m.index.roots.values()), "") for m in members})
    for m in members:
        alias = m.alias
        for key, entry in m.index.files.items():
            path = f"{alias}/{key}"
            joined.files[path] = _entry(entry, path, alias)
            rows = m.index.edges_by_file.get(key)
            if rows:
                joined.edges_by_file[path] = [
                    (f"{alias}/{src}", f"{alias}/{dst}", kind, weight)
                    for src, dst, kind, weight in rows
                ]
    joined.linked = True
    joined.graph_dirty = False
    joined.set_ranks(np.zeros(len(joined.symbols), dtype=np.float64))  # each shard's: later
    return joined


def _entry(entry: FileEntry, path: str, alias: str) -> FileEntry:
    symbols = [keyed(s, alias) for s in entry.symbols]
    return dataclasses.replace(entry, path=path, root=alias, symbols=symbols, _references=None)


def _joined_prepared(
    index: Index, members: Sequence[JoinedShard], models: SharedModels
) -> Prepared:
    """The joined index's structures from the members' pieces (as their shards wrote them,
    behind their aliases), in one vocabulary, with the shared models."""
    corpus = Corpus()
    corpus.shared = models
    for m in members:
        ids = corpus.vocabulary.add(list(m.prepared.vocabulary))
        grams = corpus.trigram_vocabulary.add(list(m.prepared.trigram_vocabulary))
        for key, piece in zip(m.prepared.files, m.prepared.pieces, strict=True):
            path = f"{m.alias}/{key}"
            corpus.pieces[path] = remapped_piece(piece, ids, grams)
            corpus.stamps[path] = (index.files[path], piece.stamp)
    corpus.pieces = {key: corpus.pieces[key] for key in sorted(corpus.pieces)}
    return corpus.update(index, fingerprint(index), time.perf_counter())
