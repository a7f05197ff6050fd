"""The first query of each shape on a fresh server (issue 37, item 4: no cliff after "ready").

    python tests/bench/first_query_bench.py                  # SQLAlchemy's sdist
    python tests/bench/first_query_bench.py --shapes prose,usages --repeat 3
    python tests/bench/first_query_bench.py --source /tmp/before   # another checkout's code

An agent spawns ``symfuse mcp`` and asks at once; the shape of its first question decides
what that answer has to build first (abbreviations the names' humps, prose and commit
subjects the word model and translation tables, usages the reference views, a text search
the file list). For each shape, a fresh server on the same index answers exactly one
question of that shape, timed two ways:

- **at once**: asked right after the MCP handshake, timed from the call;
- **after ready**: asked once ``index_status`` says ``warmed`` (the server's work ahead is
  done), timed from the call: the cliff the issue saw (29 s for a first abbreviation on
  SQLAlchemy after the server said it was ready).

Each is against the **steady** figure of the same question, asked again on the same server
right after: a ratio near 1 is no cliff. Two starts: a stored index with its ranking
structures (a server started before on this root) and an index as ``symfuse index`` leaves
it (no structures). Goal: no first answer after ready over 2 s on SQLAlchemy. Never run it
beside other work: it times.
"""

from __future__ import annotations

import argparse
import asyncio
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

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

SYMFUSE = Path(sys.executable).with_name("symfuse")
# Two questions of each shape about SQLAlchemy (tool, key, first value, steady value): the
# steady one differs, so that the query cache does not answer it.
SHAPES: dict[str, tuple[str, str, str, str]] = {
    "name": ("search", "query", "Session", "Connection"),
    "typo": ("search", "query", "Sesion", "Conection"),
    "abbreviation": ("search", "query", "SessTx", "ConnFair"),
    "camel humps": ("search", "query", "STx", "CF"),
    "prose": (
        "search", "query", "create an engine from a database url", "reflect the tables of a schema"
    ),
    "commit subject": (
        "search", "query",
        "Fix connection pool overflow when a connection is invalidated",
        "Support RETURNING for bulk insert on SQLite",
    ),
    "who calls": ("search", "query", "who calls flush", "who calls begin_nested"),
    "usages": ("find_usages", "target", "Session.execute", "Connection.execute"),
    "get": ("get_symbol", "target", "Session.execute", "Connection.execute"),
    "text": ("search_text", "query", "def execute", "def _connection_for_bind"),
    "dependencies": (
        "file_dependencies", "target", "lib/sqlalchemy/orm/session.py",
        "lib/sqlalchemy/engine/base.py",
    ),
}  # fmt: skip


def sqlalchemy_tree() -> Path:
    import large_bench

    return large_bench.tree_of(large_bench.SQLALCHEMY, "sqlalchemy")


async def _warmed(session: ClientSession, deadline: float) -> None:
    """Poll ``index_status`` until the server's work ahead is done (a bench, not a test)."""
    while time.perf_counter() < deadline:
        status = await session.call_tool("index_status", {})
        content = status.structured_content or {}
        if content.get("warmed") and content.get("ready"):
            return
        await asyncio.sleep(0.2)
    raise TimeoutError("the server never said it was warmed")


async def one_shape(tree: Path, index_dir: Path, shape: str, wait: bool) -> dict[str, float]:
    tool, key, asked, again = SHAPES[shape]
    params = StdioServerParameters(
        command=str(SYMFUSE),
        args=["mcp", str(tree), "--index-dir", str(index_dir), "--tools", "all"],
        env=dict(os.environ),
    )
    spawned = time.perf_counter()
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=None) as session,
    ):
        await session.initialize()
        if wait:
            await _warmed(session, time.perf_counter() + 600)
        began = time.perf_counter()
        first = await session.call_tool(tool, {key: asked})
        answered = time.perf_counter()
        first_s = answered - began
        if first.is_error:
            raise RuntimeError(f"{shape}: {first.content}")
        began = time.perf_counter()
        await session.call_tool(tool, {key: again})
        steady_s = time.perf_counter() - began
    return {"first_s": first_s, "steady_s": steady_s, "from_spawn_s": answered - spawned}


def build_index(tree: Path, index_dir: Path, structures: bool) -> None:
    shutil.rmtree(index_dir, ignore_errors=True)
    cmd = [str(SYMFUSE), "index", str(tree), "--index-dir", str(index_dir), "--no-progress"]
    subprocess.run(cmd, check=True, capture_output=True)
    if structures:  # as a server or a search before leaves them
        cmd = [str(SYMFUSE), "search", "Session", str(tree), "--index-dir", str(index_dir)]
        subprocess.run(cmd, check=True, capture_output=True)


def measure(tree: Path, shapes: list[str], repeat: int) -> dict[str, dict[str, Any]]:
    results: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory(prefix="first-query-") as tmp:
        for start, structures in (("stored structures", True), ("index only", False)):
            index_dir = Path(tmp) / start.replace(" ", "-")
            for shape in shapes:
                for wait in (False, True):
                    runs = []
                    for _ in range(repeat):
                        if not structures or not index_dir.exists():
                            build_index(tree, index_dir, structures)  # each run starts alike
                        runs.append(asyncio.run(one_shape(tree, index_dir, shape, wait)))
                    key = f"{start} / {'after ready' if wait else 'at once'} / {shape}"
                    results[key] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
                    row = results[key]
                    print(
                        f"{key}: first {row['first_s']:.2f} s, steady {row['steady_s']:.3f} s",
                        file=sys.stderr,
                        flush=True,
                    )
    return results


def report(results: dict[str, dict[str, Any]]) -> None:
    print("| start / when / shape | first answer s | steady s | first / steady |")
    print("| --- | ---: | ---: | ---: |")
    for key, row in results.items():
        ratio = row["first_s"] / max(row["steady_s"], 1e-6)
        print(f"| {key} | {row['first_s']:.2f} | {row['steady_s']:.3f} | {ratio:.1f} |")
    after = [row["first_s"] for key, row in results.items() if "after ready" in key]
    if after:
        print(f"\nslowest first answer after ready: {max(after):.2f} s (goal <= 2 s)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shapes", help=f"comma-separated, of: {', '.join(SHAPES)}")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--source", type=Path, help="run another checkout's code")
    args = parser.parse_args()
    if args.source is not None:
        import large_bench

        large_bench._run_on(args.source, __file__)
    tree = sqlalchemy_tree()
    shapes = args.shapes.split(",") if args.shapes else list(SHAPES)
    report(measure(tree, shapes, args.repeat))


if __name__ == "__main__":
    main()
