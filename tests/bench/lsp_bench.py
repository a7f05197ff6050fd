"""workspace/symbol on the Django source tree: symfuse lsp against pyright, through a real client.

    python tests/bench/lsp_bench.py [--queries 60] [--pyright PATH] [--skip-pyright]

Both servers run over stdio under pygls' LanguageClient, on the same tree, with
the same queries generated from Django's own definitions (seeded):

- exact: the name as written;            prefix: its first ~60 % (at least 4 characters);
- typo: two inner letters swapped;       camel-hump: the capitals of a CamelCase name (``HRR``).

A query hits when the definition it came from (name and file) is in the top 5.
Reported: round-trip latency p50/p95 per server, top-5 hit rate per category, and
the time from ``initialize`` to the first complete answer (a probe query that
finds its target), cold (empty --index-dir) and warm (the same --index-dir again).
The Django tree comes from tests/bench/.corpus (``pip download django==5.2.*
--no-deps --no-binary :all:`` when absent). pyright comes from npm
(``npm install pyright`` into --pyright-dir).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
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

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path, to_fs_path

HERE = Path(__file__).parent
CORPUS = HERE / ".corpus"
SYMFUSE = Path(sys.executable).parent / "symfuse"
CATEGORIES = ("exact", "prefix", "typo", "camel")
TOP = 5


# --- corpus and queries ---------------------------------------------------------------


def django_tree() -> Path:
    found = sorted(CORPUS.glob("*/django-5.2.*/django")) + sorted(
        CORPUS.glob("django-5.2.*/django")
    )
    if found:
        return found[-1]
    target = CORPUS / "lsp"
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "download",
            "django==5.2.*",
            "--no-deps",
            "--no-binary",
            ":all:",
            "-d",
            str(target),
        ],
        check=True,
    )
    archive = sorted(target.glob("django-5.2.*.tar.gz"))[-1]
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return sorted(target.glob("django-5.2.*/django"))[-1]


@dataclass(frozen=True)
class Query:
    category: str
    text: str
    name: str
    file: str  # path relative to the tree


def _typo(name: str, rng: random.Random) -> str | None:
    inner = [i for i in range(1, len(name) - 2) if name[i] != name[i + 1] and name[i].isalpha()]
    if len(name) < 6 or not inner:
        return None
    i = rng.choice(inner)
    return name[:i] + name[i + 1] + name[i] + name[i + 2 :]


def make_queries(tree: Path, per_category: int, seed: int = 5) -> list[Query]:
    """Queries from Django's public top-level classes and functions (parsed with ast)."""
    import ast

    defs: list[tuple[str, str]] = []
    for path in sorted(tree.rglob("*.py")):
        rel = path.relative_to(tree).as_posix()
        if "/migrations/" in rel or "/locale/" in rel:
            continue
        try:
            module = ast.parse(path.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in module.body:
            if isinstance(node, ast.ClassDef | ast.FunctionDef) and not node.name.startswith("_"):
                defs.append((node.name, rel))
    counts: dict[str, int] = {}
    for name, _ in defs:
        counts[name] = counts.get(name, 0) + 1
    unique = [(n, f) for n, f in defs if counts[n] == 1 and len(n) >= 5]
    rng = random.Random(seed)
    rng.shuffle(unique)
    out: list[Query] = []
    for category in CATEGORIES:
        made = 0
        for name, rel in unique:
            if made == per_category:
                break
            if category == "exact":
                text: str | None = name
            elif category == "prefix":
                text = name[: max(4, int(len(name) * 0.6))]
            elif category == "typo":
                text = _typo(name, rng)
            else:
                humps = re.findall(r"[A-Z][a-z0-9]*", name)
                text = (
                    "".join(h[0] for h in humps) if len(humps) >= 3 and name[0].isupper() else None
                )
            if text and text != name[:0]:
                out.append(Query(category, text, name, rel))
                made += 1
    return out


# --- driving a server -------------------------------------------------------------------


@dataclass
class Run:
    server: str
    first_answer: float = 0.0
    latencies: dict[str, list[float]] = field(default_factory=dict)
    hits: dict[str, list[bool]] = field(default_factory=dict)


def _client(name: str) -> LanguageClient:
    client = LanguageClient(name, "1")

    @client.feature(lsp.WORKSPACE_CONFIGURATION)
    def configuration(params: lsp.ConfigurationParams) -> list[Any]:
        return [None for _ in params.items]

    @client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def progress(params: lsp.WorkDoneProgressCreateParams) -> None:
        return None

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        return None

    for method in (
        lsp.PROGRESS,
        lsp.WINDOW_LOG_MESSAGE,
        lsp.WINDOW_SHOW_MESSAGE,
        lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS,
    ):
        client.feature(method)(lambda params: None)
    return client


async def _symbols(client: LanguageClient, text: str) -> list[tuple[str, str]]:
    result = await client.workspace_symbol_async(lsp.WorkspaceSymbolParams(query=text))
    found: list[tuple[str, str]] = []
    for s in result or []:
        uri = s.location.uri
        found.append((s.name, to_fs_path(uri) or uri))
    return found


def _hit(found: list[tuple[str, str]], q: Query, tree: Path) -> bool:
    want = str(tree / q.file)
    return any(name == q.name and path == want for name, path in found[:TOP])


async def start(client: LanguageClient, command: list[str], tree: Path, name: str) -> None:
    """Start ``command`` under ``client`` over stdio, with ``tree`` as its one workspace folder."""
    await client.start_io(*command)
    uri = from_fs_path(str(tree))
    await client.initialize_async(
        lsp.InitializeParams(
            capabilities=lsp.ClientCapabilities(
                window=lsp.WindowClientCapabilities(work_done_progress=True),
                workspace=lsp.WorkspaceClientCapabilities(
                    workspace_folders=True, configuration=True
                ),
            ),
            root_uri=uri,
            workspace_folders=[lsp.WorkspaceFolder(uri=uri or "", name=name)],
        )
    )
    client.initialized(lsp.InitializedParams())


async def drive(
    server: str,
    command: list[str],
    tree: Path,
    queries: list[Query],
    probe: Query,
    wait_ranking: bool,
) -> Run:
    client = _client(server)
    run = Run(server)
    started = time.perf_counter()
    await start(client, command, tree, "django")
    while not _hit(await _symbols(client, probe.text), probe, tree):
        await asyncio.sleep(0.05)
    run.first_answer = time.perf_counter() - started
    if wait_ranking:  # symfuse: measure the steady state (fused ranking warm)
        while True:
            status = await client.protocol.send_request_async("symfuse/status", None)
            if getattr(status, "ranking", False):  # pygls gives unknown results as a namedtuple
                break
            await asyncio.sleep(0.1)
    for q in queries[:5]:  # warm-up
        await _symbols(client, q.text)
    for q in queries:
        t = time.perf_counter()
        found = await _symbols(client, q.text)
        run.latencies.setdefault(q.category, []).append((time.perf_counter() - t) * 1000)
        run.hits.setdefault(q.category, []).append(_hit(found, q, tree))
    await asyncio.wait_for(client.shutdown_async(None), 30)
    client.exit(None)
    await asyncio.wait_for(client.stop(), 30)
    return run


def pyright_command(directory: Path) -> list[str]:
    binary = directory / "node_modules" / ".bin" / "pyright-langserver"
    if not binary.exists():
        directory.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "pyright"],
            cwd=directory,
            check=True,
            stdout=sys.stderr,
        )
    return [str(binary), "--stdio"]


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def summary(run: Run) -> dict[str, Any]:
    every = [x for v in run.latencies.values() for x in v]
    return {
        "server": run.server,
        "first_complete_answer_s": round(run.first_answer, 2),
        "p50_ms": round(statistics.median(every), 2),
        "p95_ms": round(percentile(every, 0.95), 2),
        "hit_rate_top5": {c: round(sum(h) / len(h), 3) for c, h in run.hits.items()},
    }


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    tree = django_tree()
    queries = make_queries(tree, args.queries)
    probe = next(q for q in queries if q.category == "exact")
    index_dir = Path(tempfile.mkdtemp(prefix="symfuse-lsp-bench-"))
    symfuse = [str(SYMFUSE), "lsp", "--index-dir", str(index_dir)]
    report: dict[str, Any] = {"tree": str(tree), "queries": len(queries)}
    try:
        cold = await drive("symfuse (cold)", symfuse, tree, queries, probe, wait_ranking=True)
        warm = await drive("symfuse (warm)", symfuse, tree, queries, probe, wait_ranking=True)
        report["symfuse_cold"] = summary(cold)
        report["symfuse_warm"] = summary(warm)
        if not args.skip_pyright:
            command = pyright_command(args.pyright_dir)
            py = await drive("pyright", command, tree, queries, probe, wait_ranking=False)
            report["pyright"] = summary(py)
    finally:
        shutil.rmtree(index_dir, ignore_errors=True)
    return report


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=60, help="queries per category")
    parser.add_argument("--pyright-dir", type=Path, default=HERE / ".cache" / "pyright")
    parser.add_argument("--skip-pyright", action="store_true")
    args = parser.parse_args()
    report = asyncio.run(main_async(args))
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
