"""Natural-language search quality: symfuse against a body-text BM25, over whole indexes.

Two query sets, each answered by two rankers in the same run:

- mined (tests/bench/data/nl_mined.json, made by nl_mine.py): a commit subject with
  prefixes, issue numbers and identifiers removed -> the definitions that commit changed,
  over the whole index of each repository's pinned snapshot (written out from its git
  mirror under tests/bench/.corpus/nl/ and indexed with symfuse's defaults);
- docstrings (``--docstrings fixture`` / ``django``): the ``nl`` queries of the golden
  sets of tests/support/quality.py (a docstring's first sentence -> its function), over
  the whole index of the copy with those docstrings deleted (``stripped_index``, as
  quality_bench.py's whole-index ``nl`` row; not the CodeSearchNet distractor pool).

Rankers:

- symfuse: ``search(index, SearchRequest(query=..., limit=10))`` with default settings;
  its first 10 answers, whatever their kind, as a user sees them;
- body-BM25: Okapi BM25 (k1 = 1.2, b = 0.75; idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
  Robertson and Zaragoza 2009, the Lucene form) over each document's source text (its
  whole span) plus its doc comment when that sits outside the span. Tokens: runs of
  letters and digits split into identifier words (``getHTTPResponse`` -> get, http,
  response), lower-cased, without English stop words, single letters and numbers; no
  stemming. Ties go to the smaller symbol id.

Documents (for BM25) and answers (for both) are the definitions ``nl_corpus.is_document``
accepts: functions, methods, constructors, function-like macros and type definitions.
A query's rank is the position of its first expected definition among the 10 answers;
hit@k is the share of queries ranked within k, MRR@10 the mean of 1/rank (0 past 10).
``all`` pools every query of a set; ``mean`` averages the repositories' figures. The
mined set is also shown by language (of each query's first expected definition).

    python tests/bench/nl_bench.py                           # the mined set
    python tests/bench/nl_bench.py --repos jq,gin --limit-queries 50
    python tests/bench/nl_bench.py --docstrings django --docstrings fixture
    python tests/bench/nl_bench.py --docstrings django --json nl-before.json
    python tests/bench/nl_bench.py --semantic                # + the symfuse[semantic] channel
    python tests/bench/nl_bench.py --semantic --neural-weight 0.4   # its prose weight

``--semantic`` embeds each index with the extra's model first (vectors cached next to
the index, per file content, as a server does) and prints the cost: symbols embedded
per second, the cache's MB on disk and the vectors' MB in memory, and the neural
channel's ms per query (the query's forward pass and the cosine scan).
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.api import SearchRequest, prepare, search

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).parent))
import nl_semantic
from nl_corpus import (
    BY_NAME,
    DATA,
    DEFAULT_MIRRORS,
    MirrorMissing,
    documents,
    index_snapshot,
    materialise,
)

from tests.support.quality import (
    FIXTURE,
    DocstringsLeaked,
    Query,
    load_queries,
    stripped_index,
)

CUTOFFS = (1, 5, 10)
DEPTH = 10  # answers looked at: hit@10 and MRR@10
K1 = 1.2
B = 0.75

MINED = "mined commit subjects"
DOCSTRINGS = "docstrings"

Ranker = Callable[[str], list[str]]  # a query -> the symbol ids of its first DEPTH answers


@dataclass(frozen=True, slots=True)
class Case:
    """One query and the ids any of which answers it."""

    query: str
    expected: frozenset[str]
    language: str = ""  # of the first expected definition
    copied: bool = False  # docstring set: another definition's doc holds most of the query


@dataclass(frozen=True, slots=True)
class Figures:
    n: int
    hit1: float
    hit5: float
    hit10: float
    mrr10: float


# --- the rankers --------------------------------------------------------------------------------


def symfuse_ranker(index: Index, directory: Path | None, vectors: Path | None = None) -> Ranker:
    """symfuse's search with default settings over the whole index; with the semantic
    extra's vectors (cached under ``vectors``) when that is given."""
    prepared = prepare(index, directory)
    if vectors is not None:
        vectors.mkdir(parents=True, exist_ok=True)
        print(nl_semantic.embed_index(index, vectors), file=sys.stderr)

    def rank(query: str) -> list[str]:
        response = search(index, SearchRequest(query=query, limit=DEPTH), prepared=prepared)
        return [item.symbol.symbol_id for item in response.items]

    return rank


