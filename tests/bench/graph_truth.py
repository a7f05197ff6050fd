"""Import and reference answers against ground truth built without symfuse (issue 17).

Run it from the repository root with the project's interpreter, on unpacked trees::

    python tests/bench/graph_truth.py --python DIR [--python DIR] [--script DIR] [--json OUT]
    python tests/bench/graph_truth.py --marked [LANGUAGE ...] [--min-confidence F]
    python tests/bench/graph_truth.py --deps [LANGUAGE ...]

(for example ``pip download --no-deps --no-binary :all: django attrs`` and
``npm pack axios``, unpacked). For each tree it builds the index in-process (a fresh
index folder), then:

- imports/importers: per file, the workspace files it imports and the files that
  import it, from ``ranking.query.operations.deps``, against edges computed by
  truth_python.py (stdlib ``ast``) or truth_script.py (tree-sitter grammars, read
  directly, not through symfuse's extractor). Precision and recall over all edges
  (micro); imports and importers are asked per file separately.
- references: 30 definitions per tree (a seeded sample, 10 classes, 10 functions and
  10 methods, a kind short of 10 topped up from the others, each with at least 2 true
  references, from product code: not tests,
  docs, examples or stubs), their ``usages`` (every kind, no confidence floor) against the
  truth's references, compared as (file, line) multisets. Occurrences the truth
  marks unknown (``x.name`` on an object of unknown type) and usages in stubs and
  declaration files (.pyi, .d.ts: the truth does not read them) count on neither side.
- answer sizes: the full answers (before the MCP budget cuts them, 2000 tokens by
  default) rendered as MCP TOON and as JSON, in tokens estimated as characters / 4.

Nothing here runs in the test suite: the trees are downloads, given as arguments.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import truth_deps
import truth_marked
import truth_python
import truth_python_refs
import truth_script

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import DepsRequest, UsagesRequest
from symfuse.server.common.present import Format, estimate_tokens, render

SEED = 17
PER_KIND = 10
SIDE_PARTS = frozenset(
    {"tests", "test", "docs", "doc", "examples", "bench", "benchmarks", "scripts"}
)

Edges = dict[str, dict[str, set[int]]]


@dataclass
class Score:
    found: int = 0  # symfuse's answers judged (true or false)
    right: int = 0  # of those, true
    truth: int = 0  # true answers
    recalled: int = 0  # of those, found

    def add(self, other: Score) -> None:
        self.found += other.found
        self.right += other.right
        self.truth += other.truth
        self.recalled += other.recalled

    def row(self) -> dict[str, Any]:
        p = self.right / self.found if self.found else 1.0
        r = self.recalled / self.truth if self.truth else 1.0
        return {
            "precision": round(p, 3),
            "recall": round(r, 3),
            "found": self.found,
            "truth": self.truth,
        }


def build(root: Path, index_dir: Path) -> Index:
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=index_dir, progress=False))
    return index


def is_side(path: str) -> bool:
    return bool(SIDE_PARTS.intersection(path.split("/")[:-1])) or "test" in path.rsplit("/", 1)[-1]


# -- imports ---------------------------------------------------------------------------


def compare_edges(
    index: Index, required: Edges, acceptable: dict[str, set[str]], sizes: dict[str, list[int]]
) -> tuple[Score, Score, list[str]]:
    """(imports score, importers score, examples of misses and extras)."""
    importers_truth: dict[str, set[str]] = {}
    for source, targets in required.items():
        for target in targets:
            importers_truth.setdefault(target, set()).add(source)
    imports, importers, notes = Score(), Score(), []
    for path in sorted(required):
        if path not in index.files:
            continue
        answer = operations.deps(index, DepsRequest(target=path))
        data = answer.to_dict()
        sizes["deps toon"].append(estimate_tokens(render(data, Format.TOON)))
        sizes["deps json"].append(estimate_tokens(render(data, Format.JSON)))
        got = {link.file for link in answer.imports}
        want = set(required[path])
        ok = acceptable.get(path, set())
        imports.add(Score(len(got), len(got & ok), len(want), len(got & want)))
        notes += [
            f"missed import {path} -> {t} (line {sorted(required[path][t])})" for t in want - got
        ]
        notes += [f"extra import {path} -> {t}" for t in got - ok]
        got_in = {link.file for link in answer.importers if link.file in required}
        want_in = importers_truth.get(path, set())
        ok_in = {s for s in required if path in acceptable.get(s, set())}
        importers.add(Score(len(got_in), len(got_in & ok_in), len(want_in), len(got_in & want_in)))
    return imports, importers, notes


# -- references ------------------------------------------------------------------------


@dataclass(frozen=True)
class Target:
    path: str
    qualname: str
    kind: str

    @property
    def name(self) -> str:
        return self.qualname.rsplit(".", 1)[-1]


def sample(candidates: dict[Target, Counter[tuple[str, int]]]) -> list[Target]:
    """PER_KIND targets of each kind, seeded, from those with at least two references."""
    rng = random.Random(SEED)
    chosen: list[Target] = []
    for kind in ("class", "function", "method"):
        pool = sorted(
            (t for t, yes in candidates.items() if t.kind == kind and sum(yes.values()) >= 2),
            key=lambda t: (t.path, t.qualname),
        )
        chosen += rng.sample(pool, min(PER_KIND, len(pool)))
    # a kind short of PER_KIND (few methods used twice in a small package): the rest
    # from the other kinds, so that every tree has 3 * PER_KIND targets when it can
    rest = sorted(
        (t for t, yes in candidates.items() if t not in chosen and sum(yes.values()) >= 2),
        key=lambda t: (t.path, t.qualname),
    )
    return chosen + rng.sample(rest, min(3 * PER_KIND - len(chosen), len(rest)))


def symbol_id(index: Index, target: Target) -> str | None:
    entry = index.files.get(target.path)
    if entry is None:
        return None
    parent_name = target.qualname.rpartition(".")[0]
    by_id = {s.symbol_id: s for s in entry.symbols}
    for s in entry.symbols:
        if s.name != target.name:
            continue
        parent = by_id.get(s.parent) if s.parent else None
        if (parent.name if parent else "") == parent_name:
            return s.symbol_id
    return None


def _stub(path: str) -> bool:
    """Type stubs and declaration files: the truth does not read them, so usages
    listed there are judged neither way (their definitions are not sampled either)."""
    return path.endswith((".pyi", ".d.ts", ".d.cts"))


def compare_refs(
    index: Index,
    targets: list[Target],
    truth_of: Callable[[Target], tuple[Counter[tuple[str, int]], set[tuple[str, int]]]],
    sizes: dict[str, list[int]],
) -> tuple[Score, list[dict[str, Any]], list[str]]:
    total, rows, notes = Score(), [], []
    for target in targets:
        yes, unknown = truth_of(target)
        sid = symbol_id(index, target)
        got: Counter[tuple[str, int]] = Counter()
        if sid is not None:
            answer = operations.usages(index, UsagesRequest(symbol_id=sid, limit=5000))
            data = answer.to_dict()
            sizes["usages toon"].append(estimate_tokens(render(data, Format.TOON)))
            sizes["usages json"].append(estimate_tokens(render(data, Format.JSON)))
            got = Counter((u.file, u.line) for u in answer.usages)
        judged = Counter({k: n for k, n in got.items() if k not in unknown and not _stub(k[0])})
        right = sum((judged & yes).values())
        score = Score(sum(judged.values()), right, sum(yes.values()), sum((got & yes).values()))
        total.add(score)
        rows.append(
            {
                "target": f"{target.path}::{target.qualname}",
                "kind": target.kind,
                "id": sid,
                **score.row(),
                "unknown": len(unknown),
            }
        )
        notes += [f"missed ref {target.qualname}: {k[0]}:{k[1]}" for k in (yes - got)]
        notes += [f"extra ref {target.qualname}: {k[0]}:{k[1]}" for k in (judged - yes)]
    return total, rows, notes


def references(
    definitions: dict[tuple[str, str], str],
    occurrences: Iterable[Any],
    index: Index,
    sizes: dict[str, list[int]],
) -> tuple[Score, list[dict[str, Any]], list[str]]:
    """Sample the targets from ``definitions`` and score their usages against the
    ``occurrences`` (path, line, name, values: None for unknown) of their names."""
    by_name: dict[str, list[Any]] = {}
    for o in occurrences:
        by_name.setdefault(o.name, []).append(o)

    def truth_of(target: Target) -> tuple[Counter[tuple[str, int]], set[tuple[str, int]]]:
        value = ("def", (target.path, target.qualname))
        yes: Counter[tuple[str, int]] = Counter()
        unknown: set[tuple[str, int]] = set()
        for o in by_name.get(target.name, []):
            if o.values is None:
                unknown.add((o.path, o.line))
            elif value in o.values:
                yes[(o.path, o.line)] += 1
        return yes, unknown

    candidates = [
        Target(path, qualname, kind)
        for (path, qualname), kind in definitions.items()
        if not is_side(path)
        and not path.endswith((".d.ts", ".d.cts", ".pyi"))
        and not qualname.rsplit(".", 1)[-1].startswith("__")
        and qualname.rsplit(".", 1)[-1] != "constructor"
    ]
    chosen = sample({t: truth_of(t)[0] for t in candidates})
    return compare_refs(index, chosen, truth_of, sizes)


def wanted_names(definitions: dict[tuple[str, str], str]) -> set[str]:
    return {q.rsplit(".", 1)[-1] for (path, q) in definitions if not is_side(path)}


# -- driver ----------------------------------------------------------------------------


def summarize(sizes: dict[str, list[int]]) -> dict[str, dict[str, int]]:
    return {
        k: {"median": int(statistics.median(v)), "p90": sorted(v)[int(len(v) * 0.9)], "max": max(v)}
        for k, v in sizes.items()
        if v
    }


def run_tree(root: Path, language: str, examples: int, refs_only: bool = False) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="graph-truth-") as tmp:
        index = build(root, Path(tmp))
        sizes: dict[str, list[int]] = {
            k: [] for k in ("deps toon", "deps json", "usages toon", "usages json")
        }
        if language == "python":
            project = truth_python.Project(root)
            required, acceptable = truth_python.imports(project)
            defs = truth_python_refs.definitions(project)
            occurrences = truth_python_refs.occurrences(project, wanted_names(defs))
        else:
            required, acceptable = truth_script.imports(root)
            scripts = truth_script.ScriptProject(root)
            defs = truth_script.definitions(scripts)
            occurrences = truth_script.occurrences(scripts, wanted_names(defs))
        refs = references(defs, occurrences, index, sizes)
        imports, importers, notes = Score(), Score(), []
        if not refs_only:
            imports, importers, notes = compare_edges(index, required, acceptable, sizes)
        ref_score, ref_rows, ref_notes = refs
    report = {
        "tree": str(root),
        "language": language,
        "files": len(required),
        "imports": imports.row(),
        "importers": importers.row(),
        "references": ref_score.row(),
        "targets": ref_rows,
        "tokens (chars/4)": summarize(sizes),
    }
    _print(report, notes, ref_notes, examples)
    return report


def _print(report: dict[str, Any], notes: list[str], ref_notes: list[str], examples: int) -> None:
    print(f"== {report['tree']} ({report['language']}, {report['files']} files)")
    for key in ("imports", "importers", "references"):
        print(f"  {key:11} {report[key]}")
    for row in report["targets"]:
        if row["precision"] < 1 or row["recall"] < 1:
            print(f"    {row}")
    print(f"  tokens (chars/4): {report['tokens (chars/4)']}")
    for line in _some(notes, examples) + _some(ref_notes, examples):
        print(f"    {line}")


def _some(lines: Iterable[str], n: int) -> list[str]:
    lines = list(lines)
    rng = random.Random(SEED)
    return sorted(rng.sample(lines, min(n, len(lines))))


def run_marked(languages: list[str], floor: float | None) -> int:
    """Usages recall and precision per language on the hand-marked fixtures."""
    request = {} if floor is None else {"min_confidence": floor}
    for language in languages:
        root = truth_marked.FIXTURES / language
        with tempfile.TemporaryDirectory(prefix="graph-truth-") as tmp:
            tally = truth_marked.score(build(root, Path(tmp)), root, **request)
        print(f"== {language:7} {tally.row()}")
        for note in tally.notes:
            print(f"    {note}")
    return 0


def run_deps(languages: list[str]) -> int:
    """File dependencies (imports and importers) per language on the marked fixtures."""
    for language in languages:
        root = truth_deps.TREES[language]
        with tempfile.TemporaryDirectory(prefix="graph-truth-") as tmp:
            tally = truth_deps.score(build(root, Path(tmp)), root)
        print(f"== {language:9} {tally.row()}")
        for note in tally.notes:
            print(f"    {note}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", type=Path, action="append", default=[], help="a Python tree")
    parser.add_argument("--script", type=Path, action="append", default=[], help="a JS/TS tree")
    parser.add_argument("--examples", type=int, default=15, help="misses and extras to print")
    parser.add_argument("--json", type=Path, help="write the figures here")
    parser.add_argument("--refs-only", action="store_true", help="skip imports/importers")
    parser.add_argument(
        "--marked",
        nargs="*",
        metavar="LANGUAGE",
        help="the hand-marked fixtures (tests/fixtures/usages_truth; all when none named)",
    )
    parser.add_argument("--min-confidence", type=float, help="with --marked: the usages floor")
    parser.add_argument(
        "--deps",
        nargs="*",
        metavar="LANGUAGE",
        help="file dependencies on the marked fixtures (truth_deps.TREES; all when none named)",
    )
    args = parser.parse_args(argv)
    if args.deps is not None:
        return run_deps(args.deps or list(truth_deps.TREES))
    if args.marked is not None:
        return run_marked(args.marked or list(truth_marked.LANGUAGES), args.min_confidence)
    reports = [run_tree(p.resolve(), "python", args.examples, args.refs_only) for p in args.python]
    reports += [run_tree(p.resolve(), "script", args.examples, args.refs_only) for p in args.script]
    if args.json:
        args.json.write_text(json.dumps(reports, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
