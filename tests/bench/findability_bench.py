"""Findability: the files and definitions an agent looks for, on a hand-annotated set (issue 35).

The set: ``tests/bench/data/findability/<owner>+<name>.json``, one file per repository
(``repo``, pinned ``commit``, ``language``, ``queries``). A query has an ``id``, a
``category`` (``behaviour``: what some code does; ``architecture``: how a part is built;
``symbol``: a named definition), the ``query`` text and its ``targets``, each a ``path``
with an optional ``start_line``..``end_line`` (1-based, inclusive; no span: the whole file).

Three systems answer every query in the same run, each over its own index of the same tree:

- symfuse: ``update_index`` with default settings (the index under
  ``tests/bench/.corpus/findability/.index/``), then
  ``operations.search(index, SearchRequest.from_mapping({"query": q, "limit": 10}))``; its
  first 10 items as they come, each the span ``line..end_line`` of the definition in its
  file (a call-graph question's answer: its callers' or callees' definitions, the same way);
- semble 0.7.0, offline: ``SembleIndex.from_path`` (its default: code files) with a local
  stand-in embedding model (a two-word vocabulary, random vectors: the real model cannot be
  downloaded here), searched with ``alpha=0.0``, so the semantic channel weighs nothing and
  what ranks is semble's BM25 (its code chunks, path words added) and its reranking: the
  file-coherence and definition boosts and the test/example path penalties. A result is
  its chunk's lines;
- bm25: Okapi BM25 (k1 = 1.2, b = 0.75, idf = ln(1 + (N - df + 0.5) / (df + 0.5))) over
  non-overlapping 50-line chunks of every file of the tree whose extension is in
  :data:`SOURCE_EXTENSIONS` (no symlinks, nothing over 1 MB, nothing with a NUL byte).
  Tokens: runs of letters and digits split into identifier words (``getHTTPResponse`` ->
  get, http, response; ``max_depth`` -> max, depth), lower-cased, single characters dropped;
  no stop words, no stemming; each query word counted once; ties go to the earlier chunk.

Scoring. A result is (path, start, end). It is relevant to a target when the paths are
equal and, if the target has a span, the result's span overlaps it (a whole-file target
takes any result in its file). Results are read in rank order; a result is relevant when it
covers a target not credited yet, and it credits the first such target (in the target
list's order); a later result covering only credited targets is not relevant. Over the
first 10 results (depth 10):

- NDCG@10, binary gains: DCG = sum of 1 / log2(rank + 1) over relevant results, divided by
  the ideal DCG of min(#targets, 10) relevant results at the top;
- recall@10: the share of the query's targets some result of the 10 covers;
- MRR@10: 1 / the rank of the first relevant result (0 when there is none).

``--by-file`` scores files instead: each target is its file (a query's targets in one file
count once) and each result its file, so a file is credited by its first result and later
results in it are not relevant (what an agent looking for files gets from the ten).

Each figure is a mean over queries, overall, per category and per language (one
repository per language), with symfuse - semble beside them. A repository whose mirror is
missing, or on which a system fails (the traceback goes to stderr), is NOT MEASURED for
every system, so the columns always compare the same queries. An error symfuse gives its
user as an answer (``SymfuseError``: ``NotFound``, ``InvalidRequest``) is what that user
gets: the query scores as no results, and it is listed under "errors".

Held-out rule: a query is **held out** when ``hashlib.sha1(id.encode()).digest()[0]`` is
odd, and is for tuning (``tune``) when it is even. Tune symfuse on the tune half only;
the held-out half is the figure to quote.

Corpora: each repository's bare mirror ``<mirrors>/<owner>+<name>/repo`` (``--mirrors`` or
``SYMFUSE_MIRRORS``, default ``/work/.mirror``) is written out at its pinned commit with
``git archive`` under ``tests/bench/.corpus/findability/<owner>+<name>-<commit[:12]>/``
(git-ignored, reused when present). Tests and CI never need any of it.

    python tests/bench/findability_bench.py
    python tests/bench/findability_bench.py --repos jbogard+MediatR,expressjs+express
    python tests/bench/findability_bench.py --half held-out --systems symfuse,bm25
    python tests/bench/findability_bench.py --show-misses 3 --json out.json
    python tests/bench/findability_bench.py --systems symfuse --semantic   # the extra, on
    python tests/bench/findability_bench.py --systems symfuse --by-file --seed 7  # another SVD seed

``--show-misses N``: per repository, up to N queries where symfuse scores NDCG 0, with its
top 3 results, the targets and the other systems' NDCG.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

HERE = Path(__file__).resolve().parent
DATA = HERE / "data" / "findability"
CORPUS = HERE / ".corpus" / "findability"
# symfuse's indexes, kept between runs; a ranking file's word model is retrained only when
# enough files changed, so two codes compared should each have a folder of their own
INDEXES = Path(os.environ.get("SYMFUSE_FINDABILITY_INDEXES", CORPUS / ".index"))
DEFAULT_MIRRORS = Path(os.environ.get("SYMFUSE_MIRRORS", "/work/.mirror"))

DEPTH = 10
WITH = {"semantic": False}  # --semantic: symfuse's neural channel (the semantic extra) on
BY_FILE = {"on": False}  # --by-file: targets and results are files (spans dropped)
FOLDER = {"indexes": INDEXES}  # --seed: that seed's own folder (:func:`seeded`)
K1 = 1.2
B = 0.75
CHUNK_LINES = 50
MAX_FILE_BYTES = 1_000_000
SEMBLE_VERSION = "0.7.0"

SYSTEMS = ("symfuse", "semble", "bm25")
CATEGORIES = ("behaviour", "architecture", "symbol")
HALVES = ("tune", "held-out")
METRICS = ("ndcg10", "recall10", "mrr10")

# What the bm25 baseline reads: source files of the languages symfuse parses, plus Teal
# (.tl: luarocks is written in it, and the set names .tl files as targets). No docs,
# configuration or data files.
_SOURCE_EXTENSION_TEXT = """
.py .pyi .js .mjs .cjs .jsx .ts .mts .cts .tsx .go .rs .java .c .h .cc .cpp .cxx .hh .hpp .hxx
.inl .cs .rb .rake .gemspec .php .kt .kts .swift .scala .sc .lua .tl .sh .bash .dart .ex .exs
.hs .ml .zig .jl .r .pl .pm .m .mm .groovy .erl .hrl .elm .sol .clj .cljs .cljc .fs .fsi .nim
.gleam .cu .cuh
"""
SOURCE_EXTENSIONS = frozenset(_SOURCE_EXTENSION_TEXT.split())


# --- the set ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """A target or a result: a file, or lines ``start..end`` of it (1-based, inclusive)."""

    path: str
    start: int | None = None
    end: int | None = None
    label: str = field(default="", compare=False)  # what a result is, for --show-misses

    def __str__(self) -> str:
        where = self.path if self.start is None else f"{self.path}:{self.start}-{self.end}"
        return f"{where} {self.label}".rstrip()


@dataclass(frozen=True, slots=True)
class Query:
    id: str
    repo: str
    language: str
    category: str
    text: str
    targets: tuple[Span, ...]

    @property
    def half(self) -> str:
        return "held-out" if hashlib.sha1(self.id.encode()).digest()[0] % 2 else "tune"


@dataclass(frozen=True, slots=True)
class RepoSet:
    """One file of the set: a repository at its pinned commit and its queries."""

    repo: str  # owner/name
    commit: str
    language: str
    queries: tuple[Query, ...]

    @property
    def key(self) -> str:
        return self.repo.replace("/", "+")

    @property
    def name(self) -> str:
        return self.repo.split("/", 1)[1]

    @property
    def slot(self) -> str:
        return f"{self.key}-{self.commit[:12]}"

    @property
    def root(self) -> Path:
        return CORPUS / self.slot


def load_set(directory: Path = DATA) -> list[RepoSet]:
    sets = []
    for path in sorted(directory.glob("*.json")):
        raw = json.loads(path.read_text(encoding="utf-8"))
        queries = tuple(
            Query(
                q["id"],
                raw["repo"],
                raw["language"],
                q["category"],
                q["query"],
                tuple(_target(t) for t in q["targets"]),
            )
            for q in raw["queries"]
        )
        sets.append(RepoSet(raw["repo"], raw["commit"], raw["language"], queries))
    return sets


def _target(raw: dict[str, Any]) -> Span:
    return Span(raw["path"], raw.get("start_line"), raw.get("end_line"))


class NotMeasured(RuntimeError):
    """A repository left out of the run, with the reason."""


def _safe_member(member: tarfile.TarInfo, dest: str) -> tarfile.TarInfo | None:
    """tarfile's ``data`` filter, leaving out what it refuses (a link to an absolute path or
    out of the tree: os-lib's tests hold such links) rather than failing the whole tree."""
    try:
        return tarfile.data_filter(member, dest)
    except tarfile.FilterError:
        return None


