"""One ``symfuse mcp`` start's critical path, timestamped (issue 39): where an answer waits.

    python tests/bench/start_trace.py tests/bench/.corpus/small/pallets+click-2c8cd3ac958a Context
    python tests/bench/start_trace.py ROOT NAME --source /tmp/before   # another checkout's code
    python tests/bench/start_trace.py ROOT NAME --warm                  # on an index built first

Spawns ``symfuse mcp ROOT`` on an empty index directory (``--warm``: on the index and
structures a ``symfuse search`` built first) under the SDK's ``ClientSession`` over stdio,
asks NAME, and prints a line per event, seconds from the spawn: the start of each process (the
server, its forked build, parsers), the imports of the heavy modules (numpy, scipy,
pydantic, the tools), and the entry and exit of the functions on the way (``TRACED``),
with the thread and the process's CPU then, merged with the client's own moments. The
functions are wrapped by a ``sitecustomize`` module put first on the server's
``PYTHONPATH`` (every process of it imports it); a function a code does not have is
left out. The wrapping costs a few microseconds a call: read the gaps, not the sums.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from small_bench import Code, make_code

TRACED = {
    "symfuse.server.cli.serve_mcp": ["run_mcp", "_indexing"],
    "symfuse.server.mcp.server": ["build_tools", "Backend.start", "Backend.wait_ready"],
    "symfuse.server.mcp.front": ["serve_stdio", "Front.take"],
    "symfuse.indexer.update.live": ["LiveIndex._initial", "LiveIndex._build_in_batches"],
    "symfuse.indexer.update.first_index": ["build_in_batches", "fork_build", "ForkedBuild.wait"],
    "symfuse.indexer.update.workspace": ["update_index", "refresh_index", "load_index"],
    "symfuse.indexer.update.apply": ["patch", "_relink", "_rank"],
    "symfuse.indexer.store.objects": ["Store.save", "Store.load"],
    "symfuse.indexer.extract.parsing": ["parse_stream"],
    "symfuse.server.common.service": ["IndexService._build", "IndexService.search"],
    "symfuse.ranking.prepared.build": ["prepare"],
    "symfuse.ranking.search.cold_start": ["early_answer"],
}
IMPORTS = ("numpy", "scipy.sparse", "pydantic", "symfuse.ranking.api", "symfuse.server.mcp.tools")

# The tracer every process of the server imports first (as its sitecustomize).
_TRACER = """
import functools, importlib.abc, importlib.util, os, sys, threading, time
OUT, T0 = os.environ["SYMFUSE_TRACE"], float(os.environ["SYMFUSE_T0"])
TRACED, IMPORTS = {traced!r}, {imports!r}
LOCK = threading.Lock()

def mark(what):
    thread = threading.current_thread().name[:18]
    line = (f"{{time.time() - T0:8.3f}} pid {{os.getpid():<7}} {{thread:<18}} "
            f"cpu {{time.process_time():6.3f}}  {{what}}\\n")
    with LOCK, open(OUT, "a") as f:
        f.write(line)

def wrap(fn, label):
    @functools.wraps(fn)
    def traced(*args, **kwargs):
        said = " " + str(args[1])[:60].strip() if label == "Front.take" and len(args) > 1 else ""
        mark("> " + label + said)
        try:
            return fn(*args, **kwargs)
        finally:
            mark("< " + label)
    return traced

class Finder(importlib.abc.MetaPathFinder):
    busy = set()
    def find_spec(self, name, path, target=None):
        if (name not in TRACED and name not in IMPORTS) or name in self.busy:
            return None
        self.busy.add(name)
        try:
            spec = importlib.util.find_spec(name)
        finally:
            self.busy.discard(name)
        if spec is None or spec.loader is None:
            return None
        run = spec.loader.exec_module
        def exec_module(module):
            if name in IMPORTS:
                mark("import " + name)
            run(module)
            if name in IMPORTS:
                mark("imported " + name)
            for dotted in TRACED.get(name, ()):
                *owners, attribute = dotted.split(".")
                owner = module
                for part in owners:
                    owner = getattr(owner, part, None)
                if owner is not None and hasattr(owner, attribute):
                    setattr(owner, attribute, wrap(getattr(owner, attribute), dotted))
        spec.loader.exec_module = exec_module
        return spec

sys.meta_path.insert(0, Finder())
mark("process " + " ".join(sys.argv[1:2]))
"""


async def trace(code: Code, root: Path, name: str, index_dir: Path, folder: Path) -> list[str]:
    """The lines of one start: the server's events and the client's."""
    log = folder / "trace.log"
    log.unlink(missing_ok=True)
    started = time.time()
    env = code.env(SYMFUSE_TRACE=str(log), SYMFUSE_T0=repr(started))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(folder), env.get("PYTHONPATH")) if p)
    command = code.command("mcp", str(root), "--index-dir", str(index_dir))
    params = StdioServerParameters(command=command[0], args=command[1:], env=env)
    client: list[str] = []

    def said(what: str) -> None:
        client.append(f"{time.time() - started:8.3f} CLIENT {what}")

    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, read_timeout_seconds=600) as session,
    ):
        await session.initialize()
        said("initialized")
        result = await session.call_tool("search", {"query": name, "limit": 5})
        data = result.structured_content or {}
        first = (data.get("items") or [{}])[0].get("symbol_id")
        said(f"answer: {first} (names_only: {bool(data.get('names_only'))})")
    lines = [*log.read_text().splitlines(), *client]
    return sorted(lines, key=lambda line: float(line.split()[0]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("name", help="the name asked")
    parser.add_argument("--source", type=Path, default=None, help="a checkout's code")
    parser.add_argument("--warm", action="store_true", help="on an index a search built first")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="symfuse-trace-") as tmp:
        folder = Path(tmp)
        (folder / "sitecustomize.py").write_text(_TRACER.format(traced=TRACED, imports=IMPORTS))
        code = make_code(args.source, "traced", folder)
        index_dir = folder / "index"
        if args.warm:  # the index and ranking structures built first, as a search does
            where = [str(args.root.resolve()), "--index-dir", str(index_dir)]
            search = code.command("search", args.name, *where, "--no-progress")
            env = code.env(SYMFUSE_RESIDENT="off")
            subprocess.run(search, env=env, capture_output=True, check=True)
        lines = asyncio.run(trace(code, args.root.resolve(), args.name, index_dir, folder))
        shutil.rmtree(index_dir, ignore_errors=True)
    print(f"load average: {os.getloadavg()}")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
