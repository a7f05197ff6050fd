"""Sentence vectors of an index's definitions, cached per file content.

A file's vectors depend on its content only (its digest and language: the same
bytes parse to the same definitions), so :class:`VectorCache` keeps them per
``(digest, language)``: a new index generation reuses every unchanged file's
vectors and an edit re-embeds that file alone. The cache is saved next to the
index (``semantic-<model digest>.npz``) so that a restart does not embed again.

Only what a sentence describes is embedded (callables and types, the kinds prose
queries rank). The cache holds a file's embedded rows alone, with their places
among the file's symbols; the others get a zero row, and never score, only when
the index's matrix is assembled (a zero row for every symbol made the cache much
larger). A cache saved with those zero rows still loads.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.indexer.store.arrays import npz_arrays
from symfuse.ranking.channels.neural.model import SentenceModel
from symfuse.ranking.search.plans import DESCRIBED_KINDS
from symfuse.ranking.text import paths

EMBEDDED_KINDS = frozenset(DESCRIBED_KINDS) - Kind.UNITS  # definitions prose queries rank
BODY_LINES = 12  # lines after the signature that join the text (the model reads 128 pieces)
DOC_CHARS = 400
RECIPE = 1  # version of symbol_text: part of the cache's name, with the model and its length
FILES_PER_STEP = 64  # files embedded between checks for a stop or a newer index
_HUMP = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")

Key = tuple[str, str]  # (content digest, language)


@dataclass(frozen=True, slots=True)
class FileVectors:
    """The vectors of one file's embedded symbols: ``rows[i]`` is symbol ``places[i]``'s."""

    places: npt.NDArray[np.int32]  # positions among the file's symbols, ascending
    rows: npt.NDArray[np.float16]
    symbols: int  # how many symbols the file has (a stale entry has another count)

    def full(self, width: int) -> npt.NDArray[np.float16]:
        """One row per symbol of the file, zero where nothing was embedded."""
        out = np.zeros((self.symbols, width), np.float16)
        out[self.places] = self.rows
        return out


def symbol_text(symbol: Symbol, lines: Sequence[str]) -> str:
    """What the model reads of a definition: its name as words, signature, doc and the
    first :data:`BODY_LINES` lines, whitespace collapsed."""
    words = " ".join(w.lower() for w in _HUMP.findall(symbol.name))
    body = lines[symbol.line - 1 : min(symbol.end_line, symbol.line + BODY_LINES)]
    text = f"{symbol.kind.value} {words}: {symbol.signature}. {symbol.doc[:DOC_CHARS]} "
    return " ".join((text + " ".join(body)).split())


def file_key(index: Index, file: str) -> Key:
    entry = index.files[file]
    return entry.stamp.digest, entry.language


def _embedded(symbols: list[Symbol]) -> list[int]:
    return [i for i, s in enumerate(symbols) if s.kind in EMBEDDED_KINDS]


class VectorCache:
    """Per-file sentence vectors (float16, one row per embedded symbol) for one model.

    Thread-safe: the embedding thread adds files while queries assemble matrices.
    """

    def __init__(self, model: SentenceModel) -> None:
        self.model = model
        self._files: dict[Key, FileVectors] = {}
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._files)

    def missing(self, index: Index) -> list[str]:
        """Files of ``index`` whose vectors are not cached, in key order."""
        with self._lock:
            known = self._files
            return [f for f in sorted(index.files) if file_key(index, f) not in known]

    def fill(
        self,
        index: Index,
        files: list[str],
        stop: Callable[[], bool],
        progress: Callable[[int], None] = lambda done: None,
    ) -> int:
        """Embed ``files`` of ``index`` a step at a time until done or ``stop()``; how many."""
        done = 0
        for start in range(0, len(files), FILES_PER_STEP):
            if stop():
                break
            step = files[start : start + FILES_PER_STEP]
            texts: list[str] = []
            spans: list[tuple[str, list[int]]] = []
            for file in step:
                symbols = index.files[file].symbols
                chosen = _embedded(symbols)
                lines = paths.read_lines(index, file) if chosen else []
                texts += [symbol_text(symbols[i], lines) for i in chosen]
                spans.append((file, chosen))
            vectors = self.model.embed(texts).astype(np.float16)
            at = 0
            with self._lock:
                for file, chosen in spans:
                    places = np.asarray(chosen, dtype=np.int32)
                    rows = vectors[at : at + len(chosen)]
                    at += len(chosen)
                    count = len(index.files[file].symbols)
                    self._files[file_key(index, file)] = FileVectors(places, rows, count)
            done += len(step)
            progress(done)
        return done

    def assemble(self, index: Index) -> tuple[npt.NDArray[np.float16], int]:
        """Vectors aligned with ``index.symbols`` (zero rows where missing), and how many
        symbols lack them."""
        blocks: list[npt.NDArray[np.float16]] = []
        lacking = 0
        width = self.model.dimensions
        with self._lock:
            for file in sorted(index.files):
                count = len(index.files[file].symbols)
                found = self._files.get(file_key(index, file))
                if found is None or found.symbols != count:
                    blocks.append(np.zeros((count, width), np.float16))
                    lacking += count
                    continue
                blocks.append(found.full(width))
        if not blocks:
            return np.zeros((0, width), np.float16), 0
        return np.concatenate(blocks), lacking

    # --- on disk ---------------------------------------------------------------------

    def path_in(self, directory: Path) -> Path:
        model = self.model
        return directory / f"semantic-{model.digest}-{model.max_tokens}-{RECIPE}.npz"

    def retain(self, index: Index) -> None:
        """Forget the files ``index`` no longer has (earlier contents of edited files)."""
        keep = {file_key(index, f) for f in index.files}
        with self._lock:
            self._files = {k: v for k, v in self._files.items() if k in keep}

    def save(self, directory: Path, index: Index) -> None:
        """Write the vectors of ``index``'s files under ``directory`` (atomically: a
        temporary file, renamed)."""
        keep = {file_key(index, f) for f in index.files}
        with self._lock:
            items = [(k, v) for k, v in self._files.items() if k in keep]
        target = self.path_in(directory)
        temporary = target.with_suffix(".tmp.npz")
        keys = np.array([f"{d}\t{lang}" for (d, lang), _ in items], dtype=np.str_)
        counts = np.array([v.rows.shape[0] for _, v in items], dtype=np.int64)
        symbols = np.array([v.symbols for _, v in items], dtype=np.int64)
        width = self.model.dimensions
        matrix = np.concatenate([v.rows for _, v in items]) if items else np.zeros((0, width))
        places = np.concatenate([v.places for _, v in items]) if items else np.zeros(0)
        np.savez(
            temporary,
            keys=keys,
            counts=counts,
            symbols=symbols,
            places=places.astype(np.int32),
            vectors=matrix.astype(np.float16),
        )
        temporary.replace(target)

    def load(self, directory: Path) -> bool:
        """Read a saved cache of this model, if any; whether one was read."""
        source = self.path_in(directory)
        if not source.is_file():
            return False
        saved = npz_arrays(source)
        keys, counts, matrix = saved["keys"], saved["counts"], saved["vectors"]
        compact = "places" in saved
        places = saved["places"] if compact else None
        symbols = saved["symbols"] if compact else counts
        starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        with self._lock:
            for i, key in enumerate(keys.tolist()):
                digest, language = str(key).split("\t")
                rows = matrix[starts[i] : starts[i + 1]]
                if places is not None:
                    where = places[starts[i] : starts[i + 1]].astype(np.int32)
                else:  # a cache written with a zero row for every symbol
                    where = np.flatnonzero(rows.any(axis=1)).astype(np.int32)
                    rows = rows[where]
                self._files[(digest, language)] = FileVectors(where, rows, int(symbols[i]))
        return True


@dataclass(frozen=True, slots=True)
class NeuralEmbedder:
    """The similarity protocol over sentence vectors: cosine of the query's vector."""

    model: SentenceModel
    vectors: npt.NDArray[np.float16]  # aligned with Index.symbols, unit rows or zeros
    lacking: int = 0  # symbols without a vector yet (files changed since the last pass)

    @property
    def name(self) -> str:
        return self.model.name

    def scores(self, query: str) -> npt.NDArray[np.float32]:
        vector = self.model.embed([query])[0].astype(np.float16)
        cosine: npt.NDArray[np.float32] = (self.vectors @ vector).astype(np.float32)
        return np.maximum(cosine, 0.0, out=cosine)
