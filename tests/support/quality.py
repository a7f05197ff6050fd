"""The ranking-quality measurement shared by the quality gate and tests/bench/quality_bench.py.

Golden query sets (``tests/golden_queries_<corpus>.json``) in six categories, each
counted as a hit when the expected answer is within its cutoff:

- exact: a symbol name (hit@1: the first answer has that name);
- typo: one edit of a name of 8+ characters (hit@5);
- abbreviation: camel-hump abbreviations and initials (hit@5);
- partial: a run of 2+ consecutive sub-tokens of a name with 3+ (hit@10);
- kind: exact name with a kind filter (hit@1);
- nl: the first sentence of a function's docstring minus its own name tokens
  (hit@10 and MRR@10 on the very symbol). As in CodeSearchNet, the docstrings of
  the queried functions are deleted from an indexed copy of the corpus
  (:func:`stripped_index`), and a leftover one is an error.

Name categories count a hit when an answer has the expected name (several symbols
may share it); ``nl`` needs the very symbol. ``tests/bench/quality_bench.py``
documents the protocol in full and adds the ctags baseline and the Django corpus.
"""

from __future__ import annotations

import ast
import dataclasses
import json
import random
import re
import shutil
import sys
import time
from pathlib import Path
from typing import Any, Protocol

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.channels.tokens import split_identifier, stem
from symfuse.ranking.prepared.build import build
from symfuse.ranking.query.search_request import MAX_LIMIT
from tests.support.paths import FIXTURES, TESTS

FIXTURE = FIXTURES / "workspace"
SEED = 7
PER_CATEGORY = 300
CUTOFF = {"exact": 1, "typo": 5, "abbreviation": 5, "partial": 10, "kind": 1, "nl": 10}
CATEGORIES = tuple(CUTOFF)
POOL = "nl (CodeSearchNet pool)"  # a reported row of the nl queries, not a query category
POOL_SIZE = 1000  # the target and 999 distractors, as in CodeSearchNet
POOL_DEPTH = MAX_LIMIT  # the longest ordering one symfuse search returns
EVERY_TAG = 10**9  # the baseline's ordering is not capped
CALLABLES = (Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR)


@dataclasses.dataclass(frozen=True)
class Query:
    category: str
    query: str
    name: str
    symbol_id: str = ""
    kind: str = ""


def build_index(root: Path, directory: Path) -> Index:
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=directory, progress=False))
    return index


def _join_like(name: str, parts: list[str]) -> str:
    """Sub-tokens written in the style of ``name`` (snake_case or camelCase)."""
    if "_" in name.strip("_") or name.islower():
        return "_".join(parts)
    head, *rest = parts
    first = head if name[0].islower() else head.capitalize()
    return first + "".join(p.capitalize() for p in rest)


def _typo(name: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(name) - 1)
    letters = "abcdefghijklmnopqrstuvwxyz"
    edit = rng.choice(("delete", "insert", "substitute", "transpose"))
    if edit == "delete":
        return name[:i] + name[i + 1 :]
    if edit == "insert":
        return name[:i] + rng.choice(letters) + name[i:]
    if edit == "substitute":
        return name[:i] + rng.choice(letters.replace(name[i].lower(), "")) + name[i + 1 :]
    if name[i] == name[i + 1]:
        return name[:i] + name[i + 1 :]
    return name[:i] + name[i + 1] + name[i] + name[i + 2 :]


def _first_sentence(doc: str) -> str:
    text = " ".join(doc.split())
    match = re.match(r"(.+?[.!?])(\s|$)", text)
    return match.group(1) if match else text


def _nl_query(symbol: Symbol) -> str:
    own = {stem(t) for t in split_identifier(symbol.name)}
    words = _first_sentence(symbol.doc).split()
    kept = [w for w in words if stem(re.sub(r"\W", "", w).lower()) not in own]
    return " ".join(kept)


