"""What a repository's shard build leaves behind: its pieces, statistics and training parts.

A shard's holder scores with the models learned once over every shard
(:mod:`symfuse.ranking.prepared.shared`): it reads the shard's per-file pieces back from
its ranking file and makes its structures again with those models
(:func:`~symfuse.ranking.prepared.build.prepare_shared`). A shard of its own therefore
learns no word vectors and no translation table: :func:`shard_pieces` makes its
structures with :func:`untrained` models (no words, no pairs), which leave its
statistics and training parts as they are (neither reads a model), and writes its
ranking file for the holders. A rebuild after a change reads the previous file's pieces
and tokenizes only the files that changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from symfuse.indexer.index import Index
from symfuse.ranking.channels.similarity import DIMENSIONS, WordModel
from symfuse.ranking.channels.translation import SharedTable
from symfuse.ranking.prepared.build import prepare_shared
from symfuse.ranking.prepared.persist import save
from symfuse.ranking.prepared.shared import ShardParts, SharedModels
from symfuse.ranking.shards.global_stats import CorpusStats, stats_of


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class ShardPieces:
    """A shard's figures for the global statistics and its share of the shared training."""

    stats: CorpusStats
    parts: ShardParts


def untrained() -> SharedModels:
    """Models that know no word: every symbol's vector is zero and no word translates."""
    from scipy import sparse

    word = WordModel(
        term_ids={},
        vectors=np.zeros((0, DIMENSIONS), dtype=np.float32),
        idf=np.zeros(0, dtype=np.float64),
        version=WordModel.new_version(),
    )
    table = SharedTable((), sparse.csc_matrix((0, 0), dtype=np.float32), np.zeros(0))
    return SharedModels(word, table)


def shard_pieces(index: Index, directory: Path, alias: str) -> ShardPieces:
    """The pieces of the shard ``alias`` of ``index`` written to its ranking file in
    ``directory`` (its paths' words behind ``alias/``, as one index of many roots has
    them), with its statistics and training parts."""
    prepared = prepare_shared(index, directory, untrained(), path_prefix=f"{alias}/")
    save(directory / f"ranking-{index.generation}.npz", prepared)
    edges = (index.edges.src, index.edges.dst)  # the graph's, for PageRank's figure
    return ShardPieces(stats_of(prepared, edges), ShardParts.of(prepared))