def materialise(repo: RepoSet, mirrors: Path) -> Path:
    """The pinned commit written out with ``git archive`` (once: into a side folder that is
    renamed when whole, so a folder under its final name is always complete)."""
    if repo.root.is_dir():
        return repo.root
    git_dir = mirrors / repo.key / "repo"
    if not git_dir.is_dir():
        raise NotMeasured(f"no mirror at {git_dir} (fetch github:{repo.repo})")
    partial = CORPUS / f".{repo.slot}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    archive = subprocess.Popen(
        ["git", "--git-dir", str(git_dir), "archive", "--format=tar", repo.commit],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert archive.stdout is not None
    assert archive.stderr is not None
    try:
        with tarfile.open(fileobj=archive.stdout, mode="r|") as tar:
            tar.extractall(partial, filter=_safe_member)
    except tarfile.TarError as exc:
        archive.kill()
        raise NotMeasured(f"git archive {repo.commit[:12]} failed: {exc}") from None
    finally:
        error = archive.stderr.read().decode(errors="replace").strip()
    if archive.wait() != 0:
        shutil.rmtree(partial, ignore_errors=True)
        raise NotMeasured(f"git archive {repo.commit[:12]} failed in {git_dir}: {error}")
    partial.rename(repo.root)
    return repo.root


