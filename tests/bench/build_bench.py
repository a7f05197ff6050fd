"""The ranking structures' build alone (issue 39, item 2): its phases, its time, its answers.

    python tests/bench/build_bench.py profile TREE...                  # phase shares (cProfile)
    python tests/bench/build_bench.py time --source /tmp/before --source . TREE...
    python tests/bench/build_bench.py answers --source /tmp/before --source . TREE...

Each TREE is indexed once per code into ``/tmp/symfuse-build-bench/<code>/<tree>`` (reused),
then, in that code's process:

- ``profile``: a cold ``prepare`` (fresh cache, fresh directory, so the save is counted; no
  tokenizer pool, so cProfile sees the tokenizing) under cProfile, and the cumulative share of
  each phase of :meth:`Corpus.update` (tokenizing and its parts, word vectors, translation,
  borrowed words, the joined structures, the save). cProfile inflates Python-heavy phases
  (tokenizing) against numpy ones; read the shares, not the seconds.
- ``time``: ``build`` (every structure from scratch, in process, no pool) and tokenizing alone,
  ``--repeat`` times per code, the codes' processes alternating (A B A B ...), medians and the
  ratio of each code to the first; then the tracemalloc peak and the retained size of one
  build. Compare codes of the same run only: timings move with the machine.
- ``answers``: the top 10 of about 280 queries of every shape (exact names, lower-cased,
  prefixes, camel humps, snake words, ``Container.name``, docstring prose, fixed prose, paths,
  typos, call questions), chosen from the index with a fixed seed, and a digest of every
  structure of :class:`Prepared`; the codes' answers are diffed query by query.

Codes (``--source DIR``, as in ``small_bench.py``): a checkout holding ``indexer/``,
``ranking/`` and ``server/``, run with this environment's interpreter through a
``PYTHONPATH`` whose ``symfuse/`` links to DIR's three folders. Default: this checkout.
"""

from __future__ import annotations

import argparse
import cProfile
import dataclasses
import hashlib
import json
import os
import pstats
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

WORK = Path(tempfile.gettempdir()) / "symfuse-build-bench"
PROSE = (
    "parse the command line arguments", "how are errors reported to the user",
    "read a file from disk", "validate the input value", "convert a string to a number",
    "render html template", "handle http request", "serialize to json",
    "where is the configuration loaded", "register a new route", "close the connection",
    "iterate over all items", "compare two values for equality", "format an error message",
    "create a new instance", "check whether the type is valid", "write output to stream",
    "default value when missing", "escape special characters", "retry on failure",
)  # fmt: skip
# (label, file suffix, function, first line or 0): cumulative time of each phase
PHASES = (
    ("tokenize (per-file pieces)", "prepared/corpus.py", "_refresh", 0),
    ("  file_piece (documents)", "channels/documents.py", "file_piece", 0),
    ("  definition_bodies", "channels/documents.py", "definition_bodies", 0),
    ("  trigram_rows", "channels/fuzzy.py", "trigram_rows", 0),
    ("  FilterCodes.of", "search/filters.py", "of", 92),
    ("concatenate", "channels/documents.py", "concatenate", 0),
    ("word vectors (train)", "prepared/corpus.py", "_train", 0),
    ("  cooccurrence", "channels/similarity.py", "cooccurrence", 0),
    ("  randomized_svd", "channels/similarity.py", "randomized_svd", 0),
    ("translation", "prepared/corpus.py", "_translation", 0),
    ("symbol vectors", "prepared/corpus.py", "_vectors", 0),
    ("borrowed words", "prepared/corpus.py", "_borrowed_words", 0),
    ("heir vectors", "prepared/corpus.py", "_heir_vectors", 0),
    ("LexicalIndex.build", "channels/lexical.py", "build", 0),
    ("RepositoryEmbedder.assemble", "channels/similarity.py", "assemble", 0),
    ("TrigramIndex.of", "channels/fuzzy.py", "of", 0),
    ("save (ranking file)", "prepared/persist.py", "save", 0),
)


def _index(root: Path, code: str) -> Any:
    from symfuse.indexer.config import IndexConfig
    from symfuse.indexer.update.workspace import update_index

    folder = WORK / code / root.name
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=folder, progress=False))
    return index, folder


def _no_pool() -> None:
    from symfuse.ranking.prepared import tokenize_pool

    tokenize_pool.POOL_FILES = sys.maxsize  # in process: the cost itself, not its spread


def worker_profile(root: Path, code: str) -> dict[str, Any]:
    from symfuse.ranking.prepared import build

    index, _ = _index(root, code)
    _no_pool()

    def cold() -> None:
        build.forget(index)
        with tempfile.TemporaryDirectory(dir=WORK) as folder:
            build.prepare(index, Path(folder))

    cold()  # imports and memos warm, as in a server's first build after its name answer
    profile = cProfile.Profile()
    started = time.perf_counter()
    profile.runcall(cold)
    seconds = time.perf_counter() - started
    stats = pstats.Stats(profile).stats  # type: ignore[attr-defined]
    total = max(v[3] for k, v in stats.items() if k[2] == "prepare")
    shares = {}
    for label, suffix, function, line in PHASES:
        cumulative = sum(
            v[3]
            for k, v in stats.items()
            if k[0].endswith(suffix) and k[2] == function and (not line or k[1] == line)
        )
        shares[label] = cumulative / total
    return {"seconds": seconds, "profiled": total, "shares": shares}


