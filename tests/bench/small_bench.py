"""Small repositories (issue 39): the first answer on a repository an agent has never seen.

    python tests/bench/small_bench.py                           # this checkout, every repository
    python tests/bench/small_bench.py --repos pallets/click,spf13/cobra --repeat 1
    python tests/bench/small_bench.py --repos all --repeat 1 --cli-runs 1   # 38 repositories
    python tests/bench/small_bench.py --source /tmp/before --source .   # before/after, one run
    python tests/bench/small_bench.py --importtime --source /tmp/before --source .

Repositories: 11 public projects of 9-38k lines (every file symfuse indexes, docs included)
in 9 languages (Python, Go, JavaScript, TypeScript, C#, C, Ruby, PHP, Rust), and, when named
with ``--repos``, five of 55-60k (Java, Kotlin, Lua, Zig), with ``--repos all`` those and
22 more of 9-369k (``WIDE``: 38 repositories in 18 languages), each pinned to a commit and
written out once with ``git archive`` from its bare mirror ``<mirrors>/<owner>+<name>/repo``
(``--mirrors`` or ``SYMFUSE_MIRRORS``, default ``/work/.mirror``; the ``fetch`` tool's
``github:owner/name`` makes one) under ``tests/bench/.corpus/small/`` (git-ignored). A
repository whose mirror is missing is reported as NOT MEASURED and the others go on.

Per repository, each measured in this run, ``--repeat`` times, the codes alternating:

1. references: ``ctags -R`` (wall) and tree-sitter parse-only (every file the index reads,
   parsed and dropped, in one process per core);
2. cold ``symfuse index`` on a fresh index directory (wall, CPU, peak RSS);
3. MCP fresh: ``symfuse mcp`` spawned on a fresh index directory, a real MCP client (the
   SDK's ``ClientSession`` over stdio): spawn to the first answer of a name query, whether
   that answer was ranked (fused) or by names alone, then spawn to the answer of a prose
   query, and the server's RSS then;
4. MCP warm: ``symfuse mcp`` spawned on the index (and ranking structures) step 3 left:
   spawn to the first answer of the name query;
5. warm CLI query: ``symfuse search NAME`` on that index (median of ``--cli-runs``, the codes
   alternating query by query: wall, and its user + sys CPU, which moves less with the load),
   in its own process (``SYMFUSE_RESIDENT=off``) and answered by the resident process the
   first command started, once that holds the index (server/cli/resident.py); the resident
   processes are stopped after.

Ratios are to ``ctags -R`` of the same run; the summary gives p50 and max over the
repositories of each figure. Goals (issue 39): MCP fresh p50 <= 1.0 s, max <= 3 s; MCP warm
<= 0.8 s; warm CLI query <= 0.3 s.

**Codes** (``--source DIR``, repeatable; default: the code this environment runs): each DIR
is a checkout holding ``indexer/``, ``ranking/`` and ``server/`` (a git worktree, or
``git archive REV indexer ranking server`` unpacked). Its commands run as this
environment's ``symfuse`` console script (``symfuse.server.cli.launch:main``, pyproject.toml;
``python -m symfuse.server.cli.main`` where there is none), with this environment's
interpreter and packages, and a ``PYTHONPATH`` whose ``symfuse/`` links to DIR's three
folders (the editable install's finder comes after ``PYTHONPATH``); the MCP client passes
the whole environment on, so the server runs DIR's code too. Which files each code imports
from is checked and printed first.

``--importtime``: instead of timing, the import time of ``symfuse mcp`` (spawn on a built
index, first answer, exit) and of ``symfuse search``, per code: ``-X importtime``'s
cumulative microseconds summed over the top-level imports of the command's own process
(its worker processes are not counted), the largest of them listed. For the server, whose
threads import at the same time, the modules it imported are imported again in the same
order by one thread of a fresh process (``-X importtime`` counts wall time, so imports
running beside other threads would count those threads' work too). Import time is
steadier than wall time on a busy machine, but still moves with it: compare codes measured
in the same run.

Never run the timed part beside other work on the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus as corpus_mod
from large_bench import parse_only, source_mb, timed
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

HERE = Path(__file__).resolve().parent
CORPUS = HERE / ".corpus" / "small"
DEFAULT_MIRRORS = Path(os.environ.get("SYMFUSE_MIRRORS", "/work/.mirror"))
CLI_MODULE = "symfuse.server.cli.main"  # the console script: symfuse.server.cli.launch:main
SYMFUSE = Path(sys.executable).with_name("symfuse")  # this environment's console script
READ_TIMEOUT = 600  # seconds: only turns a hung server into a failure


@dataclass(frozen=True, slots=True)
class Repo:
    """A repository at a commit, a name an agent would look up in it and a sentence."""

    repo: str  # owner/name
    commit: str
    language: str
    name: str
    prose: str

    @property
    def key(self) -> str:
        return self.repo.replace("/", "+")

    @property
    def root(self) -> Path:
        return CORPUS / f"{self.key}-{self.commit[:12]}"


REPOS = (
    Repo("pallets/click", "2c8cd3ac958a7eb316d67f2d316c27086c4c0369", "python",
         "Context", "parse the command line arguments"),
    Repo("encode/httpx", "ae1b9f66238f75ced3ced5e4485408435de10768", "python",
         "AsyncClient", "follow redirects of a response"),
    Repo("gin-gonic/gin", "dcaa4296d111981ffb31ac3eba90bb63e1eb5ab9", "go",
         "Context", "bind the request body as JSON"),
    Repo("spf13/cobra", "adbc8813901bba65827259daa8e22ff94ec1f30e", "go",
         "Command", "generate shell completion for bash"),
    Repo("expressjs/express", "a3714473feb3d2908add734d340e7755fd85e0a3", "javascript",
         "Router", "send a file as the response"),
    Repo("sindresorhus/ky", "3419113b48e034fdcf8fa6bd3be3da7b3d0d758f", "typescript",
         "HTTPError", "retry a request after a timeout"),
    Repo("jbogard/MediatR", "8a64581e2570e7410c5f44835d9ea112beccbe6b", "csharp",
         "Mediator", "send a request to its handler"),
    Repo("redis/hiredis", "29ea2791c102fdffff350f1ea6e04d1f71903d0d", "c",
         "redisContext", "parse a reply from the server"),
    Repo("rack/rack", "8bf4eb078498edc9105fb04add80d89c5340e60b", "ruby",
         "Request", "parse multipart form data"),
    Repo("guzzle/guzzle", "2779e868a00289e1b1fd854af030c43a06f4bcb4", "php",
         "Client", "send an asynchronous request"),
    Repo("serde-rs/json", "827a315bf2198558f0325b07bcc1e2cd973aba2f", "rust",
         "Deserializer", "parse a number from a string"),
)  # fmt: skip
# Just over 50k indexed lines (with docs and data): measured when named with --repos.
LARGER = (
    Repo("google/gson", "9835b6f90192f79cdf5300c528fc6212455fb6c1", "java",
         "JsonReader", "serialize an object to JSON"),
    Repo("jhy/jsoup", "46b620860af930eedc193a705eaf7cea5aec89a6", "java",
         "Element", "select elements with a CSS query"),
    Repo("square/okio", "4164f2976ac7174f3d35d52150e8ffbdbe0acbec", "kotlin",
         "Buffer", "read bytes from a source into a sink"),
    Repo("luarocks/luarocks", "2d2cc8eff2f03c23d142f8059146fb241dcf56b5", "lua",
         "install", "download a rock from a server"),
    Repo("zigtools/zls", "113f79a1d120cfda4cf758bc41273d8d15b4e46a", "zig",
         "DocumentStore", "find the definition of a symbol"),
)  # fmt: skip


# The second row asks the same of many public repositories (its figure: 49, median
# 20k lines): with ``--repos all`` these 22 more from this machine's mirrors, pinned, in 11
# languages (Swift, Scala, Elixir, C++ and Haskell among them), of 9k to 369k indexed lines
# (median 33k; fastapi's translated docs, redis, tokio and zod above 100k).
WIDE = (
    Repo("Alamofire/Alamofire", "7595cbcf59809f9977c5f6378500de2ad73b7ddb", "swift",
         "Session", "validate the status code of a response"),
    Repo("com-lihaoyi/os-lib", "e237000cbd4d97a4c4463df43d64556130d2bc50", "scala",
         "Path", "copy a folder recursively"),
    Repo("elixir-ecto/db_connection", "0c6e67bf1b90cdd7c9c2f63aa60d2d785f206460", "elixir",
         "DBConnection.Ownership", "check out a connection from the pool"),
    Repo("fmtlib/fmt", "60ccad511fd680cb91d8b60a315759f71c67bef9", "cpp",
         "format_to", "format a floating point number"),
    Repo("haskell/aeson", "40b03e5334b0571b986528b635fb874a86b31725", "haskell",
         "FromJSON", "decode a JSON value from bytes"),
    Repo("DaveGamble/cJSON", "a29814f285cc531c00223743ad3c55cd38c0dc56", "c",
         "cJSON_Parse", "print a JSON object to a string"),
    Repo("jqlang/jq", "579e6f76cffd7643ba4002a2c3618a5ea710589a", "c",
         "jv_parse", "parse a JSON text"),
    Repo("redis/redis", "4f8cdc2a1ea53e42955af758aabffee67cb455dd", "c",
         "redisServer", "expire keys with a time to live"),
    Repo("labstack/echo", "05489dc1730161df26b72d1ae2a3ba6fb8178fc7", "go",
         "Echo", "bind the request body to a struct"),
    Repo("sirupsen/logrus", "87434bb3a736e2a27d34df66924471714f408d3d", "go",
         "Logger", "format a log entry as JSON"),
    Repo("spf13/viper", "528f7416c4b56a4948673984b190bf8713f0c3c4", "go",
         "Viper", "read a config file"),
    Repo("urfave/cli", "1305a08200f7c4d873e28bd2bbad1ff257c6cfc4", "go",
         "Command", "parse command line flags"),
    Repo("BurntSushi/ripgrep", "3fce3b5bb0236da2df6d99672afb8a719642eca7", "rust",
         "Searcher", "search a file for lines matching a pattern"),
    Repo("sharkdp/fd", "ee20f426ddf338ac7ead5c5f00ea49258005caaf", "rust",
         "Config", "walk the directory tree in parallel"),
    Repo("tokio-rs/tokio", "ea91b33ca57ff0581b38e735cc108f831bccbdaa", "rust",
         "Runtime", "spawn a task on the runtime"),
    Repo("axios/axios", "23a25af0688d1db2c396deb09229d2271cc24f6c", "javascript",
         "Axios", "cancel a request with a token"),
    Repo("lodash/lodash", "9429a4ee03056e5b7be9a85a54571d7630f05983", "javascript",
         "debounce", "deep clone an object"),
    Repo("colinhacks/zod", "e516c3baf22615e20934116abebfed6c000222c2", "typescript",
         "ZodType", "parse a string as an email"),
    Repo("pallets/flask", "2ac89889f4cc330eabd50f295dcef02828522c69", "python",
         "Flask", "register a blueprint on the app"),
    Repo("psf/requests", "1f6589ec3a1ee910f9a65cc3ceac60b26677bc0e", "python",
         "Session", "retry a request after a connection error"),
    Repo("psf/black", "8947c48ef2077c3a301b03c1e814dc2e3f78436e", "python",
         "Mode", "format a Python source file"),
    Repo("fastapi/fastapi", "c3f316b7e814667e8ee81e03a7330d00ee61e45c", "python",
         "FastAPI", "resolve the dependencies of an endpoint"),
)  # fmt: skip


class NotMeasured(RuntimeError):
    """A repository left out of the run, with the reason."""


def materialise(repo: Repo, mirrors: Path) -> Path:
    """The pinned commit written out with ``git archive`` (once: into a side folder that is
    renamed when whole, so a folder under its final name is always complete)."""
    if repo.root.is_dir():
        return repo.root
    git_dir = mirrors / repo.key / "repo"
    if not git_dir.is_dir():
        raise NotMeasured(f"no mirror at {git_dir} (fetch github:{repo.repo})")
    partial = CORPUS / f".{repo.root.name}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "--git-dir", str(git_dir), "archive", "--format=tar", repo.commit],
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        error = archive.stderr.decode(errors="replace").strip()
        raise NotMeasured(f"git archive {repo.commit[:12]} failed in {git_dir}: {error}")
    with tarfile.open(fileobj=_BytesReader(archive.stdout), mode="r|") as tar:
        tar.extractall(partial, filter=_safe_member)
    partial.rename(repo.root)
    return repo.root


class _BytesReader:
    """A file object over bytes for ``tarfile``'s stream mode."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0

    def read(self, size: int = -1) -> bytes:
        end = len(self.data) if size < 0 else self.at + size
        chunk, self.at = self.data[self.at : end], min(end, len(self.data))
        return chunk