# --- scoring ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Score:
    ndcg10: float
    recall10: float
    mrr10: float


def covers(result: Span, target: Span) -> bool:
    """Whether ``result`` is relevant to ``target``: the same file, and the spans overlap
    when both have one."""
    if result.path != target.path:
        return False
    if target.start is None or result.start is None:
        return True
    assert target.end is not None
    assert result.end is not None
    return result.start <= target.end and target.start <= result.end


def relevant(results: Sequence[Span], targets: Sequence[Span]) -> list[bool]:
    """Per result of the first DEPTH: whether it credits a target (the first one it covers
    that no earlier result credited)."""
    credited: set[int] = set()
    gains = []
    for result in results[:DEPTH]:
        hit = next(
            (i for i, t in enumerate(targets) if i not in credited and covers(result, t)), None
        )
        if hit is not None:
            credited.add(hit)
        gains.append(hit is not None)
    return gains


def as_files(spans: Sequence[Span]) -> list[Span]:
    """``spans`` as their files, each once, in order of first appearance (--by-file)."""
    return [Span(path) for path in dict.fromkeys(s.path for s in spans)]


def score(results: Sequence[Span], targets: Sequence[Span]) -> Score:
    if BY_FILE["on"]:
        targets = as_files(targets)
        results = [Span(r.path) for r in results]
    top = results[:DEPTH]
    gains = relevant(top, targets)
    dcg = sum(1 / math.log2(rank + 1) for rank, gain in enumerate(gains, start=1) if gain)
    first = next((rank for rank, gain in enumerate(gains, start=1) if gain), None)
    ideal = sum(1 / math.log2(rank + 1) for rank in range(1, min(len(targets), DEPTH) + 1))
    covered = sum(any(covers(r, t) for r in top) for t in targets)
    return Score(
        dcg / ideal if ideal else 0.0,
        covered / len(targets) if targets else 0.0,
        1 / first if first is not None else 0.0,
    )


# --- the systems --------------------------------------------------------------------------------

Ranker = Callable[[str], list[Span]]


@dataclass(slots=True)
class Built:
    """A system's index of one tree: how to ask it, the files it holds, what it cost."""

    rank: Ranker
    files: frozenset[str]
    seconds: float
    errors: dict[str, str] = field(default_factory=dict)  # query text -> the error it raised


def build_symfuse(repo: RepoSet, root: Path) -> Built:
    from symfuse.indexer.config import IndexConfig
    from symfuse.indexer.errors import SymfuseError
    from symfuse.indexer.update.workspace import update_index
    from symfuse.ranking.api import SearchRequest, SearchResponse, prepare
    from symfuse.ranking.query import operations

    start = time.perf_counter()
    index_dir = FOLDER["indexes"] / repo.slot
    config = IndexConfig(roots=(root,), index_dir=index_dir, progress=False)
    index, _ = update_index(config)
    prepared = prepare(index, index_dir)
    if WITH["semantic"]:  # the extra's vectors, cached beside the other benches'
        import nl_semantic

        vectors = nl_semantic.CACHE / f"findability-{repo.slot}"
        vectors.mkdir(parents=True, exist_ok=True)
        print("  " + nl_semantic.embed_index(index, vectors), file=sys.stderr)
    seconds = time.perf_counter() - start
    files = frozenset(index.files)  # one root: a file's key is its path under the root
    built = Built(lambda query: [], files, seconds)

    def rank(query: str) -> list[Span]:
        asked: dict[str, Any] = {"query": query, "limit": DEPTH}
        if WITH["semantic"]:
            asked["semantic"] = "on"
        request = SearchRequest.from_mapping(asked)
        try:
            answer = operations.search(index, request, directory=index_dir, prepared=prepared)
        except SymfuseError as exc:  # an error meant for the user: what they get, no results
            if not built.errors:
                traceback.print_exc()
            built.errors[query] = f"{type(exc).__name__}: {exc}"
            return []
        kind = "" if isinstance(answer, SearchResponse) else f" ({answer.search_mode})"
        return [
            Span(s.file, s.line, s.end_line, f"{s.kind.value} {s.fqn}{kind}")
            for s in (item.symbol for item in answer.items[:DEPTH])
        ]

    built.rank = rank
    return built


