"""The neural similarity channel of the ``symfuse[semantic]`` extra.

Sentence vectors (all-MiniLM-L6-v2, run in numpy: :mod:`.bert`, :mod:`.model`) of
every callable and type, cached per file content (:mod:`.vectors`). A server
computes them in a background thread after indexing (:func:`fill`); a search uses
them as soon as they cover the index (:func:`embedder_for`), and until then runs as
without the extra. A one-shot command (the CLI) uses what a server saved next to
the index. Without ``tokenizers``, ``safetensors`` or the model, nothing here loads.
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from symfuse.indexer.index import Index

if TYPE_CHECKING:  # imported where used: a search without the model reads none of it
    from symfuse.ranking.channels.neural.model import SentenceModel
    from symfuse.ranking.channels.neural.vectors import NeuralEmbedder, VectorCache

log = logging.getLogger(__name__)

MAX_LACKING = 0.05  # share of symbols without vectors (edited files) a search still accepts

__all__ = ["Engine", "describe", "embedder_for", "engine", "fill", "status"]


@dataclass(slots=True)
class Engine:
    """The loaded model, its vector cache, and the vectors assembled per index."""

    model: SentenceModel
    cache: VectorCache
    version: int = 0  # grows whenever the cache does
    state: str = "waiting for the index"
    loaded: set[Path] = field(default_factory=set)
    filling: threading.Lock = field(default_factory=threading.Lock)
    assembled: weakref.WeakKeyDictionary[Index, tuple[int, NeuralEmbedder | None]] = field(
        default_factory=weakref.WeakKeyDictionary
    )


@dataclass(slots=True)
class _Process:
    """The one engine of this process (a model is loaded once), or why there is none."""

    engine: Engine | None = None
    failure: str = ""  # "absent": no extra or no model; else why loading failed


_lock = threading.Lock()
_process = _Process()


def engine() -> Engine | None:
    """The process's engine, loading the model on the first call; None without the extra."""
    from symfuse.ranking.channels.neural.model import SentenceModel, available, find_model
    from symfuse.ranking.channels.neural.vectors import VectorCache

    with _lock:
        if _process.engine is not None or _process.failure:
            return _process.engine
        source = find_model() if available() else None
        if source is None:
            _process.failure = "absent"
            return None
        try:
            model = SentenceModel.load(source)
        except (OSError, ValueError, KeyError) as exc:
            _process.failure = f"{source}: {exc}"
            log.warning("semantic model not loaded: %s", _process.failure)
            return None
        _process.engine = Engine(model, VectorCache(model))
        log.info("semantic model %s loaded from %s", model.name, source)
        return _process.engine


def _saved_cache(directory: Path | None) -> bool:
    return directory is not None and any(directory.glob("semantic-*.npz"))


def embedder_for(index: Index, directory: Path | None = None) -> NeuralEmbedder | None:
    """Sentence vectors aligned with ``index``, when they cover it (else None).

    ``directory`` (the index directory) may hold a cache a server saved; a process
    that has not loaded the model loads it only when such a cache is there.
    """
    found = _process.engine
    if found is None and _saved_cache(directory):
        found = engine()
    if found is None:
        return None
    from symfuse.ranking.channels.neural.vectors import NeuralEmbedder

    _load_saved(found, directory)
    with _lock:
        memo = found.assembled.get(index)
        if memo is not None and memo[0] == found.version:
            return memo[1]
        version = found.version
    vectors, lacking = found.cache.assemble(index)
    size = max(vectors.shape[0], 1)
    ready = None
    if vectors.shape[0] and lacking <= MAX_LACKING * size:
        ready = NeuralEmbedder(found.model, vectors.astype(np.float32), lacking)
    with _lock:
        found.assembled[index] = (version, ready)
    return ready


def _load_saved(found: Engine, directory: Path | None) -> None:
    """Read the cache saved under ``directory`` into the engine's, once per directory."""
    if directory is None or directory in found.loaded:
        return
    found.loaded.add(directory)
    if found.cache.load(directory):
        with _lock:
            found.version += 1


def fill(index: Index, directory: Path | None, stop: Callable[[], bool]) -> int:
    """Embed the files of ``index`` the cache lacks (stopping early if ``stop()``), then
    save the cache under ``directory``; how many files were embedded."""
    found = engine()
    if found is None:
        return 0
    _load_saved(found, directory)
    missing = found.cache.missing(index)
    total = len(index.files)
    found.state = f"embedding {total - len(missing)}/{total} files"
    if not missing:
        found.state = "ready"
        return 0
    with found.filling:  # one pass at a time: a reindex may embed while the thread does
        missing = found.cache.missing(index)
        done = found.cache.fill(index, missing, stop, _progress(found, total - len(missing), total))
        with _lock:
            found.version += 1
        if done and done == len(missing):
            found.cache.retain(index)
            found.state = "ready"
        if directory is not None and done:
            found.cache.save(directory, index)
    return done


def _progress(found: Engine, start: int, total: int) -> Callable[[int], None]:
    def report(done: int) -> None:
        found.state = f"embedding {start + done}/{total} files"

    return report


def describe(index: Index, directory: Path | None) -> str:
    """:func:`status` for a one-shot command: whether the vectors a server saved next to
    the index cover it (only servers compute them)."""
    from symfuse.ranking.channels.neural.model import available, find_model

    if _process.engine is None and not _saved_cache(directory):
        if not _process.failure and available() and find_model() is not None:
            return f"{status()} (semantic model installed; a server computes its vectors)"
        return status()
    ready = embedder_for(index, directory)
    found = _process.engine
    if found is not None:
        found.state = "ready" if ready is not None else "saved vectors cover part of the index"
    return status()


def loaded() -> bool:
    """Whether this process has loaded the semantic model (its channel may then run)."""
    return _process.engine is not None


def status() -> str:
    """Which similarity models run: the built-in one, and the neural one with its state."""
    base = "tfidf+ppmi-svd"
    found, failure = _process.engine, _process.failure
    if found is not None:
        return f"{base} + {found.model.name} ({found.state})"
    if failure and failure != "absent":
        return f"{base} (semantic model failed: {failure})"
    return base
