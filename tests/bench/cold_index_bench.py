"""A cold ``symfuse index`` per code, the codes alternating (issues 35 and 39): its cost, and
whether the codes store the same index.

    python tests/bench/cold_index_bench.py --source /tmp/before --source . --repeat 5
    python tests/bench/cold_index_bench.py --source /tmp/before --source . --tree DIR

Per tree (default: SQLAlchemy's sdist, httpx and cobra from the corpus) and per code: the
wall time of ``symfuse index`` into an empty ``--index-dir``, the CPU of its process tree
(the parser workers included) and the index's size, ``--repeat`` times, the codes in turn
(A B A B ...); min and median. Each code's stored index (its last run) is compared with the
previous code's: the pack and graph files byte for byte (their names are their digests).

Codes (``--source DIR``): a checkout or ``git archive`` holding ``indexer/``, ``ranking/``
and ``server/``, run by this interpreter through a ``PYTHONPATH`` whose ``symfuse/`` links
to DIR's three folders (compiled first: an unpacked tree has no bytecode). Compare the
codes of one run only, and read the CPU beside the wall on a shared machine.
"""

from __future__ import annotations

import argparse
import compileall
import filecmp
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CORPUS = Path(__file__).parent / ".corpus"
TREES = [
    CORPUS / "src/sqlalchemy-2.0.58/sqlalchemy-2.0.58",
    CORPUS / "small/encode+httpx-ae1b9f66238f",
    CORPUS / "small/spf13+cobra-adbc8813901b",
]
# the command's entry point, by the module it lives in now or did before
RUN = (
    "import sys\n"
    "try:\n    from symfuse.server.cli.launch import main\n"
    "except ImportError:\n    from symfuse.server.cli.main import main\n"
    "sys.argv = ['symfuse', 'index', sys.argv[1], '--index-dir', sys.argv[2]]\n"
    "sys.exit(main())\n"
)


def overlay(source: Path, work: Path) -> str:
    """A PYTHONPATH entry whose ``symfuse/`` links to ``source``'s three folders."""
    top = Path(tempfile.mkdtemp(prefix="code-", dir=work))
    (top / "symfuse").mkdir()
    for package in ("indexer", "ranking", "server"):
        if not (source / package).is_dir():
            raise SystemExit(f"--source {source}: no {package} folder")
        (top / "symfuse" / package).symlink_to(source.resolve() / package)
        compileall.compile_dir(str(source / package), quiet=1)
    return str(top)


def index_once(path: str, tree: Path, out: Path) -> tuple[float, float, float]:
    """Wall and CPU seconds of one cold index, and the index's size in MB."""
    shutil.rmtree(out, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": path}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", RUN, str(tree), str(out)],
        env=env,
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file()) / 1e6
    return wall, cpu, size


def same_objects(first: Path, other: Path) -> str:
    """Whether two stored indexes hold the same pack and graph files."""
    names = sorted(p.name for p in (first / "objects").iterdir())
    if names != sorted(p.name for p in (other / "objects").iterdir()):
        return "different objects"
    equal = all(
        filecmp.cmp(first / "objects" / n, other / "objects" / n, shallow=False) for n in names
    )
    return "same objects, byte for byte" if equal else "different bytes"


def measure(codes: dict[str, str], tree: Path, repeat: int, work: Path) -> None:
    runs: dict[str, list[tuple[float, float, float]]] = {label: [] for label in codes}
    out = {label: work / f"index-{i}" / tree.name for i, label in enumerate(codes)}
    for _ in range(repeat):
        for label, path in codes.items():
            runs[label].append(index_once(path, tree, out[label]))
    previous = None
    for label, done in runs.items():
        walls, cpus = [r[0] for r in done], [r[1] for r in done]
        check = (
            ""
            if previous is None
            else "; against the code above: " + same_objects(out[previous], out[label])
        )
        previous = label
        print(
            f"{tree.name:<28} {label:<24} wall min/median {min(walls):.2f}/"
            f"{statistics.median(walls):.2f} s  CPU {min(cpus):.2f}/{statistics.median(cpus):.2f}"
            f" s  index {done[-1][2]:.1f} MB{check}  (load {os.getloadavg()[0]:.1f})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source", type=Path, action="append", required=True)
    parser.add_argument("--tree", type=Path, action="append", default=[])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="symfuse-cold-index-"))
    codes = {f"{i + 1}: {s.name or s}": overlay(s, work) for i, s in enumerate(args.source)}
    for tree in args.tree or TREES:
        measure(codes, tree, args.repeat, work)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