class SembleOffline:
    """semble with a stand-in model in a temporary folder, and a cache nobody else uses."""

    def __init__(self, folder: Path) -> None:
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ["SEMBLE_CACHE_LOCATION"] = str(folder / "cache")
        os.environ.pop("SEMBLE_MODEL_NAME", None)
        self.model = folder / "model"
        from importlib.metadata import PackageNotFoundError, version

        try:
            installed: str | None = version("semble")
        except PackageNotFoundError:
            installed = None
        if installed != SEMBLE_VERSION:
            raise SystemExit(
                f"semble {SEMBLE_VERSION} is needed (found {installed}): "
                f"{sys.executable} -m pip install semble=={SEMBLE_VERSION}"
            )
        from model2vec import StaticModel
        from tokenizers import Tokenizer
        from tokenizers.models import WordLevel
        from tokenizers.pre_tokenizers import Whitespace

        tokenizer = Tokenizer(WordLevel({"[UNK]": 0, "code": 1}, unk_token="[UNK]"))
        tokenizer.pre_tokenizer = Whitespace()  # type: ignore[assignment]
        vectors = np.random.default_rng(35).standard_normal((2, 8)).astype(np.float32)
        StaticModel(vectors, tokenizer).save_pretrained(self.model)

    def build(self, repo: RepoSet, root: Path) -> Built:
        from semble import SembleIndex

        start = time.perf_counter()
        index = SembleIndex.from_path(root, model_path=str(self.model))
        seconds = time.perf_counter() - start
        files = frozenset(Path(c.file_path).as_posix() for c in index.chunks)

        def rank(query: str) -> list[Span]:
            found = index.search(query, top_k=DEPTH, alpha=0.0)
            return [
                Span(Path(r.chunk.file_path).as_posix(), r.chunk.start_line, r.chunk.end_line)
                for r in found[:DEPTH]
            ]

        return Built(rank, files, seconds)


_RUN = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def tokens(text: str) -> list[str]:
    """Identifier words of ``text``, lower-cased, without single characters."""
    words = (w.lower() for run in _RUN.findall(text) for w in _WORD.findall(run))
    return [w for w in words if len(w) > 1]


def source_files(root: Path) -> Iterator[tuple[str, str]]:
    """(path under root, text) of each bm25 document file, in path order."""
    for folder, dirs, names in os.walk(root):
        dirs.sort()
        for name in sorted(names):
            path = Path(folder) / name
            if path.suffix.lower() not in SOURCE_EXTENSIONS or path.is_symlink():
                continue
            if path.stat().st_size > MAX_FILE_BYTES:
                continue
            data = path.read_bytes()
            if b"\0" in data:
                continue
            yield path.relative_to(root).as_posix(), data.decode("utf-8", errors="replace")


class ChunkBM25:
    """Okapi BM25 over the 50-line chunks of the source files of a tree."""

    def __init__(self, root: Path) -> None:
        self.chunks: list[Span] = []
        postings: dict[str, tuple[list[int], list[int]]] = {}
        lengths: list[int] = []
        for path, text in source_files(root):
            lines = text.splitlines()
            for start in range(0, len(lines), CHUNK_LINES):
                part = lines[start : start + CHUNK_LINES]
                number = len(self.chunks)
                self.chunks.append(Span(path, start + 1, start + len(part)))
                counts = Counter(tokens("\n".join(part)))
                lengths.append(sum(counts.values()))
                for term, freq in counts.items():
                    entry = postings.setdefault(term, ([], []))
                    entry[0].append(number)
                    entry[1].append(freq)
        count = len(self.chunks)
        size = np.array(lengths, dtype=np.float64)
        norm = K1 * (1 - B + B * size / max(float(size.mean()) if count else 0.0, 1e-9))
        self.weights: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]] = {}
        for term, (numbers, tfs) in postings.items():
            idf = math.log(1 + (count - len(numbers) + 0.5) / (len(numbers) + 0.5))
            where = np.array(numbers, dtype=np.int64)
            tf = np.array(tfs, dtype=np.float64)
            self.weights[term] = (where, idf * tf * (K1 + 1) / (tf + norm[where]))
        self.files = frozenset(c.path for c in self.chunks)

    def rank(self, query: str) -> list[Span]:
        scores = np.zeros(len(self.chunks))
        for term in dict.fromkeys(tokens(query)):  # each query word once
            found = self.weights.get(term)
            if found is not None:
                scores[found[0]] += found[1]
        top = np.flatnonzero(scores > 0)
        order = top[np.lexsort((top, -scores[top]))][:DEPTH]
        return [self.chunks[i] for i in order]


