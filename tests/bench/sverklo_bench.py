"""sverklo's ``bench:primitives`` (180 tasks) answered through symfuse's MCP tools, with
sverklo's own harness, ground truth and scorer (issue 36, acceptance).

    python tests/bench/sverklo_bench.py prepare SVERKLO [--mirrors /work/.mirror]
    python tests/bench/sverklo_bench.py run SVERKLO [--first-hit] [--datasets a,b] [--tsx TSX]

``SVERKLO`` is a checkout of github.com/sverklo/sverklo (not needed by CI, nor by the
test suite). ``prepare`` clones the five pinned datasets of its
``benchmark/src/datasets/manifest.json`` (express 4.21.1, lodash 4.17.21, requests
v2.32.3, flask 3.0.3, fastapi 0.115.0) from local mirrors into ``benchmark/.cache`` (the
harness clones from GitHub otherwise), writes a baseline ``benchmark/src/baselines/
symfuse.ts`` and registers it in ``runner/run-primitive.ts``: the way a new baseline
joins (``BASELINES=name npm run bench:quick``). ``run`` runs the harness with
``BASELINES=symfuse`` and prints its per-category F1 from ``summary.json``.

The baseline is a thin shim: it starts this script with ``serve``, which answers each task
the way an agent would, through ``symfuse mcp`` over stdio (the MCP SDK's client):

- P1 (definition): ``search`` for the name; the definitions named exactly so, best first
  (``--first-hit``: only the first, so the harness's any-hit score is a first-hit one);
- P2 (references): ``search``, then ``find_usages`` of the first exact definition
  (default ``min_confidence`` 0.5), every usage's (file, line);
- P4 (file dependencies): ``file_dependencies`` of the file: its imports and importers
  in the workspace;
- P5 (dead code): ``dead_code`` with default arguments: the reported names.

Figures are in tests/bench/README.md ("sverklo bench:primitives").
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

SYMFUSE = Path(sys.executable).with_name("symfuse")
HERE = Path(__file__).resolve()

SHIM = r"""import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import type { Baseline, BaselineOutput } from "./base.ts";
import type { Task } from "../types.ts";

// Written by symfuse's tests/bench/sverklo_bench.py: each task goes, as one JSON line,
// to that script's `serve` mode, which answers it through symfuse's MCP tools.
export class SymfuseBaseline implements Baseline {
  name = "symfuse";
  private child: any = null;
  private lines: AsyncIterableIterator<string> | null = null;
  private coldStart = 0;