def _safe_member(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    try:
        return tarfile.data_filter(member, dest)
    except tarfile.FilterError:  # a link out of the tree: left out, not a failure
        return None


# --- the code measured ----------------------------------------------------------------------


@dataclass(slots=True)
class Code:
    """One checkout's code, run with this environment's interpreter and packages."""

    label: str
    source: Path | None  # None: what this environment imports (the editable install)
    overlay: Path | None = None  # PYTHONPATH: symfuse/ -> the checkout's three folders
    origin: str = ""  # where symfuse.server came from, checked

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ, **extra)
        if self.overlay is not None:
            env["PYTHONPATH"] = os.pathsep.join(
                p for p in (str(self.overlay), os.environ.get("PYTHONPATH", "")) if p
            )
        return env

    def command(self, *args: str) -> list[str]:
        """The ``symfuse`` console script, as users run it (its module with ``-m`` where
        there is none): with the code's ``PYTHONPATH`` it imports that code."""
        if SYMFUSE.exists():
            return [str(SYMFUSE), *args]
        return [sys.executable, "-m", CLI_MODULE, *args]


def make_code(source: Path | None, label: str, scratch: Path) -> Code:
    code = Code(label, source)
    if source is not None:
        source = source.resolve()
        missing = [p for p in ("indexer", "ranking", "server") if not (source / p).is_dir()]
        if missing:
            raise SystemExit(f"--source {source}: no {', '.join(missing)} folder")
        code.overlay = scratch / f"code-{label}"
        (code.overlay / "symfuse").mkdir(parents=True)
        for package in ("indexer", "ranking", "server"):
            (code.overlay / "symfuse" / package).symlink_to(source / package)
    probe = "import symfuse.server.cli.main as m; print(m.__file__)"
    found = subprocess.run(
        [sys.executable, "-c", probe], env=code.env(), capture_output=True, text=True, check=True
    )
    code.origin = str(Path(found.stdout.strip()).resolve().parent.parent.parent)
    if source is not None and Path(code.origin) != source:
        raise SystemExit(f"--source {source}: the code imported is {code.origin}'s")
    compiled(Path(code.origin))
    return code