def build_bm25(repo: RepoSet, root: Path) -> Built:
    start = time.perf_counter()
    bm25 = ChunkBM25(root)
    return Built(bm25.rank, bm25.files, time.perf_counter() - start)


# --- running ------------------------------------------------------------------------------------


@dataclass(slots=True)
class RepoRun:
    """What one repository gave: each system's results and scores per query id."""

    repo: RepoSet
    queries: list[Query]
    results: dict[str, dict[str, list[Span]]] = field(default_factory=dict)  # system -> id ->
    scores: dict[str, dict[str, Score]] = field(default_factory=dict)
    files: dict[str, int] = field(default_factory=dict)
    outside: dict[str, list[str]] = field(default_factory=dict)  # targets not in its files
    errors: dict[str, dict[str, str]] = field(default_factory=dict)  # system -> query id -> error
    index_seconds: dict[str, float] = field(default_factory=dict)
    query_ms: dict[str, float] = field(default_factory=dict)


def run_repo(
    repo: RepoSet,
    queries: list[Query],
    root: Path,
    builders: dict[str, Callable[[RepoSet, Path], Built]],
) -> RepoRun:
    run = RepoRun(repo, queries)
    targets = [t for q in queries for t in q.targets]
    for system, build in builders.items():
        built = build(repo, root)
        start = time.perf_counter()
        results = {q.id: built.rank(q.text) for q in queries}
        run.query_ms[system] = 1000 * (time.perf_counter() - start) / max(len(queries), 1)
        run.results[system] = results
        run.scores[system] = {q.id: score(results[q.id], q.targets) for q in queries}
        run.files[system] = len(built.files)
        run.outside[system] = [t.path for t in targets if t.path not in built.files]
        run.errors[system] = {q.id: built.errors[q.text] for q in queries if q.text in built.errors}
        run.index_seconds[system] = built.seconds
        print(f"  {system}: {len(built.files)} files, index {built.seconds:.1f} s, "
              f"{run.query_ms[system]:.1f} ms/query", file=sys.stderr)  # fmt: skip
        if run.outside[system]:
            outside = ", ".join(sorted(set(run.outside[system])))
            print(f"    targets outside its files: {outside}", file=sys.stderr)
        for query_id, error in run.errors[system].items():
            print(f"    {query_id}: {error} (scored as no results)", file=sys.stderr)
    return run


# --- report -------------------------------------------------------------------------------------


def _mean(values: Sequence[Score]) -> Score:
    n = len(values)
    if n == 0:
        return Score(0.0, 0.0, 0.0)
    return Score(*(sum(getattr(v, m) for v in values) / n for m in METRICS))


Group = tuple[str, list[tuple[RepoRun, Query]]]


def groups(runs: Sequence[RepoRun], half: str) -> list[Group]:
    """``all``, then each category, then each language, of the queries of ``half``."""
    chosen = [(run, q) for run in runs for q in run.queries if half == "all" or q.half == half]
    out: list[Group] = [("all", chosen)]
    out += [(c, [(r, q) for r, q in chosen if q.category == c]) for c in CATEGORIES]
    for run in sorted(runs, key=lambda r: r.repo.language):
        label = f"{run.repo.language} ({run.repo.name})"
        out.append((label, [(r, q) for r, q in chosen if r is run]))
    return out


def figures(members: list[tuple[RepoRun, Query]], systems: Sequence[str]) -> dict[str, Any]:
    entry: dict[str, Any] = {"n": len(members)}
    for system in systems:
        scores = [run.scores[system][q.id] for run, q in members]
        mean = _mean(scores)
        entry[system] = {m: round(getattr(mean, m), 4) for m in METRICS}
        entry[system]["ndcg10_se"] = round(_standard_error([s.ndcg10 for s in scores]), 4)
    if "symfuse" in systems and "semble" in systems:
        entry["symfuse-semble"] = {
            m: round(entry["symfuse"][m] - entry["semble"][m], 4) for m in METRICS
        }
    return entry


