"""Text search speed against ripgrep, on the same files (issue 37, item 5).

For each pattern, ``search_text`` (the ``symfuse text`` and MCP ``search_text`` core; the
index is loaded first and not timed) is timed with ripgrep driving it and with the
pure-Python search (``SYMFUSE_RG=off``), each as a one-shot command meets it (``first``:
the process's file caches emptied) and as a server meets it again (``again``: the median
of three more runs). ``rg`` is ripgrep counting matches over the same file list
(``rg --count``, the median of three runs), ``rg dir`` ripgrep walking the tree itself.
The ratio is the first search over ``rg``.

    python tests/bench/text_bench.py [ROOT] [--runs 3]

ROOT defaults to the Django corpus (tests/bench/.corpus/search/django-5.2.19) when it is
there, else symfuse's own tree. Needs ``rg`` (pip install symfuse[rg]).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.text import paths, ripgrep
from symfuse.ranking.text.files import searched_files
from symfuse.ranking.text.search import search_text

HERE = Path(__file__).resolve().parent
DJANGO = HERE / ".corpus" / "search" / "django-5.2.19"
# (pattern, regex, case sensitive): what people grep a code base for.
PATTERNS = [
    (r"def \w+_view\(", True, True),
    (r"class \w+Form\b", True, True),
    (r"self\.assert\w+\(", True, True),
    (r"TODO|FIXME|XXX", True, True),
    (r"^\s*import \w+$", True, True),
    ("HttpResponse", False, True),
    ("queryset", False, False),
]


def _cold() -> None:
    """Forget what earlier searches read, as a new process would."""
    paths._SOURCES = type(paths._SOURCES)(
        paths._read_source, lambda s: len(s.text), paths._SOURCES._bound
    )
    paths._REAL.clear()


def _time(run: Callable[[], object], cold: bool) -> float:
    if cold:
        _cold()
    started = time.perf_counter()
    run()
    return (time.perf_counter() - started) * 1000


def _search(index: Index, pattern: str, regex: bool, case: bool, rg: str) -> Callable[[], int]:
    def run() -> int:
        os.environ["SYMFUSE_RG"] = rg
        try:
            return search_text(
                index, pattern, regex=regex, case_sensitive=case, snippet_lines=0, timeout=30
            ).total
        finally:
            del os.environ["SYMFUSE_RG"]

    return run


def _rg(rg: str, pattern: str, regex: bool, case: bool, where: list[str]) -> Callable[[], None]:
    flags = [*(() if regex else ("-F",)), "-s" if case else "-i"]
    command = [rg, "--no-config", "--count", *flags, "-e", pattern, "--", *where]
    return lambda: subprocess.run(command, capture_output=True, check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("root", nargs="?", type=Path, default=None)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = (args.root or (DJANGO if DJANGO.is_dir() else HERE.parent.parent)).resolve()
    rg = ripgrep.binary()  # the one symfuse runs: on PATH, or beside this interpreter
    if rg is None:
        raise SystemExit("text_bench needs rg: pip install symfuse[rg]")
    with tempfile.TemporaryDirectory() as index_dir:
        config = IndexConfig(roots=(root,), index_dir=Path(index_dir), progress=False)
        index, _ = update_index(config)
        files = [paths.key_path(index, key) for key in searched_files(index, None, None, None)]
        print(f"{root.name}: {len(files)} files searched\n")
        head = f"{'pattern':24} {'hits':>6} {'rg':>7} {'rg dir':>7} "
        print(
            head + f"{'rg first':>9} {'again':>7} {'ratio':>6} {'py first':>9} {'again':>7} ratio"
        )
        for pattern, regex, case in PATTERNS:
            reference = _rg(rg, pattern, regex, case, files)
            by_rg = statistics.median(_time(reference, False) for _ in range(args.runs))
            walk = _rg(rg, pattern, regex, case, [str(root)])
            by_walk = statistics.median(_time(walk, False) for _ in range(args.runs))
            cells = []
            for engine in (rg, "off"):
                run = _search(index, pattern, regex, case, engine)
                first = _time(run, True)
                again = statistics.median(_time(run, False) for _ in range(args.runs))
                cells.append(f"{first:9.0f} {again:7.0f} {first / by_rg:6.1f}")
            total = _search(index, pattern, regex, case, rg)()
            print(f"{pattern:24} {total:6} {by_rg:7.0f} {by_walk:7.0f} " + " ".join(cells))
    print("\nmilliseconds; ratio: the first search over rg on the same files")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
