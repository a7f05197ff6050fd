"""sverklo's ``bench:primitives`` answers scored against an independent truth (issue 36).

    SYMFUSE_BENCH_DUMP=answers.jsonl python tests/bench/sverklo_bench.py run SVERKLO ...
    python tests/bench/sverklo_audit.py answers.jsonl SVERKLO [--examples 5]

sverklo's ground truth is made by ``grep``: P2 (references) is every line holding the
name as a word, P4 (file dependencies) the files whose relative imports name the file's
base name, P1 (definitions) hand-written line numbers. This script scores the same tasks,
with the harness's own formulas and tolerances, against the truth graph_truth.py uses,
which never asks symfuse: Python read with the stdlib ``ast`` (truth_python.py,
truth_python_refs.py), JavaScript and TypeScript with the tree-sitter grammars directly
(truth_script.py). Each row is scored twice: symfuse's answer, and sverklo's grep truth
taken as if it were an answer, so a row shows how far the grep truth is from the code.

- P1: an expected line that holds no definition of the name (nor do the three lines
  around it, the harness's tolerance) is stale; the name's definition in that file
  replaces it. First-hit and any-hit rates before and after that correction.
- P2: the definition is the one P1 names for the same query, else the only top-level
  definition of the name; its references are the truth's *yes* occurrences; answers
  on *unknown* occurrences (a receiver of unknown type) count neither way.
- P4: imports and importers from the truth's *required* edges (recall) and
  *acceptable* edges (precision: re-exports followed).
- P5 (dead code) has no independent truth: each reported name is listed with how often
  its name occurs in the tree, for reading.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import truth_python
import truth_python_refs
import truth_script

PYTHON = {"requests", "flask", "fastapi"}
_DEFINES = (  # a definition of the name {0} on a line, in Python, JavaScript or TypeScript
    r"(?:\b(?:def|class|function|interface|type|enum|const|let|var)\s+{0}\b"
    r"|\b{0}\s*[:=]\s*(?:async\s+)?(?:function|\(|class\b)|\bexports\.{0}\s*="
    r"|^\s*{0}\s*(?::[^=]*)?=(?!=))"
)


@dataclass
class Truth:
    """One dataset's independent truth."""

    edges: dict[str, dict[str, set[int]]]
    acceptable: dict[str, set[str]]
    definitions: dict[tuple[str, str], str]
    occurrences: dict[str, list[Any]] = field(default_factory=dict)


def dataset_roots(sverklo: Path) -> dict[str, Path]:
    manifest = json.loads((sverklo / "benchmark/src/datasets/manifest.json").read_text())
    return {d["name"]: sverklo / d.get("checkoutDir", ".") for d in manifest["datasets"]}


def load_truth(name: str, root: Path, wanted: set[str]) -> Truth:
    if name in PYTHON:
        project = truth_python.Project(root)
        edges, acceptable = truth_python.imports(project)
        defs = truth_python_refs.definitions(project)
        found = truth_python_refs.occurrences(project, wanted)
    else:
        # the sverklo dataset is sverklo's own tree, which holds the other datasets'
        # checkouts under benchmark/.cache: not its code
        truth_script.SKIP_DIRS = truth_script.SKIP_DIRS | {".cache"}
        edges, acceptable = truth_script.imports(root)
        scripts = truth_script.ScriptProject(root)
        defs = truth_script.definitions(scripts)
        found = truth_script.occurrences(scripts, wanted)
    by_name: dict[str, list[Any]] = defaultdict(list)
    for occurrence in found:
        by_name[occurrence.name].append(occurrence)
    return Truth(edges, acceptable, defs, dict(by_name))


def norm(path: str) -> str:
    """The harness's path normalisation (score.ts normPath)."""
    path = re.sub(r"^\./", "", path).lstrip("/").replace("\\", "/")
    return re.sub(r"\.(ts|tsx|js|jsx|mjs|cjs)$", "", path)


def f1(recall: float, precision: float) -> float:
    return 0.0 if recall + precision == 0 else 2 * recall * precision / (recall + precision)