_STOPWORD_TEXT = """
a about above after again against all also am an and any are as at be because been before
being below between both but by can could did do does doing down during each few for from
further had has have having he her here hers him his how i if in into is it its itself just
me more most my no nor not now of off on once only or other our out over own same she should
so some such than that the their them then there these they this those through to too under
until up very was we were what when where which while who whom why will with would you your
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())
_RUN = re.compile(r"[A-Za-z0-9]+")
_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+")


def tokens(text: str) -> list[str]:
    """Identifier words of ``text``, lower-cased, without stop words, letters and numbers."""
    words = (w.lower() for run in _RUN.findall(text) for w in _WORD.findall(run))
    return [w for w in words if len(w) > 1 and w not in STOPWORDS]


class BodyBM25:
    """Okapi BM25 over documents given as (symbol id, text)."""

    def __init__(self, docs: Sequence[tuple[str, str]], k1: float = K1, b: float = B) -> None:
        self.ids = [symbol_id for symbol_id, _ in docs]
        postings: dict[str, tuple[list[int], list[int]]] = {}
        lengths = np.zeros(len(docs))
        for number, (_, text) in enumerate(docs):
            counts = Counter(tokens(text))
            lengths[number] = sum(counts.values())
            for term, freq in counts.items():
                entry = postings.setdefault(term, ([], []))
                entry[0].append(number)
                entry[1].append(freq)
        count = len(docs)
        norm = k1 * (1 - b + b * lengths / max(lengths.mean(), 1e-9))
        self.weights: dict[str, tuple[npt.NDArray[np.int64], npt.NDArray[np.float64]]] = {}
        for term, (numbers, tfs) in postings.items():
            idf = math.log(1 + (count - len(numbers) + 0.5) / (len(numbers) + 0.5))
            where = np.array(numbers, dtype=np.int64)
            tf = np.array(tfs, dtype=np.float64)
            self.weights[term] = (where, idf * tf * (k1 + 1) / (tf + norm[where]))

    def rank(self, query: str, limit: int = DEPTH) -> list[str]:
        scores = np.zeros(len(self.ids))
        for term in dict.fromkeys(tokens(query)):  # each query term once
            found = self.weights.get(term)
            if found is not None:
                scores[found[0]] += found[1]
        top = np.flatnonzero(scores > 0)
        order = top[np.lexsort((top, -scores[top]))][:limit]  # by score, then by id order
        return [self.ids[i] for i in order]


def body_texts(index: Index, root: Path) -> list[tuple[str, str]]:
    """Each document's source lines (its whole span), behind its doc when that is outside."""
    lines_of: dict[str, list[str]] = {}
    docs: list[tuple[str, str]] = []
    for symbol in documents(index):
        if symbol.file not in lines_of:
            text = (root / symbol.file).read_text(encoding="utf-8", errors="replace")
            lines_of[symbol.file] = text.splitlines()
        docs.append((symbol.symbol_id, _body(symbol, lines_of[symbol.file])))
    return docs


def _body(symbol: Symbol, lines: list[str]) -> str:
    body = "\n".join(lines[symbol.line - 1 : symbol.end_line])
    first = symbol.doc.strip().split("\n", 1)[0][:60]
    return body if not first or first in body else f"{symbol.doc}\n{body}"


# --- measuring ----------------------------------------------------------------------------------


def rank_of(answers: list[str], expected: frozenset[str]) -> int | None:
    """1-based position of the first expected id among the first DEPTH answers."""
    for position, symbol_id in enumerate(answers[:DEPTH], start=1):
        if symbol_id in expected:
            return position
    return None


def figures(ranks: Sequence[int | None]) -> Figures:
    n = len(ranks)
    if n == 0:
        return Figures(0, 0.0, 0.0, 0.0, 0.0)
    hits = [sum(r is not None and r <= k for r in ranks) / n for k in CUTOFFS]
    mrr = sum(1 / r for r in ranks if r is not None) / n
    return Figures(n, hits[0], hits[1], hits[2], mrr)


@dataclass(slots=True)
class Row:
    """One repository (or corpus) of a set: the ranks each ranker gave each query."""

    name: str
    language: str
    cases: list[Case]
    ours: list[int | None]
    base: list[int | None]
    # per query, symfuse's then body-BM25's: every expected definition within DEPTH, and
    # the first answer in a file of an expected definition (the long-query acceptance)
    every: list[tuple[bool, bool]] = field(default_factory=list)
    file_first: list[tuple[bool, bool]] = field(default_factory=list)