def compiled(checkout: Path) -> None:
    """Write the bytecode of a checkout's three folders: with PYTHONDONTWRITEBYTECODE set
    (as on the benchmark machine) a tree unpacked by ``git archive`` has none and would
    compile every module at every start, a cost the code itself does not have."""
    for package in ("indexer", "ranking", "server"):
        compileall.compile_dir(str(checkout / package), quiet=1)


# --- one repository, one code -----------------------------------------------------------------


@dataclass(slots=True)
class Run:
    """The figures of one code on one repository, one attempt."""

    index: dict[str, float] = field(default_factory=dict)
    fresh: dict[str, Any] = field(default_factory=dict)
    warm_mcp_s: float = 0.0
    cli_s: float = 0.0
    cli_cpu_ms: float = 0.0  # the warm CLI query's user + sys CPU, median of the runs
    cli_resident_s: float = 0.0  # the same query answered by the resident process


async def mcp_first(code: Code, root: Path, index_dir: Path, queries: list[str]) -> dict[str, Any]:
    """Spawn ``symfuse mcp`` on ``root`` and ask ``queries`` in turn: seconds from the spawn
    to each answer, whether the first was by names alone, the server's RSS after them."""
    params = StdioServerParameters(
        command=code.command()[0],
        args=[*code.command()[1:], "mcp", str(root), "--index-dir", str(index_dir)],
        env=code.env(),
    )
    started = time.perf_counter()
    answers: list[float] = []
    names_only = False
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=READ_TIMEOUT) as session,
    ):
        await session.initialize()
        for query in queries:
            result = await session.call_tool("search", {"query": query, "limit": 5})
            answers.append(time.perf_counter() - started)
            if result.is_error:
                raise RuntimeError(f"search {query!r} failed: {result.content}")
            if len(answers) == 1:
                names_only = bool((result.structured_content or {}).get("names_only"))
        rss = _server_rss()
    return {"answers_s": answers, "names_only": names_only, "rss_mb": rss}


