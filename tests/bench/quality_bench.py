"""Ranking quality benchmark: symfuse search against a ctags + rapidfuzz baseline.

Query sets are generated from the indexed source (deterministically, seed 7) in
six categories, and kept as golden files under ``tests/``:

- exact: a symbol name (hit@1: the first answer has that name);
- typo: one edit (deletion, insertion, substitution or transposition, never of
  the first letter) of a name of 8+ characters (hit@5);
- abbreviation: camel-hump abbreviations of names with 2+ sub-tokens, each
  sub-token cut to 1-3 letters (``getUsBI``), and initials of names with 3+
  sub-tokens (``gubi``) (hit@5);
- partial: a run of 2+ consecutive sub-tokens of a name with 3+ (hit@10);
- kind: exact name with a kind filter (hit@1);
- nl: the first sentence of a function's docstring, minus the function's own
  name tokens (hit@10 and MRR@10 on the symbol itself). As in CodeSearchNet,
  the docstrings of the queried functions are left out of what is indexed:
  the benchmark indexes a copy of the corpus with those docstrings deleted
  from the source (so they are neither a symbol's doc nor body text), and
  checks that none is left.
- nl (CodeSearchNet pool), a reported row rather than a query set: the same nl
  queries, ranked as in the CodeSearchNet Challenge (Husain et al. 2019): each
  query's target competes with 999 distractors, callables (function, method,
  constructor) of the stripped index drawn with ``random.Random(SEED *
  1_000_003 + query number)``, the target excluded (a corpus with fewer callables
  gives a smaller pool). The target's pool rank is 1 + the number of its
  distractors the ranker orders above it, read from one long ordering: symfuse's
  first ``MAX_LIMIT`` = 1000 answers (the cap of SearchRequest.limit), the
  baseline's ordering of every tag. Distractors not returned rank below every
  returned symbol; a target not returned counts as a miss (the run prints how
  many, and how many of those had fewer than 10 distractors returned, i.e. might
  have been hits). hit@10 and MRR@10 of that rank. Unlike CodeSearchNet, where
  every candidate is stripped, only the nl targets lose their docstrings here:
  the distractors keep theirs, which makes them more attractive than in the
  original protocol. The baseline has no symbol ids, so its distractors are
  told apart by (name, file).

  The whole-index ``nl`` row is what an editor user sees; the pool row is the
  setting the project's reference figures (TF-IDF recall@10 0.76 on held-out
  Django) come from.

Name categories count a hit when an answer has the expected name (several
symbols may share it); ``nl`` needs the very symbol.

The baseline is universal-ctags' tags of the same files, ranked by rapidfuzz
``fuzz.ratio`` on lower-cased names (kind filter mapped to ctags kinds).

Usage::

    python tests/bench/quality_bench.py                 # fixture workspace + Django
    python tests/bench/quality_bench.py --corpus fixture
    python tests/bench/quality_bench.py --regenerate    # rebuild the golden query sets
    python tests/bench/quality_bench.py --report tests/golden_queries_report.md

Django 5.2 is looked for under tests/bench/.corpus/ (downloaded with
``pip download django==5.2.* --no-deps --no-binary :all:`` when missing).
"""

from __future__ import annotations

import argparse
import ast
import dataclasses
import json
import random
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any, Protocol

from rapidfuzz import fuzz, process

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.indexer.update import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.prepare import build
from symfuse.ranking.request import MAX_LIMIT
from symfuse.ranking.tokens import split_identifier, stem

TESTS = Path(__file__).resolve().parents[1]
CORPUS = TESTS / "bench" / ".corpus"
FIXTURE = TESTS / "fixtures" / "workspace"
SEED = 7
PER_CATEGORY = 300
TARGETS = {"exact": 0.99, "typo": 0.90, "abbreviation": 0.85, "partial": 0.90, "nl": 0.70}
CUTOFF = {"exact": 1, "typo": 5, "abbreviation": 5, "partial": 10, "kind": 1, "nl": 10}
CATEGORIES = tuple(CUTOFF)
POOL = "nl (CodeSearchNet pool)"  # a reported row of the nl queries, not a query category
POOL_SIZE = 1000  # the target and 999 distractors, as in CodeSearchNet
POOL_DEPTH = MAX_LIMIT  # the longest ordering one symfuse search returns
EVERY_TAG = 10**9  # the baseline's ordering is not capped
CALLABLES = (Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR)
TARGETS[POOL] = TARGETS["nl"]


@dataclasses.dataclass(frozen=True)
class Query:
    category: str
    query: str
    name: str
    symbol_id: str = ""
    kind: str = ""


# --- corpora -----------------------------------------------------------------------------------


