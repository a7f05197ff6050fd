"""The ``symfuse[semantic]`` side of nl_bench.py: embed an index, report the cost.

Cost figures: symbols embedded per second (the files the cache lacked), the cache's
MB on disk, the assembled vectors' MB in memory (float32, one row per symbol) and
the model's, and per query the neural channel's milliseconds (the query's forward
pass and the cosine scan, measured around ``NeuralEmbedder.scores``). Timings move
with the machine's load: print them with the load average.
"""

from __future__ import annotations

import os
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from symfuse.indexer.index import Index
from symfuse.ranking.channels import neural
from symfuse.ranking.channels.neural.vectors import EMBEDDED_KINDS, NeuralEmbedder, VectorCache
from symfuse.ranking.search import plans as shape

CACHE = Path(__file__).parent / ".corpus" / "nl" / "semantic"
SWEEP: list[float] = []  # more neural weights to rank every query with (--sweep)
_query_seconds: list[float] = []
_swept: dict[float, dict[str, list[int | None]]] = {}
_query_vectors: dict[tuple[int, str], np.ndarray] = {}  # type: ignore[type-arg]


def require() -> neural.Engine:
    """The loaded engine, or exit saying what is missing."""
    found = neural.engine()
    if found is None:
        raise SystemExit(f"the semantic extra is not usable: {neural.status()}")
    tokens = int(os.environ.get("NL_SEMANTIC_TOKENS", found.model.max_tokens))
    if tokens != found.model.max_tokens:  # a shorter read of each definition (bench only)
        model = replace(found.model, max_tokens=tokens)
        model.tokenizer.enable_truncation(tokens)
        found.model = model
        found.cache = VectorCache(model)
    if NeuralEmbedder.scores.__name__ != "timed":
        _timed()
    return found


def _timed() -> None:
    """Record the time of every neural query scoring (bench only: wraps the method)."""
    plain = NeuralEmbedder.scores

    def timed(self: NeuralEmbedder, query: str) -> np.ndarray:  # type: ignore[type-arg]
        key = (id(self.vectors), query)  # a sweep ranks each query again: compute it once
        if key not in _query_vectors:
            start = time.perf_counter()
            _query_vectors[key] = plain(self, query)
            _query_seconds.append(time.perf_counter() - start)
        return _query_vectors[key]

    NeuralEmbedder.scores = timed  # type: ignore[method-assign]


def set_neural_weight(weight: float) -> None:
    """Give the neural channel ``weight`` in every prose plan (bench only)."""
    for key, plan in list(shape.PLANS.items()):
        if plan.described:
            shape.PLANS[key] = replace(plan, weights=replace(plan.weights, neural=weight))


def embed_index(index: Index, directory: Path) -> str:
    """Embed what the cache under ``directory`` lacks; one line of cost figures."""
    found = require()
    neural.fill(index, directory, lambda: True)  # reads a saved cache, embeds nothing
    lacking = found.cache.missing(index)
    counted = sum(1 for f in lacking for s in index.files[f].symbols if s.kind in EMBEDDED_KINDS)
    start = time.perf_counter()
    files = neural.fill(index, directory, lambda: False)
    seconds = time.perf_counter() - start
    ready = neural.embedder_for(index)
    saved = found.cache.path_in(directory)
    disk = saved.stat().st_size / 1e6 if saved.is_file() else 0.0
    memory = 0.0 if ready is None else ready.vectors.nbytes / 1e6
    rate = f"{counted / seconds:.0f} symbols/s" if files and seconds > 0 else "cached"
    return (
        f"  semantic: {len(index.symbols)} symbols, {counted} embedded in {files} files "
        f"({rate}, {seconds:.1f} s, load {os.getloadavg()[0]:.1f}); cache {disk:.1f} MB on "
        f"disk, vectors {memory:.1f} MB in memory, model {found.model.bert.nbytes / 1e6:.0f} MB"
    )


def query_cost() -> str:
    if not _query_seconds:
        return "neural channel: no query ran it"
    ms = np.array(_query_seconds) * 1000
    return (
        f"neural channel per query: median {np.median(ms):.1f} ms, p95 "
        f"{np.percentile(ms, 95):.1f} ms over {ms.shape[0]} queries (load {os.getloadavg()[0]:.1f})"
    )


def sweep(name: str, cases: list[tuple[str, frozenset[str]]], ours, rank_of) -> None:  # type: ignore[no-untyped-def]
    """Rank ``cases`` with each :data:`SWEEP` weight (then put the prose plans back)."""
    if not SWEEP:
        return
    saved = dict(shape.PLANS)
    for weight in SWEEP:
        set_neural_weight(weight)
        ranks = [rank_of(ours(query), expected) for query, expected in cases]
        _swept.setdefault(weight, {})[name] = ranks
    shape.PLANS.update(saved)
    _query_vectors.clear()


def sweep_table(figures, mined: set[str]) -> str:  # type: ignore[no-untyped-def]
    """hit@10 / MRR@10 per neural weight: the mined set pooled, and each docstring corpus."""
    lines = ["| neural weight | mined (pooled) | " + " | ".join(_corpora(mined)) + " |"]
    lines.append("| ---: | ---: |" + " ---: |" * len(_corpora(mined)))
    for weight, by_name in sorted(_swept.items()):
        pooled = [r for n, ranks in by_name.items() if n in mined for r in ranks]
        cells = [_cell(figures(pooled))] + [_cell(figures(by_name[c])) for c in _corpora(mined)]
        lines.append(f"| {weight:g} | " + " | ".join(cells) + " |")
    per_repo = ["", "| neural weight | " + " | ".join(sorted(mined & _names())) + " |"]
    for weight, by_name in sorted(_swept.items()):
        cells = [_cell(figures(by_name[n])) for n in sorted(mined & _names())]
        per_repo.append(f"| {weight:g} | " + " | ".join(cells) + " |")
    return "\n".join(lines + per_repo)


def _names() -> set[str]:
    return {n for by_name in _swept.values() for n in by_name}


def _corpora(mined: set[str]) -> list[str]:
    return sorted(_names() - mined)


def _cell(f) -> str:  # type: ignore[no-untyped-def]
    return f"{f.hit10:.3f} / {f.mrr10:.3f}"