def _server_rss() -> float:
    """The RSS of the newest child of this process (the server the client spawned)."""
    found = subprocess.run(
        ["pgrep", "-n", "-P", str(os.getpid())], capture_output=True, text=True, check=False
    )
    try:
        status = Path(f"/proc/{found.stdout.strip()}/status").read_text()
    except OSError:
        return float("nan")
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def measure_code(code: Code, repo: Repo, root: Path, scratch: Path) -> Run:
    """Steps 2-4 of the module's list for one code; step 5 is :func:`measure_cli`'s."""
    run = Run()
    cold, fresh = scratch / "index-cold", _mcp_index(scratch, code)
    for stale in (cold, fresh):
        shutil.rmtree(stale, ignore_errors=True)
    where = [str(root), "--index-dir", str(cold), "--no-progress"]
    run.index = _timed(code, ["index", *where])
    run.fresh = asyncio.run(mcp_first(code, root, fresh, [repo.name, repo.prose]))
    warm = asyncio.run(mcp_first(code, root, fresh, [repo.name]))
    run.warm_mcp_s = warm["answers_s"][0]
    return run


def _mcp_index(scratch: Path, code: Code) -> Path:
    return scratch / f"index-mcp-{code.label}"


def measure_cli(
    codes: list[Code], runs: list[Run], repo: Repo, root: Path, scratch: Path, cli_runs: int
) -> None:
    """Step 5: each code's warm ``symfuse search`` on the index its MCP runs left, the
    codes alternating query by query (A B B A ...), so that both meet the same load: in
    its own process (``SYMFUSE_RESIDENT=off``), then answered by the resident process the
    first command started, once it holds the index (a code without one: its own process
    again). The resident processes are stopped after."""
    searches = {
        code.label: ["search", repo.name, str(root), "--index-dir", str(_mcp_index(scratch, code))]
        for code in codes
    }
    modes = {"alone": {"SYMFUSE_RESIDENT": "off"}, "resident": {}}
    queries: dict[tuple[str, str], list[dict[str, float]]] = {
        (code.label, mode): [] for code in codes for mode in modes
    }
    for code in codes:  # untimed: a first write; the resident process starts, then loads
        for _ in range(2):
            _timed(code, [*searches[code.label], "--limit", "5"])
    for i in range(cli_runs):
        for code in codes if i % 2 == 0 else codes[::-1]:
            for mode, extra in modes.items():
                found = _timed(code, [*searches[code.label], "--limit", "5"], extra)
                queries[code.label, mode].append(found)
    for code, run in zip(codes, runs, strict=True):
        alone, resident = queries[code.label, "alone"], queries[code.label, "resident"]
        run.cli_s = statistics.median(q["wall_s"] for q in alone)
        run.cli_cpu_ms = statistics.median(q["cpu_ms"] for q in alone)
        run.cli_resident_s = statistics.median(q["wall_s"] for q in resident)
        stop = code.command("resident", "stop")
        subprocess.run(stop, env=code.env(), capture_output=True, check=False)


