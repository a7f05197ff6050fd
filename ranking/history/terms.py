"""Term counts of stored commits, the history search's documents, kept beside each segment.

Each segment of a repository's history (:mod:`symfuse.indexer.history.store`) gets a
``terms-<segment>.npz`` the first time it is searched: a segment-local vocabulary and
two commits x terms count matrices (the message; the diff text). A segment never
changes, so neither does its terms file; tokenizing a long history is slow, reading
the file back is quick.
"""

from __future__ import annotations

import io
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from symfuse.indexer.history.records import Commit
from symfuse.indexer.store.arrays import npz_arrays
from symfuse.indexer.store.atomic import atomic_write
from symfuse.ranking.channels.tokens import text_tokens

if TYPE_CHECKING:
    from scipy import sparse


FORMAT = 2  # bump with any change to the tokens or the layout
_STORED = ("vocabulary", "m_indptr", "m_indices", "m_data", "d_indptr", "d_indices", "d_data")


@dataclass(frozen=True, slots=True)
class SegmentTerms:
    vocabulary: list[str]
    message: sparse.csr_matrix
    diff: sparse.csr_matrix


def segment_terms(directory: Path, segment: str, commits: Sequence[Commit]) -> SegmentTerms:
    """The terms of one segment's commits, read from its terms file or computed (and saved)."""
    path = directory / f"terms-{FORMAT}-{segment.removesuffix('.msgpack')}.npz"
    try:
        arrays = npz_arrays(path)
        return _restore({name: arrays[name] for name in _STORED}, len(commits))
    except (OSError, KeyError, ValueError):
        pass
    terms = compute_terms(commits)
    buffer = io.BytesIO()
    np.savez(buffer, **_arrays(terms))  # type: ignore[arg-type]
    atomic_write(path, buffer.getvalue())
    for stale in directory.glob(f"terms-*-{segment.removesuffix('.msgpack')}.npz"):
        if stale != path:  # another format's
            stale.unlink(missing_ok=True)
    return terms


def compute_terms(commits: Sequence[Commit]) -> SegmentTerms:
    ids: dict[str, int] = {}
    message = _matrix([Counter(text_tokens(c.message)) for c in commits], ids)
    diff = _matrix([Counter(text_tokens(c.diff)) for c in commits], ids)
    width = max(len(ids), 1)
    message.resize((len(commits), width))
    diff.resize((len(commits), width))
    return SegmentTerms(list(ids), message, diff)


def _matrix(counts: list[Counter[str]], ids: dict[str, int]) -> sparse.csr_matrix:
    from scipy import sparse

    indptr = [0]
    indices: list[int] = []
    data: list[int] = []
    for counter in counts:
        for term, count in counter.items():
            indices.append(ids.setdefault(term, len(ids)))
            data.append(count)
        indptr.append(len(indices))
    return sparse.csr_matrix(
        (np.asarray(data, dtype=np.float64), np.asarray(indices, dtype=np.int32), indptr),
        shape=(len(counts), max(len(ids), 1)),
    )


def _arrays(terms: SegmentTerms) -> dict[str, npt.NDArray[np.generic]]:
    return {
        # one UTF-8 string, not a fixed-width array (as wide as the longest token)
        "vocabulary": np.frombuffer("\n".join(terms.vocabulary).encode(), dtype=np.uint8),
        "m_indptr": terms.message.indptr,
        "m_indices": terms.message.indices,
        "m_data": terms.message.data.astype(np.float32),
        "d_indptr": terms.diff.indptr,
        "d_indices": terms.diff.indices,
        "d_data": terms.diff.data.astype(np.float32),
    }


def _restore(arrays: dict[str, npt.NDArray[np.generic]], rows: int) -> SegmentTerms:
    from scipy import sparse

    text = arrays["vocabulary"].tobytes().decode()
    vocabulary = text.split("\n") if text else []
    shape = (rows, max(len(vocabulary), 1))

    def matrix(prefix: str) -> sparse.csr_matrix:
        data = arrays[f"{prefix}_data"].astype(np.float64)
        parts = (data, arrays[f"{prefix}_indices"], arrays[f"{prefix}_indptr"])
        return sparse.csr_matrix(parts, shape=shape)

    return SegmentTerms(vocabulary, matrix("m"), matrix("d"))


def joined(
    pieces: Sequence[SegmentTerms],
) -> tuple[dict[str, int], sparse.csr_matrix, sparse.csr_matrix]:
    """One vocabulary over several segments, and their matrices stacked on it."""
    ids: dict[str, int] = {}
    mappings = [
        np.asarray([ids.setdefault(t, len(ids)) for t in piece.vocabulary], dtype=np.int32)
        for piece in pieces
    ]
    width = max(len(ids), 1)
    messages = [_renumbered(p.message, m, width) for p, m in zip(pieces, mappings, strict=True)]
    diffs = [_renumbered(p.diff, m, width) for p, m in zip(pieces, mappings, strict=True)]
    return ids, _stacked(messages, width), _stacked(diffs, width)


def _renumbered(
    matrix: sparse.csr_matrix, mapping: npt.NDArray[np.int32], width: int
) -> sparse.csr_matrix:
    """``matrix`` with its columns (segment term ids) renamed by ``mapping``."""
    from scipy import sparse

    indices = mapping[matrix.indices] if matrix.nnz else matrix.indices
    return sparse.csr_matrix((matrix.data, indices, matrix.indptr), shape=(matrix.shape[0], width))


def _stacked(blocks: list[sparse.csr_matrix], width: int) -> sparse.csr_matrix:
    from scipy import sparse

    if not blocks:
        return sparse.csr_matrix((0, width))
    return sparse.csr_matrix(sparse.vstack(blocks, format="csr"))
