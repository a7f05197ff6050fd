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

The measurement (query generation, docstring stripping, hit@k and MRR, the pool
row) lives in tests/support/quality.py, shared with the pytest quality gate
tests/ranking/test_quality_gate.py, which holds the fixture figures to the floors in
tests/ranking/quality_floors.json.

Django 5.2 is looked for under tests/bench/.corpus/ (downloaded with
``pip download django==5.2.* --no-deps --no-binary :all:`` when missing).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

from rapidfuzz import fuzz, process

# Run as a script (python tests/bench/quality_bench.py) or as a module (python -m
# tests.bench.quality_bench): the measurement lives in tests/support, beside the gate.
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.support.quality import (
    CATEGORIES,
    CUTOFF,
    EVERY_TAG,
    FIXTURE,
    POOL,
    POOL_DEPTH,
    DocstringsLeaked,
    Query,
    Ranker,
    build_index,
    evaluate,
    evaluate_pool,
    golden_path,
    load_or_generate,
    stripped_index,
    symfuse_ranker,
)

TESTS = Path(__file__).resolve().parents[1]
CORPUS = TESTS / "bench" / ".corpus"
TARGETS = {"exact": 0.99, "typo": 0.90, "abbreviation": 0.85, "partial": 0.90, "nl": 0.70}
TARGETS[POOL] = TARGETS["nl"]


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


# --- the baseline ------------------------------------------------------------------------------


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


# --- report ----------------------------------------------------------------------------------


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
        started = time.perf_counter()
        try:
            index, stripped, removed, nl_targets = stripped_index(root, queries, Path(tmp))
        except DocstringsLeaked as exc:
            raise SystemExit(str(exc)) from None
        print(f"{corpus}: {len(index.symbols)} symbols indexed in "
              f"{time.perf_counter() - started:.1f} s (with the unstripped copy); {removed} "
              f"docstrings and leading comments of {len(nl_targets)} nl targets removed "
              "from the source", file=sys.stderr)  # fmt: skip
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
