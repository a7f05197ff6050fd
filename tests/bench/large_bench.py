"""Large repositories (issue 16): every target as a ratio to a reference measured in the same run.

    python tests/bench/large_bench.py                      # sqlalchemy, then the 1M-line tree
    python tests/bench/large_bench.py --trees sqlalchemy   # one tree
    python tests/bench/large_bench.py --queries 200 --repeat 5
    python tests/bench/large_bench.py --tree tests/bench/.corpus/small/pallets+click-2c8cd3ac958a
    python tests/bench/large_bench.py --source /tmp/before     # another checkout's code
    python tests/bench/large_bench.py --floor --repeat 3       # the cold index and its floors

Trees (registry sdists, fetched once by ``corpus.py`` into ``tests/bench/.corpus``):

- ``sqlalchemy``: SQLAlchemy 2.0's sdist (about 610k lines);
- ``large``: several sdists side by side, at least 1M lines in all (``LARGE``).

Per tree, each measured in this run:

1. Cold index: ``symfuse index`` on a fresh index directory (wall, CPU, peak RSS),
   against ``ctags -R`` on the same tree and against tree-sitter parse-only (every file
   the index would read, parsed and dropped, in as many processes as the index uses),
   ``--repeat`` times alternating: medians, and the median of each run's ratios.
2. First ranked answer: ``symfuse search`` right after the cold index builds the
   ranking structures (wall, peak RSS); cold index plus this is the cold start (a
   query command starts the resident process as it runs, server/cli/resident.py). Warm
   start: the same search again in its own process (``SYMFUSE_RESIDENT=off``: index and
   structures read from disk), then answered by the resident process once it holds the
   index (stopped after). MCP cold start: ``symfuse
   mcp`` spawned with no index, timed to its first answers: a name query (answered by
   names alone while the structures build, on a large index), then a prose question
   (answered by names alone too, with a hint to ask again), asked again until the fused
   ranking answers it.
3. Serving: ``symfuse mcp`` over stdio, the first answer after spawning on a warm
   index, then ``--queries`` searches through the SDK's client (p50/p95), and the
   server's RSS after them (read from /proc).
4. In process: the p50/p95 of ``search`` on the loaded index and structures.
   LSP: ``symfuse lsp`` under a real client, ``workspace/symbol`` p50/p95 and how soon a
   definition typed into the largest file is found (``large_lsp.py``).
5. Index on disk against the source's size.

Targets: cold index <= 1.5x parse-only (<= 3x ctags); cold start <= 5 s at <= 500 MB
peak on sqlalchemy; warm start <= 0.8 s; serving RSS <= 250 MB (sqlalchemy) and
<= 600 MB (1M lines); search p95 <= 10 ms through MCP, <= 5 ms in process; index on
disk <= 1.5x the source. Never run it beside other work on the machine: it times.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import functools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any, NoReturn

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus as corpus_mod
from large_lsp import lsp_serving, raw_latency
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

import symfuse.server.cli.main as _cli
from symfuse.indexer.config import IndexConfig
from symfuse.indexer.files.discover import discover

SYMFUSE = Path(sys.executable).with_name("symfuse")
SQLALCHEMY = ("sqlalchemy==2.0.*",)
# 1.88M lines of Python (SQLAlchemy 0.61M, Django 0.49M, SymPy 0.75M). pandas was the fourth:
# its sdist no longer downloads with --no-binary :all: (pip builds its metadata in an isolated
# environment whose numpy and Cython then come as sdists, and numpy's fails to build).
LARGE = ("sqlalchemy==2.0.*", "django==5.2.*", "sympy==1.13.*")
QUERIES = (
    "Session", "session query", "create engine", "connection pool", "ForeignKey",
    "compile select", "dialect", "execute", "mapper", "relationship", "Column", "Table",
    "metadata reflect", "flush", "event listen", "QuerySet", "render template", "Matrix",
    "simplify expression", "DataFrame", "read csv", "groupby", "validate", "parse date",
)  # fmt: skip


def tree_of(specs: Iterable[str], name: str) -> Path:
    """The unpacked sdists of ``specs`` side by side under one folder (hard links, made
    once: the walk follows no symbolic link out of a root)."""
    roots = [corpus_mod.unpack(corpus_mod.pip_sdist(spec)) for spec in specs]
    if len(roots) == 1:
        return roots[0]
    tree = corpus_mod.SOURCES / f"large-{name}"
    tree.mkdir(parents=True, exist_ok=True)
    for root in roots:
        if not (tree / root.name).exists():
            shutil.copytree(root, tree / root.name, copy_function=os.link, symlinks=True)
    return tree


def timed(cmd: list[str]) -> dict[str, float]:
    """Wall seconds, CPU seconds and peak RSS (MB) of a command, via GNU time."""
    started = time.perf_counter()
    result = subprocess.run(
        ["/usr/bin/time", "-f", "%U %S %M", *cmd], capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - started
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed: {result.stderr[-2000:]}")
    user, system, peak_kb = result.stderr.strip().splitlines()[-1].split()
    return {"wall_s": wall, "cpu_s": float(user) + float(system), "peak_mb": int(peak_kb) / 1024}


def _parse_only(batch: list[tuple[str, str]], match: bool = False) -> int:
    """Parse each file and drop it; with ``match``, also run the language's query of
    definitions and references over the tree and drop its matches."""
    from tree_sitter import QueryCursor

    from symfuse.indexer.files import languages

    parsers: dict[str, Any] = {}
    count = 0
    for path, language in batch:
        if language not in parsers:
            from tree_sitter import Parser

            parsers[language] = Parser(languages.grammar(language))
        tree = parsers[language].parse(Path(path).read_bytes())
        if match:
            for _ in QueryCursor(languages.query(language)).matches(tree.root_node):
                pass
        count += 1
    return count


def parse_only(tree: Path, jobs: int, match: bool = False) -> dict[str, float]:
    """Every file the index reads, parsed with tree-sitter and dropped, in ``jobs``
    processes: the floor of a tree-sitter index on these cores. With ``match``, each
    tree's query matches made and dropped too: the floor of an index that reads them."""
    config = IndexConfig(roots=(tree,), progress=False)
    found = discover(tree, config.discovery()).candidates
    files = [(f.abs_path, f.language) for f in found]
    batches = [files[i::jobs] for i in range(jobs)]
    started = time.perf_counter()
    cpu = time.process_time()
    with ProcessPoolExecutor(jobs) as pool:
        parsed = sum(pool.map(functools.partial(_parse_only, match=match), batches))
    return {
        "wall_s": time.perf_counter() - started,
        "files": parsed,
        "cpu_parent_s": time.process_time() - cpu,
    }


