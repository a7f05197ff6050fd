"""Mine a natural-language code-search set from git history (issue 13, item 7).

For each repository of ``nl_corpus.REPOS`` (a local bare mirror, fetched with the
``fetch`` tool as ``github:owner/name``), at its pinned snapshot commit S:

1. Snapshot S is written out and indexed with symfuse's defaults; its documents
   (``nl_corpus.is_document``: functions, methods, constructors, function-like macros,
   classes, structs, interfaces, traits, enums, unions, type aliases) are the ids an
   answer may have.
2. S and its first-parent ancestors are walked, newest first (``git log --first-parent
   --no-merges -U0 -p``, limited to files symfuse parses). A commit is skipped when its
   subject is a revert, a merge, a release or version bump, a dependency update, a CI,
   build or changelog chore, or a typo, spelling, formatting, style, lint or
   compiler-warning fix (``REJECT``).
3. The query is the subject cleaned by :func:`clean_subject`: conventional prefixes
   (``fix:``, ``feat(scope)!:``, ``area/sub:``, ``[tag]``), issue and pull-request
   numbers (``#123``, ``(gh-12)``, ``fixes #4``), backticked or quoted code, and every
   identifier-like token (CamelCase, snake_case, dotted or ``::`` paths, calls ``f()``,
   ``--flags``, anything with a digit, an underscore or code punctuation) are removed.
   A query left with fewer than 3 content words (stop words not counted) is dropped,
   and so is a query already mined from a newer commit of the same repository.
4. The expected answers: every changed file of the commit is parsed at the commit
   (``git show <commit>:<path>``) with symfuse's own extractor
   (``symfuse.indexer.extract.extract``, what ``indexer.parsing.parse_file`` runs); each
   changed line of ``git diff -U0`` (a pure deletion counts as the gap between its two
   neighbouring lines) goes to the innermost document whose span holds it. Definitions
   in test, example, benchmark, fuzzing or vendored code (``nl_corpus.is_aside``: by
   path, or inside a ``tests`` module) are set aside (kept in the file as ``aside``,
   never expected). The commit is kept when it changed 1..5 other definitions and at least
   one of them still exists at S with the same symbol id (``path::qualified.name#kind``);
   ids made unique with ``~2``, ``~3`` (overloads) are left out, as their numbering
   depends on the order of the file.
5. At most ``--max-queries`` (default 150) queries per repository, the newest first,
   from at most ``--max-commits`` (default 4000) commits walked.

The result, ``tests/bench/data/nl_mined.json``, is committed: tests/bench/nl_bench.py
reads it and needs the mirrors only to write out the snapshots.

    python tests/bench/nl_mine.py                     # every repository
    python tests/bench/nl_mine.py --repos click,jq    # only these (the others kept)
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from symfuse.indexer import languages
from symfuse.indexer.extract import extract
from symfuse.indexer.model import Symbol

sys.path.insert(0, str(Path(__file__).parent))
from nl_corpus import (
    BY_NAME,
    DATA,
    DEFAULT_MIRRORS,
    REPOS,
    Repo,
    index_snapshot,
    is_aside,
    is_document,
    materialise,
)
from nl_subjects import MIN_WORDS, clean_subject, content_words, rejected

MAX_CHANGED = 5  # definitions a kept commit may change (outside test code)
OUTCOMES = ("walked", "kept")  # the counters of mine_repo that are not reasons to drop

# --- history ------------------------------------------------------------------------------------


@dataclass(slots=True)
class Change:
    """A commit of the walk: the changed lines of each source file it touches (new side).

    ``lines`` are changed line numbers; ``gaps`` are pure deletions, the line after which
    lines were removed (the gap between lines g and g + 1).
    """

    commit: str
    subject: str
    lines: dict[str, set[int]] = field(default_factory=dict)
    gaps: dict[str, set[int]] = field(default_factory=dict)


_HUNK = re.compile(rb"^@@ -\d+(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def source_pathspecs() -> list[str]:
    """Git pathspecs of every extension symfuse parses."""
    suffixes = {ext for spec in languages.supported().values() for ext in spec.extensions}
    return [f"*{ext}" for ext in sorted(suffixes)]


def walk(git_dir: Path, snapshot: str, max_commits: int) -> Iterator[Change]:
    """S and its first-parent ancestors (merges skipped), newest first, with their hunks."""
    command = [
        "git", "--git-dir", str(git_dir), "log", "--first-parent", "--no-merges",
        f"--max-count={max_commits}", "-p", "-U0", "--no-color", "--no-ext-diff",
        "--format=%x1e%H%x1f%s", snapshot, "--", *source_pathspecs(),
    ]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE)
    assert process.stdout is not None
    try:
        yield from _parse_log(process.stdout)
    finally:  # the caller may stop early: end this git log, not leave it blocked on a pipe
        process.kill()
        process.wait()


def _parse_log(stream: IO[bytes]) -> Iterator[Change]:
    change: Change | None = None
    path: str | None = None
    skip = 0  # content lines of the current hunk still to pass over
    for raw in stream:
        if skip:
            if not raw.startswith(b"\\"):  # "\ No newline at end of file" is not counted
                skip -= 1
            continue
        if raw.startswith(b"\x1e"):
            if change is not None:
                yield change
            commit, _, subject = raw[1:].decode("utf-8", "replace").rstrip("\n").partition("\x1f")
            change, path = Change(commit, subject), None
        elif raw.startswith(b"diff --git "):
            path = None
        elif raw.startswith(b"+++ "):
            name = raw[4:].rstrip(b"\n").decode("utf-8", "replace")
            path = name[2:] if name.startswith("b/") else None  # /dev/null, quoted names
        elif change is not None and (match := _HUNK.match(raw)):
            old = int(match.group(1) or b"1")
            start, new = int(match.group(2)), int(match.group(3) or b"1")
            skip = old + new
            if path is None:
                continue
            if new:
                change.lines.setdefault(path, set()).update(range(start, start + new))
            else:
                change.gaps.setdefault(path, set()).add(start)
    if change is not None:
        yield change


class Blobs:
    """File contents at any commit, through one ``git cat-file --batch``."""

    def __init__(self, git_dir: Path) -> None:
        self.process = subprocess.Popen(
            ["git", "--git-dir", str(git_dir), "cat-file", "--batch"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )

    def read(self, commit: str, path: str) -> bytes | None:
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None
        assert stdout is not None
        stdin.write(f"{commit}:{path}\n".encode())
        stdin.flush()
        header = stdout.readline().split()
        if len(header) != 3 or header[1] != b"blob":
            return None
        data = stdout.read(int(header[2]))
        stdout.read(1)  # the newline after the contents
        return data

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


# --- changed definitions --------------------------------------------------------------------------


def definitions_at(path: str, source: bytes) -> list[Symbol]:
    """The documents (``nl_corpus.is_document``) of one file as symfuse extracts it."""
    spec = languages.detect(path)
    if spec is None:
        return []
    try:
        extraction = extract(path, "root", spec.name, source, module_path=path)
    except (RecursionError, MemoryError, ValueError):
        return []
    return [s for s in extraction.symbols if is_document(s)]


def innermost(symbols: list[Symbol], first: int, last: int) -> Symbol | None:
    """The smallest definition whose lines hold ``first..last``."""
    holding = [s for s in symbols if s.line <= first and last <= s.end_line]
    return max(holding, key=lambda s: (s.line, -s.end_line), default=None)


def changed_definitions(change: Change, blobs: Blobs) -> list[Symbol]:
    """The innermost definition around each changed line (or deletion gap) of the commit."""
    found: dict[str, Symbol] = {}
    for path in sorted(change.lines.keys() | change.gaps.keys()):
        source = blobs.read(change.commit, path)
        if source is None:
            continue
        symbols = definitions_at(path, source)
        spots = [(n, n) for n in change.lines.get(path, ())]
        spots += [(g, g + 1) for g in change.gaps.get(path, ())]
        for first, last in spots:
            owner = innermost(symbols, first, last)
            if owner is not None:
                found.setdefault(owner.symbol_id, owner)
    return list(found.values())


# --- mining -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Mined:
    """One query: ``expected`` are the symbol ids at S, ``aside`` the test-code ones."""

    repo: str
    query: str
    subject: str
    commit: str
    language: str
    expected: tuple[str, ...]
    aside: tuple[str, ...] = ()


def mine_repo(
    repo: Repo, mirrors: Path, max_commits: int, max_queries: int
) -> tuple[list[Mined], Counter[str]]:
    """The queries of one repository, newest first, and why the other commits were dropped."""
    materialise(repo, mirrors)
    index = index_snapshot(repo)
    at_snapshot = {s.symbol_id: s for s in index.symbols if is_document(s)}
    print(f"{repo.name}: snapshot {repo.snapshot[:12]}, {len(at_snapshot)} definitions",
          file=sys.stderr)  # fmt: skip
    reasons: Counter[str] = Counter()
    mined: list[Mined] = []
    seen: set[str] = set()
    blobs = Blobs(repo.mirror(mirrors))
    try:
        for change in walk(repo.mirror(mirrors), repo.snapshot, max_commits):
            if len(mined) >= max_queries:
                break
            reasons["walked"] += 1
            reason, query = _judge(change, seen)
            if reason:
                reasons[reason] += 1
                continue
            changed = changed_definitions(change, blobs)
            main = [s for s in changed if not is_aside(s)]
            if not main:
                reasons["changes no definition outside test code"] += 1
                continue
            if len(main) > MAX_CHANGED:
                reasons[f"changes more than {MAX_CHANGED} definitions"] += 1
                continue
            expected = sorted(s.symbol_id for s in main if s.symbol_id in at_snapshot)
            expected = [i for i in expected if "~" not in i.rsplit("#", 1)[1]]
            if not expected:
                reasons["no changed definition left at the snapshot"] += 1
                continue
            aside = sorted(
                s.symbol_id for s in changed if is_aside(s) and s.symbol_id in at_snapshot
            )
            seen.add(query.lower())
            reasons["kept"] += 1
            language = at_snapshot[expected[0]].language
            mined.append(Mined(repo.name, query, change.subject, change.commit, language,
                               tuple(expected), tuple(aside)))  # fmt: skip
    finally:
        blobs.close()
    return mined, reasons


def _judge(change: Change, seen: set[str]) -> tuple[str, str]:
    """(why the commit is dropped, "" when kept; its query)."""
    if not (change.lines or change.gaps):
        return "no source lines changed", ""
    if rejected(change.subject):
        return "revert, merge, release, chore, typo, format or lint", ""
    query = clean_subject(change.subject)
    if len(content_words(query)) < MIN_WORDS:
        return f"fewer than {MIN_WORDS} content words once cleaned", ""
    if query.lower() in seen:
        return "same query as a newer commit", ""
    return "", query


# --- the data file ------------------------------------------------------------------------------


def write(path: Path, summaries: list[dict[str, Any]], mined: list[Mined]) -> None:
    """The mined file: the repositories with their snapshots, then every query.

    Repositories not mined in this run keep what the file already had for them.
    """
    old: dict[str, Any] = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    fresh = {summary["name"] for summary in summaries}
    repos = [r for r in old.get("repos", []) if r["name"] not in fresh] + summaries
    queries = [q for q in old.get("queries", []) if q["repo"] not in fresh]
    queries += [asdict(m) for m in mined]
    order = {r.name: i for i, r in enumerate(REPOS)}
    repos.sort(key=lambda r: order.get(r["name"], len(order)))
    queries.sort(key=lambda q: order.get(q["repo"], len(order)))  # stable: newest first
    payload = {
        "note": "mined by tests/bench/nl_mine.py from the first-parent history of each "
        "repository up to its snapshot; the rules are in that script's docstring",
        "repos": repos,
        "queries": queries,
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", default="", help="comma-separated names (default: all)")
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--max-commits", type=int, default=4000)
    parser.add_argument("--max-queries", type=int, default=150)
    parser.add_argument("--out", type=Path, default=DATA)
    args = parser.parse_args(argv)
    names = [n for n in args.repos.split(",") if n] or [r.name for r in REPOS]
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        parser.error(f"unknown repositories {unknown}; known: {', '.join(BY_NAME)}")
    mined: list[Mined] = []
    summaries: list[dict[str, Any]] = []
    for name in names:
        repo = BY_NAME[name]
        found, counts = mine_repo(repo, args.mirrors, args.max_commits, args.max_queries)
        mined += found
        dropped = ", ".join(f"{k} {v}" for k, v in counts.most_common() if k not in OUTCOMES)
        print(f"{name}: {len(found)} queries from {counts['walked']} commits; dropped: "
              f"{dropped}", file=sys.stderr)  # fmt: skip
        summaries.append({
            "name": name, "github": repo.github, "language": repo.language,
            "snapshot": repo.snapshot, "queries": len(found),
            "max_commits": args.max_commits, "max_queries": args.max_queries,
            "commits": dict(sorted(counts.items())),
        })  # fmt: skip
    write(args.out, summaries, mined)
    print(f"{len(mined)} queries of {', '.join(names)} written to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
