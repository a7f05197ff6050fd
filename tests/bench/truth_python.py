"""Python ground truth for graph_truth.py, from the stdlib ``ast`` alone (never symfuse).

Modules are named the way the interpreter would find them: a file's module name runs
from the first folder above it that is not a package (no ``__init__.py``), so
``django/db/models/base.py`` is ``django.db.models.base`` and Django's
``tests/admin_views/models.py`` is ``admin_views.models`` (its tests run with
``tests/`` on ``sys.path``). When two files share a module name, an import prefers
the one under the importer's own source folder.

Imports of a file (:func:`imports`), per import statement, wherever it stands (inside
functions and ``if TYPE_CHECKING:`` too):

- ``import a.b.c`` names the file of ``a.b.c`` (the deepest prefix that is a workspace
  module); ``from X import n`` names ``X.n`` when that is a module, else ``X``'s file
  (``__init__.py`` for a package); relative imports are resolved against the package.
- *required* edges are those named files; *acceptable* edges add the files that really
  define an imported name (re-exports followed through ``from Y import n`` and
  ``from Y import *``) and the ancestor packages an import executes. Recall is measured
  against required edges, precision against acceptable ones.
- ``importlib.import_module("x")`` and ``__import__`` are not imports here.

References of a definition (:class:`References`): every ``Name`` (load), ``Attribute``
and ``from ... import`` name whose text is the definition's name, classified
yes / no / unknown:

- a bare name is looked up through the scopes Python uses (function locals, which
  are parameters, assignments, imports, nested defs, ``for``/``with``/``except``
  targets, minus ``global``/``nonlocal``; enclosing functions; the class body only
  for code directly in it; the module; builtins) and is *yes* when that binding is
  the definition or an import of it (re-exports followed);
- ``x.n`` is *yes* or *no* when ``x`` resolves to a module (the name looked up in
  its namespace or as a submodule), a class (its own and inherited members, bases
  resolved in the workspace), ``self``/``cls`` inside a method (the class and its
  bases) or ``super()``; otherwise (an object of unknown type) it is *unknown* and
  counted on neither side;
- names inside string annotations (``"Foo"``) count, at the string's line;
- keyword argument names, parameter names, comments, docstrings and other strings
  are not references. Assignment aliases (``Foo2 = Foo``) are not followed.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

SKIP_DIRS = frozenset({".git", "node_modules", "__pycache__", ".tox", ".venv", "build", "dist"})


@dataclass
class Module:
    name: str
    path: str  # relative to the tree, POSIX
    src_root: str  # the first folder above that is not a package
    is_package: bool
    tree: ast.Module
    bindings: dict[str, list[tuple[str, object]]] = field(default_factory=dict)
    stars: list[str] = field(default_factory=list)


def py_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*.py")):
        if not SKIP_DIRS.intersection(path.relative_to(root).parts):
            yield path


def load_modules(root: Path) -> dict[str, list[Module]]:
    """Module name -> the files so named (parsed)."""
    found: dict[str, list[Module]] = defaultdict(list)
    for path in py_files(root):
        try:
            tree = ast.parse(path.read_bytes(), filename=str(path))
        except (SyntaxError, ValueError):
            continue
        folder = path.parent
        parts = [] if path.name == "__init__.py" else [path.stem]
        while (folder / "__init__.py").exists() and folder != root.parent:
            parts.insert(0, folder.name)
            folder = folder.parent
        rel = path.relative_to(root).as_posix()
        module = Module(
            ".".join(parts),
            rel,
            folder.relative_to(root).as_posix() if folder != root.parent else "",
            path.name == "__init__.py",
            tree,
        )
        _collect_bindings(module)
        found[module.name].append(module)
    return found


def _collect_bindings(module: Module) -> None:
    """Module-level bindings: name -> [(how, what)], through if/try/with blocks."""

    def bind(name: str, how: str, what: object) -> None:
        module.bindings.setdefault(name, []).append((how, what))

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            _bind_statement(module, node, bind, visit)

    visit(module.tree.body)


def _bind_statement(module: Module, node: ast.stmt, bind, visit) -> None:  # type: ignore[no-untyped-def]
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        bind(node.name, "def", (module.path, node.name))
    elif isinstance(node, ast.ImportFrom):
        base = absolute_base(module, node)
        for alias in node.names:
            if alias.name == "*":
                module.stars.append(base)
            else:
                bind(alias.asname or alias.name, "from", (base, alias.name))
    elif isinstance(node, ast.Import):
        for alias in node.names:
            if alias.asname:
                bind(alias.asname, "module", alias.name)
            else:
                bind(alias.name.split(".")[0], "module", alias.name.split(".")[0])
    elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for name in ast.walk(target):
                if isinstance(name, ast.Name):
                    bind(name.id, "var", (module.path, name.id))
    for block in ("body", "orelse", "finalbody"):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            visit(getattr(node, block, []) or [])
    for handler in getattr(node, "handlers", []) or []:
        visit(handler.body)


def absolute_base(module: Module, node: ast.ImportFrom) -> str:
    """The absolute module an ``ImportFrom`` reads from."""
    if not node.level:
        return node.module or ""
    package = module.name if module.is_package else module.name.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}".strip(".") if node.module else package


class Project:
    """The parsed modules of a tree and the lookups imports and references need."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.modules = load_modules(root)
        self.by_path = {m.path: m for ms in self.modules.values() for m in ms}

    def module(self, name: str, near: Module | None) -> Module | None:
        """The module ``name``, preferring the one in ``near``'s source folder."""
        found = self.modules.get(name, [])
        if len(found) == 1:
            return found[0]
        if near is not None:
            mine = [m for m in found if m.src_root == near.src_root]
            if len(mine) == 1:
                return mine[0]
        return None

    def deepest(self, dotted: str, near: Module) -> Module | None:
        parts = dotted.split(".")
        while parts:
            found = self.module(".".join(parts), near)
            if found is not None:
                return found
            parts.pop()
        return None

    # -- namespaces -------------------------------------------------------------------

    def export(
        self,
        module: Module,
        name: str,
        seen: frozenset[str] = frozenset(),
        passed: set[str] | None = None,
    ) -> set:  # type: ignore[type-arg]
        """What ``module.name`` is: {("def", key)} / {("mod", path)} / {("var", key)};
        ``passed`` collects the modules a re-export chain runs through."""
        if module.path in seen:
            return set()
        seen = seen | {module.path}
        if passed is not None:
            passed.add(module.path)
        values: set = set()  # type: ignore[type-arg]
        for how, what in module.bindings.get(name, []):
            values |= self.binding(module, how, what, seen, passed)
        if not values:
            sub = self.module(f"{module.name}.{name}", module) if module.is_package else None
            if sub is not None:
                values.add(("mod", sub.path))
        if not values:
            for star in module.stars:
                source = self.module(star, module)
                if source is not None:
                    values |= self.export(source, name, seen, passed)
        return values

    def binding(
        self, module: Module, how: str, what, seen: frozenset[str], passed: set[str] | None = None
    ) -> set:  # type: ignore[no-untyped-def,type-arg]
        if how in ("def", "var"):
            return {(how, what)}
        if how == "module":
            found = self.module(what, module)
            return {("mod", found.path)} if found is not None else {("ext", what)}
        base, name = what
        source = self.module(base, module)
        if source is None:
            return {("ext", f"{base}.{name}")}
        return self.export(source, name, seen, passed) or {("ext", f"{base}.{name}")}

    def defining_files(self, module: Module, node: ast.ImportFrom) -> set[str]:
        """The files that define the names ``node`` imports (re-exports followed)."""
        source = self.module(absolute_base(module, node), module)
        files: set[str] = set()
        if source is None:
            return files
        for alias in node.names:
            passed: set[str] = set()
            for how, what in (
                self.export(source, alias.name, passed=passed) if alias.name != "*" else ()
            ):
                files.add(what if how == "mod" else what[0] if how in ("def", "var") else "")
            files |= passed
        files.discard("")
        return files