  async setupForDataset(d: { name: string; rootPath: string }): Promise<void> {
    await this.teardownForDataset();
    const start = Date.now();
    this.child = spawn(process.env.SYMFUSE_PYTHON!, [process.env.SYMFUSE_BENCH!, "serve"], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    await this.ask({ op: "setup", dataset: d.name, root: d.rootPath });
    this.coldStart = Date.now() - start;
  }

  async teardownForDataset(): Promise<void> {
    if (this.child) {
      this.child.stdin.end();
      await new Promise((done) => this.child.on("close", done));
      this.child = null;
    }
  }

  async run(task: Task): Promise<BaselineOutput> {
    const start = Date.now();
    const answer = await this.ask({ op: "task", task });
    const wall = Date.now() - start;
    const cold = this.coldStart;
    this.coldStart = 0;
    return {
      prediction: answer.prediction,
      rawPayload: answer.raw,
      toolCalls: answer.calls,
      wallTimeMs: wall + cold,
      coldStartMs: cold,
      warmCallMs: wall,
    };
  }

  private async ask(message: object): Promise<any> {
    this.child.stdin.write(JSON.stringify(message) + "\n");
    const next = await this.lines!.next();
    if (next.done) throw new Error("symfuse bench helper exited");
    return JSON.parse(next.value);
  }
}
"""

DATASET_REPOS = {  # the manifest's repository -> the mirror's owner+name
    "expressjs/express": "expressjs+express",
    "lodash/lodash": "lodash+lodash",
    "psf/requests": "psf+requests",
    "pallets/flask": "pallets+flask",
    "tiangolo/fastapi": "fastapi+fastapi",
}


def prepare(sverklo: Path, mirrors: Path) -> None:
    """Datasets cloned from local mirrors at the manifest's refs; the baseline registered."""
    manifest = json.loads((sverklo / "benchmark/src/datasets/manifest.json").read_text())
    for entry in manifest["datasets"]:
        if entry["kind"] != "git":
            continue
        slug = re.sub(r"^https://github.com/|\.git$", "", entry["repo"])
        dest = sverklo / entry["checkoutDir"]
        if (dest / ".git").exists():
            continue
        mirror = mirrors / DATASET_REPOS.get(slug, slug.replace("/", "+")) / "repo"
        subprocess.run(["git", "clone", "-q", "--no-checkout", str(mirror), str(dest)], check=True)
        subprocess.run(["git", "-C", str(dest), "checkout", "-q", entry["ref"]], check=True)
    baselines = sverklo / "benchmark/src/baselines"
    (baselines / "symfuse.ts").write_text(SHIM)
    runner = sverklo / "benchmark/src/runner/run-primitive.ts"
    text = runner.read_text()
    if "SymfuseBaseline" not in text:
        text = text.replace(
            "import { loadJsonl }",
            'import { SymfuseBaseline } from "../baselines/symfuse.ts";\nimport { loadJsonl }',
            1,
        )
        text = text.replace(
            "const allBaselines: Baseline[] = [",
            "const allBaselines: Baseline[] = [\n    new SymfuseBaseline(),",
            1,
        )
        runner.write_text(text)


def run(sverklo: Path, first_hit: bool, datasets: str, tsx: Path | None) -> None:
    env = dict(os.environ)
    env.update(
        BASELINES="symfuse",
        SYMFUSE_PYTHON=sys.executable,
        SYMFUSE_BENCH=str(HERE),
        SYMFUSE_FIRST_HIT="1" if first_hit else "",
    )
    if datasets:
        env["DATASETS"] = datasets
    # sverklo's package.json runs the TypeScript with node >= 22.6's type stripping; on an
    # older node, tsx (``npm install tsx``) runs the same files.
    runner = [str(tsx)] if tsx else ["node", "--experimental-strip-types", "--no-warnings"]
    command = [*runner, "benchmark/src/index.ts"]
    subprocess.run(command, cwd=sverklo, env=env, check=True)
    results = sorted((sverklo / "benchmark/results").glob("*/summary.json"))[-1]
    summary = json.loads(results.read_text())
    for category, rows in sorted(summary["byCategory"].items()):
        row = rows["symfuse"]
        print(
            f"{category}: n={row['n']} F1 {row['avg_f1']:.3f} recall {row['avg_recall']:.3f}"
            f" precision {row['avg_precision']:.3f}"
        )
    overall = summary["byBaseline"]["symfuse"]
    print(f"all: n={overall['n']} F1 {overall['avg_f1']:.3f} ({results.parent.name})")


class Agent:
    """Answers tasks through one ``symfuse mcp`` session over a dataset's tree."""

    def __init__(self, session: Any, first_hit: bool) -> None:
        self.session = session
        self.first_hit = first_hit
        self.raw: list[str] = []
        self.calls = 0

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        self.calls += 1
        result = await self.session.call_tool(tool, arguments)
        text = "\n".join(getattr(c, "text", "") for c in result.content)
        self.raw.append(text)
        if result.is_error:
            return None
        return json.loads(text)

    async def every_row(self, tool: str, arguments: dict[str, Any], rows: str) -> list[Any]:
        """All rows of an answer, following ``next_offset`` past the token budget as an
        agent told so by the answer does."""
        found: list[Any] = []
        offset = 0
        while True:
            answer = await self.call(tool, {**arguments, "offset": offset})
            if not answer:
                return found
            found += answer.get(rows, [])
            following = answer.get("next_offset")
            if not answer.get("truncated") or following is None or following <= offset:
                return found
            offset = following