def _timed(code: Code, args: list[str], extra: dict[str, str] | None = None) -> dict[str, float]:
    """:func:`large_bench.timed` with the code's environment, and ``cpu_ms``: the user + sys
    CPU of the command's process tree from ``getrusage`` (GNU time's own, about a
    millisecond, included), finer than GNU time's hundredths of a second."""
    saved = dict(os.environ)
    os.environ.update(code.env(**(extra or {})))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        found = timed(code.command(*args))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {**found, "cpu_ms": used * 1000}


def measure_repo(
    repo: Repo, root: Path, codes: list[Code], repeat: int, cli_runs: int
) -> dict[str, Any]:
    """Every figure of ``repo``: the references and each code's, ``repeat`` times, the
    codes alternating (medians; peak RSS the largest)."""
    jobs = os.cpu_count() or 1
    mb, lines = source_mb(root)
    ctags: list[float] = []
    parse: list[float] = []
    runs: dict[str, list[Run]] = {code.label: [] for code in codes}
    with tempfile.TemporaryDirectory(prefix="symfuse-small-") as tmp:
        scratch = Path(tmp)
        for _ in range(repeat):
            ctags.append(timed(["ctags", "-R", "-f", str(scratch / "tags"), str(root)])["wall_s"])
            parse.append(parse_only(root, jobs)["wall_s"])
            made = [measure_code(code, repo, root, scratch) for code in codes]
            measure_cli(codes, made, repo, root, scratch, cli_runs)
            for code, run in zip(codes, made, strict=True):
                runs[code.label].append(run)
    return {
        "repo": repo.repo,
        "commit": repo.commit,
        "language": repo.language,
        "lines": lines,
        "source_mb": mb,
        "ctags_s": statistics.median(ctags),
        "parse_s": statistics.median(parse),
        "codes": {label: _medians(measured) for label, measured in runs.items()},
    }