def generate(index: Index, per_category: int = PER_CATEGORY, seed: int = SEED) -> list[Query]:
    """Deterministic query sets of every category from the index's symbols."""
    rng = random.Random(seed)
    symbols = [s for s in index.symbols if s.name.isidentifier() and not s.name.startswith("__")]
    by_name: dict[str, list[Symbol]] = {}
    for s in symbols:
        by_name.setdefault(s.name, []).append(s)
    names = sorted(by_name)
    queries: list[Query] = []

    def sample(pool: list[Any], n: int = per_category) -> list[Any]:
        return rng.sample(pool, min(n, len(pool)))

    for name in sample(names):
        queries.append(Query("exact", name, name))
    for name in sample([n for n in names if len(n) >= 8]):
        queries.append(Query("typo", _typo(name, rng), name))
    multi = [n for n in names if len(split_identifier(n)) >= 2]
    for name in sample(multi, per_category // 2):
        parts = [p[: rng.randint(1, 3)] for p in split_identifier(name)]
        queries.append(Query("abbreviation", _join_like("aB", parts), name))
    for name in sample([n for n in multi if len(split_identifier(n)) >= 3], per_category // 2):
        queries.append(Query("abbreviation", "".join(p[0] for p in split_identifier(name)), name))
    for name in sample([n for n in multi if len(split_identifier(n)) >= 3]):
        parts = split_identifier(name)
        size = rng.randint(2, len(parts) - 1)
        start = rng.randint(0, len(parts) - size)
        queries.append(Query("partial", _join_like(name, parts[start : start + size]), name))
    for name in sample(names):
        kinds = sorted({s.kind.value for s in by_name[name]})
        queries.append(Query("kind", name, name, kind=rng.choice(kinds)))
    documented = [
        s
        for s in symbols
        if s.kind in (Kind.FUNCTION, Kind.METHOD) and len(_nl_query(s).split()) >= 4
    ]
    for s in sample(documented):
        queries.append(Query("nl", _nl_query(s), s.name, symbol_id=s.symbol_id))
    return queries


def strip_docstrings(
    root: Path, destination: Path, symbols: list[Symbol], every: bool = False
) -> int:
    """Copy ``root`` to ``destination`` with these symbols' docstrings deleted from the source.

    The CodeSearchNet protocol: the queried functions' docstrings must not be in
    what is indexed, neither as ``doc`` nor as body text. Python docstrings become
    ``pass`` (line numbers kept); a JavaScript function's leading comment becomes
    blank lines. With ``every``, ``symbols`` should be every symbol of the index: then
    every Python docstring (module, class and function) goes, whoever it belongs to, and
    the comment block above each symbol. Returns how many docstrings were removed.
    """
    shutil.copytree(root, destination)
    by_file: dict[str, list[Symbol]] = {}
    for s in symbols:
        by_file.setdefault(s.file, []).append(s)
    if every:
        for path in sorted(destination.rglob("*.py")):
            by_file.setdefault(path.relative_to(destination).as_posix(), [])
    removed = 0
    for file, chosen in by_file.items():
        path = destination / file
        lines = path.read_text(encoding="utf-8").split("\n")
        if file.endswith(".py"):
            removed += _strip_python(lines, chosen, every)
        removed += _strip_leading_comments(lines, chosen)
        path.write_text("\n".join(lines), encoding="utf-8")
    return removed


_FUNCTION = ast.FunctionDef | ast.AsyncFunctionDef
_WITH_DOCSTRING = _FUNCTION | ast.ClassDef | ast.Module


def _strip_python(lines: list[str], symbols: list[Symbol], every: bool = False) -> int:
    try:
        tree = ast.parse("\n".join(lines))
    except SyntaxError:
        if every:
            return 0  # a test fixture of broken Python: nothing to strip that ast can see
        raise
    spans: list[tuple[int, int, int, int]] = []
    for node in ast.walk(tree):
        if not isinstance(node, _WITH_DOCSTRING if every else _FUNCTION):
            continue
        if not every and not any(
            s.name == node.name and s.line <= node.lineno <= s.name_line for s in symbols
        ):
            continue
        if not node.body:
            continue
        first = node.body[0]
        if (
            isinstance(first, ast.Expr)
            and isinstance(first.value, ast.Constant)
            and isinstance(first.value.value, str)
            and first.end_lineno is not None
            and first.end_col_offset is not None
        ):
            spans.append((first.lineno, first.col_offset, first.end_lineno, first.end_col_offset))
    for start, col, end, end_col in sorted(spans, reverse=True):
        head = lines[start - 1][:col]
        tail = lines[end - 1][end_col:]
        stub = "pass" if col else ""  # a module's docstring leaves nothing: __future__ follows
        lines[start - 1 : end] = [head + stub + tail] + [""] * (end - start)
    return len(spans)


def _strip_leading_comments(lines: list[str], symbols: list[Symbol]) -> int:
    """Blank the comment block right above each symbol (decorators in between are skipped)."""
    removed = 0
    for s in symbols:
        at = s.line - 2
        while at >= 0 and lines[at].strip().startswith("@"):
            at -= 1
        found = False
        while at >= 0 and (
            lines[at].strip().startswith(("*", "/*", "//", "#")) or lines[at].strip().endswith("*/")
        ):
            lines[at] = ""
            at -= 1
            found = True
        removed += found
    return removed


class Ranker(Protocol):
    def __call__(self, q: Query, limit: int = 10) -> list[tuple[str, str]]:
        """The first ``limit`` answers as (name, symbol_id or file)."""
        ...


def symfuse_ranker(index: Index) -> Ranker:
    prepared = build(index)

    def rank(q: Query, limit: int = 10) -> list[tuple[str, str]]:
        fields: dict[str, Any] = {"query": q.query, "limit": limit}
        if q.kind:
            fields["kind"] = q.kind
        request = SearchRequest.from_mapping(fields)
        response = search(index, request, prepared=prepared)
        return [(i.symbol.name, i.symbol.symbol_id) for i in response.items]

    return rank


def evaluate(queries: list[Query], rank: Ranker, index: Index) -> dict[str, dict[str, float]]:
    files = {s.symbol_id: s.file for s in index.symbols}
    results: dict[str, dict[str, float]] = {}
    for category in CATEGORIES:
        chosen = [q for q in queries if q.category == category]
        if not chosen:
            continue
        hits = 0
        reciprocal = 0.0
        latencies: list[float] = []
        for q in chosen:
            started = time.perf_counter()
            answers = rank(q)
            latencies.append(time.perf_counter() - started)
            position = None
            for i, (name, ref) in enumerate(answers[:10]):
                ok = _is_target(q, name, ref, files) if q.category == "nl" else name == q.name
                if ok:
                    position = i + 1
                    break
            if position is not None:
                reciprocal += 1.0 / position
                hits += position <= CUTOFF[category]
        latencies.sort()
        results[category] = {
            "n": len(chosen),
            "hit": hits / len(chosen),
            "mrr10": reciprocal / len(chosen),
            "p50_ms": latencies[len(latencies) // 2] * 1000,
        }
    return results


def _is_target(q: Query, name: str, ref: str, files: dict[str, str]) -> bool:
    """Whether an answer is the nl query's very symbol (the baseline knows files, not ids)."""
    return ref == q.symbol_id or (name == q.name and ref == files.get(q.symbol_id))


def pools(queries: list[Query], index: Index) -> list[list[Symbol]]:
    """The 999 distractors of each nl query (fewer when the index has fewer callables)."""
    callables = sorted((s for s in index.symbols if s.kind in CALLABLES), key=lambda s: s.symbol_id)
    chosen = [q for q in queries if q.category == "nl"]
    result = []
    for number, q in enumerate(chosen):
        others = [s for s in callables if s.symbol_id != q.symbol_id]
        rng = random.Random(SEED * 1_000_003 + number)
        result.append(rng.sample(others, min(POOL_SIZE - 1, len(others))))
    return result


def evaluate_pool(queries: list[Query], rank: Ranker, index: Index, depth: int) -> dict[str, float]:
    """hit@10 and MRR@10 of each nl target among its 999 distractors (CodeSearchNet)."""
    files = {s.symbol_id: s.file for s in index.symbols}
    chosen = [q for q in queries if q.category == "nl"]
    hits = 0
    reciprocal = 0.0
    unreturned = 0  # targets not in the first ``depth`` answers: counted as misses
    undecided = 0  # ... of which fewer than 10 distractors were returned
    latencies: list[float] = []
    drawn = pools(queries, index)
    for q, distractors in zip(chosen, drawn, strict=True):
        keys: set[str | tuple[str, str]] = {s.symbol_id for s in distractors}
        keys |= {(s.name, s.file) for s in distractors}
        started = time.perf_counter()
        answers = rank(q, depth)
        latencies.append(time.perf_counter() - started)
        above: set[str | tuple[str, str]] = set()
        position = None
        for name, ref in answers:
            if _is_target(q, name, ref, files):
                position = len(above) + 1
                break
            key: str | tuple[str, str] = ref if ref in keys else (name, ref)
            if key in keys:
                above.add(key)
        if position is None:
            unreturned += 1
            undecided += len(above) < 10
        elif position <= 10:
            hits += 1
            reciprocal += 1.0 / position
    latencies.sort()
    reach = "the whole ordering" if depth >= EVERY_TAG else f"the first {depth} answers"
    print(f"  {POOL}: {len(chosen)} queries, pools of {1 + len(drawn[0])}; {unreturned} "
          f"targets not in {reach}, counted as misses ({undecided} of them with fewer "
          "than 10 distractors returned)", file=sys.stderr)  # fmt: skip
    return {
        "n": len(chosen),
        "hit": hits / len(chosen),
        "mrr10": reciprocal / len(chosen),
        "p50_ms": latencies[len(latencies) // 2] * 1000,
    }


def golden_path(corpus: str) -> Path:
    return TESTS / f"golden_queries_{corpus}.json"


def load_queries(corpus: str) -> list[Query]:
    """The golden query set of ``corpus`` (fixture or django)."""
    return [Query(**q) for q in json.loads(golden_path(corpus).read_text())["queries"]]


def load_or_generate(corpus: str, index: Index | None, regenerate: bool) -> list[Query]:
    path = golden_path(corpus)
    if path.exists() and not regenerate:
        return load_queries(corpus)
    assert index is not None
    per_category = 40 if corpus == "fixture" else PER_CATEGORY
    queries = generate(index, per_category)
    payload = {
        "corpus": corpus,
        "seed": SEED,
        "note": "generated by tests/bench/quality_bench.py --regenerate",
        "queries": [dataclasses.asdict(q) for q in queries],
    }
    path.write_text(json.dumps(payload, indent=1, ensure_ascii=False) + "\n")
    return queries


class DocstringsLeaked(AssertionError):
    """The stripped copy still has docstrings of nl targets in its index."""


def stripped_index(
    root: Path, queries: list[Query], work: Path, every: bool = False
) -> tuple[Index, Path, int, set[str]]:
    """The index every category is measured on: of a copy of ``root`` (under ``work``) with
    the nl targets' docstrings and leading comments deleted from the source; with ``every``,
    every definition's (so that having a doc says nothing about being a target).

    Returns ``(index, copy, docstrings removed, nl target ids)``; raises
    :class:`DocstringsLeaked` when a target still has a doc in the index.
    """
    nl_targets = {q.symbol_id for q in queries if q.category == "nl"}
    plain = build_index(root, work / "plain-index") if nl_targets or every else None
    symbols = plain.symbols if plain else []
    chosen = list(symbols) if every else [s for s in symbols if s.symbol_id in nl_targets]
    copy = work / "corpus" / root.name
    removed = strip_docstrings(root, copy, chosen, every)
    index = build_index(copy, work / "index")
    leaked = [s for s in index.symbols if s.symbol_id in nl_targets and s.doc]
    if leaked:
        shown = "; ".join(f"{s.symbol_id} {s.doc[:80]!r}" for s in leaked[:5])
        raise DocstringsLeaked(f"docstrings still indexed for {len(leaked)} nl targets: {shown}")
    return index, copy, removed, nl_targets


def measure_fixture(work: Path) -> dict[str, dict[str, float]]:
    """symfuse's figures per category on the fixture golden set (no network, a few seconds)."""
    queries = load_queries("fixture")
    index, _, _, _ = stripped_index(FIXTURE, queries, work)
    return evaluate(queries, symfuse_ranker(index), index)
