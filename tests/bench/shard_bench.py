"""Repository shards on Dask (issue 20): build, serving memory, fan-out latency, agreement.

    python tests/bench/shard_bench.py                 # the ten sdists below
    python tests/bench/shard_bench.py --queries 100

Ten registry sdists (``SPECS``, fetched once by ``corpus.py``), each one repository,
over 1M lines in all. Measured in this run:

1. Build: ``symfuse shards build`` of every repository on a fresh shard directory with
   ``--workers 1`` and ``--workers 2`` (wall); ``symfuse index`` of the same roots as
   one multi-root index for reference.
2. Serving memory: the RSS of each of two Dask workers holding the shards (loaded,
   searched), against the peak RSS of ``symfuse search`` on the combined index (the
   index and its ranking structures in one process).
3. Agreement: for name queries (names of definitions sampled from the combined index),
   the merged top 10 of the shards against the combined index's top 10: same set,
   same order, same first hit, overlap@10; ``--agreement`` measures only the
   agreement, over ``--cases`` queries of every shape and mode (:mod:`shard_agreement`),
   also name-routed with ``--routed``, over shards and a combined index built once in
   ``--work DIR`` and reused by later runs; ``--cluster`` holds the shards on a 2-worker
   LocalCluster, each worker's in one group searched as one index (as served), rather
   than in this process one by one.
4. Fan-out latency through MCP: ``symfuse mcp --shards --scheduler`` (the bench's own
   2-worker cluster) answering ``--queries`` searches through the SDK client (p50/p95),
   and ``symfuse mcp`` on the combined index for reference.
5. The paper model: each shard's RSS in a process of its own (bytes per definition),
   fan-out latency against shard count (1 to 40 shards, the small ones repeated), and
   what 100, 1,000 and 10,000 repositories would need.

Timing figures taken while other work runs on the machine are indicative.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus as corpus_mod
from large_bench import timed
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.update.workspace import load_index
from symfuse.ranking.query import operations
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.server.shards.build import write_global_stats
from symfuse.server.shards.cluster import ClusterOptions, connected
from symfuse.server.shards.fleet import Fleet
from symfuse.server.shards.manifest import (
    GLOBAL_MODELS,
    read_manifest,
    shard_dirs,
    write_manifest,
)

SYMFUSE = Path(sys.executable).with_name("symfuse")
SPECS = (
    "sqlalchemy==2.0.*", "django==5.2.*", "flask==3.1.*", "requests==2.32.*", "click==8.1.*",
    "attrs==25.*", "jinja2==3.1.*", "werkzeug==3.1.*", "rich==13.*", "httpx==0.28.*",
)  # fmt: skip
QUERIES = (
    "Session", "create engine", "QuerySet", "render template", "Flask", "Response",
    "ClientSession", "Console", "Table", "validate", "parse date", "Request", "redirect",
    "connection pool", "ForeignKey", "Environment", "attrib", "Group", "Markup", "url_for",
)  # fmt: skip
SHARD_COUNTS = (1, 2, 5, 10, 20, 40)
REPOSITORY_COUNTS = (100, 1_000, 10_000)  # the paper model's rows (issue 40, item 5)
DEFINITIONS_PER_REPOSITORY = 10_000  # 10^8 definitions over 10,000 repositories


def repositories() -> dict[str, str]:
    """alias -> unpacked sdist of every spec."""
    roots: dict[str, str] = {}
    for spec in SPECS:
        root = corpus_mod.unpack(corpus_mod.pip_sdist(spec))
        roots[spec.split("==")[0]] = str(root)
    return roots


def lines_of(roots: dict[str, str]) -> int:
    total = 0
    for root in roots.values():
        for folder, _dirs, files in os.walk(root):
            for name in files:
                if name.endswith((".py", ".js", ".ts", ".html", ".css", ".txt", ".rst", ".md")):
                    with open(os.path.join(folder, name), "rb") as f:
                        total += f.read().count(b"\n")
    return total


def named(roots: dict[str, str]) -> list[str]:
    return [f"{alias}={path}" for alias, path in roots.items()]


def build(roots: dict[str, str], work: Path) -> dict[str, Any]:
    """Wall and CPU seconds of the shard builds and of the combined index, and of the
    combined index's first search, which makes its ranking structures (a shard build
    makes its shards' pieces and the shared models: the combined index's are made by
    that search, so an index ready to answer is both rows)."""
    out: dict[str, Any] = {}
    for workers in (1, 2):
        target = work / f"shards-{workers}"
        cmd = [str(SYMFUSE), "shards", "build", *named(roots), "--out", str(target)]
        run = timed([*cmd, "--workers", str(workers)])
        out[f"workers_{workers}_s"], out[f"workers_{workers}_cpu_s"] = run["wall_s"], run["cpu_s"]
    combined = [str(SYMFUSE), "index", *named(roots), "--index-dir", str(work / "combined")]
    run = timed([*combined, "--no-progress"])
    out["combined_index_s"], out["combined_index_cpu_s"] = run["wall_s"], run["cpu_s"]
    search = [str(SYMFUSE), "search", "Session", *named(roots)]
    first = timed([*search, "--index-dir", str(work / "combined"), "--no-progress"])
    again = timed([*search, "--index-dir", str(work / "combined"), "--no-progress"])
    out["combined_first_search_s"] = first["wall_s"]
    out["combined_first_search_cpu_s"] = first["cpu_s"]
    out["combined_first_search_peak_mb"] = first["peak_mb"]
    out["combined_warm_search_peak_mb"] = again["peak_mb"]
    return out


def _rss_mb() -> float:
    import psutil

    return float(psutil.Process().memory_info().rss) / 2**20


def name_queries(work: Path, roots: dict[str, str], count: int) -> list[str]:
    """Names of classes and functions spread over the combined index, each once."""
    index = load_index(_combined_config(work, roots))
    assert index is not None
    names = sorted({s.name for s in index.symbols if s.kind.value in ("class", "function")})
    step = max(1, len(names) // count)
    return names[::step][:count]


def _combined_config(work: Path, roots: dict[str, str]) -> IndexConfig:
    return IndexConfig(
        roots=tuple(Path(p) for p in roots.values()),
        names=tuple(roots),
        index_dir=work / "combined",
        progress=False,
    )


def agreement(
    fleet: Fleet, work: Path, roots: dict[str, str], queries: list[str]
) -> dict[str, Any]:
    """How often the merged top 10 equals the combined index's (set, order, first hit)."""
    index = load_index(_combined_config(work, roots))
    assert index is not None
    out: dict[str, Any] = {}
    for semantic in ("off", "auto"):
        same_set = same_order = same_first = 0
        overlap = 0.0
        for query in queries:
            request = SearchRequest.from_mapping(
                {"query": query, "limit": 10, "semantic": semantic}
            )
            merged = [i.symbol.symbol_id for i in fleet.search(request).items]
            answer = operations.search(index, request, directory=work / "combined")
            assert isinstance(answer, SearchResponse)
            combined = [i.symbol.symbol_id for i in answer.items]
            same_set += set(merged) == set(combined)
            same_order += merged == combined
            same_first += merged[:1] == combined[:1]
            overlap += len(set(merged) & set(combined)) / max(1, len(combined))
        n = len(queries)
        out[semantic] = {
            "queries": n,
            "same_set": same_set / n,
            "same_order": same_order / n,
            "same_first": same_first / n,
            "overlap_at_10": overlap / n,
        }
    return out