def _medians(runs: list[Run]) -> dict[str, float]:
    def med(values: list[float]) -> float:
        return statistics.median(values)

    return {
        "index_s": med([r.index["wall_s"] for r in runs]),
        "index_cpu_s": med([r.index["cpu_s"] for r in runs]),
        "index_peak_mb": max(r.index["peak_mb"] for r in runs),
        "mcp_fresh_s": med([r.fresh["answers_s"][0] for r in runs]),
        "mcp_fresh_prose_s": med([r.fresh["answers_s"][1] for r in runs]),
        "names_only": float(any(r.fresh["names_only"] for r in runs)),
        "mcp_rss_mb": max(r.fresh["rss_mb"] for r in runs),
        "mcp_warm_s": med([r.warm_mcp_s for r in runs]),
        "cli_s": med([r.cli_s for r in runs]),
        "cli_cpu_ms": med([r.cli_cpu_ms for r in runs]),
        "cli_resident_s": med([r.cli_resident_s for r in runs]),
    }


# --- the report -------------------------------------------------------------------------------

FIGURES = (
    # key, heading, goal (or "")
    ("index_s", "cold index s", "<= 3x ctags"),
    ("mcp_fresh_s", "MCP fresh: first answer s", "p50 <= 1.0, max <= 3"),
    ("mcp_fresh_prose_s", "MCP fresh: prose answer s", ""),
    ("mcp_warm_s", "MCP warm: first answer s", "<= 0.8"),
    ("cli_s", "warm CLI query s", "<= 0.3"),
    ("cli_cpu_ms", "warm CLI query CPU ms", ""),
    ("cli_resident_s", "warm CLI query, resident process s", "<= 0.3"),
    ("index_peak_mb", "cold index peak RSS MB", ""),
    ("mcp_rss_mb", "MCP fresh: RSS MB", ""),
)


def report(results: list[dict[str, Any]], codes: list[Code]) -> None:
    labels = [code.label for code in codes]
    print("\nPer repository and code: seconds (x: the ratio to ctags -R of the same run)")
    print(
        f"{'repository':<20} {'language':<10} {'lines':>7} {'ctags':>5} {'parse':>5}  "
        f"{'code':<10} {'cold index':>12} {'MCP fresh':>12} {'prose':>5} "
        f"{'MCP warm':>8} {'CLI':>5} {'resident':>8} {'RSS MB':>6}"
    )
    for r in results:
        for n, label in enumerate(labels):
            c = r["codes"][label]
            head = (
                f"{r['repo']:<20} {r['language']:<10} {r['lines']:>7,} "
                f"{r['ctags_s']:>5.2f} {r['parse_s']:>5.2f}"
                if n == 0
                else " " * 51
            )
            fresh = _x(c["mcp_fresh_s"], r) + ("n" if c["names_only"] else " ")
            print(
                f"{head}  {label[:10]:<10} {_x(c['index_s'], r):>12} {fresh:>12} "
                f"{c['mcp_fresh_prose_s']:>5.2f} {c['mcp_warm_s']:>8.2f} {c['cli_s']:>5.2f} "
                f"{c['cli_resident_s']:>8.2f} {c['mcp_rss_mb']:>6.0f}"
            )
    print("(n: the first answer came by names alone; RSS: the MCP server after two answers)")
    summary(results, labels)


def _x(value: float, r: dict[str, Any]) -> str:
    return f"{value:.2f} ({value / r['ctags_s']:.0f}x)"


