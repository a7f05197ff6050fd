"""The cold start's ranking build (issue 39, item 2): a first search on a cold index, code by code.

    python tests/bench/cold_build_bench.py --source /tmp/before --source . --repeat 5
    python tests/bench/cold_build_bench.py --source . phases           # where the build goes
    python tests/bench/cold_build_bench.py --source /tmp/before --source . answers

The tree (``--tree``, SQLAlchemy by default, fetched by ``corpus.py``) is indexed by each
code into ``/tmp/symfuse-cold-build/<code>/index`` once a run (not timed), then:

- ``time`` (the default): each round, for each code in turn (A B A B ...), the index
  directory is copied afresh and ``symfuse search Session`` runs on the copy under GNU
  time, as large_bench.py's cold start runs it after the index: the ranking structures
  built (their tokenizer pool included), saved, and the first answer. Wall, CPU (the
  command and its workers) and peak RSS; medians and minimums, the load at each run's
  start. The first run's ranking file of each code is compared with the first code's,
  byte for byte (``PYTHONHASHSEED=0``, so the filter tables' dictionaries are in one
  order): the same structures, or a line saying which members differ.
- ``phases``: one such build in process, as the CLI runs it (collector off, glibc's mmap
  threshold fixed), each phase of :meth:`Corpus.update` timed: wall, this thread's CPU and
  the process's (two-thread steps), and the peak RSS so far.
- ``answers``: about 280 queries of every shape (``build_bench.queries_of``) against each
  code's ranking file: ids, scores and totals of the first 20, diffed query by query.

Codes (``--source DIR``): a checkout holding ``indexer/``, ``ranking/`` and ``server/``, run
with this interpreter through a ``PYTHONPATH`` whose ``symfuse/`` links to DIR's folders.
Compare codes of one run only; times move with the machine, so run it on a quiet one.
"""

from __future__ import annotations

import argparse
import compileall
import functools
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path
from typing import Any

WORK = Path(tempfile.gettempdir()) / "symfuse-cold-build"
HERE = Path(__file__).resolve().parent
TREE = HERE / ".corpus" / "src" / "sqlalchemy-2.0.58" / "sqlalchemy-2.0.58"
QUERY = "Session"
# Corpus.update's phases and what they call, as (owner module, attribute path, label).
PHASES = (
    ("symfuse.ranking.prepared.corpus", "Corpus._refresh", "tokenize (pool)"),
    ("symfuse.ranking.prepared.corpus", "rebase", "  rebase (here)"),
    ("symfuse.ranking.prepared.corpus", "concatenate", "concatenate"),
    ("symfuse.ranking.prepared.corpus", "Corpus._train", "word model"),
    ("symfuse.ranking.channels.similarity", "cooccurrence", "  cooccurrence"),
    ("symfuse.ranking.channels.similarity", "randomized_svd", "  randomized_svd"),
    ("symfuse.ranking.prepared.corpus", "Corpus._translation", "translation"),
    ("symfuse.ranking.channels.translation", "_em", "  EM"),
    ("symfuse.ranking.prepared.corpus", "Corpus._vectors", "symbol vectors"),
    ("symfuse.ranking.prepared.corpus", "Corpus._borrowed_words", "borrowed words"),
    ("symfuse.ranking.prepared.corpus", "with_inherited", "with_inherited"),
    ("symfuse.ranking.prepared.corpus", "Corpus._heir_vectors", "heir vectors"),
    ("symfuse.ranking.prepared.corpus", "LexicalIndex.build", "LexicalIndex.build"),
    ("symfuse.ranking.prepared.corpus", "NameTable.of", "NameTable.of"),
    ("symfuse.ranking.prepared.corpus", "RepositoryEmbedder.assemble", "embedder (TF-IDF)"),
    ("symfuse.ranking.prepared.corpus", "TrigramIndex.of", "TrigramIndex.of"),
    ("symfuse.ranking.prepared.build", "save", "save"),
)


def _cli_settings() -> None:
    """What a one-shot CLI command sets before its work (server/cli/main.py)."""
    import ctypes
    import gc

    gc.disable()
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None).mallopt(-3, 128 * 1024)  # M_MMAP_THRESHOLD, as the CLI fixes it


def _indexed(code: str, tree: Path) -> Path:
    """This code's cold index of ``tree`` (made once)."""
    folder = WORK / code / "index"
    if not (folder / "manifest.msgpack").exists():
        shutil.rmtree(folder, ignore_errors=True)
        subprocess.run(
            [*_symfuse(), "index", str(tree), "--index-dir", str(folder), "--no-progress"],
            check=True,
            capture_output=True,
        )
    return folder


def _symfuse() -> list[str]:
    main = "import sys; from symfuse.server.cli.launch import main; sys.argv[0] = 'symfuse'; "
    return [sys.executable, "-c", main + "sys.exit(main())"]