async def mcp_latency(args: list[str], queries: int) -> dict[str, float]:
    # env: the SDK passes on only HOME, PATH and a few more (PYTHONPATH is dropped)
    params = StdioServerParameters(command=str(SYMFUSE), args=args, env=dict(os.environ))
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=900) as session,
    ):
        await session.initialize()
        await session.call_tool("search", {"query": "Session"})
        samples: list[float] = []
        for i in range(queries):
            query = f"{QUERIES[i % len(QUERIES)]} {i // len(QUERIES) or ''}".strip()
            began = time.perf_counter()
            result = await session.call_tool("search", {"query": query})
            samples.append(time.perf_counter() - began)
            assert not result.is_error, result.content
    return _percentiles(samples)


def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": statistics.median(ordered) * 1000,
        "p95_ms": ordered[int(0.95 * (len(ordered) - 1))] * 1000,
    }


SHARD_RSS = """
import sys
from symfuse.server.shards.holders import ShardHolder

def rss():  # VmRSS: ru_maxrss would carry the parent's peak across exec
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1])

before = rss()
if sys.argv[1] != "-":
    ShardHolder(sys.argv[1]).warm()
print(before, rss())
"""


def shard_memory(out: Path) -> dict[str, Any]:
    """Each shard's RSS in a process of its own once loaded, less an idle process's."""

    def peak(arg: str) -> float:
        done = subprocess.run(
            [sys.executable, "-c", SHARD_RSS, arg], capture_output=True, text=True, check=True
        )
        return int(done.stdout.split()[1]) / 1024

    idle = peak("-")
    shards: dict[str, Any] = {}
    for directory in shard_dirs(out):
        manifest = read_manifest(directory)
        shards[manifest.alias] = {
            "definitions": manifest.counts.get("definitions", 0),
            "mb": peak(str(directory)) - idle,
        }
    defs = sum(s["definitions"] for s in shards.values())
    mb = sum(s["mb"] for s in shards.values())
    return {"idle_mb": idle, "shards": shards, "bytes_per_definition": mb * 2**20 / max(1, defs)}