def floor(tree: Path, repeat: int) -> None:
    """The cold index against its references alone, ``repeat`` times alternating:
    ``ctags -R``, parse-only, parse and query matches (``--floor``)."""
    jobs = os.cpu_count() or 1
    rows: dict[str, list[float]] = {"ctags": [], "parse": [], "parse+query": [], "index": []}
    with tempfile.TemporaryDirectory(prefix="symfuse-floor-") as tmp:
        for attempt in range(repeat):
            rows["ctags"].append(timed(["ctags", "-R", "-f", f"{tmp}/tags", str(tree)])["wall_s"])
            rows["parse"].append(parse_only(tree, jobs)["wall_s"])
            rows["parse+query"].append(parse_only(tree, jobs, match=True)["wall_s"])
            where = [str(tree), "--index-dir", f"{tmp}/index-{attempt}", "--no-progress"]
            rows["index"].append(timed([str(SYMFUSE), "index", *where])["wall_s"])
    ctags = statistics.median(rows["ctags"])
    print(f"{tree.name}: wall s, min / median of {repeat} ({jobs} processes)")
    for name, walls in rows.items():
        mid = statistics.median(walls)
        print(f"  {name:<12} {min(walls):6.2f} / {mid:6.2f}  {mid / ctags:5.1f}x ctags")


async def serving(tree: Path, index_dir: Path, queries: int) -> dict[str, float]:
    """Spawn ``symfuse mcp`` on a warm index: the first answer, search latency, RSS."""
    params = StdioServerParameters(
        command=str(SYMFUSE),
        args=["mcp", str(tree), "--index-dir", str(index_dir), "--tools", "all"],
        # all of this process's environment: the SDK passes on only HOME, PATH and a few
        # more, so a before/after run's PYTHONPATH (the code measured) was dropped
        env=dict(os.environ),
    )
    started = time.perf_counter()
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=900) as session,
    ):
        await session.initialize()
        await session.call_tool("search", {"query": "Session"})
        first = time.perf_counter() - started
        passes: list[list[float]] = []
        for _ in range(2):  # right after the first answer (the work ahead runs), then again
            samples: list[float] = []
            for i in range(queries):
                # the in-process pass's queries, each computed: the query cache emptied
                # first, untimed (a number after a repeated one, "Session 1", made three
                # in four of them keyword queries, which the in-process pass never asked)
                await session.call_tool("cache_clear", {})
                began = time.perf_counter()
                await session.call_tool("search", {"query": QUERIES[i % len(QUERIES)]})
                samples.append(time.perf_counter() - began)
            passes.append(sorted(samples))
        rss = _server_rss()
    ordered, steady = passes
    return {
        "first_answer_s": first,
        "p50_ms": statistics.median(ordered) * 1000,
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))] * 1000,
        "steady_p50_ms": statistics.median(steady) * 1000,
        "steady_p95_ms": steady[int(0.95 * (len(steady) - 1))] * 1000,
        "rss_mb": rss,
    }


