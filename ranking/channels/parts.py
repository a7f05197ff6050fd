"""What a learned model learns from, offered by one corpus as a part of many.

The word vectors (:mod:`.similarity`) and the translation table (:mod:`.translation`)
are learned from a corpus. One index of many roots and the shards of those roots must
learn the same models, so each corpus offers its share as a part in its own term ids,
and the models are learned from the parts one after another over the union of their
vocabularies (:func:`term_union`): whoever holds the parts learns the same model
(:mod:`symfuse.ranking.prepared.shared`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.documents import Documents


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class WordPart:
    """One corpus's share of what word vectors learn from: every symbol's token sequence
    and the document frequencies of the documents it counts, in its own term ids. A
    repository's shard writes its own; one index is one part, or one per root."""

    terms: Sequence[str]  # the part's vocabulary, by id
    df: npt.NDArray[np.int64]  # per term id: the counted documents that hold it
    documents: int  # counted documents
    sequence: npt.NDArray[np.int32]  # term ids, symbol after symbol
    starts: npt.NDArray[np.int64]  # symbol d's tokens are sequence[starts[d]:starts[d + 1]]

    @classmethod
    def of(
        cls,
        documents: Documents,
        counted: npt.NDArray[np.bool_] | None = None,
        rows: tuple[int, int] | None = None,
    ) -> WordPart:
        """The part of ``documents``' symbols ``rows`` (start, stop; all: None) whose
        frequencies count the documents ``counted`` marks (all: None)."""
        start, stop = rows if rows is not None else (0, int(documents.starts.shape[0]) - 1)
        tf = documents.tf[start:stop]
        if counted is not None:
            tf = tf[np.flatnonzero(counted[start:stop])]
        first, last = int(documents.starts[start]), int(documents.starts[stop])
        return cls(
            terms=documents.vocabulary,
            df=np.bincount(tf.indices, minlength=len(documents.vocabulary)).astype(np.int64),
            documents=int(tf.shape[0]),
            sequence=documents.sequence[first:last],
            starts=documents.starts[start : stop + 1] - first,
        )


def term_union(
    vocabularies: Sequence[Sequence[str]],
) -> tuple[list[str], list[npt.NDArray[np.int64]]]:
    """The terms of several vocabularies as one, and each one's ids mapped into it. One
    vocabulary is its own union (its order kept); several are united in sorted order, so
    that the union and what is learned over it do not depend on the order in which each
    index happened to meet its words (a combined index and its shards meet them apart)."""
    if len(vocabularies) == 1:
        only = list(vocabularies[0])
        return only, [np.arange(len(only), dtype=np.int64)]
    terms = sorted({t for vocabulary in _distinct(vocabularies) for t in vocabulary})
    where = {t: i for i, t in enumerate(terms)}
    maps: dict[int, npt.NDArray[np.int64]] = {}
    for vocabulary in _distinct(vocabularies):
        maps[id(vocabulary)] = np.fromiter(
            (where[t] for t in vocabulary), dtype=np.int64, count=len(vocabulary)
        )
    return terms, [maps[id(v)] for v in vocabularies]


def _distinct(vocabularies: Sequence[Sequence[str]]) -> list[Sequence[str]]:
    """The vocabularies, each object once (one index's roots share its vocabulary)."""
    return list({id(v): v for v in vocabularies}.values())


def joined_parts(
    parts: Sequence[WordPart], maps: Sequence[npt.NDArray[np.int64]]
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int64]]:
    """The parts' sequences one after another in union ids, and their starts."""
    if len(parts) == 1:
        return parts[0].sequence, parts[0].starts
    sequences = [m[p.sequence].astype(np.int32) for p, m in zip(parts, maps, strict=True)]
    offsets = np.cumsum([0] + [s.shape[0] for s in sequences])
    starts = [np.zeros(1, dtype=np.int64)]
    starts += [p.starts[1:] + off for p, off in zip(parts, offsets[:-1], strict=True)]
    joined = np.concatenate(sequences) if sequences else np.zeros(0, dtype=np.int32)
    return joined, np.concatenate(starts).astype(np.int64)