def replicated(out: Path, work: Path, count: int) -> Path:
    """A shard directory of ``count`` shards: the small ones repeated under new aliases
    (hard-linked files), so that fan-out width grows without the memory of big ones;
    scoring as served, with ``out``'s shared models and their global statistics."""
    target = work / f"fan-{count}"
    if target.exists():
        shutil.rmtree(target)
    small = sorted(shard_dirs(out), key=lambda d: read_manifest(d).counts.get("definitions", 0))
    small = small[:5]
    for at in range(count):
        source = small[at % len(small)]
        manifest = read_manifest(source)
        dest = target / f"{manifest.alias}-{at}"
        shutil.copytree(source, dest, copy_function=os.link)
        (dest / "shard.json").unlink()
        write_manifest(dest, dataclasses.replace(manifest, alias=dest.name))
    os.link(out / GLOBAL_MODELS, target / GLOBAL_MODELS)
    write_global_stats(target)
    return target


def fan_out_curve(client: Any, out: Path, work: Path, rounds: int) -> dict[int, dict[str, float]]:
    """Search latency over 1 to 40 shards (the small ones repeated), and the workers' CPU
    a search (both workers' processes: what the machine's load does not lengthen).

    Every width's fleet is held at once and each query is asked of every width in turn,
    the order turning round by round: the widths' latencies are paired, taken under the
    same load, so that their ratio does not move with what else the machine does from
    one width's minute to the next (it did: the 1-shard p95 of separate runs spread from
    6.5 to 10.3 ms). The workers' CPU is read afterwards, a width at a time."""
    fleets = {count: Fleet(replicated(out, work, count), client) for count in SHARD_COUNTS}
    for fleet in fleets.values():
        fleet.warm()
    requests = [SearchRequest.from_mapping({"query": q}) for q in QUERIES]
    samples: dict[int, list[float]] = {count: [] for count in SHARD_COUNTS}
    widths = list(SHARD_COUNTS)
    for i in range(len(QUERIES) + rounds):  # a first pass over the queries, untimed
        request = requests[i % len(requests)]
        turn = i % len(widths)
        for count in widths[turn:] + widths[:turn]:
            began = time.perf_counter()
            fleets[count].search(request)
            if i >= len(QUERIES):
                samples[count].append(time.perf_counter() - began)
    curve: dict[int, dict[str, float]] = {}
    for count, fleet in fleets.items():
        curve[count] = _percentiles(samples[count])
        asked = max(len(QUERIES), rounds // 4)
        cpu = sum(client.run(_cpu_s).values())
        for i in range(asked):
            fleet.search(requests[i % len(requests)])
        curve[count]["workers_cpu_ms"] = (sum(client.run(_cpu_s).values()) - cpu) / asked * 1e3
    for fleet in fleets.values():
        fleet.close()  # its actors go with the last reference to them
    return curve


def _cpu_s() -> float:
    import resource

    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def per_shard_ms(out: Path, rounds: int) -> float:
    """The mean time one shard, loaded here, takes to answer one search (no fan-out)."""
    from symfuse.server.shards.holders import ShardHolder

    samples: list[float] = []
    for directory in shard_dirs(out):
        holder = ShardHolder(str(directory))
        holder.warm()
        for i in range(rounds):
            request = SearchRequest.from_mapping({"query": QUERIES[i % len(QUERIES)]})
            began = time.perf_counter()
            holder.search(request)
            samples.append(time.perf_counter() - began)
    return statistics.mean(samples) * 1000


def fit(curve: dict[int, dict[str, float]], key: str) -> tuple[float, float]:
    """Least squares ``a + b * shards`` through the curve's ``key`` values (ms)."""
    xs = list(curve)
    ys = [curve[x][key] for x in xs]
    mx, my = statistics.mean(xs), statistics.mean(ys)
    b = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )
    return my - b * mx, b