def summary(results: list[dict[str, Any]], labels: list[str]) -> None:
    print(f"\nOver {len(results)} repositories: p50 / max (ratio to ctags: p50 / max)")
    print(f"{'figure':<28} " + " ".join(f"{label[:24]:>34}" for label in labels) + "  goal")
    for key, heading, goal in FIGURES:
        cells = []
        for label in labels:
            values = [r["codes"][label][key] for r in results]
            cell = f"{statistics.median(values):.2f} / {max(values):.2f}"
            if key.endswith("_s"):
                ratios = [r["codes"][label][key] / r["ctags_s"] for r in results]
                cell += f" ({statistics.median(ratios):.0f}x / {max(ratios):.0f}x)"
            cells.append(f"{cell:>34}")
        print(f"{heading:<28} " + " ".join(cells) + f"  {goal}")
    for key, heading in (("ctags_s", "ctags -R s"), ("parse_s", "tree-sitter parse-only s")):
        values = [r[key] for r in results]
        print(f"{heading:<28} {statistics.median(values):.2f} / {max(values):.2f}")


# --- import time ------------------------------------------------------------------------------

# The command's own process alone: the variable is dropped before anything starts, so the
# worker processes it spawns (parsers, fork server) are not profiled into the same stderr.
_LAUNCH = (
    "import os, runpy, sys; os.environ.pop('PYTHONPROFILEIMPORTTIME', None); "
    f"sys.argv[0] = 'symfuse'; runpy.run_module({CLI_MODULE!r}, run_name='__main__')"
)
_IMPORT_LINE = re.compile(r"import time:\s+\d+ \|\s+(\d+) \|( +)(\S+)")


def top_imports(stderr: str) -> list[tuple[int, str]]:
    """The top-level imports of ``-X importtime`` output: (cumulative µs, module), largest
    first."""
    found = []
    for line in stderr.splitlines():
        match = _IMPORT_LINE.match(line)
        if match and len(match.group(2)) == 1:
            found.append((int(match.group(1)), match.group(3)))
    return sorted(found, reverse=True)


async def _mcp_importtime(code: Code, root: Path, index_dir: Path, name: str, log: Path) -> None:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", _LAUNCH, "mcp", str(root), "--index-dir", str(index_dir)],
        env=code.env(PYTHONPROFILEIMPORTTIME="1"),
    )
    with log.open("w") as errlog:
        async with (
            stdio_client(params, errlog=errlog) as (read, write),
            ClientSession(read, write, read_timeout_seconds=READ_TIMEOUT) as session,
        ):
            await session.initialize()
            await session.call_tool("search", {"query": name, "limit": 5})


_REIMPORT = (
    "import importlib, sys\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        importlib.import_module(name)\n"
    "    except Exception:\n"
    "        pass\n"
)


def server_modules(code: Code, root: Path, index_dir: Path, name: str, log: Path) -> list[str]:
    """The top-level imports of ``symfuse mcp`` spawned on a built index, until its first
    answer and exit, in the order they completed."""
    asyncio.run(_mcp_importtime(code, root, index_dir, name, log))
    order = [m for line in log.read_text().splitlines() if (m := _top_module(line))]
    return [m for m in dict.fromkeys(order) if not m.startswith("__")]


def _top_module(line: str) -> str | None:
    match = _IMPORT_LINE.match(line)
    return match.group(3) if match and len(match.group(2)) == 1 else None


def imported(code: Code, args: list[str]) -> list[tuple[int, str]]:
    """``-X importtime`` of one process of this code, its top-level imports."""
    done = subprocess.run(
        [sys.executable, "-c", *args],
        env=code.env(PYTHONPROFILEIMPORTTIME="1"),
        capture_output=True,
        text=True,
        check=True,
    )
    return top_imports(done.stderr)


