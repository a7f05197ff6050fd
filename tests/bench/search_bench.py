"""Search latency benchmark: in process, on the Django 5.2 index.

Reports, per query type and mode, p50 / p95 / max of ``search(index, request)``
after one warm-up query (the ranking data is loaded from the index directory,
as a CLI or server would), plus the index size on disk and load times.

Query types come from the golden set (tests/golden_queries_django.json):
exact, typo, abbreviation, partial, kind-filtered and natural-language.

Freshness: on a copy of Django, one file is edited and re-indexed three times;
each time the ranking structures are prepared again (in memory, as a live
server does, and with the index directory, as a CLI search does) and timed.

    python tests/bench/search_bench.py [--queries 100]

Targets (issue 3): p95 <= 20 ms for every mode, <= 50 ms with ``semantic: only``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.update.workspace import load_index, update_index
from symfuse.ranking.api import SearchRequest, prepare, search
from symfuse.ranking.prepared import build as prepare_module

sys.path.insert(0, str(Path(__file__).parent))
from quality_bench import TESTS, django_root

MODES: list[tuple[str, dict[str, Any]]] = [
    ("single", {}),
    ("tiered", {"mode": "tiered"}),
    ("flat", {"mode": "flat"}),
    ("drill", {"mode": "drill", "drill_from": "db/models"}),
    ("fuzzy", {"fuzzy": True}),
    ("debug", {"fusion_debug": True, "detail_level": "full"}),
    ("semantic_only", {"semantic": "only"}),
]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def directory_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def timed(fields: Iterable[dict[str, Any]], run: Any) -> list[float]:
    times = []
    for f in fields:
        request = SearchRequest.from_mapping(f)
        started = time.perf_counter()
        run(request)
        times.append((time.perf_counter() - started) * 1000)
    return times


def freshness(rounds: int = 3) -> None:
    """Re-prepare times after a one-file change, on a scratch copy of Django."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "django"
        shutil.copytree(django_root(), root)
        config = IndexConfig(roots=(root,), index_dir=Path(tmp) / "index", progress=False)
        index, _ = update_index(config)
        prepare_module.forget(index)
        started = time.perf_counter()
        prepare(index)
        cold = time.perf_counter() - started
        prepare_module.forget(index)
        started = time.perf_counter()
        prepare(index, config.store.directory)
        cold_saved = time.perf_counter() - started
        print(f"cold prepare {cold:.2f} s ({cold_saved:.2f} s with the ranking file written)")
        target = root / "utils" / "text.py"
        original = target.read_text()
        for i in range(rounds):
            target.write_text(original + f"\n\ndef fresh_{i}(value):\n    return value[::-1]\n")
            index, _ = update_index(config, index=index)
            started = time.perf_counter()
            prepared = prepare(index)
            memory = time.perf_counter() - started
            target.write_text(original + f"\n\ndef again_{i}(value):\n    return value\n")
            index, _ = update_index(config, index=index)
            started = time.perf_counter()
            saved = prepare(index, config.store.directory)
            disk = time.perf_counter() - started
            print(
                f"one-file change {i + 1}: re-prepare {memory * 1000:.0f} ms in memory "
                f"({prepared.rebuilt} file tokenized), {disk * 1000:.0f} ms with the ranking "
                f"file written ({saved.rebuilt} file tokenized)"
            )
        prepare_module.forget(index)
        target.write_text(original + "\n\ndef last(value):\n    return value\n")
        index, _ = update_index(config, index=index)
        started = time.perf_counter()
        reloaded = prepare(index, config.store.directory)
        print(
            f"new process after a one-file change: load + update "
            f"{(time.perf_counter() - started) * 1000:.0f} ms ({reloaded.rebuilt} file tokenized)"
        )
        print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="symfuse search latency on Django")
    parser.add_argument("--queries", type=int, default=100, help="queries per type")
    parser.add_argument("--skip-freshness", action="store_true", help="latency only")
    args = parser.parse_args(argv)
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if not args.skip_freshness:
        freshness()
    golden = json.loads((TESTS / "golden_queries_django.json").read_text())["queries"]
    with tempfile.TemporaryDirectory() as tmp:
        config = IndexConfig(roots=(django_root(),), index_dir=Path(tmp), progress=False)
        started = time.perf_counter()
        index, _ = update_index(config)
        build_s = time.perf_counter() - started
        started = time.perf_counter()
        prepare(index, config.store.directory)
        prepare_s = time.perf_counter() - started
        started = time.perf_counter()
        index = load_index(config)
        assert index is not None
        load_s = time.perf_counter() - started
        prepare_module.forget(index)
        started = time.perf_counter()
        prepared = prepare(index, config.store.directory)
        ranking_load_s = time.perf_counter() - started
        assert prepared.loaded
        size = directory_size(config.store.directory)
        ranking_size = sum(p.stat().st_size for p in config.store.directory.glob("ranking-*.npz"))
        print(f"Django: {len(index.symbols)} symbols in {len(index.files)} files")
        print(f"index build {build_s:.1f} s, ranking data build {prepare_s:.1f} s")
        print(f"on disk: {size / 1e6:.1f} MB (ranking data {ranking_size / 1e6:.1f} MB)")
        print(f"load: index {load_s * 1000:.0f} ms, ranking data {ranking_load_s * 1000:.0f} ms")
        print()
        print("| query type | mode | n | p50 ms | p95 ms | max ms |")
        print("| --- | --- | ---: | ---: | ---: | ---: |")

        def run(request: SearchRequest) -> None:
            search(index, request, prepared=prepared)

        run(SearchRequest.from_mapping({"query": "warm up"}))
        worst: dict[str, float] = {}
        for category in ("exact", "typo", "abbreviation", "partial", "kind", "nl"):
            chosen = [q for q in golden if q["category"] == category][: args.queries]
            for mode, extra in MODES:
                fields = [
                    {"query": q["query"], **({"kind": q["kind"]} if q["kind"] else {}), **extra}
                    for q in chosen
                ]
                times = timed(fields, run)
                p95 = percentile(times, 0.95)
                worst[mode] = max(worst.get(mode, 0.0), p95)
                print(
                    f"| {category} | {mode} | {len(times)} | {percentile(times, 0.5):.1f} "
                    f"| {p95:.1f} | {max(times):.1f} |"
                )
        gets = [{"query": s.symbol_id, "mode": "get"} for s in index.symbols[::97][:100]]
        times = timed(gets, run)
        worst["get"] = percentile(times, 0.95)
        print(
            f"| symbol id | get | {len(times)} | {percentile(times, 0.5):.1f} "
            f"| {percentile(times, 0.95):.1f} | {max(times):.1f} |"
        )
        print()
        print("worst p95 per mode: " + ", ".join(f"{m} {v:.1f} ms" for m, v in worst.items()))
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
