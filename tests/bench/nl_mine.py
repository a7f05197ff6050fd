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
   (``git cat-file``, ``<commit>:<path>``) with symfuse's own extractor
   (``symfuse.indexer.extract.tags.extract``, what ``indexer.parsing.parse_file`` runs). Each
   spot the diff (``-U0``) changed goes to the innermost document that holds it: a spot
   is an added or modified line that is not blank, or for a hunk that only removed code,
   the gap between the lines around it; hunks of blank lines only are ignored; a
   document holds the lines of its span and the comment and annotation lines right
   above it (so a new doc comment belongs to its method, not to the class around it).
   Definitions in test, example, benchmark, fuzzing or vendored code
   (``nl_corpus.is_aside``: by path, or inside a ``tests`` module) are set aside (kept
   in the file as ``aside``, never expected). The commit is kept when it changed 1..5
   other definitions and at least one of them still exists at S with the same symbol
   id (``path::qualified.name#kind``); ids made unique with ``~2``, ``~3`` (overloads)
   are left out, as their numbering depends on the order of the file.
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

from symfuse.indexer.extract.tags import extract
from symfuse.indexer.files import languages
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
    """A commit of the walk and, per source file it touches, the spots it changed.

    A spot is a range of lines of the new version that the changed definition must hold:
    one line per added or modified line that is not blank; for a hunk that only removed
    code, the gap between the lines around it. Hunks that only add or remove blank lines
    leave no spot.
    """

    commit: str
    subject: str
    spots: dict[str, list[tuple[int, int]]] = field(default_factory=dict)


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


@dataclass(slots=True)
class _Hunk:
    start: int  # first line of the new side (the line before a pure deletion)
    new: int  # lines on the new side
    left: int  # content lines still to read
    added: list[int] = field(default_factory=list)  # new-side numbers of non-blank + lines
    removed_code: bool = False  # a - line that is not blank
    seen_new: int = 0

    def spots(self) -> list[tuple[int, int]]:
        if self.added:
            return [(n, n) for n in self.added]
        if not self.removed_code:
            return []  # blank lines only
        if self.new:
            return [(self.start, self.start + self.new - 1)]
        return [(self.start, self.start + 1)]


def _parse_log(stream: IO[bytes]) -> Iterator[Change]:
    change: Change | None = None
    path: str | None = None
    hunk: _Hunk | None = None
    for raw in stream:
        if hunk is not None and hunk.left:
            if raw.startswith(b"\\"):  # "\ No newline at end of file" is not a line
                continue
            hunk.left -= 1
            if raw.startswith(b"+"):
                if raw[1:].strip():
                    hunk.added.append(hunk.start + hunk.seen_new)
                hunk.seen_new += 1
            elif raw[1:].strip():
                hunk.removed_code = True
            if not hunk.left and change is not None and path is not None:
                change.spots.setdefault(path, []).extend(hunk.spots())
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
        elif match := _HUNK.match(raw):
            old = int(match.group(1) or b"1")
            start, new = int(match.group(2)), int(match.group(3) or b"1")
            hunk = _Hunk(start, new, old + new)
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


@dataclass(frozen=True, slots=True)
class Owner:
    """A document of a changed file, with the first line it owns: its span's, or that of
    the comments and annotations right above it (a doc comment belongs to what it
    documents, not to the class around it)."""

    symbol: Symbol
    head: int


_LEADING = re.compile(r"^\s*(//|/\*|\*|@\w|#\[|#!\[)")
_LEADING_PY = re.compile(r"^\s*(#|@\w)")


def definitions_at(path: str, source: bytes) -> list[Owner]:
    """The documents (``nl_corpus.is_document``) of one file as symfuse extracts it."""
    spec = languages.detect(path)
    if spec is None:
        return []
    try:
        extraction = extract(path, "root", spec.name, source, module_path=path)
    except (RecursionError, MemoryError, ValueError):
        return []
    lines = source.decode("utf-8", "replace").splitlines()
    leading = _LEADING_PY if spec.name == "python" else _LEADING
    owners = []
    for symbol in extraction.symbols:
        if is_document(symbol):
            above = symbol.line - 1  # 1-based number of the line above the span
            while above >= 1 and leading.match(lines[above - 1]):
                above -= 1
            owners.append(Owner(symbol, above + 1))
    return owners


def innermost(owners: list[Owner], first: int, last: int) -> Symbol | None:
    """The smallest definition whose lines (with its leading comments) hold ``first..last``."""
    holding = [o for o in owners if o.head <= first and last <= o.symbol.end_line]
    best = max(holding, key=lambda o: (o.head, -o.symbol.end_line), default=None)
    return best.symbol if best is not None else None


def changed_definitions(change: Change, blobs: Blobs) -> list[Symbol]:
    """The innermost definition around each spot the commit changed."""
    found: dict[str, Symbol] = {}
    for path, spots in sorted(change.spots.items()):
        source = blobs.read(change.commit, path)
        if source is None:
            continue
        owners = definitions_at(path, source)
        for first, last in spots:
            symbol = innermost(owners, first, last)
            if symbol is not None:
                found.setdefault(symbol.symbol_id, symbol)
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
    if not any(change.spots.values()):
        return "no source lines changed (or blank lines only)", ""
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