def django_root() -> Path:
    """The django/ package of a Django 5.2 sdist under tests/bench/.corpus (downloaded once)."""
    for found in sorted(CORPUS.glob("**/django-5.2*/django")):
        if (found / "__init__.py").exists():
            return found
    target = CORPUS / "search"
    target.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "django==5.2.*", "--no-deps",
         "--no-binary", ":all:", "-d", str(target)],
        check=True,
    )  # fmt: skip
    archive = next(target.glob("django-5.2*.tar.gz"))
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")
    return django_root()


def build_index(root: Path, directory: Path) -> Index:
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=directory, progress=False))
    return index


# --- query generation --------------------------------------------------------------------------


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


def strip_docstrings(root: Path, destination: Path, symbols: list[Symbol]) -> int:
    """Copy ``root`` to ``destination`` with these symbols' docstrings deleted from the source.

    The CodeSearchNet protocol: the queried functions' docstrings must not be in
    what is indexed, neither as ``doc`` nor as body text. Python docstrings become
    ``pass`` (line numbers kept); a JavaScript function's leading comment becomes
    blank lines. Returns how many docstrings were removed.
    """
    shutil.copytree(root, destination)
    by_file: dict[str, list[Symbol]] = {}
    for s in symbols:
        by_file.setdefault(s.file, []).append(s)
    removed = 0
    for file, chosen in by_file.items():
        path = destination / file
        lines = path.read_text(encoding="utf-8").split("\n")
        if file.endswith(".py"):
            removed += _strip_python(lines, chosen)
        removed += _strip_leading_comments(lines, chosen)
        path.write_text("\n".join(lines), encoding="utf-8")
    return removed


def _strip_python(lines: list[str], symbols: list[Symbol]) -> int:
    tree = ast.parse("\n".join(lines))
    spans: list[tuple[int, int, int, int]] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if not any(s.name == node.name and s.line <= node.lineno <= s.name_line for s in symbols):
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
        lines[start - 1 : end] = [head + "pass" + tail] + [""] * (end - start)
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


# --- evaluation --------------------------------------------------------------------------------


class Ranker(Protocol):
    def __call__(self, q: Query, limit: int = 10) -> list[tuple[str, str]]:
        """The first ``limit`` answers as (name, symbol_id or file)."""
        ...


def symfuse_ranker(index: Index) -> Ranker:
    prepared = build(index)
    print(f"  ranking structures built in {prepared.seconds:.1f} s", file=sys.stderr)

    def rank(q: Query, limit: int = 10) -> list[tuple[str, str]]:
        fields: dict[str, Any] = {"query": q.query, "limit": limit}
        if q.kind:
            fields["kind"] = q.kind
        request = SearchRequest.from_mapping(fields)
        response = search(index, request, prepared=prepared)
        return [(i.symbol.name, i.symbol.symbol_id) for i in response.items]

    return rank


_CTAGS_KINDS = {
    "class": {"class", "struct", "interface", "type"},
    "function": {"function", "func"},
    "method": {"member", "method", "func"},
    "constructor": {"member", "method", "func"},
    "field": {"member", "variable", "field", "property"},
    "property": {"member", "property", "field"},
    "variable": {"variable"},
    "constant": {"variable", "constant"},
    "interface": {"interface"},
    "struct": {"struct"},
}


