"""Impact on real trees, for a reader to judge by hand (issue 36, item 4).

    python tests/bench/impact_bench.py TREE [--index-dir DIR] [--sample 6] [--seed 7]
        [--depth 2] [--min-confidence 0.5] [--symbol NAME ...]

Indexes TREE, picks ``--sample`` definitions at random (functions, methods, classes,
constants of product code that something uses), else the ``--symbol`` names, and prints
each one's ``impact`` answer (the default depth 2): every reached item with how it was
reached (relation, the symbol one hop nearer, the surest link's confidence) and the
lines of the item that name that nearer symbol, the evidence a reader checks. An item
is right when its code really depends on the nearer symbol, the very definition (not
another of the same name), and that symbol is itself right.

Judged figures are in the "impact_bench.py" section of tests/bench/README.md.
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.analysis.impact import _USES, Impacted, impact
from symfuse.ranking.fusion.roles import Role, role_of

_KINDS = frozenset(
    {Kind.FUNCTION, Kind.METHOD, Kind.CLASS, Kind.STRUCT, Kind.INTERFACE, Kind.TRAIT, Kind.CONSTANT}
)


def candidates(index: Index) -> list[Symbol]:
    """Product definitions of the sampled kinds that some definition uses."""
    found = []
    for s in index.symbols:
        if s.kind not in _KINDS or role_of(s.file) is not Role.PRODUCT:
            continue
        if index.neighbours(s.symbol_id, outgoing=False, kinds=_USES):
            found.append(s)
    return sorted(found, key=lambda s: s.symbol_id)


def evidence(tree: Path, index: Index, item: Impacted) -> list[str]:
    """Lines of the item (its span, or its whole file) naming the symbol one hop nearer."""
    via = index.get(item.via)
    if via is None:
        return []
    lines = (tree / item.file).read_text(errors="replace").splitlines()
    symbol = index.get(item.symbol_id) if item.symbol_id else None
    start, end = (symbol.line, symbol.end_line) if symbol else (1, len(lines))
    word = re.compile(rf"\b{re.escape(via.name)}\b")
    return [
        f"{n}: {lines[n - 1].strip()[:140]}"
        for n in range(start, end + 1)
        if n <= len(lines) and word.search(lines[n - 1])
    ][:3]


def confidence(index: Index, item: Impacted) -> float | None:
    if item.symbol_id is None:
        return None
    weights = [
        w
        for other, _, w in index.neighbours(item.symbol_id, outgoing=True, kinds=_USES)
        if other.symbol_id == item.via
    ]
    return max(weights, default=None)


def show(tree: Path, index: Index, symbol: Symbol, depth: int, sure: float) -> None:
    result = impact(index, [symbol], depth=depth, limit=10_000, min_confidence=sure)
    print(f"\n## {symbol.symbol_id}  ({result.total} items)")
    for group in result.files:
        for item in group.items:
            via = index.get(item.via)
            conf = confidence(index, item)
            print(
                f"  d{item.depth} {item.relation:<11} {item.kind:<9} {item.file}:{item.line} "
                f"{item.name}  <- {via.name if via else item.via}"
                + (f"  conf {conf:.2f}" if conf is not None else "")
            )
            for line in evidence(tree, index, item):
                print(f"      {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("tree", type=Path)
    parser.add_argument("--index-dir", type=Path, default=None)
    parser.add_argument("--sample", type=int, default=6)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--min-confidence", type=float, default=0.5)
    parser.add_argument("--symbol", action="append", default=[])
    args = parser.parse_args()
    tree = args.tree.resolve()
    config = IndexConfig(roots=(tree,), index_dir=args.index_dir, progress=False)
    index, _ = update_index(config)
    pool = candidates(index)
    if args.symbol:
        chosen = [s for s in pool if s.name in args.symbol or s.symbol_id in args.symbol]
    else:
        chosen = random.Random(args.seed).sample(pool, min(args.sample, len(pool)))
    for symbol in chosen:
        show(tree, index, symbol, args.depth, args.min_confidence)


if __name__ == "__main__":
    main()
