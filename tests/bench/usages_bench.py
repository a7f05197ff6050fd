"""`usages` recall and precision against a grep-and-check count of true call sites.

Run it from the repository root with the project's interpreter::

    python tests/bench/usages_bench.py                  # click and Django sdists
    python tests/bench/usages_bench.py --tree DIR --target pkg.mod.func ...

For each target function (its qualified name where it is defined) the script
counts the true call sites in the tree by itself, then asks the installed
``symfuse usages --symbol-id ... --kinds call`` (a fresh ``--index-dir``) and
compares the two sets of (file, line):

- grep: every line with ``name(`` on it, in every ``.py`` file;
- check: the line is kept when Python's ``ast`` shows a call there whose callee
  names the target: ``name(...)``, ``alias(...)`` or ``mod.name(...)`` where the
  file's imports (absolute or relative, ``import a.b as m``, ``from a import
  name as alias``) bind the written head to the target's module or to a package
  that re-exports it (``click`` re-exports ``click.utils.echo``), or, in the
  defining module, the bare name; and no function, class, parameter or
  assignment in an enclosing scope of the call rebinds the name.

Recall is the share of checked call sites that ``usages`` lists; precision the
share of listed call sites that the check keeps. The sdists are fetched with
``pip download --no-binary :all:`` into tests/bench/.corpus/usages/ (git-ignored);
Django's is taken from tests/bench/.corpus/search/ when present.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

CORPUS = Path(__file__).parent / ".corpus"

# sdist -> (the folder its modules are named from, the targets as defined)
TARGETS: dict[str, tuple[str, tuple[str, ...]]] = {
    "click": (
        "src",
        ("click.utils.echo", "click.termui.secho", "click.termui.style", "click.utils.open_file"),
    ),
    "django": (
        ".",
        (
            "django.urls.base.reverse",
            "django.utils.safestring.mark_safe",
            "django.utils.html.format_html",
            "django.shortcuts.get_object_or_404",
        ),
    ),
}


@dataclass(frozen=True, slots=True)
class Site:
    file: str  # relative to the tree
    line: int


def module_of(rel: Path, source_root: str) -> str:
    """``src/click/utils.py`` -> ``click.utils`` under source root ``src``."""
    parts = list(rel.with_suffix("").parts)
    if source_root != "." and parts and parts[0] == source_root:
        parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


class _Binder(ast.NodeVisitor):
    """Import bindings of one file, wherever they stand: local name -> dotted name."""

    def __init__(self, module: str, is_package: bool) -> None:
        self.names: dict[str, str] = {}
        self.package = module if is_package else module.rpartition(".")[0]

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            if alias.asname:
                self.names[alias.asname] = alias.name
            else:
                head = alias.name.split(".")[0]
                self.names[head] = head

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        base = node.module or ""
        if node.level:
            package = self.package.split(".") if self.package else []
            package = package[: len(package) - (node.level - 1)] if node.level > 1 else package
            base = ".".join([*package, base] if base else package)
        for alias in node.names:
            self.names[alias.asname or alias.name] = f"{base}.{alias.name}"


def _rebinds(scope: ast.AST, name: str) -> bool:
    """Whether a function or class body (not its nested scopes) binds ``name``."""
    if isinstance(scope, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        args = scope.args
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        if any(a is not None and a.arg == name for a in every):
            return True
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if node.name == name:
                return True
            continue  # its body is another scope
        if isinstance(node, ast.Lambda):
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            return True
        stack.extend(ast.iter_child_nodes(node))
    return False


def _calls(tree: ast.Module) -> Iterator[tuple[ast.Call, list[ast.AST]]]:
    """Every call with the function and class scopes around it, innermost last."""
    stack: list[tuple[ast.AST, list[ast.AST]]] = [(tree, [])]
    while stack:
        node, scopes = stack.pop()
        inner = scopes
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            inner = [*scopes, node]
        if isinstance(node, ast.Call):
            yield node, scopes
        stack.extend((child, inner) for child in ast.iter_child_nodes(node))


def _dotted(node: ast.expr) -> list[str] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


def true_sites(tree_dir: Path, source_root: str, target: str) -> set[Site]:
    """The checked call sites of ``target`` in the tree (see the module docstring)."""
    module, _, name = target.rpartition(".")
    # what a call may write for the target: the defining module and the packages above
    # it that re-export the name (checked by reading their __init__.py)
    spellings = {target}
    packages = module.split(".")
    for cut in range(1, len(packages)):
        init = tree_dir / source_root / Path(*packages[:cut]) / "__init__.py"
        if init.is_file() and _reexports(init, name):
            spellings.add(".".join([*packages[:cut], name]))
    found: set[Site] = set()
    for path in sorted(tree_dir.rglob("*.py")):
        rel = path.relative_to(tree_dir)
        text = path.read_text(encoding="utf-8", errors="replace")
        if f"{name}(" not in text and f"{name} (" not in text and "as " not in text:
            continue
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        own = module_of(rel, source_root)
        binder = _Binder(own, path.name == "__init__.py")
        for node in ast.walk(tree):  # imports inside functions too (`from x import f`)
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                binder.visit(node)
        bound = dict(binder.names)
        if own == module:
            bound.setdefault(name, target)
        for call, scopes in _calls(tree):
            parts = _dotted(call.func)
            if parts is None or parts[0] not in bound:
                continue
            if any(_rebinds(scope, parts[0]) for scope in scopes):
                continue
            written = ".".join([bound[parts[0]], *parts[1:]])
            if written in spellings:
                found.add(Site(rel.as_posix(), call.lineno))
    return found


def _reexports(init: Path, name: str) -> bool:
    tree = ast.parse(init.read_text(encoding="utf-8"))
    return any(
        isinstance(node, ast.ImportFrom) and any((a.asname or a.name) == name for a in node.names)
        for node in tree.body
    )


def symfuse_sites(tree_dir: Path, index_dir: Path, target: str, source_root: str) -> set[Site]:
    """The call sites ``symfuse usages`` lists for the definition named ``target``."""
    module, _, name = target.rpartition(".")
    prefix = "" if source_root == "." else f"{source_root}/"
    file = prefix + module.replace(".", "/") + ".py"
    if not (tree_dir / file).is_file():
        file = prefix + module.replace(".", "/") + "/__init__.py"
    symbol_id = f"{file}::{name}#function"
    out = subprocess.run(
        [
            *_symfuse(),
            "usages",
            "--root",
            str(tree_dir),
            "--index-dir",
            str(index_dir),
            "--symbol-id",
            symbol_id,
            "--kinds",
            "call",
            "--limit",
            "10000",
            "-f",
            "json",
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    answer = json.loads(out.stdout)
    return {Site(u["file"], u["line"]) for u in answer["usages"]}


def _symfuse() -> list[str]:
    return [str(Path(sys.executable).with_name("symfuse"))]


def _sdist(name: str) -> Path:
    """The unpacked sdist of a package, fetched once."""
    if name == "django":
        for found in sorted((CORPUS / "search").glob("django-*")):
            if found.is_dir():
                return found
    home = CORPUS / "usages"
    for found in sorted(home.glob(f"{name}-*")):
        if found.is_dir():
            return found
    home.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", name, "--no-deps", "--no-binary", ":all:"],
        cwd=home,
        check=True,
        capture_output=True,
    )
    archive = next(iter(sorted(home.glob(f"{name}-*.tar.gz"))))
    with tarfile.open(archive) as tar:
        tar.extractall(home, filter="data")
    return next(p for p in sorted(home.glob(f"{name}-*")) if p.is_dir())


def measure(tree_dir: Path, source_root: str, targets: tuple[str, ...]) -> tuple[int, int, int]:
    """Rows per target and the totals: (true sites, listed, listed and true)."""
    totals = [0, 0, 0]
    with tempfile.TemporaryDirectory() as index_dir:
        subprocess.run(
            [*_symfuse(), "index", str(tree_dir), "--index-dir", index_dir, "--no-progress"],
            check=True,
            capture_output=True,
        )
        for target in targets:
            truth = true_sites(tree_dir, source_root, target)
            listed = symfuse_sites(tree_dir, Path(index_dir), target, source_root)
            hits = len(truth & listed)
            _row(target, len(truth), len(listed), hits)
            for missed in sorted(truth - listed, key=lambda s: (s.file, s.line))[:3]:
                print(f"    missed  {missed.file}:{missed.line}")
            for wrong in sorted(listed - truth, key=lambda s: (s.file, s.line))[:3]:
                print(f"    extra   {wrong.file}:{wrong.line}")
            totals = [totals[0] + len(truth), totals[1] + len(listed), totals[2] + hits]
    return totals[0], totals[1], totals[2]


def _row(label: str, truth: int, listed: int, hits: int) -> None:
    recall = hits / truth if truth else 1.0
    precision = hits / listed if listed else 1.0
    print(
        f"{label:45} true {truth:5}  listed {listed:5}"
        f"  recall {recall:.3f}  precision {precision:.3f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tree", type=Path, help="a tree to measure instead of the sdists")
    parser.add_argument("--source-root", default=".", help="with --tree: where modules start")
    parser.add_argument("--target", action="append", default=[], help="with --tree: pkg.mod.f")
    args = parser.parse_args()
    if args.tree is not None:
        runs = [(args.tree, args.source_root, tuple(args.target))]
    else:
        runs = [(_sdist(name), root, targets) for name, (root, targets) in TARGETS.items()]
    for tree_dir, source_root, targets in runs:
        print(f"== {tree_dir.name}")
        truth, listed, hits = measure(tree_dir, source_root, targets)
        _row("all", truth, listed, hits)


if __name__ == "__main__":
    main()