def ctags_ranker(root: Path) -> Ranker:
    """universal-ctags tags of ``root``, ranked by rapidfuzz ratio on lower-cased names."""
    out = subprocess.run(
        ["ctags", "-R", "-f", "-", "--fields=+nK", "--kinds-Python=-iIx", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    tags: list[tuple[str, str, str]] = []
    for line in out.splitlines():
        fields = line.split("\t")
        if len(fields) >= 4 and not line.startswith("!_"):
            tags.append((fields[0], fields[1].removeprefix("./"), fields[3]))
    lower = [t[0].lower() for t in tags]
    by_kind: dict[str, list[int]] = {}
    for i, (_, _, kind) in enumerate(tags):
        by_kind.setdefault(kind, []).append(i)

    def rank(q: Query, limit: int = 10) -> list[tuple[str, str]]:
        pool = range(len(tags))
        if q.kind:
            allowed = _CTAGS_KINDS.get(q.kind, {q.kind})
            pool = sorted(i for k in allowed for i in by_kind.get(k, []))  # type: ignore[assignment]
        choices = {i: lower[i] for i in pool}
        best = process.extract(q.query.lower(), choices, scorer=fuzz.ratio, limit=limit)
        return [(tags[i][0], tags[i][1]) for _, _, i in best]

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
    reach = "the whole ordering" if depth == EVERY_TAG else f"the first {depth} answers"
    print(f"  {POOL}: {len(chosen)} queries, pools of {1 + len(drawn[0])}; {unreturned} "
          f"targets not in {reach}, counted as misses ({undecided} of them with fewer "
          "than 10 distractors returned)", file=sys.stderr)  # fmt: skip
    return {
        "n": len(chosen),
        "hit": hits / len(chosen),
        "mrr10": reciprocal / len(chosen),
        "p50_ms": latencies[len(latencies) // 2] * 1000,
    }


# --- golden files and report -----------------------------------------------------------------


def golden_path(corpus: str) -> Path:
    return TESTS / f"golden_queries_{corpus}.json"


def load_or_generate(corpus: str, index: Index | None, regenerate: bool) -> list[Query]:
    path = golden_path(corpus)
    if path.exists() and not regenerate:
        return [Query(**q) for q in json.loads(path.read_text())["queries"]]
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


def table(corpus: str, ours: dict[str, dict[str, float]], base: dict[str, dict[str, float]]) -> str:
    lines = [
        f"### {corpus}",
        "",
        "| category | n | metric | symfuse | ctags + rapidfuzz | target | symfuse MRR@10 |",
        "| --- | ---: | --- | ---: | ---: | ---: | ---: |",
    ]
    for category, row in ours.items():
        target = TARGETS.get(category)
        lines.append(
            f"| {category} | {int(row['n'])} | hit@{CUTOFF.get(category, 10)} | {row['hit']:.3f} "
            f"| {base[category]['hit']:.3f} | {'' if target is None else f'>= {target:.2f}'} "
            f"| {row['mrr10']:.3f} |"
        )
    return "\n".join(lines)


def run_corpus(corpus: str, root: Path, regenerate: bool, categories: tuple[str, ...]) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        queries: list[Query] | None = None
        if regenerate or not golden_path(corpus).exists():
            original = build_index(root, Path(tmp) / "original-index")
            queries = load_or_generate(corpus, original, regenerate=True)
        queries = queries or load_or_generate(corpus, None, regenerate=False)
        queries = [q for q in queries if q.category in categories]
        # One index for every category, of a copy without the nl targets' docstrings.
        nl_targets = {q.symbol_id for q in queries if q.category == "nl"}
        plain = build_index(root, Path(tmp) / "plain-index") if nl_targets else None
        chosen = [s for s in (plain.symbols if plain else []) if s.symbol_id in nl_targets]
        stripped = Path(tmp) / "corpus" / root.name
        removed = strip_docstrings(root, stripped, chosen)
        started = time.perf_counter()
        index = build_index(stripped, Path(tmp) / "index")
        print(f"{corpus}: {len(index.symbols)} symbols indexed in "
              f"{time.perf_counter() - started:.1f} s; {removed} docstrings and leading "
              f"comments of {len(nl_targets)} nl targets removed from the source",
              file=sys.stderr)  # fmt: skip
        leaked = [s.symbol_id for s in index.symbols if s.symbol_id in nl_targets and s.doc]
        if leaked:
            for sid in leaked[:5]:
                print(sid, repr(index.get(sid).doc[:80]), file=sys.stderr)  # type: ignore[union-attr]
            raise SystemExit(f"docstrings still indexed for {len(leaked)} nl targets: {leaked[:3]}")
        ours_rank, base_rank = symfuse_ranker(index), ctags_ranker(stripped)
        ours = evaluate(queries, ours_rank, index)
        base = evaluate(queries, base_rank, index)
        if nl_targets:
            ours[POOL] = evaluate_pool(queries, ours_rank, index, POOL_DEPTH)
            base[POOL] = evaluate_pool(queries, base_rank, index, EVERY_TAG)
            for row in ("nl", POOL):
                print(f"  {row}: hit@10 / MRR@10 symfuse {ours[row]['hit']:.3f} / "
                      f"{ours[row]['mrr10']:.3f}, baseline {base[row]['hit']:.3f} / "
                      f"{base[row]['mrr10']:.3f}", file=sys.stderr)  # fmt: skip
    text = table(corpus, ours, base)
    print(text)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", choices=("fixture", "django", "all"), default="all")
    parser.add_argument("--regenerate", action="store_true", help="rebuild the golden sets")
    parser.add_argument("--report", type=Path, default=None, help="write the tables here")
    parser.add_argument(
        "--category", action="append", choices=CATEGORIES, help="only these (repeatable)"
    )
    args = parser.parse_args(argv)
    categories = tuple(args.category or CATEGORIES)
    sections = []
    if args.corpus in ("fixture", "all"):
        sections.append(run_corpus("fixture", FIXTURE, args.regenerate, categories))
    if args.corpus in ("django", "all"):
        sections.append(run_corpus("django", django_root(), args.regenerate, categories))
    if args.report is not None:
        header = (
            "# Ranking quality (tests/bench/quality_bench.py)\n\n"
            "hit@k: share of queries whose expected symbol is in the first k answers. "
            "Baseline: universal-ctags tags ranked by rapidfuzz `fuzz.ratio`.\n"
        )
        args.report.write_text(header + "\n" + "\n\n".join(sections) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