def measure(name: str, language: str, cases: list[Case], ours: Ranker, base: Ranker) -> Row:
    row = Row(name, language, cases, [], [])
    nl_semantic.sweep(name, [(c.query, c.expected) for c in cases], ours, rank_of)
    for case in cases:
        mine, theirs = ours(case.query), base(case.query)
        row.ours.append(rank_of(mine, case.expected))
        row.base.append(rank_of(theirs, case.expected))
        row.every.append((every_within(mine, case.expected), every_within(theirs, case.expected)))
        row.file_first.append((file_first(mine, case.expected), file_first(theirs, case.expected)))
    return row


def every_within(answers: list[str], expected: frozenset[str]) -> bool:
    """Whether every expected id is among the first DEPTH answers."""
    return expected <= set(answers[:DEPTH])


def file_first(answers: list[str], expected: frozenset[str]) -> bool:
    """Whether the first answer is in a file of an expected definition (ids: ``path::...``)."""
    files = {e.partition("::")[0] for e in expected}
    return bool(answers) and answers[0].partition("::")[0] in files


def mined_rows(
    names: Iterable[str],
    mirrors: Path,
    limit: int | None,
    semantic: bool = False,
    data: Path = DATA,
) -> list[Row]:
    payload = json.loads(data.read_text(encoding="utf-8"))
    by_repo: dict[str, list[Case]] = {}
    for q in payload["queries"]:
        case = Case(q["query"], frozenset(q["expected"]), q["language"])
        by_repo.setdefault(q["repo"], []).append(case)
    recorded = {r["name"]: r for r in payload["repos"]}
    rows = []
    for name in names:
        repo = BY_NAME[name]
        if name not in recorded:
            print(f"NOT MEASURED {name}: not in {data.name}; mine it first", file=sys.stderr)
            continue
        mined_at = recorded[name]["snapshot"]
        if mined_at != repo.snapshot:
            raise SystemExit(f"{name}: mined at {mined_at}, pinned at {repo.snapshot}: "
                             f"re-mine with nl_mine.py --repos {name}")  # fmt: skip
        try:
            root = materialise(repo, mirrors)
        except MirrorMissing as exc:
            print(f"NOT MEASURED {exc}", file=sys.stderr)
            continue
        index = index_snapshot(repo)
        docs = body_texts(index, root)
        cases = by_repo.get(name, [])[:limit]
        print(f"{name}: {len(docs)} documents, {len(cases)} queries", file=sys.stderr)
        bm25 = BodyBM25(docs)
        ours = symfuse_ranker(index, repo.index_dir, repo.index_dir if semantic else None)
        row = measure(name, repo.language, cases, ours, bm25.rank)
        rows.append(row)
    return rows


def docstring_row(
    corpus: str, limit: int | None, semantic: bool = False, strip: str = "targets"
) -> Row:
    """The nl golden set of ``corpus`` over the whole index of its docstring-stripped copy:
    the targets' docstrings deleted (``strip="targets"``) or every one (``"all"``)."""
    queries = [q for q in load_queries(corpus) if q.category == "nl"][:limit]
    if corpus == "fixture":
        root = FIXTURE
    else:
        from quality_bench import django_root

        root = django_root()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            index, copy, removed, _ = stripped_index(root, queries, Path(tmp), strip == "all")
        except DocstringsLeaked as exc:
            raise SystemExit(str(exc)) from None
        docs = body_texts(index, copy)
        kept = sum(1 for s in index.symbols if s.doc)
        kept_docs = sum(1 for s in documents(index) if s.doc)
        print(f"docstrings {corpus} (strip {strip}): {len(docs)} documents, {len(queries)} "
              f"queries, {removed} docstrings removed, {kept} symbols keep a doc "
              f"({kept_docs} documents)", file=sys.stderr)  # fmt: skip
        copies = copied_elsewhere(index, queries)
        cases = [
            Case(q.query, frozenset({q.symbol_id}), "python", copied)
            for q, copied in zip(queries, copies, strict=True)
        ]
        bm25 = BodyBM25(docs)
        vectors = nl_semantic.CACHE / f"docstrings-{corpus}" if semantic else None
        name = corpus if strip == "targets" else f"{corpus}, all stripped"
        return measure(name, "python", cases, symfuse_ranker(index, None, vectors), bm25.rank)


# A docstring query is "copied" when another definition's doc holds this share of its words:
# Django repeats a docstring on overrides and siblings (``ask_rename``, ``_get``,
# ``get_modified_time`` / ``get_accessed_time``), which keep it while the target's is deleted.
COPIED_SHARE = 0.8