    async def definitions(self, name: str) -> list[dict[str, Any]]:
        """Exact-named definitions from ``search``, best first."""
        found = await self.call("search", {"query": name, "limit": 10})
        items = found["items"] if found else []
        return [i for i in items if _name_of(i["symbol_id"]) == name]

    async def answer(self, task: dict[str, Any]) -> dict[str, Any]:
        category, query = task["category"], task["query"]
        if category == "P1":
            hits = await self.definitions(query)
            hits = hits[:1] if self.first_hit else hits
            return {"kind": "locations", "locations": [_location(h) for h in hits]}
        if category == "P2":
            hits = await self.definitions(query)
            if not hits:
                return {"kind": "locations", "locations": []}
            target = hits[0]["symbol_id"]
            usages = await self.every_row("find_usages", {"target": target}, "usages")
            return {
                "kind": "locations",
                "locations": [{"file": u["file"], "line": u["line"]} for u in usages],
            }
        if category == "P4":
            found = await self.call("file_dependencies", {"target": query})
            deps = found["dependencies"] if found else []
            return {
                "kind": "deps",
                "imports": [d["target"] for d in deps if d["relation"] == "imports"],
                "importers": [d["target"] for d in deps if d["relation"] == "imported_by"],
            }
        items = await self.every_row("dead_code", {"options": {"limit": 200}}, "items")
        return {"kind": "names", "names": sorted({_name_of(i["symbol_id"]) for i in items})}


def _name_of(symbol_id: str) -> str:
    """``src/a.py::Client.send#method`` -> ``send``."""
    qualified = symbol_id.split("::", 1)[-1].rsplit("#", 1)[0]
    return re.sub(r"~\d+$", "", qualified).rsplit(".", 1)[-1]


def _location(item: dict[str, Any]) -> dict[str, Any]:
    return {"file": item["symbol_id"].split("::", 1)[0], "line": item["line"]}


async def serve() -> None:
    """One JSON line in, one out: ``setup`` starts ``symfuse mcp`` on a dataset, ``task``
    answers one task with its prediction, the tools' raw text and the number of calls."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    first_hit = os.environ.get("SYMFUSE_FIRST_HIT") == "1"
    dump = os.environ.get("SYMFUSE_BENCH_DUMP")  # each task and its answer, for an audit
    reader = asyncio.StreamReader()
    loop = asyncio.get_running_loop()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    line = await reader.readline()
    setup = json.loads(line)
    index_dir = Path(os.environ.get("SYMFUSE_BENCH_INDEXES", "/tmp/symfuse-sverklo"))
    params = StdioServerParameters(
        command=str(SYMFUSE),
        args=[
            "mcp",
            setup["root"],
            "--index-dir",
            str(index_dir / setup["dataset"]),
            "--tools",
            "all",
        ],
        env=dict(os.environ),
    )
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("index_status", {})
        _reply({"ready": True})
        while line := await reader.readline():
            task = json.loads(line)["task"]
            agent = Agent(session, first_hit)
            prediction = await agent.answer(task)
            if dump:
                with open(dump, "a", encoding="utf-8") as out:
                    out.write(json.dumps({"task": task, "prediction": prediction}) + "\n")
            _reply({"prediction": prediction, "raw": "\n".join(agent.raw), "calls": agent.calls})


def _reply(message: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("prepare")
    p.add_argument("sverklo", type=Path)
    p.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    r = commands.add_parser("run")
    r.add_argument("sverklo", type=Path)
    r.add_argument("--first-hit", action="store_true")
    r.add_argument("--datasets", default="")
    r.add_argument("--tsx", type=Path, help="tsx to run the harness with (node < 22.6)")
    commands.add_parser("serve")
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.sverklo.resolve(), args.mirrors)
    elif args.command == "run":
        run(args.sverklo.resolve(), args.first_hit, args.datasets, args.tsx)
    else:
        asyncio.run(serve())


if __name__ == "__main__":
    main()