async def cold_serving(tree: Path, index_dir: Path) -> dict[str, float]:
    """Spawn ``symfuse mcp`` with no index: a name query, then a prose one, as an agent's
    first two calls (each timed from the spawn), and whether the first was by names alone."""
    params = StdioServerParameters(
        command=str(SYMFUSE), args=["mcp", str(tree), "--index-dir", str(index_dir)],
        env=dict(os.environ),
    )  # fmt: skip
    started = time.perf_counter()
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=900) as session,
    ):
        await session.initialize()
        named = await session.call_tool("search", {"query": "Session", "limit": 5})
        name_s = time.perf_counter() - started
        prose = {"query": "how are connections returned to the pool", "limit": 5}
        asked = await session.call_tool("search", prose)
        prose_s = time.perf_counter() - started
        prose_names_only = bool((asked.structured_content or {}).get("names_only"))
        while (asked.structured_content or {}).get("names_only"):  # as its hint says: again
            await asyncio.sleep(0.1)
            asked = await session.call_tool("search", prose)
        ranked_s = time.perf_counter() - started
    answer = named.structured_content or {}
    return {
        "name_s": name_s,
        "prose_s": prose_s,
        "ranked_s": ranked_s,
        "names_only": bool(answer.get("names_only")),
        "prose_names_only": prose_names_only,
    }


def _server_rss() -> float:
    """The RSS of the ``symfuse mcp`` this run spawned: a child of this process (the
    newest one on the machine may be another user's, and was: a tests' 100 MB server)."""
    found = subprocess.run(
        ["pgrep", "-n", "-P", str(os.getpid()), "-f", "symfuse mcp"],
        capture_output=True,
        text=True,
        check=False,
    )
    pid = found.stdout.strip()
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def in_process(tree: Path, index_dir: Path, queries: int) -> dict[str, float]:
    from symfuse.indexer.update.workspace import update_index
    from symfuse.ranking.api import SearchRequest, prepare, search

    config = IndexConfig(roots=(tree,), index_dir=index_dir, progress=False)
    index, _ = update_index(config)
    prepared = prepare(index, config.store.directory)
    # as a server's warming thread does once they are built (code older than the suffix
    # arrays, measured for a before/after, has none)
    suffixes = getattr(prepared.names, "index_suffixes", None)
    if suffixes is not None:
        suffixes()
    samples = []
    for i in range(queries):
        began = time.perf_counter()
        search(index, SearchRequest(query=QUERIES[i % len(QUERIES)]), prepared=prepared)
        samples.append(time.perf_counter() - began)
    ordered = sorted(samples)
    return {
        "p50_ms": statistics.median(ordered) * 1000,
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))] * 1000,
    }


def size_mb(path: Path) -> float:
    total = sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())
    return total / 1e6


def source_mb(tree: Path) -> tuple[float, int]:
    config = IndexConfig(roots=(tree,), progress=False)
    files = discover(tree, config.discovery()).candidates
    size = sum(f.size for f in files)
    lines = sum(Path(f.abs_path).read_bytes().count(b"\n") for f in files)
    return size / 1e6, lines


