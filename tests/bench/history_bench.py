"""The history index on a real repository: the git reader, indexing, updates and quality.

Run it from the repository root with the project's interpreter (never in tests)::

    python tests/bench/history_bench.py libraries --repo /work/.mirror/redis+redis/repo
    python tests/bench/history_bench.py index --repo /work/.mirror/redis+redis/repo
    python tests/bench/history_bench.py quality --repo /work/.mirror/redis+redis/repo

``libraries``: how fast each way of reading git reads every commit with its
first-parent diff (paths, status, renames, hunk lines): the git command line
(``git log -p``, parsed as we parse it), pygit2 and dulwich (the last two only when
installed: ``pip install pygit2 dulwich``; dulwich over ``--dulwich-limit`` commits,
its diff being Python). This is what chose the git command line.

``index``: a cold history index up to ``HEAD~1`` (a fresh directory), then the update
to HEAD (one new commit): seconds, commits read, size on disk.

``quality``: ~200 commits sampled with a fixed seed; each one's subject (without
PR and issue numbers) is the query: is that commit in the top 10 (hit@10, MRR@10),
and how many of the definitions it changed are among the symbols of the top 10
hits (definitions recall@10). Timings are indicative: the machine is shared.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

DEFAULT_REPO = Path("/work/.mirror/redis+redis/repo")


# --- libraries ----------------------------------------------------------------------


def read_with_cli(repo: Path, limit: int) -> tuple[int, int, int]:
    from symfuse.indexer.history import gitlog

    commits = files = lines = 0
    tip = gitlog.resolve(repo, "HEAD")
    assert tip
    for commit in gitlog.read_commits(repo, tip, None, max_lines=10**9):
        commits += 1
        files += len(commit.files)
        lines += sum(len(h.lines) for f in commit.files for h in f.hunks)
        if commits >= limit:
            break
    return commits, files, lines


def read_with_pygit2(repo: Path, limit: int) -> tuple[int, int, int]:
    import pygit2  # type: ignore[import-not-found]

    r = pygit2.Repository(str(repo))
    commits = files = lines = 0
    for c in r.walk(r.head.target, pygit2.enums.SortMode.TIME):
        commits += 1
        _ = (c.id, c.author.name, c.author.email, c.commit_time, c.message)
        diff = (
            r.diff(c.parents[0].tree, c.tree, context_lines=0)
            if c.parents
            else c.tree.diff_to_tree(swap=True, context_lines=0)
        )
        diff.find_similar()
        for patch in diff:
            files += 1
            _ = (patch.delta.status_char(), patch.delta.old_file.path, patch.delta.new_file.path)
            for hunk in patch.hunks:
                lines += sum(1 for ln in hunk.lines if ln.origin in "+-")
        if commits >= limit:
            break
    return commits, files, lines


def read_with_dulwich(repo: Path, limit: int) -> tuple[int, int, int]:
    import difflib

    from dulwich.diff_tree import RenameDetector, tree_changes  # type: ignore[import-not-found]
    from dulwich.repo import Repo  # type: ignore[import-not-found]

    r = Repo(str(repo))
    store = r.object_store
    commits = files = lines = 0
    for entry in r.get_walker():
        commits += 1
        c = entry.commit
        parent = store[c.parents[0]].tree if c.parents else None
        for ch in tree_changes(store, parent, c.tree, rename_detector=RenameDetector(store)):
            files += 1
            old = store[ch.old.sha].data.splitlines() if ch.old and ch.old.sha else []
            new = store[ch.new.sha].data.splitlines() if ch.new and ch.new.sha else []
            lines += sum(
                1
                for ln in difflib.diff_bytes(difflib.unified_diff, old, new, n=0, lineterm=b"")
                if ln[:1] in (b"+", b"-") and ln[:3] not in (b"+++", b"---")
            )
        if commits >= limit:
            break
    return commits, files, lines


def libraries(args: argparse.Namespace) -> None:
    runs = [("git CLI (git log -p, parsed)", read_with_cli, args.limit)]
    runs.append(("pygit2", read_with_pygit2, args.limit))
    runs.append(("dulwich", read_with_dulwich, args.dulwich_limit))
    print(f"{'reader':32} {'commits':>8} {'files':>8} {'lines':>9} {'wall s':>8} {'ms/commit':>9}")
    for name, reader, limit in runs:
        started = time.perf_counter()
        try:
            commits, files, lines = reader(args.repo, limit)
        except ImportError as exc:
            print(f"{name:32} not installed ({exc.name})")
            continue
        wall = time.perf_counter() - started
        print(
            f"{name:32} {commits:>8} {files:>8} {lines:>9} {wall:>8.1f} "
            f"{1000 * wall / max(commits, 1):>9.2f}"
        )


# --- index --------------------------------------------------------------------------


def index(args: argparse.Namespace) -> Path:
    from symfuse.indexer.history.build import update_history

    directory = Path(args.index_dir or tempfile.mkdtemp(prefix="history-bench-"))
    print(f"index dir {directory}; load {os.getloadavg()[0]:.1f}")
    started = time.perf_counter()
    cpu = time.process_time()

    def progress(n: int) -> None:
        if n % 1000 == 0:
            print(f"  {n} commits, {time.perf_counter() - started:.0f} s", flush=True)

    cold = update_history("repo", args.repo, directory, progress=progress, ref="HEAD~1")
    print(
        f"cold up to HEAD~1: {cold.read} commits in {cold.seconds:.1f} s wall "
        f"({time.process_time() - cpu:.1f} s CPU in this process), "
        f"{cold.size / 1e6:.1f} MB, {1000 * cold.seconds / max(cold.read, 1):.1f} ms/commit"
    )
    warm = update_history("repo", args.repo, directory, ref="HEAD")
    print(f"update to HEAD: {warm.read} commit read in {warm.seconds:.2f} s; {warm.commits} in all")
    again = update_history("repo", args.repo, directory, ref="HEAD")
    print(f"nothing new: {again.read} commits read in {again.seconds:.3f} s")
    return directory


# --- quality ------------------------------------------------------------------------

_NUMBERS = re.compile(r"\(?#\d+\)?|\bGH-\d+\b")


def query_of(subject: str) -> str:
    """A subject as a query: PR and issue numbers dropped (they would match exactly)."""
    return " ".join(_NUMBERS.sub(" ", subject).split())


def quality(args: argparse.Namespace) -> None:
    from symfuse.ranking.history.search import load_histories, search_history
    from symfuse.ranking.query.history_requests import HistoryRequest

    directory = Path(args.index_dir) if args.index_dir else index(args)
    started = time.perf_counter()
    histories = load_histories(directory, {"repo": str(args.repo)})
    print(f"loaded {len(histories.commits)} commits in {time.perf_counter() - started:.1f} s")
    pool = [i for i, c in enumerate(histories.commits) if len(query_of(c.subject).split()) >= 3]
    sample = random.Random(args.seed).sample(pool, min(args.sample, len(pool)))
    for chunk in (None, "commit_message", "commit_diff"):
        figures = _measure(histories, sample, chunk, search_history, HistoryRequest)
        print(
            f"chunk_type {chunk or 'both':15} n={figures['n']} hit@10 {figures['hit']:.3f} "
            f"MRR@10 {figures['mrr']:.3f}  definitions recall@10 {figures['defs']:.3f} "
            f"(over {figures['with_defs']} commits with definitions); "
            f"{figures['ms']:.1f} ms/query"
        )


def _measure(
    histories: Any, sample: list[int], chunk: str | None, search: Any, request_type: Any
) -> dict[str, Any]:
    hits = reciprocal = 0.0
    recall: list[float] = []
    started = time.perf_counter()
    for i in sample:
        commit = histories.commits[i]
        fields: dict[str, Any] = {"query": query_of(commit.subject), "limit": 10}
        if chunk:
            fields["chunk_type"] = chunk
        fields["max_tokens"] = 100_000
        result = search(histories, request_type.from_mapping(fields))
        ranked = [h.commit.hash for h in result.hits]
        if commit.hash in ranked:
            hits += 1
            reciprocal += 1 / (ranked.index(commit.hash) + 1)
        wanted = {(f.path, d.qualified) for f in commit.files for d in f.definitions}
        if wanted:
            found = {
                (f.path, d.qualified)
                for h in result.hits
                for f in h.commit.files
                for d in f.definitions
            }
            recall.append(len(wanted & found) / len(wanted))
    n = len(sample)
    return {
        "n": n,
        "hit": hits / n,
        "mrr": reciprocal / n,
        "defs": sum(recall) / len(recall) if recall else 0.0,
        "with_defs": len(recall),
        "ms": 1000 * (time.perf_counter() - started) / n,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("what", choices=("libraries", "index", "quality"))
    parser.add_argument("--repo", type=Path, default=DEFAULT_REPO)
    parser.add_argument("--index-dir", default=None, help="quality: an index already built")
    parser.add_argument("--limit", type=int, default=10**9, help="libraries: commits to read")
    parser.add_argument("--dulwich-limit", type=int, default=1000)
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--seed", type=int, default=18)
    args = parser.parse_args()
    if not (args.repo / "HEAD").exists() and not (args.repo / ".git").exists():
        sys.exit(f"no git repository at {args.repo}")
    subprocess.run(["git", "--version"], check=True)
    {"libraries": libraries, "index": index, "quality": quality}[args.what](args)


if __name__ == "__main__":
    main()
