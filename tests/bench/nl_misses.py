"""Why symfuse misses Django docstring queries: each miss flagged by cause (issue 13).

For every query of Django's nl golden set that symfuse (default settings, whole index)
does not answer within 10, over the copy built as nl_bench.py builds it (``--strip
targets``: the targets' docstrings deleted; ``all``: every docstring), the script looks
at the target and at symfuse's first 10 answers and sets these flags (a miss may have
several; words are nl_bench.py's :func:`~nl_bench.tokens` folded by symfuse's ``stem``,
"code" is a definition's source text as body-BM25 reads it, plus its doc when it kept one):

- ``lost words``: the query has at most 2 content words (the generator removed the
  target's name words from the sentence: "Return the for this band.");
- ``vocabulary gap``: a third or less of the query's words are in the target's code;
- ``class ahead``: the target's own class is among the 10;
- ``siblings ahead``: 3 of the 10 share the target's file, or one has its name;
- ``documented copy ahead``: one of the first 3 has a doc and holds 80 % of the words;
- ``big ahead``: 3 of the first 5 span 50 lines or more;
- ``tiny target``: the target spans 5 lines or fewer;
- ``test code ahead``: one of the 10 is in a test path (nl_corpus.is_aside);
- ``close``: the target is at 11-30; ``deep``: not in symfuse's first 200.

It prints the counts over every miss and over a seeded sample (``--sample``), and
with ``--show`` the sample itself, to classify by hand.

    python tests/bench/nl_misses.py --strip targets --strip all
    python tests/bench/nl_misses.py --strip all --sample 30 --show
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.api import SearchRequest, prepare, search
from symfuse.ranking.channels.tokens import stem

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).parent))
from nl_bench import body_texts, rank_of, tokens
from nl_corpus import is_aside

from tests.support.quality import Query, load_queries, stripped_index

DEEP = 200  # answers looked through for the target's rank
SEED = 13
FLAGS = (
    "lost words",
    "vocabulary gap",
    "class ahead",
    "siblings ahead",
    "documented copy ahead",
    "big ahead",
    "tiny target",
    "test code ahead",
    "close",
    "deep",
)


@dataclass(frozen=True, slots=True)
class Miss:
    query: str
    target: Symbol
    rank: int | None  # within DEEP
    flags: tuple[str, ...]
    ahead: tuple[str, ...]  # symfuse's first 5 answers


def _lines(s: Symbol) -> int:
    return s.end_line - s.line + 1


def _words(text: str) -> set[str]:
    return {stem(t) for t in tokens(text)}


def misses(index: Index, copy: Path, queries: list[Query]) -> list[Miss]:
    """Every nl query symfuse does not answer within 10, flagged."""
    by_id = {s.symbol_id: s for s in index.symbols}
    words_of = {sid: _words(text) for sid, text in body_texts(index, copy)}
    prepared = prepare(index, None)
    found = []
    for q in queries:
        request = SearchRequest(query=q.query, limit=DEEP)
        answers = [i.symbol for i in search(index, request, prepared=prepared).items]
        ids = [s.symbol_id for s in answers]
        if rank_of(ids, frozenset({q.symbol_id})) is not None:
            continue
        rank = ids.index(q.symbol_id) + 1 if q.symbol_id in ids else None
        target = by_id[q.symbol_id]
        words = _words(q.query)

        def cover(s: Symbol, words: set[str] = words) -> float:
            held = words_of.get(s.symbol_id, set()) | _words(s.doc)
            return len(words & held) / max(1, len(words))

        top = answers[:10]
        flags = {
            "lost words": len(words) <= 2,
            "vocabulary gap": cover(target) <= 1 / 3 + 1e-9,
            "class ahead": any(s.symbol_id == target.parent for s in top),
            "siblings ahead": sum(s.file == target.file for s in top) >= 3
            or any(s.name == target.name for s in top),
            "documented copy ahead": any(s.doc and cover(s) >= 0.8 for s in top[:3]),
            "big ahead": sum(_lines(s) >= 50 for s in top[:5]) >= 3,
            "tiny target": _lines(target) <= 5,
            "test code ahead": any(is_aside(s) for s in top),
            "close": rank is not None and rank <= 30,
            "deep": rank is None,
        }
        kept = tuple(f for f in FLAGS if flags[f])
        found.append(Miss(q.query, target, rank, kept, tuple(ids[:5])))
    return found


def counts(found: list[Miss]) -> Counter[str]:
    return Counter(f for m in found for f in m.flags)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strip", action="append", choices=("targets", "all"), default=[])
    parser.add_argument("--sample", type=int, default=30, help="misses drawn (seeded)")
    parser.add_argument("--show", action="store_true", help="print the sampled misses")
    args = parser.parse_args(argv)
    from quality_bench import django_root

    queries = [q for q in load_queries("django") if q.category == "nl"]
    columns: dict[str, tuple[Counter[str], Counter[str], int, int]] = {}
    for strip in args.strip or ["targets"]:
        with tempfile.TemporaryDirectory() as tmp:
            index, copy, _, _ = stripped_index(django_root(), queries, Path(tmp), strip == "all")
            found = misses(index, copy, queries)
        drawn = random.Random(SEED).sample(found, min(args.sample, len(found)))
        columns[strip] = (counts(found), counts(drawn), len(found), len(drawn))
        if args.show:
            for m in drawn:
                print(f"[{strip}] {m.query!r} -> {m.target.symbol_id} ({_lines(m.target)} "
                      f"lines, rank {m.rank}): {', '.join(m.flags)}\n    ahead: "
                      f"{'; '.join(m.ahead)}")  # fmt: skip
    head = " | ".join(f"{s}: all {c[2]} | {s}: sample {c[3]}" for s, c in columns.items())
    print(f"\n| flag (Django, {len(queries)} queries) | {head} |")
    print("| --- |" + " ---: |" * (2 * len(columns)))
    for flag in FLAGS:
        cells = " | ".join(f"{c[0][flag]} | {c[1][flag]}" for c in columns.values())
        print(f"| {flag} | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