def median_run(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's median over ``runs`` (peak RSS: the largest of them)."""
    return {
        key: (max if key == "peak_mb" else statistics.median)([run[key] for run in runs])
        for key in runs[0]
    }


def _paired(
    ours: list[dict[str, float]],
    theirs: list[dict[str, float]],
    combine: Callable[[float, float], float],
) -> float:
    """The median over the runs of ``combine`` of one run's two wall times."""
    pairs = zip(ours, theirs, strict=True)
    return statistics.median(combine(a["wall_s"], b["wall_s"]) for a, b in pairs)


def measure(tree: Path, queries: int, repeat: int) -> dict[str, Any]:
    """The figures of ``tree``; the cold and warm starts ``repeat`` times each, ctags,
    parse-only and the index alternating (one run of each swings by a third on a busy
    2-core machine), reported as medians and medians of each run's ratios."""
    jobs = os.cpu_count() or 1
    out: dict[str, Any] = {"tree": str(tree), "repeat": repeat}
    out["source_mb"], out["lines"] = source_mb(tree)
    with tempfile.TemporaryDirectory(prefix="symfuse-large-") as tmp:
        tags = Path(tmp) / "tags"
        runs: dict[str, list[dict[str, float]]] = {
            "ctags": [], "parse_only": [], "index": [], "first_search": []
        }  # fmt: skip
        for attempt in range(repeat):
            index_dir = Path(tmp) / f"index-{attempt}"
            if attempt:
                shutil.rmtree(Path(tmp) / f"index-{attempt - 1}")
            runs["ctags"].append(timed(["ctags", "-R", "-f", str(tags), str(tree)]))
            runs["parse_only"].append(parse_only(tree, jobs))
            where = [str(tree), "--index-dir", str(index_dir), "--no-progress"]
            runs["index"].append(timed([str(SYMFUSE), "index", *where]))
            search = [str(SYMFUSE), "search", "Session", *where, "--limit", "5"]
            runs["first_search"].append(timed(search))
        out["runs"] = runs
        for name, measured in runs.items():
            out[name] = median_run(measured)
        out["ratios"] = {
            "index_over_parse": _paired(runs["index"], runs["parse_only"], lambda i, p: i / p),
            "index_over_ctags": _paired(runs["index"], runs["ctags"], lambda i, c: i / c),
            "cold_start_s": _paired(runs["index"], runs["first_search"], lambda i, f: i + f),
        }
        out["cold_serving"] = asyncio.run(cold_serving(tree, Path(tmp) / "index-mcp-cold"))
        shutil.rmtree(Path(tmp) / "index-mcp-cold")
        alone = ["env", "SYMFUSE_RESIDENT=off", *search]
        out["warm_search"] = median_run([timed(alone) for _ in range(repeat)])
        for _ in range(2):  # the resident process: started, then loads the index
            timed(search)
        out["warm_resident"] = median_run([timed(search) for _ in range(max(3, repeat))])
        subprocess.run([str(SYMFUSE), "resident", "stop"], capture_output=True, check=False)
        out["index_mb"] = size_mb(index_dir)
        out["serving"] = asyncio.run(serving(tree, index_dir, queries))
        out["in_process"] = in_process(tree, index_dir, queries)
        edited = max(tree.rglob("*.py"), key=lambda p: p.stat().st_size)  # the worst case
        texts = [QUERIES[i % len(QUERIES)] for i in range(queries)]
        out["lsp"] = asyncio.run(lsp_serving(SYMFUSE, tree, index_dir, texts, edited, 10))
        out["lsp"]["edited"] = str(edited.relative_to(tree))
        out["lsp_raw"] = asyncio.run(raw_latency(SYMFUSE, tree, index_dir, texts))
    return out


def _resident(m: dict[str, Any]) -> str:
    """The warm CLI search answered by the resident process (absent in older figures)."""
    found = m.get("warm_resident")
    return "" if found is None else f"{found['wall_s']:.2f}"


def report(m: dict[str, Any]) -> None:
    index, ctags, floor = m["index"], m["ctags"], m["parse_only"]
    ratios = m["ratios"]
    mcp, local, lsp_ = m["serving"], m["in_process"], m["lsp"]
    peak = max(index["peak_mb"], m["first_search"]["peak_mb"])
    cold = m["cold_serving"]
    rows = [
        ("lines", f"{m['lines']:,}", ""),
        ("cold index wall s", f"{index['wall_s']:.2f}",
         f"{ratios['index_over_parse']:.2f}x parse-only ({floor['wall_s']:.2f} s), "
         f"{ratios['index_over_ctags']:.2f}x ctags ({ctags['wall_s']:.2f} s)"),
        ("cold index CPU s", f"{index['cpu_s']:.2f}",
         f"{index['cpu_s'] / ctags['cpu_s']:.1f}x ctags"),
        ("cold start s (index + first answer)", f"{ratios['cold_start_s']:.2f}", "target <= 5"),
        ("cold start peak RSS MB", f"{peak:.0f}", "target <= 500"),
        ("MCP cold: spawn to a name's answer s", f"{cold['name_s']:.2f}",
         "by names alone" if cold["names_only"] else "fused"),
        ("MCP cold: spawn to a prose answer s", f"{cold['prose_s']:.2f}",
         "by names alone" if cold.get("prose_names_only") else "fused"),
        ("MCP cold: spawn to its ranked answer s", f"{cold.get('ranked_s', 0):.2f}",
         "asked again until fused"),
        ("warm start s (CLI search)", f"{m['warm_search']['wall_s']:.2f}", "target <= 0.8"),
        ("warm CLI search, resident s", _resident(m), "target <= 0.3"),
        ("MCP spawn to first answer s", f"{m['serving']['first_answer_s']:.2f}", "warm index"),
        ("MCP serving RSS MB", f"{m['serving']['rss_mb']:.0f}", "target <= 250 / 600"),
        ("MCP search p50/p95 ms, second pass",
         f"{mcp.get('steady_p50_ms', 0):.1f} / {mcp.get('steady_p95_ms', 0):.1f}",
         "target p95 <= 10"),
        ("MCP search p50/p95 ms", f"{mcp['p50_ms']:.1f} / {mcp['p95_ms']:.1f}",
         "target p95 <= 10"),
        ("in-process p50/p95 ms", f"{local['p50_ms']:.1f} / {local['p95_ms']:.1f}",
         "target p95 <= 5"),
        ("LSP workspace/symbol p50/p95 ms", f"{lsp_['p50_ms']:.1f} / {lsp_['p95_ms']:.1f}",
         "target p95 <= 10"),
        ("LSP, bare JSON client, p50/p95 ms",
         f"{m['lsp_raw']['p50_ms']:.1f} / {m['lsp_raw']['p95_ms']:.1f}", "target p95 <= 10"),
        ("LSP edit visible p50/max ms", f"{lsp_['edit_p50_ms']:.0f} / {lsp_['edit_max_ms']:.0f}",
         f"target <= 150 ({lsp_['edited']})"),
        ("index on disk MB", f"{m['index_mb']:.0f}",
         f"{m['index_mb'] / m['source_mb']:.2f}x source ({m['source_mb']:.0f} MB)"),
    ]  # fmt: skip
    print(f"\n{m['tree']} (cold and warm starts: medians of {m['repeat']} runs)")
    for name, value, note in rows:
        print(f"  {name:<38} {value:>14}  {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trees", default="sqlalchemy,large", help="sqlalchemy, large")
    parser.add_argument(
        "--tree",
        type=Path,
        action="append",
        default=[],
        help="a folder of Python to measure instead of --trees (repeatable)",
    )
    parser.add_argument(
        "--source",
        type=Path,
        default=None,
        help="measure this checkout's code (indexer/, ranking/, server/)",
    )
    parser.add_argument("--queries", type=int, default=100, help="searches per latency run")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each cold and warm start")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    parser.add_argument(
        "--floor", action="store_true", help="the cold index against ctags and its floors only"
    )
    args = parser.parse_args()  # fmt: skip
    if args.source is not None:
        _run_on(args.source)
    print(f"code: {Path(_cli.__file__).resolve().parent.parent.parent}")
    if shutil.which("ctags") is None:
        corpus_mod.ensure_apt(["universal-ctags"])
    if args.floor:
        for tree in args.tree or [tree_of(SQLALCHEMY, "sqlalchemy")]:
            floor(tree.resolve(), args.repeat)
        return
    figures = []
    trees = [(tree, ()) for tree in args.tree] or [
        (None, SQLALCHEMY if name == "sqlalchemy" else LARGE) for name in args.trees.split(",")
    ]
    for n, (given, specs) in enumerate(trees):
        tree = given or tree_of(specs, args.trees.split(",")[n])
        measured = measure(tree.resolve(), args.queries, args.repeat)
        report(measured)
        figures.append(measured)
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1))


def _run_on(source: Path, script: str = __file__) -> NoReturn:
    """Run this script again with ``source``'s code first on ``PYTHONPATH`` (a ``symfuse/``
    folder linking to its three folders: the editable install's finder comes after it), so
    that this process, the ``symfuse`` command and the servers it spawns all run it."""
    source = source.resolve()
    overlay = Path(tempfile.mkdtemp(prefix="symfuse-code-"))
    (overlay / "symfuse").mkdir()
    for package in ("indexer", "ranking", "server"):
        if not (source / package).is_dir():
            raise SystemExit(f"--source {source}: no {package} folder")
        (overlay / "symfuse" / package).symlink_to(source / package)
        # its bytecode: an unpacked tree has none, and with PYTHONDONTWRITEBYTECODE set
        # every start would compile every module
        compileall.compile_dir(str(source / package), quiet=1)
    words = sys.argv[1:]
    at = words.index("--source")
    rest = words[:at] + words[at + 2 :]
    paths = os.pathsep.join(p for p in (str(overlay), os.environ.get("PYTHONPATH", "")) if p)
    os.execve(sys.executable, [sys.executable, script, *rest], {**os.environ, "PYTHONPATH": paths})


if __name__ == "__main__":
    main()