def _fresh_copy(code: str, tree: Path) -> Path:
    copy = WORK / code / "run"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(_indexed(code, tree), copy)
    return copy


def worker_time(code: str, tree: Path) -> dict[str, Any]:
    copy = _fresh_copy(code, tree)
    load = os.getloadavg()[0]
    started = time.perf_counter()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S %M", *_symfuse(), "search", QUERY, "--index-dir", str(copy)],
        cwd=tree,
        capture_output=True,
        text=True,
        check=False,
    )
    wall = time.perf_counter() - started
    if done.returncode:
        raise SystemExit(f"search failed:\n{done.stderr[-2000:]}")
    user, system, peak = done.stderr.strip().splitlines()[-1].split()
    kept = WORK / code / "ranking.npz"
    if not kept.exists():
        shutil.copy(next(copy.glob("ranking-*.npz")), kept)
    return {
        "wall": wall,
        "cpu": float(user) + float(system),
        "peak_mb": int(peak) / 1024,
        "load": load,
    }


def _wrapped(owner: Any, name: str, label: str, times: dict[str, list[float]]) -> None:
    function = getattr(owner, name)

    @functools.wraps(function)
    def timed(*args: Any, **kwargs: Any) -> Any:
        wall, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
        try:
            return function(*args, **kwargs)
        finally:
            row = times.setdefault(label, [0.0, 0.0, 0.0, 0.0])
            row[0] += time.perf_counter() - wall
            row[1] += time.thread_time() - cpu
            row[2] += time.process_time() - process
            row[3] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    setattr(owner, name, timed)


def worker_phases(code: str, tree: Path) -> dict[str, Any]:
    import importlib
    import multiprocessing

    _cli_settings()
    copy = _fresh_copy(code, tree)
    from symfuse.indexer.config import IndexConfig
    from symfuse.indexer.update.workspace import update_index
    from symfuse.ranking.prepared import build

    index, _ = update_index(IndexConfig(roots=(tree,), index_dir=copy, progress=False))
    times: dict[str, list[float]] = {}
    for module, path, label in PHASES:
        owner: Any = importlib.import_module(module)
        *outer, name = path.split(".")
        for part in outer:
            owner = getattr(owner, part)
        _wrapped(owner, name, label, times)
    load = os.getloadavg()[0]
    wall, cpu = time.perf_counter(), time.thread_time()
    build.prepare(index, copy)
    wall, cpu = time.perf_counter() - wall, time.thread_time() - cpu
    for child in multiprocessing.active_children():
        child.join()
    own = resource.getrusage(resource.RUSAGE_SELF)
    workers = resource.getrusage(resource.RUSAGE_CHILDREN)
    return {
        "wall": wall,
        "thread": cpu,
        "process": own.ru_utime + own.ru_stime,
        "workers": workers.ru_utime + workers.ru_stime,
        "peak_mb": own.ru_maxrss / 1024,
        "load": load,
        "phases": times,
    }


def worker_answers(code: str, tree: Path) -> dict[str, Any]:
    sys.path.insert(0, str(HERE))
    from build_bench import queries_of  # type: ignore[import-not-found]

    from symfuse.indexer.config import IndexConfig
    from symfuse.indexer.errors import SymfuseError
    from symfuse.indexer.update.workspace import update_index
    from symfuse.ranking.api import SearchRequest, prepare
    from symfuse.ranking.query import operations

    copy = _fresh_copy(code, tree)
    index, _ = update_index(IndexConfig(roots=(tree,), index_dir=copy, progress=False))
    prepared = prepare(index, copy)
    answers: dict[str, Any] = {}
    for query in queries_of(index):
        request = SearchRequest.from_mapping({"query": query, "limit": 20})
        try:
            found = operations.search(index, request, directory=copy, prepared=prepared)
        except SymfuseError as exc:
            answers[query] = f"error {type(exc).__name__}"
            continue
        items = [(i.symbol.symbol_id, i.score) for i in getattr(found, "items", ())]
        answers[query] = {"items": items, "total": getattr(found, "total", None)}
    return {"answers": answers}


WORKERS = {"time": worker_time, "phases": worker_phases, "answers": worker_answers}


def overlay(source: Path, code: str) -> dict[str, str]:
    """An environment whose ``symfuse`` package is ``source``'s three folders (compiled)."""
    package = WORK / code / "overlay" / "symfuse"
    shutil.rmtree(package.parent, ignore_errors=True)
    package.mkdir(parents=True)
    for part in ("indexer", "ranking", "server"):
        (package / part).symlink_to(source.resolve() / part)
        compileall.compile_dir(str(source / part), quiet=1)
    paths = (str(package.parent), os.environ.get("PYTHONPATH", ""))
    return dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in paths if p), PYTHONHASHSEED="0")