def _standard_error(values: Sequence[float]) -> float:
    """The standard error of the mean of ``values``: how far a group's figure may move
    with another sample of queries of the same kind (a language's dozen queries: ~0.1)."""
    if len(values) < 2:
        return 0.0
    return statistics.stdev(values) / math.sqrt(len(values))


def _header(systems: Sequence[str], first: str) -> list[str]:
    cells = [first, "n"]
    for system in systems:
        cells += [f"{system} NDCG@10", "± SE", "R@10", "MRR@10"]
    delta = "symfuse" in systems and "semble" in systems
    if delta:
        cells += ["Δ NDCG (symfuse - semble)", "Δ R", "Δ MRR"]
    align = ["---"] + ["---:"] * (len(cells) - 1)
    return ["| " + " | ".join(cells) + " |", "| " + " | ".join(align) + " |"]


def _row(name: str, entry: dict[str, Any], systems: Sequence[str]) -> str:
    cells = [name, str(entry["n"])]
    for system in systems:
        shown = entry[system]
        cells += [f"{shown['ndcg10']:.3f}", f"{shown['ndcg10_se']:.3f}"]
        cells += [f"{shown[m]:.3f}" for m in METRICS[1:]]
    if "symfuse-semble" in entry:
        cells += [f"{entry['symfuse-semble'][m]:+.3f}" for m in METRICS]
    return "| " + " | ".join(cells) + " |"


def half_table(runs: Sequence[RepoRun], half: str, systems: Sequence[str]) -> str:
    title = {"all": "all queries", "tune": "tune half", "held-out": "held-out half"}[half]
    lines = [f"### {title}", "", *_header(systems, "queries")]
    for name, members in groups(runs, half):
        if members:
            lines.append(_row(name, figures(members, systems), systems))
    return "\n".join(lines)


def halves_table(runs: Sequence[RepoRun], halves: Sequence[str], systems: Sequence[str]) -> str:
    lines = ["### overall, by half", "", *_header(systems, "half")]
    for half in halves:
        members = groups(runs, half)[0][1]
        lines.append(_row(half, figures(members, systems), systems))
    return "\n".join(lines)


def repos_table(runs: Sequence[RepoRun], systems: Sequence[str]) -> str:
    cells = ["repository", "language", "commit", "queries", "targets"]
    cells += [f"{s} files" for s in systems] + [f"targets outside {s}" for s in systems]
    lines = ["### repositories", "", "| " + " | ".join(cells) + " |",
             "| --- | --- | --- |" + " ---: |" * (len(cells) - 3)]  # fmt: skip
    for run in runs:
        targets = sum(len(q.targets) for q in run.queries)
        row = [run.repo.repo, run.repo.language, f"`{run.repo.commit[:12]}`",
               str(len(run.queries)), str(targets)]  # fmt: skip
        row += [str(run.files[s]) for s in systems]
        row += [str(len(run.outside[s])) for s in systems]
        lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines)


LONG = 100  # lines: a result this long covers much more than the definition looked for


def sizes_table(runs: Sequence[RepoRun], systems: Sequence[str]) -> str:
    """How long each system's results are, and how many relevant ones are long: a long span
    (a whole class) overlaps a target inside it, so it is relevant by the rule above."""
    lines = ["### result sizes (all measured queries)", "",
             f"| system | results | mean lines | relevant | relevant over {LONG} lines |",
             "| --- | ---: | ---: | ---: | ---: |"]  # fmt: skip
    for system in systems:
        count = spans = hits = long_hits = 0
        for run in runs:
            for q in run.queries:
                results = run.results[system][q.id][:DEPTH]
                for result, gain in zip(results, relevant(results, q.targets), strict=True):
                    size = _lines(result, run.repo.root)
                    count += 1
                    spans += size
                    hits += gain
                    long_hits += gain and size > LONG
        mean = spans / count if count else 0.0
        lines.append(f"| {system} | {count} | {mean:.1f} | {hits} | {long_hits} |")
    return "\n".join(lines)


def _lines(result: Span, root: Path) -> int:
    if result.start is not None and result.end is not None:
        return result.end - result.start + 1
    path = root / result.path
    return len(path.read_text(encoding="utf-8", errors="replace").splitlines())


