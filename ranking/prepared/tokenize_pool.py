"""Tokenizing many files in worker processes: the cold build of the ranking structures.

Tokenizing every file's definitions (:func:`~symfuse.ranking.channels.documents.file_piece`, the
trigrams, the name forms) is the larger half of building the structures of a large
workspace from scratch, and in one process it leaves the machine's other cores idle.
Past :data:`POOL_FILES` files to tokenize, the workers each tokenize a file against
vocabularies of their own (:func:`tokenize_file`), and this process maps those local
term ids onto the shared vocabularies in file order (:func:`rebase`). A local vocabulary
lists terms in the order the file first uses them, which is the order in which tokenizing
the file in this process would have added its new terms, so the ids, and with them the
structures, are the same either way.

Forked workers (a one-shot command: :func:`~symfuse.indexer.extract.procs.context`) find
their jobs in the memory they inherit and are sent positions only; the definitions of a
job would otherwise be pickled here and unpickled there, file after file.

The workers read each file themselves and check it against the digest the index holds;
a file that changed or cannot be read comes back as None and is tokenized here, from its
references, as without a pool. A pool that breaks leaves the rest to this process too.
"""

from __future__ import annotations

import hashlib
import logging
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from symfuse.indexer.files.source import decode_source, read_source_bytes
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels.documents import Piece, definition_bodies, file_piece
from symfuse.ranking.channels.fuzzy import trigram_rows
from symfuse.ranking.channels.identity import NameForms
from symfuse.ranking.prepared.sparse_rows import Rows, Vocabulary
from symfuse.ranking.prepared.structures import FilePiece
from symfuse.ranking.search.filters import FilterCodes

log = logging.getLogger(__name__)

POOL_FILES = 256  # fewer files to tokenize than this stay in this process (no pool start-up)
CHUNK = 16  # files per task sent to a worker
# The jobs of the pool being started, when it forks: its workers read them by position.
_inherited: list[FileJob] = []


@dataclass(frozen=True, slots=True)
class FileJob:
    """One file to tokenize: where it is, the digest the index read, its definitions."""

    abs_path: str
    digest: str
    stamp: str
    symbols: tuple[Symbol, ...]


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class LocalPiece:
    """A file's piece in ids of its own vocabularies (``terms``, ``trigram_terms``)."""

    piece: FilePiece
    terms: list[str]
    trigram_terms: list[str]


def matching_source(abs_path: str, digest: str) -> str | None:
    """The file's text when its bytes still have ``digest`` (the index's); else None."""
    data = read_source_bytes(abs_path)
    if data is None or hashlib.blake2b(data, digest_size=16).hexdigest() != digest:
        return None
    return decode_source(data)


def make_piece(
    stamp: str,
    symbols: Sequence[Symbol],
    bodies: Sequence[str],
    vocabulary: Vocabulary,
    trigram_vocabulary: Vocabulary,
) -> FilePiece:
    """The piece of one file's ``symbols`` (``bodies`` aligned with them)."""
    names = NameForms.of(symbols)
    return FilePiece(
        stamp=stamp,
        text=file_piece(symbols, bodies, vocabulary),
        trigrams=trigram_rows(names.wholes, names.lower, trigram_vocabulary),
        names=names,
        filters=FilterCodes.of(symbols),
    )


def tokenize_file(job: FileJob) -> LocalPiece | None:
    """What a worker does: read, check and tokenize one file against fresh vocabularies."""
    source = matching_source(job.abs_path, job.digest)
    if source is None:
        return None
    vocabulary, trigram_vocabulary = Vocabulary(), Vocabulary()
    bodies = definition_bodies(job.symbols, source)
    piece = make_piece(job.stamp, job.symbols, bodies, vocabulary, trigram_vocabulary)
    return LocalPiece(piece, vocabulary.terms, trigram_vocabulary.terms)


def _tokenize_inherited(position: int) -> LocalPiece | None:
    """:func:`tokenize_file` of the job at ``position`` of a forked pool's jobs."""
    return tokenize_file(_inherited[position])


def rebase(local: LocalPiece, vocabulary: Vocabulary, trigram_vocabulary: Vocabulary) -> FilePiece:
    """``local``'s piece in the ids of the shared vocabularies (its new terms added)."""
    ids = vocabulary.add(local.terms)
    grams = trigram_vocabulary.add(local.trigram_terms)
    return remapped_piece(local.piece, ids, grams)


def remapped_piece(
    piece: FilePiece, ids: npt.NDArray[np.int32], grams: npt.NDArray[np.int32]
) -> FilePiece:
    """``piece`` with its term ``t`` renamed ``ids[t]`` and its trigram ``g`` ``grams[g]``."""
    text = piece.text
    return replace(
        piece,
        text=Piece(
            head=_remapped(text.head, ids),
            head_length=text.head_length,
            body=_remapped(text.body, ids),
            body_length=text.body_length,
            sequence=ids[text.sequence] if text.sequence.shape[0] else text.sequence,
            starts=text.starts,
            names=_remapped(text.names, ids),
            doc=_remapped(text.doc, ids),
        ),
        trigrams=_remapped(piece.trigrams, grams),
    )


def _remapped(rows: Rows, ids: npt.NDArray[np.int32]) -> Rows:
    """``rows`` with column ``c`` renamed ``ids[c]``, columns sorted within each row again
    (the order :meth:`Rows.sized` gives; ``ids`` is one-to-one, so nothing merges)."""
    if not rows.indices.shape[0]:
        return rows
    columns = ids[rows.indices]
    # one int64 key, row then column: a stable argsort (runs: each row's columns come in a
    # few ascending runs) is several times faster than a lexsort of the pair
    key = np.left_shift(rows.row_of_entry(), 32) | columns.astype(np.int64)
    order = np.argsort(key, kind="stable")
    return Rows(rows.indptr, columns[order], rows.data[order])


def workers_for(files: int) -> int:
    """How many worker processes tokenize ``files`` files: 0 (this process) for few, or
    in a daemonic process, which may not have children (a Dask worker building a shard:
    ``symfuse shards build --workers`` failed on every repository past POOL_FILES)."""
    import multiprocessing

    cores = min(os.cpu_count() or 1, 8)
    if multiprocessing.current_process().daemon:
        return 0
    return cores if files >= POOL_FILES and cores > 1 else 0


def tokenize_many(jobs: Sequence[FileJob], workers: int) -> Iterator[LocalPiece | None]:
    """:func:`tokenize_file` of each job, in order, by ``workers`` processes (here, for the
    rest, when the pool breaks)."""
    from concurrent.futures.process import BrokenProcessPool

    from symfuse.indexer.extract import procs

    done = 0
    context = procs.context()
    pool = procs.pool(workers, context)
    try:
        if context.get_start_method() == "fork":
            _inherited[:] = jobs  # the workers fork at the first task; map sends every task
            results = pool.map(_tokenize_inherited, range(len(jobs)), chunksize=CHUNK)
        else:
            results = pool.map(tokenize_file, jobs, chunksize=CHUNK)
        _inherited.clear()
        for result in results:
            done += 1
            yield result
    except BrokenProcessPool as exc:
        log.warning("tokenizer processes failed (%s); tokenizing the rest here", exc)
        yield from map(tokenize_file, jobs[done:])
    finally:
        _inherited.clear()
        pool.shutdown(wait=False, cancel_futures=True)