def same_file(first: Path, other: Path) -> str:
    """``same`` when the two ranking files are equal byte for byte, else the members that
    differ."""
    if first.read_bytes() == other.read_bytes():
        return "same, byte for byte"
    with zipfile.ZipFile(first) as a, zipfile.ZipFile(other) as b:
        names = sorted(set(a.namelist()) | set(b.namelist()))
        held = set(a.namelist()) & set(b.namelist())
        differ = [n for n in names if n not in held or a.read(n) != b.read(n)]
    return "DIFFERENT: " + ", ".join(differ or ["(archive metadata only)"])


def report_time(sources: list[Path], runs: list[list[dict[str, Any]]]) -> None:
    for source, rows in zip(sources, runs, strict=True):
        loads = [r["load"] for r in rows]
        cells = []
        for key, unit in (("wall", "s"), ("cpu", "s"), ("peak_mb", "MB")):
            values = [r[key] for r in rows]
            cells.append(f"{key} {min(values):.2f} / {statistics.median(values):.2f} {unit}")
        print(f"{source}: " + ", ".join(cells) + f" (min / median of {len(rows)}; "
              f"load {min(loads):.1f}-{max(loads):.1f})")  # fmt: skip
        print("  runs: " + ", ".join(f"{r['wall']:.2f}" for r in rows))


def report_phases(sources: list[Path], runs: list[list[dict[str, Any]]]) -> None:
    for source, rows in zip(sources, runs, strict=True):
        found = rows[0]
        print(f"\n{source}: prepare wall {found['wall']:.2f} s, "
              f"this thread {found['thread']:.2f} s, process {found['process']:.2f} s, "
              f"workers {found['workers']:.2f} s, peak {found['peak_mb']:.0f} MB, "
              f"load {found['load']:.1f}")  # fmt: skip
        print(f"  {'phase':24s} {'wall':>7s} {'thread':>7s} {'process':>7s}  peak so far")
        for label, (wall, cpu, process, peak) in found["phases"].items():
            print(f"  {label:24s} {wall:7.3f} {cpu:7.3f} {process:7.3f}  {peak:5.0f} MB")


def report_answers(sources: list[Path], runs: list[list[dict[str, Any]]]) -> int:
    first = runs[0][0]["answers"]
    moved = 0
    for source, rows in zip(sources[1:], runs[1:], strict=True):
        other = rows[0]["answers"]
        differ = [q for q in first if first[q] != other.get(q)]
        print(f"{source}: {len(first)} queries, {len(differ)} answers differ (ids, scores, total)")
        for query in differ[:10]:
            print(f"  {query!r}\n    {first[query]}\n    {other.get(query)}")
        moved += len(differ)
    return moved


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", nargs="?", default="time", choices=sorted(WORKERS))
    parser.add_argument("--source", type=Path, action="append", default=[])
    parser.add_argument("--tree", type=Path, default=TREE)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--worker", choices=sorted(WORKERS))
    parser.add_argument("--code", default="code0")
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(WORKERS[args.worker](args.code, args.tree.resolve())))
        return 0
    if not args.tree.is_dir():
        raise SystemExit(f"no tree at {args.tree}: fetch it with tests/bench/corpus.py")
    sources = args.source or [HERE.parents[1]]
    codes = [f"code{i}" for i in range(len(sources))]
    envs = [overlay(s, c) for s, c in zip(sources, codes, strict=True)]
    for code in codes:  # each code indexes the tree anew, once a run (its own index format)
        (WORK / code / "ranking.npz").unlink(missing_ok=True)
        shutil.rmtree(WORK / code / "index", ignore_errors=True)
    runs: list[list[dict[str, Any]]] = [[] for _ in sources]
    for _ in range(args.repeat if args.mode == "time" else 1):
        for i, (code, env) in enumerate(zip(codes, envs, strict=True)):
            command = [sys.executable, __file__, args.mode, "--worker", args.mode, "--code", code]
            done = subprocess.run(
                [*command, "--tree", str(args.tree.resolve())],
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            if done.returncode:
                raise SystemExit(f"{sources[i]}: {args.mode} failed:\n{done.stderr[-3000:]}")
            runs[i].append(json.loads(done.stdout.strip().splitlines()[-1]))
    if args.mode == "time":
        report_time(sources, runs)
        first = WORK / codes[0] / "ranking.npz"
        for source, code in zip(sources[1:], codes[1:], strict=True):
            print(f"{source}: ranking file {same_file(first, WORK / code / 'ranking.npz')}")
    elif args.mode == "phases":
        report_phases(sources, runs)
    else:
        return 1 if report_answers(sources, runs) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