def errors_text(runs: Sequence[RepoRun]) -> str:
    """The queries a system answered with an error (scored as no results)."""
    lines = [f"- {system} {query_id}: {error}"
             for run in runs for system, errors in run.errors.items()
             for query_id, error in errors.items()]  # fmt: skip
    return "\n".join(["### errors, scored as no results", "", *lines]) if lines else ""


def misses(runs: Sequence[RepoRun], count: int, systems: Sequence[str]) -> str:
    lines = ["### symfuse misses (NDCG@10 = 0)", ""]
    others = [s for s in systems if s != "symfuse"]
    for run in runs:
        missed = [q for q in run.queries if run.scores["symfuse"][q.id].ndcg10 == 0]
        for q in missed[:count]:
            beside = ", ".join(f"{s} {run.scores[s][q.id].ndcg10:.2f}" for s in others)
            lines.append(f"- {q.id} [{q.category}, {q.half}] {q.text!r}" +
                         (f" ({beside})" if beside else ""))  # fmt: skip
            lines += [f"    target: {t}" for t in q.targets]
            top = run.results["symfuse"][q.id][:3]
            lines += [f"    symfuse {i}: {r}" for i, r in enumerate(top, start=1)]
            if not top:
                lines.append("    symfuse: no results")
    return "\n".join(lines)


def as_json(
    runs: Sequence[RepoRun],
    halves: Sequence[str],
    systems: Sequence[str],
    not_measured: dict[str, str],
) -> dict[str, Any]:
    return {
        "depth": DEPTH,
        "scoring": "files" if BY_FILE["on"] else "spans",
        "systems": list(systems),
        "semble": {"version": SEMBLE_VERSION, "alpha": 0.0, "model": "offline stand-in"},
        "bm25": {"k1": K1, "b": B, "chunk_lines": CHUNK_LINES},
        "held_out_rule": "sha1(id.encode()).digest()[0] % 2 == 1",
        "index_seconds": "symfuse: update_index of the cached index (a cold build when absent)",
        "not_measured": not_measured,
        "repos": {
            run.repo.repo: {
                "commit": run.repo.commit,
                "language": run.repo.language,
                "queries": len(run.queries),
                "files": run.files,
                "targets_outside_files": {s: len(v) for s, v in run.outside.items()},
                "outside_paths": {s: sorted(set(v)) for s, v in run.outside.items() if v},
                "errors": {s: v for s, v in run.errors.items() if v},
                "index_seconds": {s: round(v, 2) for s, v in run.index_seconds.items()},
                "query_ms": {s: round(v, 2) for s, v in run.query_ms.items()},
            }
            for run in runs
        },
        "figures": {
            half: {name: figures(members, systems) for name, members in groups(runs, half)}
            for half in halves
        },
        "queries": {
            q.id: {
                "repo": run.repo.repo,
                "category": q.category,
                "half": q.half,
                **{s: _rounded(run.scores[s][q.id]) for s in systems},
            }
            for run in runs
            for q in run.queries
        },
    }


def _rounded(figure: Score) -> list[float]:
    return [round(getattr(figure, m), 4) for m in METRICS]


def _select(sets: list[RepoSet], wanted: str) -> list[RepoSet]:
    names = [n.strip() for n in wanted.split(",") if n.strip()]
    if not names:
        return sets
    chosen = []
    for name in names:
        found = [s for s in sets if name in (s.key, s.repo, s.name)]
        if not found:
            known = ", ".join(s.key for s in sets)
            raise SystemExit(f"unknown repository {name!r}; known: {known}")
        chosen += [s for s in found if s not in chosen]
    return chosen


