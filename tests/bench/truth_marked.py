"""References marked by hand in small fixtures: the usages truth of Python,
JavaScript, TypeScript, Go, Java, Rust, C# and C, read by graph_truth.py ``--marked`` and by
tests/ranking/test_usages_truth.py.

A fixture line says what it defines and uses in a trailing comment::

    func (e *Engine) Use(m ...HandlerFunc) *Engine { // def: Engine.Use; ref: Engine, HandlerFunc

``def: Label`` names the definition whose name is on that line (``Label`` is its name,
or ``Owner.name`` for a member); ``ref: A, B`` says the line uses the definitions
labelled ``A`` and ``B``. Every use is marked, and only uses are: a same-named member of
another type, a local that shadows a name, a name in a string or a comment are left
unmarked on purpose, so that answering them costs precision. Usages are compared per
target as sets of (file, line).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import UsagesRequest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "usages_truth"
LANGUAGES = ("python", "javascript", "typescript", "go", "java", "rust", "csharp", "c", "kotlin")
_MARK = re.compile(r"(?://|/\*|#)\s*((?:def|ref):.*?)\s*(?:\*/)?\s*$")
_SUFFIXES = (".py", ".js", ".ts", ".go", ".java", ".rs", ".cs", ".c", ".h", ".kt")

Site = tuple[str, int]  # (workspace-relative file, line)


@dataclass
class Marks:
    """A tree's marked definitions (label -> site) and uses (label -> sites)."""

    defs: dict[str, Site] = field(default_factory=dict)
    refs: dict[str, set[Site]] = field(default_factory=dict)


def read_marks(root: Path) -> Marks:
    marks = Marks()
    for path in sorted(root.rglob("*")):
        if path.suffix not in _SUFFIXES:
            continue
        rel = path.relative_to(root).as_posix()
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found = _MARK.search(line)
            if found is None:
                continue
            for part in found.group(1).split(";"):
                what, _, labels = part.strip().partition(":")
                if what not in ("def", "ref"):
                    continue
                for label in filter(None, (x.strip() for x in labels.split(","))):
                    if what == "def":
                        if label in marks.defs:
                            raise ValueError(f"{rel}:{number}: {label} defined twice")
                        marks.defs[label] = (rel, number)
                    else:
                        marks.refs.setdefault(label, set()).add((rel, number))
    unknown = set(marks.refs) - set(marks.defs)
    if unknown:
        raise ValueError(f"{root}: uses of unmarked definitions {sorted(unknown)}")
    return marks


def definition(index: Index, label: str, site: Site) -> Symbol:
    """The indexed definition a label marks: its name on the marked line."""
    name = label.rsplit(".", 1)[-1]
    entry = index.files[site[0]]
    for symbol in entry.symbols:
        if symbol.name == name and symbol.name_line == site[1]:
            return symbol
    raise LookupError(f"{label}: no definition named {name} at {site[0]}:{site[1]}")


@dataclass
class Tally:
    """Listed usages judged, of those true, marked uses, of those listed."""

    listed: int = 0
    right: int = 0
    marked: int = 0
    found: int = 0
    notes: list[str] = field(default_factory=list)

    @property
    def precision(self) -> float:
        return self.right / self.listed if self.listed else 1.0

    @property
    def recall(self) -> float:
        return self.found / self.marked if self.marked else 1.0

    def row(self) -> dict[str, float | int]:
        return {
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "listed": self.listed,
            "marked": self.marked,
        }


def score(index: Index, root: Path, **request: object) -> Tally:
    """Usages of every marked definition against its marked uses; ``request``: more
    fields of the usages request (``min_confidence``)."""
    marks = read_marks(root)
    tally = Tally()
    for label, site in sorted(marks.defs.items()):
        symbol = definition(index, label, site)
        answer = operations.usages(
            index, UsagesRequest(symbol_id=symbol.symbol_id, limit=5000, **request)
        )
        got = {(u.file, u.line) for u in answer.usages}
        want = marks.refs.get(label, set())
        tally.listed += len(got)
        tally.right += len(got & want)
        tally.marked += len(want)
        tally.found += len(got & want)
        tally.notes += [f"missed {label}: {f}:{n}" for f, n in sorted(want - got)]
        tally.notes += [f"extra  {label}: {f}:{n}" for f, n in sorted(got - want)]
    return tally
