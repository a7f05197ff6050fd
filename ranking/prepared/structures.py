"""What preparing hands out: the structures of a generation and the pieces of one file.

A :class:`Prepared` is immutable: readers hold it without locks while the next
generation is built (:mod:`symfuse.ranking.prepared.corpus`). A :class:`FilePiece` is
what the channels precompute for one file, cached by the file's stamp.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import FileEntry
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels.documents import Piece
from symfuse.ranking.channels.fuzzy import TrigramIndex
from symfuse.ranking.channels.identity import NameForms, NameTable
from symfuse.ranking.channels.lexical import LexicalIndex
from symfuse.ranking.channels.similarity import RepositoryEmbedder
from symfuse.ranking.channels.translation import Translation
from symfuse.ranking.prepared.sparse_rows import Rows
from symfuse.ranking.search.filters import FilterCodes, FilterTable


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class FilePiece:
    """Everything the channels precompute for one file, valid while its stamp holds."""

    stamp: str
    text: Piece
    trigrams: Rows
    names: NameForms
    filters: FilterCodes
    partial: bool = False  # read from disk: names and filters are still to be made

    @property
    def size(self) -> int:
        return self.text.size

    @classmethod
    def stored(
        cls, stamp: str, text: Piece, trigrams: Rows, split: tuple[list[str], list[str]] | None
    ) -> FilePiece:
        """A piece read from disk; :meth:`complete` adds what is cheap to recompute.
        ``split``: the names' separator-free and spaced forms as stored with it, when
        the file had them (splitting every name is most of a completion)."""
        forms = (
            NameForms([], [], *split, []) if split is not None else NameForms([], [], [], [], [])
        )
        return cls(stamp, text, trigrams, forms, FilterCodes.of([]), partial=True)

    def complete(self, entry: FileEntry, symbols: Sequence[Symbol] | None = None) -> FilePiece:
        """The names and filter codes of ``entry``'s symbols (``symbols``: the same as the
        corpus writes them, a shard's behind its alias)."""
        symbols = entry.symbols if symbols is None else symbols
        stored = self.names
        if len(stored.wholes) == len(symbols) and len(stored.spaced) == len(symbols):
            # the stamp matched: same names, so the same split; the fqns are recomputed
            # (a package above the root may have changed them)
            names = NameForms.with_split(symbols, stored.wholes, stored.spaced)
        else:
            names = NameForms.of(symbols)
        return replace(self, names=names, filters=FilterCodes.of(symbols), partial=False)


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Prepared:
    """The precomputed structures of one index generation (see :mod:`.prepare`)."""

    generation: int
    fingerprint: str
    names: NameTable
    lexical: LexicalIndex
    similarity: RepositoryEmbedder
    trigrams: TrigramIndex
    filters: FilterTable
    pagerank: npt.NDArray[np.float64]
    seconds: float = 0.0  # time to build or load
    loaded: bool = False  # read from disk rather than built
    rebuilt: int = 0  # files tokenized for this generation (the others came from the cache)
    retrained: bool = False  # the word vectors were trained for this generation
    files: tuple[str, ...] = ()  # file keys, in symbol order
    pieces: tuple[FilePiece, ...] = ()
    vocabulary: Collection[str] = ()  # in id order; a loaded index's is a TermTable
    trigram_vocabulary: tuple[str, ...] = ()
    # Symbols whose document borrows docstring words (borrowed.doc_donors and .call_docs):
    # persisted, so that a restore re-embeds their own text (borrowed words are rebuilt).
    heirs: npt.NDArray[np.int64] = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    translation: Translation | None = None  # doc -> code translation (prose re-ranking)

    @property
    def size(self) -> int:
        return len(self.names)