def importtime(codes: list[Code], repo: Repo, root: Path, repeat: int) -> None:
    """Import time of ``symfuse mcp`` (built index, one answer) and ``symfuse search``.

    A server imports on several threads at once (its index service starts before the
    MCP SDK loads), and ``-X importtime`` counts an import's wall time, waits for the
    interpreter included: the modules the server imported are imported again, in the same
    order, by one thread of a fresh process, and that is what is summed."""
    with tempfile.TemporaryDirectory(prefix="symfuse-imports-") as tmp:
        scratch = Path(tmp)
        modules: dict[str, list[str]] = {}
        for code in codes:  # each its own index (another code's may be of another version)
            index_dir = scratch / f"index-{code.label}"
            asyncio.run(mcp_first(code, root, index_dir, [repo.name]))  # index + structures
            log = scratch / "mcp.err"
            modules[code.label] = server_modules(code, root, index_dir, repo.name, log)
        totals: dict[tuple[str, str], list[int]] = {}
        largest: dict[tuple[str, str], list[tuple[int, str]]] = {}
        for _ in range(repeat):
            for code in codes:
                index_dir = scratch / f"index-{code.label}"
                search = ["search", repo.name, str(root), "--index-dir", str(index_dir)]
                measured = {
                    "mcp": imported(code, [_REIMPORT, *modules[code.label]]),
                    "search": imported(code, [_LAUNCH, *search]),
                }
                for command, tops in measured.items():
                    totals.setdefault((code.label, command), []).append(sum(t for t, _ in tops))
                    largest[(code.label, command)] = tops[:8]
    print(f"\nImport time, ms (-X importtime, top-level cumulative; {root.name}; {repeat} runs)")
    for (label, command), values in totals.items():
        runs = ", ".join(f"{v / 1000:.0f}" for v in values)
        print(f"  {label:<12} symfuse {command:<7} median {statistics.median(values) / 1000:6.0f}"
              f"  ({runs})")  # fmt: skip
        print("      " + ", ".join(f"{m} {t / 1000:.0f}" for t, m in largest[(label, command)]))


# --- main -------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument(
        "--repos", default="", help="owner/name,... or all (default: the first eleven)"
    )
    parser.add_argument(
        "--source",
        type=Path,
        action="append",
        default=[],
        help="a checkout to measure (repeatable; default: this environment's)",
    )
    parser.add_argument(
        "--label",
        action="append",
        default=[],
        help="a name per --source, in order (default: its folder's name)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measure")
    parser.add_argument("--cli-runs", type=int, default=3, help="warm CLI queries per run")
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument(
        "--importtime",
        action="store_true",
        help="measure import time (first repository) instead of timing",
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    return parser.parse_args()  # fmt: skip


def chosen_repos(names: str) -> list[Repo]:
    if not names:
        return list(REPOS)
    if names == "all":
        return [*REPOS, *LARGER, *WIDE]
    wanted = [n.strip() for n in names.split(",") if n.strip()]
    every = (*REPOS, *LARGER, *WIDE)
    known = {r.repo: r for r in every} | {r.key: r for r in every}
    unknown = [n for n in wanted if n not in known]
    if unknown:
        raise SystemExit(f"unknown repositories: {', '.join(unknown)}")
    return [known[n] for n in wanted]


def main() -> None:
    args = parse_args()
    if shutil.which("ctags") is None:
        corpus_mod.ensure_apt(["universal-ctags"])
    sources: list[Path | None] = list(args.source) or [None]
    labels = list(args.label) + [
        (s.resolve().name if s is not None else "this") for s in sources[len(args.label) :]
    ]
    with tempfile.TemporaryDirectory(prefix="symfuse-codes-") as tmp:
        codes = [make_code(s, label, Path(tmp)) for s, label in zip(sources, labels, strict=True)]
        for code in codes:
            print(f"code {code.label}: {code.origin}")
        print(f"load average: {os.getloadavg()}")
        results = run_all(args, codes)
        print(f"load average: {os.getloadavg()}")
    if results:
        report(results, codes)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=1))


def run_all(args: argparse.Namespace, codes: list[Code]) -> list[dict[str, Any]]:
    results = []
    for repo in chosen_repos(args.repos):
        try:
            root = materialise(repo, args.mirrors)
        except NotMeasured as exc:
            print(f"{repo.repo}: NOT MEASURED: {exc}")
            continue
        if args.importtime:
            importtime(codes, repo, root, args.repeat)
            return []
        measured = measure_repo(repo, root, codes, args.repeat, args.cli_runs)
        results.append(measured)
        figures = {label: round(c["mcp_fresh_s"], 2) for label, c in measured["codes"].items()}
        print(f"{repo.repo}: {measured['lines']:,} lines, MCP fresh first answer {figures}")
    return results


if __name__ == "__main__":
    main()
