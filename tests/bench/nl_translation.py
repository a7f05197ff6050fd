"""symfuse's doc -> code translation model as a channel of its own, measured offline (issue 13).

The model is ``symfuse.ranking.channels.translation``'s (IBM model 1 over the index's documented
definitions, scored by Berger and Lafferty's translation language model), trained with
each index's ranking structures; ``symfuse.ranking.fusion.rerank`` reads it for the candidates
of a prose query. This script measures it over the whole index, as a channel. Until
session 13 it carried its own copy of the model (the figures in tests/bench/README.md
were taken with that copy: the same model, its code tokens read from the files rather
than the index's documents).

No leakage: the pairs come from the index being searched; for the docstring set that is
the copy with every target's docstring and leading comments deleted
(``tests.support.quality.stripped_index``, which raises if one is left).

Measured three ways per query set, hit@10 / MRR@10 over the whole index:

- ``alone``: the channel's own ranking (callables and types, as prose channels rank);
- ``fused W``: symfuse's search with the channel's ranking added to the prose plan's
  fusion at weight W (beside lexical 0.8 and similarity 0.1), through the neural slot,
  which the default install leaves empty: exactly what wiring it as a channel would do;
- ``--restrict N``: the channel ranks only the lexical channel's first N candidates
  (it re-orders, it brings no candidate of its own);
- ``--undocumented``: the channel ranks only definitions without a doc of their own (it
  would estimate the missing doc; a documented definition is matched by its doc).

    python tests/bench/nl_translation.py --docstrings django --weights 0,0.2,0.4,0.8
    python tests/bench/nl_translation.py --repos black,gin,jsoup,jq --weights 0,0.2 --restrict 30
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.ranking.api import SearchRequest, prepare, search
from symfuse.ranking.channels import similarity
from symfuse.ranking.channels.translation import query_ids
from symfuse.ranking.prepared.structures import Prepared
from symfuse.ranking.query.search_request import Channel
from symfuse.ranking.search import pipeline as search_module
from symfuse.ranking.search.pipeline import ChannelRun
from symfuse.ranking.search.plans import DESCRIBED_KINDS, PLANS

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).parent))
import nl_bench
from nl_corpus import BY_NAME, index_snapshot

from tests.support.quality import (
    FIXTURE,
    DocstringsLeaked,
    Query,
    build_index,
    load_queries,
    stripped_index,
)


class TranslationChannel:
    """symfuse's own translation model (``symfuse.ranking.channels.translation``, trained with the
    index's ranking structures) as a whole-index channel: an ``Embedder``."""

    def __init__(self, prepared: Prepared) -> None:
        assert prepared.translation is not None
        self.model = prepared.translation
        self.term_ids = prepared.lexical.term_ids
        self.every = np.arange(prepared.size, dtype=np.int64)

    @property
    def name(self) -> str:
        return "translation"

    def scores(self, query: str) -> npt.NDArray[np.float32]:
        """The translation score of every symbol for ``query`` (0: no evidence)."""
        ids = query_ids(query, self.term_ids)
        return self.model.scores(ids, self.every).astype(np.float32)


# --- the channel in symfuse's fusion ------------------------------------------------------------


@dataclass(slots=True)
class Setting:
    """What the patched search adds: the model of each prepared index, and how."""

    models: dict[int, TranslationChannel]
    weight: float = 0.0
    restrict: int = 0  # > 0: only the lexical channel's first this many are ranked
    undocumented: dict[int, npt.NDArray[np.bool_]] | None = None  # per index: rank these only


SETTING = Setting({})


def _described(prepared: Prepared, mask: npt.NDArray[np.bool_] | None) -> Any:
    kinds = prepared.filters.mask(SearchRequest.model_construct(query="", kind=DESCRIBED_KINDS))
    if kinds is None or mask is None:
        return kinds if mask is None else mask
    return kinds & mask