def model(m: dict[str, Any], worker_gb: float, repositories: int) -> dict[str, Any]:
    """What ``repositories`` repositories of ``DEFINITIONS_PER_REPOSITORY`` each need, on
    paper, from the measured per-shard costs: memory from the bytes per definition, the
    workers that memory takes, and p95 as the fitted fan-out (``a + b`` per call) plus
    the shards one worker searches one after another (one core each, as measured)."""
    definitions = float(repositories * DEFINITIONS_PER_REPOSITORY)
    per_def = m["shard_memory"]["bytes_per_definition"]
    idle_mb = m["shard_memory"]["idle_mb"]
    total_gb = definitions * per_def / 2**30
    workers = max(1, int(-(-total_gb // (worker_gb - idle_mb / 1024))))
    a95, b95 = fit(m["fan_out_curve"], "p95_ms")
    shard_ms = m["per_shard_ms"]
    # A shard's search time taken as proportional to its definitions.
    scale = DEFINITIONS_PER_REPOSITORY / m["definitions_per_repo_measured"]
    per_worker = repositories / workers
    return {
        "repositories": repositories,
        "definitions": definitions,
        "memory_gb": total_gb,
        "worker_gb": worker_gb,
        "workers": workers,
        "memory_per_worker_gb": total_gb / workers + idle_mb / 1024,
        "fan_out_fit_p95_ms": {"a": a95, "b_per_call": b95},
        # one call per worker (ShardGroup), its shards one after another
        "p95_ms": a95 + b95 * workers + per_worker * shard_ms * scale,
        # the same with the shards of a worker spread over 8 cores (processes)
        "p95_ms_8_cores_per_worker": a95 + b95 * workers + per_worker * shard_ms * scale / 8,
    }


def _note(m: dict[str, Any], key: str) -> None:
    """Each figure on stderr as soon as it is measured (a run that fails keeps them)."""
    print(f"[shard_bench] {key}: {json.dumps(m[key], default=str)}", file=sys.stderr, flush=True)


def measure(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    roots = repositories()
    m: dict[str, Any] = {"repositories": len(roots), "lines": lines_of(roots)}
    m["build"] = build(roots, work)
    _note(m, "build")
    out = work / "shards-2"
    defs = [read_manifest(d).counts.get("definitions", 0) for d in shard_dirs(out)]
    m["definitions"] = sum(defs)
    _note(m, "definitions")
    m["definitions_per_repo_measured"] = sum(defs) / len(defs)
    _note(m, "definitions_per_repo_measured")
    with connected(ClusterOptions(workers=2)) as client:
        fleet = Fleet(out, client)
        fleet.warm()
        queries = name_queries(work, roots, args.names)
        m["agreement"] = agreement(fleet, work, roots, queries)
        _note(m, "agreement")
        m["worker_rss_mb"] = list(client.run(_rss_mb).values())
        _note(m, "worker_rss_mb")
        shard_args = ["mcp", "--shards", str(out), "--scheduler", client.scheduler.address]
        m["mcp_shards"] = asyncio.run(mcp_latency(shard_args, args.queries))
        _note(m, "mcp_shards")
        fleet.close()
        m["fan_out_curve"] = fan_out_curve(client, out, work, args.rounds)
        _note(m, "fan_out_curve")
    combined_args = ["mcp", *named(roots), "--index-dir", str(work / "combined"), "--no-watch"]
    m["mcp_combined"] = asyncio.run(mcp_latency(combined_args, args.queries))
    _note(m, "mcp_combined")
    m["shard_memory"] = shard_memory(out)
    _note(m, "shard_memory")
    m["per_shard_ms"] = per_shard_ms(out, args.rounds)
    _note(m, "per_shard_ms")
    m["model"] = [model(m, args.worker_gb, n) for n in REPOSITORY_COUNTS]
    _note(m, "model")
    return m


def report(m: dict[str, Any]) -> None:
    b = m["build"]
    print(
        f"{m['repositories']} repositories, {m['lines']:,} lines, {m['definitions']:,} definitions"
    )
    ready = b["combined_index_s"] + b["combined_first_search_s"]
    print(
        f"build: 1 worker {b['workers_1_s']:.1f} s ({b['workers_1_cpu_s']:.1f} CPU-s), "
        f"2 workers {b['workers_2_s']:.1f} s ({b['workers_2_cpu_s']:.1f}); one multi-root "
        f"index {b['combined_index_s']:.1f} s ({b['combined_index_cpu_s']:.1f}), its first "
        f"search (its ranking structures) {b['combined_first_search_s']:.1f} s "
        f"({b['combined_first_search_cpu_s']:.1f})"
    )
    print(
        f"memory: workers {', '.join(f'{x:.0f}' for x in m['worker_rss_mb'])} MB; combined "
        f"index first search peak {b['combined_first_search_peak_mb']:.0f} MB, warm "
        f"{b['combined_warm_search_peak_mb']:.0f} MB"
    )
    for semantic, a in m["agreement"].items():
        print(
            f"agreement (semantic {semantic}, {a['queries']} name queries): same top-10 set "
            f"{a['same_set']:.2f}, same order {a['same_order']:.2f}, same first hit "
            f"{a['same_first']:.2f}, overlap@10 {a['overlap_at_10']:.3f}"
        )
    s, c = m["mcp_shards"], m["mcp_combined"]
    print(
        f"MCP search: shards p50/p95 {s['p50_ms']:.1f}/{s['p95_ms']:.1f} ms; combined "
        f"{c['p50_ms']:.1f}/{c['p95_ms']:.1f} ms"
    )
    curve = ", ".join(
        f"{k}: {v['p50_ms']:.1f}/{v['p95_ms']:.1f}" for k, v in m["fan_out_curve"].items()
    )
    print(f"fan-out p50/p95 ms by shard count (2 workers): {curve}")
    fan = m["fan_out_curve"]
    print(
        f"acceptance: 40-shard p95 / 1-shard p95 = {fan[40]['p95_ms'] / fan[1]['p95_ms']:.2f} "
        f"(goal <= 2); build on 2 workers / one index = "
        f"{b['workers_2_s'] / b['combined_index_s']:.2f} (goal <= 1.5), / one index and "
        f"its ranking structures = {b['workers_2_s'] / ready:.2f}"
    )
    sm = m["shard_memory"]
    print(
        f"memory per shard: {sm['bytes_per_definition']:.0f} bytes per definition "
        f"(idle worker {sm['idle_mb']:.0f} MB); one shard answers in {m['per_shard_ms']:.1f} ms"
    )
    for mo in m["model"]:
        print(
            f"paper model, {mo['repositories']:,} repositories, {mo['definitions']:.0e} "
            f"definitions: {mo['memory_gb']:.0f} GB of shards, {mo['workers']} workers of "
            f"{mo['worker_gb']:g} GB ({mo['memory_per_worker_gb']:.1f} GB each); p95 "
            f"{mo['p95_ms']:.0f} ms, {mo['p95_ms_8_cores_per_worker']:.0f} ms on 8 cores a worker"
        )
    print("(timings taken beside other work on a shared 2-core machine are indicative)")


def agreement_only(args: argparse.Namespace, work: Path) -> dict[str, Any]:
    """Only the agreement (item 3), over ``work``'s shards and combined index, built
    there first when missing (``--work`` keeps them between runs): ``--cases`` queries of
    every shape and mode (:mod:`shard_agreement`), asking every shard, then routed."""
    import shard_agreement

    roots = repositories()
    out = work / "shards"
    if not (work / "combined").exists():
        combined = [str(SYMFUSE), "index", *named(roots), "--index-dir", str(work / "combined")]
        timed([*combined, "--no-progress"])
    if not out.exists():
        timed([str(SYMFUSE), "shards", "build", *named(roots), "--out", str(out), "--workers", "2"])
    index = load_index(_combined_config(work, roots))
    assert index is not None

    def alone(request: SearchRequest) -> SearchResponse:
        answer = operations.search(index, request, directory=work / "combined")
        assert isinstance(answer, SearchResponse)
        return answer

    cases = shard_agreement.cases(index, args.cases)
    m: dict[str, Any] = {"lines": lines_of(roots), "repositories": len(roots)}
    rows = [("agreement", False)] + ([("agreement_routed", True)] if args.routed else [])
    with contextlib.ExitStack() as stack:
        # holders in this process by default; --cluster: each worker's shards in one group,
        # searched as one index (server/shards/joined.py), as `symfuse shards serve` does
        client = stack.enter_context(connected(ClusterOptions(workers=2))) if args.cluster else None
        for key, routed in rows:
            fleet = Fleet(out, client, route_names=routed)
            fleet.warm()
            extra = json.loads(args.fields) if args.fields else None
            m[key] = shard_agreement.agreement(fleet.search, alone, cases, args.misses, extra)
            m[key]["shards_asked_per_query"] = fleet.asked / max(1, len(cases))
            _note(m, key)
            fleet.close()
    return m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--queries", type=int, default=60, help="MCP searches per server")
    parser.add_argument("--names", type=int, default=100, help="name queries for agreement")
    parser.add_argument("--rounds", type=int, default=200, help="searches per fan-out width")
    parser.add_argument("--worker-gb", type=float, default=16.0, help="memory of one worker")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--agreement", action="store_true", help="measure the agreement only")
    parser.add_argument("--work", type=Path, help="with --agreement: build (once) and reuse here")
    parser.add_argument("--cases", type=int, default=1000, help="--agreement: queries")
    parser.add_argument("--misses", type=int, default=0, help="--agreement: misses to show")
    parser.add_argument("--routed", action="store_true", help="--agreement: also name-routed")
    parser.add_argument(
        "--cluster", action="store_true", help="--agreement: on a 2-worker LocalCluster (groups)"
    )
    parser.add_argument("--fields", help="--agreement: JSON fields added to every request")
    parser.add_argument("--build-only", action="store_true", help="measure the build rows only")
    parser.add_argument("--fan-out", action="store_true", help="the fan-out curve only (--work)")
    args = parser.parse_args()
    if args.build_only:
        with tempfile.TemporaryDirectory(prefix="shard-bench-") as tmp:
            rows = build(repositories(), Path(tmp))
        print(json.dumps({k: round(v, 1) for k, v in rows.items()}))
        ready = rows["combined_index_s"] + rows["combined_first_search_s"]
        print(
            f"build on 2 workers / one index = {rows['workers_2_s'] / rows['combined_index_s']:.2f}"
            f", / one index and its ranking structures = {rows['workers_2_s'] / ready:.2f}"
        )
        return
    if args.fan_out:  # over --work's shards (made by --agreement): the curve alone
        if args.work is None or not (args.work / "shards").exists():
            parser.error("--fan-out reads --work DIR's shards (DIR/shards, made by --agreement)")
        with connected(ClusterOptions(workers=2)) as client:
            curve = fan_out_curve(client, args.work / "shards", args.work, args.rounds)
        for count, row in curve.items():
            print(f"{count} shards: {json.dumps({k: round(v, 1) for k, v in row.items()})}")
        print(f"p95 40 shards / 1 shard = {curve[40]['p95_ms'] / curve[1]['p95_ms']:.2f}")
        return
    if args.agreement:
        work = args.work or Path(tempfile.mkdtemp(prefix="shard-bench-"))
        work.mkdir(parents=True, exist_ok=True)
        m = agreement_only(args, work)
        for key, a in m.items():
            print(f"{key}: {json.dumps(a)}")
        if args.json:
            args.json.write_text(json.dumps(m, indent=2, default=str))
        return
    with tempfile.TemporaryDirectory(prefix="shard-bench-") as tmp:
        m = measure(args, Path(tmp))
    report(m)
    if args.json:
        args.json.write_text(json.dumps(m, indent=2, default=str))


if __name__ == "__main__":
    main()