def imports(project: Project) -> tuple[dict[str, dict[str, set[int]]], dict[str, set[str]]]:
    """(required edges: file -> target -> lines, acceptable targets: file -> targets)."""
    required: dict[str, dict[str, set[int]]] = {}
    acceptable: dict[str, set[str]] = {}
    for path, module in sorted(project.by_path.items()):
        named: dict[str, set[int]] = defaultdict(set)
        extra: set[str] = set()
        for node in ast.walk(module.tree):
            for target, also in _named(project, module, node):
                named[target.path].add(node.lineno)
                extra |= also
        named.pop(path, None)
        required[path] = dict(named)
        acceptable[path] = (set(named) | extra) - {path}
    return required, acceptable


def _named(project: Project, module: Module, node: ast.AST) -> Iterator[tuple[Module, set[str]]]:
    if isinstance(node, ast.Import):
        for alias in node.names:
            target = project.deepest(alias.name, module)
            if target is not None:
                yield target, _ancestors(project, target)
    elif isinstance(node, ast.ImportFrom):
        base = absolute_base(module, node)
        source = project.module(base, module)
        also = project.defining_files(module, node)
        for alias in node.names:
            sub = project.module(f"{base}.{alias.name}", module) if alias.name != "*" else None
            if sub is not None:
                yield sub, also | _ancestors(project, sub)
            elif source is not None:
                yield source, also | _ancestors(project, source)
            elif base and not node.level:
                deeper = project.deepest(base, module)
                if deeper is not None:
                    yield deeper, also


def _ancestors(project: Project, module: Module) -> set[str]:
    parts = module.name.split(".")[:-1]
    found = set()
    while parts:
        package = project.module(".".join(parts), module)
        if package is not None:
            found.add(package.path)
        parts.pop()
    return found
