"""Where an index's bytes go, on disk and in memory (issue 16, targets 3 and 5).

    python tests/bench/size_breakdown.py                    # SQLAlchemy's sdist
    python tests/bench/size_breakdown.py --tree DIR --index-dir DIR --top 30

1. Disk: every file of the index directory, then every member of the ranking file
   (stored and deflated size, and which reader needs it: a search of the exact index maps
   the ``x_*`` members and the vectors; only restoring the per-file pieces reads the rest).
2. Memory: tracemalloc of a warm start in this process (loading the index, then reading
   the ranking structures and answering a few searches), by source line. This process's
   RSS is not shown (tracemalloc's own records double it); a served process (``symfuse
   mcp``) adds its imports and the mapped pages its searches touch: large_bench
   measures its RSS.

Memory and disk figures hold while other work runs on the machine; nothing here is timed.
"""

from __future__ import annotations

import argparse
import gc
import subprocess
import sys
import tracemalloc
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import large_bench

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, prepare, search
from symfuse.ranking.prepared.ranking_file import DEFLATED, MAP_AT_LEAST, newest

SEARCHES = ("Session", "create engine", "connection pool", "compile select", "flush")


def disk(index_dir: Path) -> None:
    """The index directory's files, then the ranking file's members, largest first."""
    files = sorted(
        (p for p in index_dir.rglob("*") if p.is_file()), key=lambda p: -p.stat().st_size
    )
    total = sum(p.stat().st_size for p in files)
    print(f"\nindex directory {index_dir}: {total / 1e6:.1f} MB")
    for path in files:
        print(f"  {path.stat().st_size / 1e6:9.2f} MB  {path.relative_to(index_dir)}")
    ranking = newest(index_dir)
    if ranking is None:
        return
    with zipfile.ZipFile(ranking) as archive:
        members = sorted(archive.infolist(), key=lambda i: -i.compress_size)
    print(f"\n{ranking.name}: {len(members)} members (MB on disk, MB as arrays, reader)")
    for info in members:
        name = info.filename.removesuffix(".npy")
        reader = "restore" if name in DEFLATED or name == "stamps" else "search"
        if reader == "search" and info.file_size >= MAP_AT_LEAST:
            reader += " (mapped)"
        print(f"  {info.compress_size / 1e6:8.2f} {info.file_size / 1e6:8.2f}  {name:28} {reader}")


def memory(tree: Path, index_dir: Path, top: int) -> None:
    """tracemalloc of a warm start by source line."""
    config = IndexConfig(roots=(tree,), index_dir=index_dir, progress=False)
    tracemalloc.start(1)
    before = tracemalloc.take_snapshot()
    index, _ = update_index(config)
    loaded = tracemalloc.take_snapshot()
    prepared = prepare(index, config.store.directory)
    for query in SEARCHES:
        search(index, SearchRequest(query=query), prepared=prepared)
    gc.collect()
    served = tracemalloc.take_snapshot()
    for title, a, b in (("index load", before, loaded), ("ranking + searches", loaded, served)):
        stats = b.compare_to(a, "lineno")
        print(f"\n{title}: {sum(s.size_diff for s in stats) / 1e6:.1f} MB (tracemalloc)")
        for stat in stats[:top]:
            frame = stat.traceback[0]
            where = f"{Path(frame.filename).name}:{frame.lineno}"
            print(f"  {stat.size_diff / 1e6:8.2f} MB {stat.count_diff:9d} objects  {where}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, default=None, help="default: SQLAlchemy's sdist")
    parser.add_argument("--index-dir", type=Path, default=None, help="built here when empty")
    parser.add_argument("--top", type=int, default=15, help="lines per tracemalloc table")
    args = parser.parse_args()
    tree = args.tree or large_bench.tree_of(large_bench.SQLALCHEMY, "sqlalchemy")
    index_dir = args.index_dir or Path("/tmp") / f"symfuse-sizes-{tree.name}"
    if newest(index_dir) is None:  # the index and its ranking file, as a user makes them
        where = [str(tree), "--index-dir", str(index_dir), "--no-progress"]
        for command in (["index"], ["search", "Session"]):
            run = [str(large_bench.SYMFUSE), *command, *where]
            subprocess.run(run, check=True, stdout=subprocess.DEVNULL)
    source, _ = large_bench.source_mb(tree)
    print(f"{tree}: {source:.1f} MB of source")
    disk(index_dir)
    memory(tree, index_dir, args.top)


if __name__ == "__main__":
    main()