def _with_translation(
    run: ChannelRun, prepared: Prepared, query: str, mask: Any, depth: int
) -> ChannelRun:
    """``run`` with the translation ranking in the (empty) neural slot at the set weight."""
    model = SETTING.models.get(id(prepared))
    if model is None or SETTING.weight <= 0:
        return run
    text_mask = _described(prepared, mask)
    if SETTING.undocumented is not None:
        undocumented = SETTING.undocumented[id(prepared)]
        text_mask = undocumented if text_mask is None else text_mask & undocumented
    if SETTING.restrict > 0:
        keep = np.zeros(prepared.size, dtype=np.bool_)
        lexical = run.rankings.get(Channel.LEXICAL)
        if lexical is not None:
            keep[lexical.positions[: SETTING.restrict]] = True
        text_mask = keep if text_mask is None else text_mask & keep
    rankings = {**run.rankings, Channel.NEURAL: similarity.rank(model, query, text_mask, depth)}
    return replace(run, rankings=rankings, weights=replace(run.weights, neural=SETTING.weight))


@contextmanager
def patched_search() -> Iterator[None]:
    """symfuse's search with :func:`_with_translation` after its channels, for prose shapes."""
    original = search_module.run_channels

    def run_channels(prepared: Prepared, request: SearchRequest, query: str, mask: Any,
                     depth: int, shape: Any = None, vectors: Any = None) -> ChannelRun:  # fmt: skip
        run = original(prepared, request, query, mask, depth, shape, vectors)
        if not PLANS[shape if shape is not None else search_module.classify(query)].described:
            return run
        return _with_translation(run, prepared, query, mask, depth)

    search_module.run_channels = run_channels  # type: ignore[assignment]
    try:
        yield
    finally:
        search_module.run_channels = original


# --- measuring ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Measured:
    """One query set: its cases and the ranks of each way of ranking (``alone``, ``W``)."""

    name: str
    cases: list[nl_bench.Case]
    ranks: dict[str, list[int | None]]


def measure(name: str, index: Index, root: Path, cases: list[nl_bench.Case],
            weights: Sequence[float]) -> Measured:  # fmt: skip
    """The channel alone and fused at each weight, over ``index`` (sources under ``root``)."""
    started = time.perf_counter()
    prepared = prepare(index)
    build = time.perf_counter() - started
    model = TranslationChannel(prepared)
    trained = prepared.translation.table.nnz if prepared.translation is not None else 0
    ids = [s.symbol_id for s in index.symbols]
    started = time.perf_counter()
    alone = [similarity.rank(model, c.query, _described(prepared, None), nl_bench.DEPTH)
             for c in cases]  # fmt: skip
    per_query = (time.perf_counter() - started) / max(len(cases), 1) * 1000
    print(f"{name}: {len(ids)} symbols, {trained} translations, symfuse's ranking structures "
          f"(the model's training included) {build:.1f} s, {per_query:.1f} ms a query "
          f"(indicative)", file=sys.stderr)  # fmt: skip
    ranks = {"alone": [nl_bench.rank_of([ids[i] for i in r.positions], c.expected)
                       for r, c in zip(alone, cases, strict=True)]}  # fmt: skip
    SETTING.models[id(prepared)] = model
    if SETTING.undocumented is not None:
        SETTING.undocumented[id(prepared)] = np.array([not s.doc for s in index.symbols])
    with patched_search():
        for weight in weights:
            SETTING.weight = weight
            ranks[f"{weight:g}"] = [_rank(index, prepared, c) for c in cases]
    del SETTING.models[id(prepared)]
    return Measured(name, cases, ranks)


def _rank(index: Index, prepared: Prepared, case: nl_bench.Case) -> int | None:
    response = search(index, SearchRequest(query=case.query, limit=nl_bench.DEPTH),
                      prepared=prepared)  # fmt: skip
    return nl_bench.rank_of([item.symbol.symbol_id for item in response.items], case.expected)


def docstring_set(corpus: str, weights: Sequence[float], work: Path) -> Measured:
    """The nl golden set of ``corpus`` over its docstring-stripped copy (as nl_bench.py)."""
    queries = [q for q in load_queries(corpus) if q.category == "nl"]
    if corpus == "fixture":
        root = FIXTURE
    else:
        from quality_bench import django_root

        root = django_root()
    index, copy = _stripped(root, queries, work / corpus)
    copies = nl_bench.copied_elsewhere(index, queries)
    cases = [nl_bench.Case(q.query, frozenset({q.symbol_id}), "python", copied)
             for q, copied in zip(queries, copies, strict=True)]  # fmt: skip
    return measure(corpus, index, copy, cases, weights)