def set_score(got: set[str], want: set[str], ok: set[str]) -> tuple[float, float]:
    """score.ts setScore, with precision against the acceptable set (``want`` and ``ok``)."""
    ok = ok | want
    if not want and not got:
        return 1.0, 1.0
    if not want:
        return 1.0, 0.0 if got - ok else 1.0
    if not got:
        return 0.0, 0.0
    return len(got & want) / len(want), len(got & ok) / len(got)


# -- P1 --------------------------------------------------------------------------------


def defines(root: Path, location: dict[str, Any], name: str, tolerance: int = 3) -> bool:
    lines = _lines(root / location["file"])
    pattern = re.compile(_DEFINES.format(re.escape(name)))
    start = max(0, location["line"] - 1 - tolerance)
    return any(pattern.search(text) for text in lines[start : location["line"] + tolerance])


def definition_lines(root: Path, file: str, name: str) -> list[int]:
    pattern = re.compile(_DEFINES.format(re.escape(name)))
    return [n for n, text in enumerate(_lines(root / file), 1) if pattern.search(text)]


def _lines(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []


def _hit(found: dict[str, Any], want: Iterable[dict[str, Any]], tolerance: int) -> bool:
    return any(
        norm(found["file"]) == norm(w["file"]) and abs(found["line"] - w["line"]) <= tolerance
        for w in want
    )


def audit_p1(row: dict[str, Any], root: Path, notes: list[str]) -> tuple[int, int, int, int]:
    """(first hit, any hit) against the grep truth, then against the corrected truth."""
    task, got = row["task"], row["prediction"]["locations"]
    want = list(task["expected"]["locations"])
    fixed = []
    for location in want:
        if defines(root, location, task["query"]):
            fixed.append(location)
            continue
        real = definition_lines(root, location["file"], task["query"])
        fixed += [{"file": location["file"], "line": line} for line in real]
        notes.append(
            f"P1 {task['id']} {task['query']}: {location['file']}:{location['line']} holds no "
            f"definition of it; the file defines it at {real or 'no line'}"
        )
    first = bool(got) and _hit(got[0], want, 3)
    first_fixed = bool(got) and _hit(got[0], fixed, 3)
    return (
        int(first),
        int(any(_hit(g, want, 3) for g in got)),
        int(first_fixed),
        int(any(_hit(g, fixed, 3) for g in got)),
    )


# -- P2 --------------------------------------------------------------------------------

Place = tuple[str, int]


def target_of(name: str, p1: list[dict[str, Any]], truth: Truth) -> tuple[str, str] | None:
    """The definition a P2 task asks about: the one P1 names, else the only top-level one."""
    keys = sorted(
        (k for k in truth.definitions if k[1].rsplit(".", 1)[-1] == name),
        key=lambda k: ("." in k[1], k),
    )
    files = {norm(location["file"]) for location in p1}
    named = [k for k in keys if norm(k[0]) in files]
    if named:
        return named[0]
    top = [k for k in keys if "." not in k[1]]
    return top[0] if len(top) == 1 else None


def references_of(target: tuple[str, str], truth: Truth) -> tuple[set[Place], set[Place]]:
    """(yes, unknown) places of the target's name, as graph_truth.py judges them."""
    value = ("def", target)
    yes: set[Place] = set()
    unknown: set[Place] = set()
    for occurrence in truth.occurrences.get(target[1].rsplit(".", 1)[-1], []):
        place = (norm(occurrence.path), occurrence.line)
        if occurrence.values is None:
            unknown.add(place)
        elif value in occurrence.values:
            yes.add(place)
    return yes, unknown


def place_score(
    got: list[dict[str, Any]], yes: set[Place], unknown: set[Place], tolerance: int = 2
) -> tuple[float, float]:
    """score.ts for P2 (any predicted place within two lines), unknown places left out."""
    places = {(norm(g["file"]), int(g["line"])) for g in got}
    judged = places - unknown

    def near(a: Place, b: Place) -> bool:
        return a[0] == b[0] and abs(a[1] - b[1]) <= tolerance

    matched = sum(1 for y in yes if any(near(p, y) for p in places))
    right = sum(1 for p in judged if any(near(p, y) for y in yes))
    recall = matched / len(yes) if yes else 1.0
    precision = right / len(judged) if judged else 0.0
    return recall, precision


# -- P4 --------------------------------------------------------------------------------


def deps_score(answer: dict[str, Any], file: str, truth: Truth) -> tuple[float, float] | None:
    key = next((k for k in truth.edges if norm(k) == norm(file)), None)
    if key is None:
        return None
    want = {norm(t) for t in truth.edges[key]}
    ok = want | {norm(t) for t in truth.acceptable.get(key, set())}
    want_in = {norm(s) for s, targets in truth.edges.items() if key in targets}
    ok_in = want_in | {norm(s) for s, targets in truth.acceptable.items() if key in targets}
    r1, p1 = set_score({norm(x) for x in answer["imports"]}, want, ok)
    r2, p2 = set_score({norm(x) for x in answer["importers"]}, want_in, ok_in)
    return (r1 + r2) / 2, (p1 + p2) / 2


# -- driver ----------------------------------------------------------------------------


@dataclass
class Tally:
    """Mean F1 of symfuse and of the grep truth, each against the independent truth, and
    symfuse against the grep truth (the harness's own figure), over the scored tasks."""

    harness: list[float] = field(default_factory=list)
    symfuse: list[float] = field(default_factory=list)
    grep: list[float] = field(default_factory=list)
    skipped: int = 0

    def row(self, name: str) -> str:
        def mean(values: list[float]) -> str:
            return f"{sum(values) / len(values):.3f}" if values else "-"

        return (
            f"| {name} | {len(self.symfuse)} | {mean(self.harness)} | {mean(self.symfuse)}"
            f" | {mean(self.grep)} | {self.skipped} |"
        )


def harness_f1(row: dict[str, Any]) -> float:
    """symfuse's F1 against sverklo's own truth, by score.ts's formulas."""
    task, got = row["task"], row["prediction"]
    expected = task["expected"]
    if task["category"] == "P2":
        want = {(norm(w["file"]), int(w["line"])) for w in expected["locations"]}
        return f1(*place_score(got["locations"], want, set()))
    if task["category"] == "P4":
        r1, p1 = set_score(
            {norm(x) for x in got["imports"]}, {norm(x) for x in expected["imports"]}, set()
        )
        r2, p2 = set_score(
            {norm(x) for x in got["importers"]}, {norm(x) for x in expected["importers"]}, set()
        )
        return f1((r1 + r2) / 2, (p1 + p2) / 2)
    return 0.0


def audit(rows: list[dict[str, Any]], sverklo: Path, examples: int) -> None:
    roots = dataset_roots(sverklo)
    p1_of = {
        (r["task"]["dataset"], r["task"]["query"]): r["task"]["expected"]["locations"]
        for r in rows
        if r["task"]["category"] == "P1"
    }
    tallies = {c: Tally() for c in ("P2", "P4")}
    first = Counter[str]()
    notes: list[str] = []
    for dataset in sorted({r["task"]["dataset"] for r in rows}):
        mine = [r for r in rows if r["task"]["dataset"] == dataset]
        wanted = {r["task"]["query"] for r in mine if r["task"]["category"] == "P2"}
        truth = load_truth(dataset, roots[dataset], wanted)
        for row in mine:
            task = row["task"]
            if task["category"] == "P1":
                scores = audit_p1(row, roots[dataset], notes)
                kinds = ("first", "any", "first fixed", "any fixed")
                first.update(dict(zip(kinds, scores, strict=True)))
                first["n"] += 1
            elif task["category"] in tallies:
                _score_row(row, truth, p1_of.get((dataset, task["query"]), []), tallies, notes)
    _report(first, tallies, notes, examples)
    _dead_code(rows, roots)


def _score_row(
    row: dict[str, Any],
    truth: Truth,
    p1: list[dict[str, Any]],
    tallies: dict[str, Tally],
    notes: list[str],
) -> None:
    task, got = row["task"], row["prediction"]
    tally = tallies[task["category"]]
    if task["category"] == "P2":
        target = target_of(task["query"], p1, truth)
        if target is None:
            tally.skipped += 1
            notes.append(f"P2 {task['id']} {task['query']}: no single definition in the truth")
            return
        yes, unknown = references_of(target, truth)
        ours = place_score(got["locations"], yes, unknown)
        grep = place_score(task["expected"]["locations"], yes, unknown)
        notes.append(
            f"P2 {task['id']} {target[0]}::{target[1]}: {len(yes)} references "
            f"({len(unknown)} unknown); symfuse recall/precision {ours[0]:.2f}/{ours[1]:.2f}, "
            f"grep truth {grep[0]:.2f}/{grep[1]:.2f}"
        )
    else:
        scored = deps_score(got, task["query"], truth)
        grep_scored = deps_score(task["expected"], task["query"], truth)
        if scored is None or grep_scored is None:
            tally.skipped += 1
            return
        ours, grep = scored, grep_scored
        notes.append(
            f"P4 {task['id']} {task['query']}: symfuse recall/precision "
            f"{ours[0]:.2f}/{ours[1]:.2f}, grep truth {grep[0]:.2f}/{grep[1]:.2f}"
        )
    tally.harness.append(harness_f1(row))
    tally.symfuse.append(f1(*ours))
    tally.grep.append(f1(*grep))


def _report(
    first: Counter[str], tallies: dict[str, Tally], notes: list[str], examples: int
) -> None:
    n = first["n"] or 1
    print("P1 (definitions), first hit / any hit:")
    print(f"  against sverklo's lines: {first['first'] / n:.3f} / {first['any'] / n:.3f}")
    print(
        f"  stale lines replaced by the file's definition: {first['first fixed'] / n:.3f}"
        f" / {first['any fixed'] / n:.3f}  (n={first['n']})"
    )
    print()
    print(
        "| task | scored | symfuse vs grep truth | symfuse vs independent truth"
        " | grep truth vs independent truth | no independent truth |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, tally in tallies.items():
        print(tally.row(name))
    print()
    for category in ("P1", "P2", "P4"):
        chosen = [line for line in notes if line.startswith(category)]
        for line in chosen[: examples if examples >= 0 else None]:
            print(line)


def _dead_code(rows: list[dict[str, Any]], roots: dict[str, Path]) -> None:
    """Each name reported dead, with the lines of the tree that hold the name as a word;
    then P5 scored against a grep-checked truth: a name is dead when ``git grep -w``
    finds it on one line of the tree (its definition), whoever names it (sverklo's truth
    or symfuse's answer)."""
    print()
    print("P5 (dead code) reported names, with the tree's lines holding the name (git grep -w):")
    checked: dict[str, set[str]] = {}
    for row in rows:
        task = row["task"]
        dataset = task["dataset"]
        if task["category"] != "P5" or dataset in checked:
            continue
        expected = set(task["expected"]["names"])
        counts = {
            n: _occurrences(roots[dataset], n) for n in expected | set(row["prediction"]["names"])
        }
        checked[dataset] = {n for n, count in counts.items() if count == 1}
        for name in row["prediction"]["names"]:
            mark = "expected" if name in expected else "not expected"
            print(f"  {dataset} {name}: {counts[name]} lines ({mark})")
        for name in sorted(expected - set(row["prediction"]["names"])):
            print(f"  {dataset} {name}: {counts[name]} lines (expected, not reported)")
    scores = []
    for row in rows:
        task = row["task"]
        if task["category"] == "P5":
            got = set(row["prediction"]["names"])
            dead = checked[task["dataset"]]
            scores.append(f1(*set_score(got, dead, set())))
    mean = sum(scores) / len(scores) if scores else 0.0
    print(f"P5 against the grep-checked truth: F1 {mean:.3f} over {len(scores)} tasks")


def _occurrences(root: Path, name: str) -> int:
    import subprocess

    found = subprocess.run(
        ["git", "-C", str(root), "grep", "-w", "-c", name, "--", "*.py", "*.js", "*.ts", "*.mjs"],
        capture_output=True,
        text=True,
        check=False,
    )
    return sum(int(line.rsplit(":", 1)[1]) for line in found.stdout.splitlines() if ":" in line)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("answers", type=Path, help="sverklo_bench.py's SYMFUSE_BENCH_DUMP file")
    parser.add_argument("sverklo", type=Path, help="the sverklo checkout the harness ran in")
    parser.add_argument("--examples", type=int, default=-1, help="notes per task kind (-1: all)")
    args = parser.parse_args(argv)
    rows = [json.loads(line) for line in args.answers.read_text().splitlines() if line.strip()]
    audit(rows, args.sverklo, args.examples)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
