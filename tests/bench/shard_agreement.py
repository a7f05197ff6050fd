"""Agreement of sharded answers with one combined index, over queries of every shape and mode.

Queries are drawn (seeded) from the combined index's definitions, one shape after another:
a name (identifier), ``Class.method`` (dotted), a name's words (keywords), a docstring's
first line (sentence), ``words in Class`` (mixed) and a file path (path, answered by
``get``). Each non-path query is asked in one of the modes ``single``, ``tiered``,
``flat``, ``min_score``, ``per_repo`` and ``drill`` (scoped to the definition's file), in
turn; dotted names are also asked with ``get``. Every request asks for 10 hits. A
query's shape is recorded as :func:`classify` reads it, not as it was meant.

Agreement per query: the same first hit, the same top-10 set, the same order, overlap@10;
a query both sides refuse (``NotFound``) agrees, one side refusing does not.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.channels.tokens import split_identifier
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.ranking.search.plans import classify

MODES = ("single", "tiered", "flat", "min_score", "per_repo", "drill")
SHAPES = ("identifier", "dotted", "keywords", "sentence", "mixed", "path")
CALLABLE = ("class", "function", "method", "interface", "struct", "enum")
MIN_SCORE = 0.3


@dataclass(frozen=True, slots=True)
class Case:
    meant: str  # the shape it was drawn for
    mode: str
    fields: dict[str, Any]

    @property
    def shape(self) -> str:
        return classify(str(self.fields["query"])).value


def _words(name: str) -> str:
    return " ".join(w.lower() for w in split_identifier(name) if w)


def _sentence(doc: str | None) -> str | None:
    if not doc:
        return None
    first = re.split(r"(?<=[.!?])\s|\n\s*\n", doc.strip(), maxsplit=1)[0]
    words = first.replace("\n", " ").split()
    if not 4 <= len(words) <= 16 or not all(w.isascii() for w in words):
        return None
    return " ".join(words).rstrip(".")


def _drawn(rng: random.Random, symbols: Sequence[Symbol], meant: str) -> tuple[str, Symbol]:
    """A query meant to have shape ``meant`` and the definition it was drawn from."""
    while True:
        s = symbols[rng.randrange(len(symbols))]
        parent = s.fqn.rsplit(".", 2)[-2] if s.fqn.count(".") >= 1 else ""
        if meant == "identifier":
            return s.name, s
        if meant == "dotted" and s.kind.value == "method" and parent[:1].isupper():
            return f"{parent}.{s.name}", s
        if meant == "keywords" and len(split_identifier(s.name)) >= 2:
            return _words(s.name), s
        if meant == "sentence" and (text := _sentence(s.doc)) is not None:
            return text, s
        if meant == "mixed" and s.kind.value == "method" and parent[:1].isupper():
            words = _words(s.name)
            if words and not words.startswith("_"):
                return f"{words} in {parent}", s
        if meant == "path" and s.file.count("/") >= 2:
            return "/".join(s.file.split("/")[-2:]), s


def cases(index: Index, count: int, seed: int = 40) -> list[Case]:
    """``count`` queries, every shape in turn, every mode in turn within a shape."""
    rng = random.Random(seed)
    symbols = [s for s in index.symbols if s.kind.value in CALLABLE]
    out: list[Case] = []
    for i in range(count):
        meant = SHAPES[i % len(SHAPES)]
        query, symbol = _drawn(rng, symbols, meant)
        if meant == "path":
            out.append(Case(meant, "get", {"query": query}))
            continue
        modes = (*MODES, "get") if meant == "dotted" else MODES
        mode = modes[(i // len(SHAPES)) % len(modes)]
        out.append(Case(meant, mode, {"query": query, **_mode_fields(mode, symbol)}))
    return out


def _mode_fields(mode: str, symbol: Symbol) -> dict[str, Any]:
    if mode == "min_score":
        return {"min_score": MIN_SCORE}
    if mode == "per_repo":
        return {"aggregation_mode": "per_repo"}
    if mode == "drill":
        return {"mode": "drill", "drill_from": symbol.file}
    return {"mode": mode}


Answer = Callable[[SearchRequest], SearchResponse]


@dataclass
class Tally:
    queries: int = 0
    same_first: int = 0
    same_set: int = 0
    same_order: int = 0
    overlap: float = 0.0
    misses: list[str] = field(default_factory=list)

    def add(self, case: Case, merged: list[str] | None, combined: list[str] | None) -> None:
        self.queries += 1
        if merged is None or combined is None:
            agree = merged is None and combined is None
            self.same_first += agree
            self.same_set += agree
            self.same_order += agree
            self.overlap += agree
            if not agree:
                self.misses.append(f"{case.mode} {case.fields}: one side found nothing")
            return
        self.same_first += merged[:1] == combined[:1]
        self.same_set += set(merged) == set(combined)
        self.same_order += merged == combined
        self.overlap += len(set(merged) & set(combined)) / max(1, len(combined))
        if merged[:1] != combined[:1] or set(merged) != set(combined):
            self.misses.append(f"{case.mode} {case.fields}: {merged[:3]} vs {combined[:3]}")

    def figures(self) -> dict[str, Any]:
        n = max(1, self.queries)
        return {
            "queries": self.queries,
            "same_first": round(self.same_first / n, 3),
            "same_set": round(self.same_set / n, 3),
            "same_order": round(self.same_order / n, 3),
            "overlap_at_10": round(self.overlap / n, 3),
        }


def _ids(answer: Answer, request: SearchRequest) -> list[str] | None:
    try:
        return [i.symbol.symbol_id for i in answer(request).items]
    except NotFound:
        return None


def agreement(
    sharded: Answer,
    combined: Answer,
    queries: Sequence[Case],
    misses: int = 0,
    extra: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The figures over all ``queries``, by mode and by shape (with up to ``misses``
    disagreements of each mode, for reading); ``extra``: fields added to every request
    (``{"semantic_weight": 0}`` leaves the similarity channel out of both sides)."""
    total, by_mode, by_shape = Tally(), {}, {}
    for case in queries:
        request = SearchRequest.from_mapping({**case.fields, "limit": 10, **(extra or {})})
        merged, alone = _ids(sharded, request), _ids(combined, request)
        for tally in (
            total,
            by_mode.setdefault(case.mode, Tally()),
            by_shape.setdefault(case.shape, Tally()),
        ):
            tally.add(case, merged, alone)
    out: dict[str, Any] = {"all": total.figures()}
    out["by_mode"] = {k: v.figures() for k, v in sorted(by_mode.items())}
    out["by_shape"] = {k: v.figures() for k, v in sorted(by_shape.items())}
    if misses:
        out["misses"] = {k: v.misses[:misses] for k, v in sorted(by_mode.items())}
    return out