def _stripped(root: Path, queries: list[Query], work: Path) -> tuple[Index, Path]:
    """``stripped_index`` of ``root`` in ``work``; a copy left there by an earlier run (``--work``)
    is indexed again as it is, and checked for a target's docstring just as a new one."""
    copy = work / "corpus" / root.name
    if not copy.exists():
        return stripped_index(root, queries, work)[:2]
    index = build_index(copy, work / "index")
    targets = {q.symbol_id for q in queries}
    if any(s.doc for s in index.symbols if s.symbol_id in targets):
        raise DocstringsLeaked(f"a docstring target still has its doc in {copy}")
    return index, copy


def mined_set(name: str, weights: Sequence[float]) -> Measured:
    """One mined repository's commit subjects over its snapshot's index (as nl_bench.py)."""
    import json

    payload = json.loads(nl_bench.DATA.read_text(encoding="utf-8"))
    cases = [nl_bench.Case(q["query"], frozenset(q["expected"]), q["language"])
             for q in payload["queries"] if q["repo"] == name]  # fmt: skip
    repo = BY_NAME[name]
    return measure(name, index_snapshot(repo), repo.root, cases, weights)


# Django's queries are split in two halves (even and odd positions) to choose a constant on one
# and report the other; the mined set's tuning repositories are black, gin, jsoup and jq.
TUNING = ("black", "gin", "jsoup", "jq")


def rows(measured: list[Measured]) -> Iterator[tuple[str, int, dict[str, list[int | None]]]]:
    """Each set, Django's halves and copy subsets, and the pooled mined repositories."""
    for m in measured:
        yield m.name, len(m.cases), m.ranks
        if m.name == "django":
            parts = {"tune half": lambda i, c: i % 2 == 0, "held half": lambda i, c: i % 2 == 1,
                     "own": lambda i, c: not c.copied, "copied": lambda i, c: c.copied}  # fmt: skip
            for part, chosen in parts.items():
                kept = [i for i, c in enumerate(m.cases) if chosen(i, c)]
                yield (
                    f"django, {part}",
                    len(kept),
                    {k: [r[i] for i in kept] for k, r in m.ranks.items()},
                )
    mined = [m for m in measured if m.name in BY_NAME]
    for title, group in (("mined, tuning 4", [m for m in mined if m.name in TUNING]),
                         ("mined, held 4", [m for m in mined if m.name not in TUNING]),
                         ("mined, all", mined)):  # fmt: skip
        if len(group) > 1:
            keys = group[0].ranks
            yield (
                title,
                sum(len(m.cases) for m in group),
                {k: [r for m in group for r in m.ranks[k]] for k in keys},
            )


def table(measured: list[Measured]) -> str:
    keys = list(measured[0].ranks) if measured else []
    head = "| set | n | " + " | ".join(k if k == "alone" else f"fused {k}" for k in keys) + " |"
    lines = [head, "| --- | ---: |" + " --- |" * len(keys)]
    for name, n, ranks in rows(measured):
        cells = []
        for k in keys:
            f = nl_bench.figures(ranks[k])
            cells.append(f"{f.hit10:.3f} / {f.mrr10:.3f}")
        lines.append(f"| {name} | {n} | {' | '.join(cells)} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repos", default="", help="comma-separated mined repositories")
    parser.add_argument("--docstrings", action="append", choices=("fixture", "django"),
                        default=[], help="the docstring nl set of this corpus")  # fmt: skip
    parser.add_argument("--weights", default="0,0.2,0.4,0.8", help="fusion weights to measure")
    parser.add_argument("--restrict", type=int, default=0,
                        help="rank only lexical's first N (0: all)")  # fmt: skip
    parser.add_argument("--undocumented", action="store_true",
                        help="rank only definitions without a doc")  # fmt: skip
    parser.add_argument("--work", type=Path, default=None, help="keep the stripped copies here")
    args = parser.parse_args(argv)
    weights = [float(w) for w in args.weights.split(",") if w]
    SETTING.restrict = args.restrict
    SETTING.undocumented = {} if args.undocumented else None
    measured = []
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        measured += [docstring_set(c, weights, work) for c in args.docstrings]
    measured += [mined_set(n, weights) for n in args.repos.split(",") if n]
    print(table(measured))
    return 0


if __name__ == "__main__":
    sys.exit(main())