def copied_elsewhere(index: Index, queries: Sequence[Query]) -> list[bool]:
    """Per nl query: whether a definition other than its target has a doc holding at least
    :data:`COPIED_SHARE` of the query's words (:func:`tokens`), in the stripped index."""
    docs = [(s.symbol_id, set(tokens(s.doc))) for s in index.symbols if s.doc]
    flags = []
    for q in queries:
        words = set(tokens(q.query))
        need = COPIED_SHARE * len(words)
        flags.append(bool(words) and any(
            len(words & held) >= need for sid, held in docs if sid != q.symbol_id
        ))  # fmt: skip
    return flags


def by_copy(rows: list[Row]) -> list[Row]:
    """The docstring rows split into queries whose words another definition's doc holds
    (``copied``) and the others (``own``); an empty part is left out."""
    split = []
    for row in rows:
        for copied in (True, False):
            kept = [i for i, case in enumerate(row.cases) if case.copied is copied]
            if not kept:
                continue
            name = f"{row.name}, {'copied' if copied else 'own'}"
            split.append(Row(name, row.language, [row.cases[i] for i in kept],
                             [row.ours[i] for i in kept], [row.base[i] for i in kept]))  # fmt: skip
    return split


# --- report -------------------------------------------------------------------------------------


def table(title: str, rows: list[Row], first: str = "repository", second: str = "language") -> str:
    head = (
        f"| {first} | {second} | n | symfuse hit@1 | hit@5 | hit@10 | MRR@10 "
        "| body-BM25 hit@1 | hit@5 | hit@10 | MRR@10 | Δ hit@10 | Δ MRR@10 |"
    )
    lines = [f"### {title}", "", head, "| --- | --- |" + " ---: |" * 11]
    shown = [(r.name, r.language, figures(r.ours), figures(r.base)) for r in rows]
    if len(rows) > 1:
        means = (_mean([s[2] for s in shown]), _mean([s[3] for s in shown]))
        shown.append(("all", "", figures(_pooled(rows, "ours")), figures(_pooled(rows, "base"))))
        shown.append(("mean", "", *means))
    for name, language, ours, base in shown:
        cells = [f"{v:.3f}" for f in (ours, base) for v in (f.hit1, f.hit5, f.hit10, f.mrr10)]
        delta = f"{ours.hit10 - base.hit10:+.3f} | {ours.mrr10 - base.mrr10:+.3f}"
        lines.append(f"| {name} | {language} | {ours.n} | {' | '.join(cells)} | {delta} |")
    return "\n".join(lines)


def whole_table(title: str, rows: list[Row]) -> str:
    """Every expected definition in the top DEPTH, and the right file first, per row."""
    head = (
        f"| repository | n | symfuse all@{DEPTH} | body-BM25 all@{DEPTH} | Δ "
        "| symfuse file@1 | body-BM25 file@1 | Δ |"
    )
    lines = [f"### {title}", "", head, "| --- |" + " ---: |" * 7]
    pooled = Row("all", "", [], [], [], [p for r in rows for p in r.every],
                 [p for r in rows for p in r.file_first])  # fmt: skip
    for row in [*rows, pooled] if len(rows) > 1 else rows:
        n = len(row.every)
        if not n:
            continue
        cells = []
        for pairs in (row.every, row.file_first):
            ours, base = (sum(p[i] for p in pairs) / n for i in (0, 1))
            cells.append(f"{ours:.3f} | {base:.3f} | {ours - base:+.3f}")
        lines.append(f"| {row.name} | {n} | {' | '.join(cells)} |")
    return "\n".join(lines)


def by_language(rows: list[Row]) -> list[Row]:
    """The same ranks regrouped by the language of each query's first expected definition
    (the ``language`` of such a row lists the repositories its queries come from)."""
    grouped: dict[str, Row] = {}
    for row in rows:
        for case, ours, base in zip(row.cases, row.ours, row.base, strict=True):
            entry = grouped.setdefault(case.language, Row(case.language, "", [], [], []))
            if row.name not in entry.language.split(", "):
                entry.language = ", ".join(filter(None, (entry.language, row.name)))
            entry.cases.append(case)
            entry.ours.append(ours)
            entry.base.append(base)
    return sorted(grouped.values(), key=lambda r: r.name)


def _pooled(rows: list[Row], which: str) -> list[int | None]:
    return [rank for row in rows for rank in getattr(row, which)]


def _mean(each: list[Figures]) -> Figures:
    """The repositories' figures averaged, each repository counting once."""
    count = len(each)
    return Figures(
        sum(f.n for f in each),
        sum(f.hit1 for f in each) / count,
        sum(f.hit5 for f in each) / count,
        sum(f.hit10 for f in each) / count,
        sum(f.mrr10 for f in each) / count,
    )