def worker_time(root: Path, code: str) -> dict[str, Any]:
    import gc
    import tracemalloc

    from symfuse.ranking.prepared import build
    from symfuse.ranking.prepared.corpus import Corpus

    index, _ = _index(root, code)
    _no_pool()
    gc.collect()
    started = time.perf_counter()
    build.build(index)
    seconds = time.perf_counter() - started
    gc.collect()
    started = time.perf_counter()
    Corpus()._refresh(index)
    tokenize = time.perf_counter() - started
    gc.collect()
    tracemalloc.start()
    kept = build.build(index)
    retained, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    del kept
    return {
        "build": seconds,
        "tokenize": tokenize,
        "peak_mb": peak / 2**20,
        "kept_mb": retained / 2**20,
    }


def digest(value: Any, depth: int = 0) -> str:
    """A digest of a structure: arrays by their bytes, records field by field."""
    import numpy as np
    from scipy import sparse

    h = hashlib.blake2b(digest_size=8)

    def feed(v: Any, d: int) -> None:
        if d > 8:
            return
        if sparse.issparse(v):
            v = v.tocsr()
            h.update(f"S{v.shape}".encode())
            for a in (v.data, v.indices, v.indptr):
                h.update(np.ascontiguousarray(a).tobytes())
        elif isinstance(v, np.ndarray):
            h.update(f"{v.dtype}{v.shape}".encode())
            if v.dtype == object:
                feed(v.tolist(), d + 1)
            else:
                h.update(np.ascontiguousarray(v).tobytes())
        elif dataclasses.is_dataclass(v) and not isinstance(v, type):
            for f in dataclasses.fields(v):
                h.update(f.name.encode())
                feed(getattr(v, f.name), d + 1)
        elif isinstance(v, dict):
            for key in v:
                feed(key, d + 1)
                feed(v[key], d + 1)
        elif isinstance(v, list | tuple):
            h.update(b"L%d" % len(v))
            for x in v:
                feed(x, d + 1)
        elif isinstance(v, frozenset | set):
            h.update(repr(sorted(v)).encode())
        elif hasattr(v, "__slots__") or hasattr(v, "__dict__"):  # a plain class: its fields
            for name in getattr(v, "__slots__", ()) or sorted(vars(v)):
                if hasattr(v, name):
                    h.update(name.encode())
                    feed(getattr(v, name), d + 1)
        else:
            h.update(re.sub(r" at 0x[0-9a-f]+", "", repr(v)).encode())

    feed(value, depth)
    return h.hexdigest()


def queries_of(index: Any) -> list[str]:
    """About 280 queries of every shape, chosen from ``index`` with a fixed seed."""
    rng = random.Random(39)
    symbols = sorted(index.symbols, key=lambda s: s.symbol_id)
    names = sorted({s.name for s in symbols if len(s.name) > 2})
    picked = rng.sample(names, min(90, len(names)))
    out = picked[:60] + [n.lower() for n in picked[60:75]]
    out += [n[: max(3, len(n) // 2)] for n in picked[75:90]]
    humps = [n for n in names if re.search(r"[a-z][A-Z]", n)]
    for name in rng.sample(humps, min(30, len(humps))):
        parts = re.findall(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])", name)
        out += ["".join(p[:2] for p in parts), "".join(p[0].upper() for p in parts)]
    snakes = [n for n in names if "_" in n.strip("_")]
    out += [n.replace("_", " ") for n in rng.sample(snakes, min(20, len(snakes)))]
    inner = [s for s in symbols if s.container]
    out += [
        f"{s.container.split('.')[-1]}.{s.name}" for s in rng.sample(inner, min(20, len(inner)))
    ]
    docs = [s.doc for s in symbols if len(s.doc.split()) >= 5]
    out += [" ".join(d.split()[:6]) for d in rng.sample(docs, min(40, len(docs)))]
    out += list(PROSE)
    out += rng.sample(sorted(index.files), min(10, len(index.files)))
    out += [n[:-1] + "x" if len(n) > 4 else n + "z" for n in picked[:10]]
    return out + [f"callers of {n}" for n in picked[:10]]


def worker_answers(root: Path, code: str) -> dict[str, Any]:
    from symfuse.indexer.errors import SymfuseError
    from symfuse.ranking.api import SearchRequest, prepare
    from symfuse.ranking.prepared.build import forget
    from symfuse.ranking.query import operations

    index, folder = _index(root, code)
    for stale in folder.glob("ranking-*.npz"):
        stale.unlink()
    forget(index)
    prepared = prepare(index, folder)
    skipped = {"seconds", "loaded", "rebuilt", "retrained", "pieces", "generation"}
    structures = {
        f.name: digest(getattr(prepared, f.name))
        for f in dataclasses.fields(prepared)
        if f.name not in skipped
    }
    answers: dict[str, list[str]] = {}
    for query in queries_of(index):
        request = SearchRequest.from_mapping({"query": query, "limit": 10})
        try:
            answer = operations.search(index, request, directory=folder, prepared=prepared)
            answers[query] = [item.symbol.symbol_id for item in answer.items[:10]]
        except SymfuseError as exc:
            answers[query] = [f"error {type(exc).__name__}"]
    return {"structures": structures, "answers": answers}


WORKERS = {"profile": worker_profile, "time": worker_time, "answers": worker_answers}


def overlay(source: Path, folder: Path) -> dict[str, str]:
    """An environment whose ``symfuse`` package is ``source``'s three folders."""
    env = dict(os.environ, PYTHONHASHSEED="0")  # set orders, so digests, the same in both
    if source.resolve() == Path(__file__).resolve().parents[2]:
        return env
    package = folder / "symfuse"
    package.mkdir(parents=True, exist_ok=True)
    for part in ("indexer", "ranking", "server"):
        link = package / part
        if not link.exists():
            link.symlink_to(source.resolve() / part)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), env.get("PYTHONPATH", "")) if p)
    return env