def seeded(seed: int) -> None:
    """symfuse's word vectors drawn with another SVD seed (``word_counts.SEED``), in an
    index folder of their own: ``<index folder>-seed-<seed>``, made once from the default
    one with the stored index hard-linked (its objects never change in place; a manifest
    is replaced, not written over) and no ranking file, so every ranking file is built
    there with the seed. The seed alone moves these figures (tests/bench/README.md,
    session 54): judge a ranking change under two or three seeds."""
    from symfuse.ranking.channels import word_counts

    word_counts.SEED = seed
    folder = INDEXES.with_name(f"{INDEXES.name}-seed-{seed}")
    if not folder.exists() and INDEXES.is_dir():
        skipped = shutil.ignore_patterns("ranking-*", "metrics.sqlite3*", "lock", "*.tmp")
        shutil.copytree(INDEXES, folder, copy_function=os.link, ignore=skipped)
    FOLDER["indexes"] = folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--half", choices=("tune", "held-out", "all"), default="all",
                        help="one half, or all (then both halves are shown too)")  # fmt: skip
    parser.add_argument("--repos", default="", help="comma-separated, e.g. jbogard+MediatR")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help="of " + ",".join(SYSTEMS))
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--limit-queries", type=int, default=None, help="first N per repository")
    parser.add_argument("--show-misses", type=int, default=0, metavar="N",
                        help="per repository, N queries symfuse scores 0 on")  # fmt: skip
    parser.add_argument("--semantic", action="store_true",
                        help="symfuse with the semantic extra (semantic: on)")  # fmt: skip
    parser.add_argument("--neural-weight", type=float, default=None,
                        help="with --semantic: the neural channel's prose weight")  # fmt: skip
    parser.add_argument("--set", type=Path, default=DATA,
                        help="the set's directory (default: data/findability)")  # fmt: skip
    parser.add_argument("--by-file", action="store_true",
                        help="score files: each target and result its file")  # fmt: skip
    parser.add_argument("--seed", type=int, default=None,
                        help="symfuse's word vectors drawn with this SVD seed")  # fmt: skip
    args = parser.parse_args(argv)
    BY_FILE["on"] = args.by_file
    if args.seed is not None:
        seeded(args.seed)
    if args.semantic:
        import nl_semantic

        WITH["semantic"] = True
        nl_semantic.require()
        if args.neural_weight is not None:
            nl_semantic.set_neural_weight(args.neural_weight)
    systems = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [s for s in systems if s not in SYSTEMS]
    if unknown or not systems:
        parser.error(f"unknown systems {unknown}; known: {', '.join(SYSTEMS)}")
    systems = [s for s in SYSTEMS if s in systems]
    halves = [args.half] if args.half != "all" else ["all", *HALVES]
    chosen = _select(load_set(args.set), args.repos)

    with tempfile.TemporaryDirectory(prefix="findability-") as tmp:
        builders: dict[str, Callable[[RepoSet, Path], Built]] = {}
        for system in systems:
            if system == "symfuse":
                builders[system] = build_symfuse
            elif system == "semble":
                builders[system] = SembleOffline(Path(tmp)).build
            else:
                builders[system] = build_bm25
        runs: list[RepoRun] = []
        not_measured: dict[str, str] = {}
        for repo in chosen:
            queries = [q for q in repo.queries if args.half == "all" or q.half == args.half]
            queries = queries[: args.limit_queries]
            print(f"{repo.repo} @ {repo.commit[:12]} ({repo.language}): "
                  f"{len(queries)} queries", file=sys.stderr)  # fmt: skip
            try:
                root = materialise(repo, args.mirrors)
                absent = sorted({t.path for q in queries for t in q.targets
                                 if not (root / t.path).is_file()})  # fmt: skip
                if absent:
                    print(f"  targets not in the tree: {', '.join(absent)}", file=sys.stderr)
                runs.append(run_repo(repo, queries, root, builders))
            except NotMeasured as exc:
                not_measured[repo.repo] = str(exc)
                print(f"NOT MEASURED {repo.repo}: {exc}", file=sys.stderr)
            except Exception as exc:  # a system failed on this tree: report, go on
                traceback.print_exc()
                not_measured[repo.repo] = f"{type(exc).__name__}: {exc}"
                print(f"NOT MEASURED {repo.repo}: {exc!r}", file=sys.stderr)

    measured = sum(len(r.queries) for r in runs)
    print(f"## findability_bench: {', '.join(systems)} on {len(runs)} repositories, "
          f"{measured} queries (--half {args.half}), depth {DEPTH}\n")  # fmt: skip
    print("semble " + SEMBLE_VERSION + " offline (alpha 0: BM25 + its reranking); "
          f"bm25: {CHUNK_LINES}-line chunks, k1 {K1}, b {B}; "
          "held out: sha1(id)[0] odd; scored by "
          + ("files" if BY_FILE["on"] else "spans") + "\n")  # fmt: skip
    for repo_name, reason in not_measured.items():
        print(f"NOT MEASURED {repo_name}: {reason}")
    if not_measured:
        print()
    if not runs:
        return 1
    print(repos_table(runs, systems) + "\n")
    print(sizes_table(runs, systems) + "\n")
    failed = errors_text(runs)
    if failed:
        print(failed + "\n")
    if len(halves) > 1:
        print(halves_table(runs, halves, systems) + "\n")
    for half in halves:
        print(half_table(runs, half, systems) + "\n")
    if args.show_misses and "symfuse" in systems:
        print(misses(runs, args.show_misses, systems) + "\n")
    if args.json is not None:
        payload = as_json(runs, halves, systems, not_measured)
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
