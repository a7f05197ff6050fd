"""File dependencies marked by hand (issue 36, item 6): the truth of ``imports`` and
``importers`` per language, read by graph_truth.py ``--deps`` and by
tests/ranking/test_deps_truth.py.

An import line says which workspace files it brings in, in a trailing comment::

    #include <jv/jv.h> // dep: include/jv/jv.h
    require_relative "shop/order" # dep: lib/shop/order.rb

``dep: a, b`` lists paths relative to the fixture's root; an import of something
outside the workspace (``<stdio.h>``, ``require "json"``) is left unmarked, so that
answering it with a file costs precision. Every file's imports and every file's
importers are compared with the marks as sets of (importing file, imported file).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import DepsRequest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
# language -> the fixture tree that marks its imports
TREES = {
    "c": FIXTURES / "usages_truth" / "c",
    "c_include": FIXTURES / "deps_truth" / "c",
    "go": FIXTURES / "usages_truth" / "go",
    "java": FIXTURES / "usages_truth" / "java",
    "kotlin": FIXTURES / "deps_truth" / "kotlin",
    "rust": FIXTURES / "usages_truth" / "rust",
    "csharp": FIXTURES / "usages_truth" / "csharp",
    "ruby": FIXTURES / "deps_truth" / "ruby",
}
_MARK = re.compile(r"(?://|#)[^\n]*?\bdep:\s*([^;]*?)\s*$")

Edge = tuple[str, str]  # (importing file, imported file)


def read_marks(root: Path) -> set[Edge]:
    edges: set[Edge] = set()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        rel = path.relative_to(root).as_posix()
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            found = _MARK.search(line)
            if found is not None:
                edges |= {(rel, d.strip()) for d in found.group(1).split(",") if d.strip()}
    return edges


@dataclass
class DepsTally:
    """Imports and importers answered, against the marked edges."""

    answered: int = 0
    right: int = 0
    marked: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.answered if self.answered else 1.0

    @property
    def recall(self) -> float:
        return self.right / self.marked if self.marked else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    def row(self) -> dict[str, float | int]:
        return {
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "f1": round(self.f1, 3),
            "marked": self.marked,
        }


def score(index: Index, root: Path) -> DepsTally:
    """Every file's imports and importers against the marks (each edge counted twice:
    asked from its importing file and from its imported file)."""
    want = read_marks(root)
    imports: set[Edge] = set()
    importers: set[Edge] = set()
    for key in sorted(index.files):
        answer = operations.deps(index, DepsRequest(target=key))
        imports |= {(key, link.file) for link in answer.imports}
        importers |= {(link.file, key) for link in answer.importers}
    tally = DepsTally()
    for got, side in ((imports, "imports"), (importers, "importers")):
        tally.answered += len(got)
        tally.right += len(got & want)
        tally.marked += len(want)
        tally.notes += [f"missed {side}: {a} -> {b}" for a, b in sorted(want - got)]
        tally.notes += [f"extra  {side}: {a} -> {b}" for a, b in sorted(got - want)]
    return tally