def run(mode: str, root: Path, code: int, env: dict[str, str]) -> dict[str, Any]:
    command = [sys.executable, __file__, mode, "--worker", mode, "--code", str(code), str(root)]
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=False)
    if done.returncode:
        raise SystemExit(f"{' '.join(command)} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def report_profile(results: dict[str, dict[str, Any]]) -> None:
    for name, found in results.items():
        print(f"\n{name}: cold prepare {found['seconds']:.2f} s under cProfile")
        for label, share in found["shares"].items():
            print(f"  {label:32s} {100 * share:5.1f} %")


def report_time(rows: dict[str, list[dict[str, Any]]], sources: list[Path]) -> None:
    for name, per_code in rows.items():
        print(f"\n{name}")
        first = statistics.median(r["build"] for r in per_code[0]["runs"])
        for source, found in zip(sources, per_code, strict=True):
            runs = found["runs"]
            build = statistics.median(r["build"] for r in runs)
            tokenize = statistics.median(r["tokenize"] for r in runs)
            print(
                f"  {source!s:28s} build {build:6.3f} s (x{build / first:.2f})  "
                f"tokenize {tokenize:6.3f} s  peak {runs[-1]['peak_mb']:6.1f} MB  "
                f"kept {runs[-1]['kept_mb']:6.1f} MB  ({len(runs)} runs)"
            )


def report_answers(rows: dict[str, list[dict[str, Any]]]) -> int:
    moved_total = 0
    for name, (before, *others) in rows.items():
        for after in others:
            moved = [q for q in before["answers"] if before["answers"][q] != after["answers"][q]]
            changed = [
                k
                for k in before["structures"]
                if before["structures"][k] != after["structures"].get(k)
            ]
            print(f"{name}: {len(before['answers'])} queries, {len(moved)} answers differ; "
                  f"structures differing: {', '.join(changed) or 'none'}")  # fmt: skip
            for query in moved[:10]:
                print(f"  {query!r}\n    {before['answers'][query][:5]}")
                print(f"    {after['answers'][query][:5]}")
            moved_total += len(moved)
    return moved_total


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", nargs="?", choices=sorted(WORKERS))
    parser.add_argument("trees", nargs="*", type=Path)
    parser.add_argument("--source", type=Path, action="append", default=[])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--worker", choices=sorted(WORKERS))
    parser.add_argument("--code", default="0")
    args = parser.parse_intermixed_args()
    WORK.mkdir(parents=True, exist_ok=True)
    if args.worker:
        print(json.dumps(WORKERS[args.worker](args.trees[0], f"code{args.code}")))
        return 0
    sources = args.source or [Path(__file__).resolve().parents[2]]
    envs = [overlay(s, WORK / f"overlay{i}") for i, s in enumerate(sources)]
    rows: dict[str, list[dict[str, Any]]] = {}
    for root in args.trees:
        per_code: list[dict[str, Any]] = [{"runs": []} for _ in sources]
        for _ in range(args.repeat if args.mode == "time" else 1):
            for code, env in enumerate(envs):
                per_code[code]["runs"].append(run(args.mode, root, code, env))
        rows[root.name] = per_code
    if args.mode == "profile":
        report_profile(
            {f"{n} [{s}]": c[i]["runs"][0] for n, c in rows.items() for i, s in enumerate(sources)}
        )
    elif args.mode == "time":
        report_time(rows, sources)
    else:
        return (
            1 if report_answers({n: [c["runs"][0] for c in per] for n, per in rows.items()}) else 0
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