def examples(rows: list[Row], count: int) -> str:
    """Queries body-BM25 answers within 10 and symfuse does not, per repository."""
    lines = []
    for row in rows:
        missed = [(c, b) for c, o, b in zip(row.cases, row.ours, row.base, strict=True)
                  if o is None and b is not None]  # fmt: skip
        for case, rank in missed[:count]:
            lines.append(f"  {row.name}: {case.query!r} (BM25 rank {rank}) -> "
                         f"{sorted(case.expected)[0]}")  # fmt: skip
    return "\n".join(lines)


def as_json(sets: dict[str, list[Row]]) -> dict[str, object]:
    out: dict[str, object] = {"k1": K1, "b": B, "depth": DEPTH}
    if len(sets.get(MINED, [])) > 1:
        sets = {**sets, f"{MINED} by language": by_language(sets[MINED])}
    if sets.get(DOCSTRINGS):
        sets = {**sets, f"{DOCSTRINGS} by copy elsewhere": by_copy(sets[DOCSTRINGS])}
    for title, rows in sets.items():
        entry: dict[str, object] = {}
        for row in rows:
            entry[row.name] = {"symfuse": asdict(figures(row.ours)),
                               "body_bm25": asdict(figures(row.base))}  # fmt: skip
        if rows:
            entry["all"] = {"symfuse": asdict(figures(_pooled(rows, "ours"))),
                            "body_bm25": asdict(figures(_pooled(rows, "base")))}  # fmt: skip
        out[title] = entry
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", default="", help="comma-separated mined repositories")
    parser.add_argument("--no-mined", action="store_true", help="skip the mined set")
    parser.add_argument("--limit-queries", type=int, default=None, help="first N per repository")
    parser.add_argument("--docstrings", action="append", choices=("fixture", "django"),
                        default=[], help="also the docstring nl set of this corpus")  # fmt: skip
    parser.add_argument("--strip", action="append", choices=("targets", "all"), default=[],
                        help="docstring sets: delete the targets' docstrings (the default) "
                        "or every docstring and doc comment; both when given twice")  # fmt: skip
    parser.add_argument("--mirrors", type=Path, default=DEFAULT_MIRRORS)
    parser.add_argument("--data", type=Path, default=DATA,
                        help="the mined set, e.g. data/nl_long.json")  # fmt: skip
    parser.add_argument("--examples", type=int, default=0, help="show N symfuse misses per repo")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--semantic", action="store_true", help="with the semantic extra")
    parser.add_argument("--neural-weight", type=float, default=None,
                        help="the neural channel's weight in the prose plans")  # fmt: skip
    parser.add_argument("--sweep", default="", help="also these neural weights, e.g. 0,0.2,0.8")
    args = parser.parse_args(argv)
    if args.semantic:
        nl_semantic.require()
    if args.neural_weight is not None:
        nl_semantic.set_neural_weight(args.neural_weight)
    nl_semantic.SWEEP[:] = [float(w) for w in args.sweep.split(",") if w]
    names = [n for n in args.repos.split(",") if n] or list(BY_NAME)
    unknown = [n for n in names if n not in BY_NAME]
    if unknown:
        parser.error(f"unknown repositories {unknown}; known: {', '.join(BY_NAME)}")
    sets: dict[str, list[Row]] = {}
    if not args.no_mined:
        sets[MINED] = mined_rows(names, args.mirrors, args.limit_queries, args.semantic, args.data)
    if args.docstrings:
        sets[DOCSTRINGS] = [
            docstring_row(c, args.limit_queries, args.semantic, strip)
            for c in args.docstrings
            for strip in (args.strip or ["targets"])
        ]
    for title, rows in sets.items():
        first = "corpus" if title == DOCSTRINGS else "repository"
        print(table(f"{title} (whole index)", rows, first) + "\n")
        print(whole_table(f"{title}: every expected definition, and the file first", rows) + "\n")
        if title == MINED and len(rows) > 1:
            regrouped = by_language(rows)
            print(table(f"{title} by language", regrouped, "language", "repositories") + "\n")
        if title == DOCSTRINGS:
            print(table(f"{title} by copy elsewhere", by_copy(rows), "corpus") + "\n")
        if args.examples:
            print(examples(rows, args.examples) + "\n")
    if args.semantic:
        print(nl_semantic.query_cost() + "\n")
    if nl_semantic.SWEEP:
        print(nl_semantic.sweep_table(figures, set(BY_NAME)) + "\n")
    if args.json is not None:
        args.json.write_text(json.dumps(as_json(sets), indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
