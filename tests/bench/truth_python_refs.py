"""Python references for graph_truth.py: every occurrence of a wanted name, resolved by
Python's scoping rules as far as a careful ``ast`` pass gets (see truth_python.py)."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Any

from truth_python import Module, Project, absolute_base

Value = tuple[str, Any]
Key = tuple[str, str]  # (path, qualified name)


@dataclass(frozen=True)
class Occurrence:
    path: str
    line: int
    name: str
    values: frozenset[Value] | None  # None: unknown (a receiver of unknown type)


@dataclass
class Scope:
    kind: str  # module | class | function
    locals: set[str]
    bindings: dict[str, list[tuple[str, object]]]
    globals: set[str]
    key: Key | None = None  # the class (class scope) or the method's class (function)
    self_name: str | None = None


def definitions(project: Project) -> dict[Key, str]:
    """(path, qualname) -> kind (class, function, method) of top-level defs and methods."""
    found: dict[Key, str] = {}
    for path, module in project.by_path.items():
        for node in module.tree.body:
            if isinstance(node, ast.ClassDef):
                found[(path, node.name)] = "class"
                for item in node.body:
                    if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef):
                        found[(path, f"{node.name}.{item.name}")] = "method"
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                found[(path, node.name)] = "function"
    return found


class Classes:
    """Top-level classes: their members and resolved bases (for ``x.attr`` lookups)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self.nodes: dict[Key, tuple[Module, ast.ClassDef]] = {}
        self._members: dict[Key, dict[str, Value]] = {}
        self._bases: dict[Key, list[Key] | None] = {}
        for path, module in project.by_path.items():
            for node in _module_level(module.tree.body):
                if isinstance(node, ast.ClassDef):
                    self.nodes.setdefault((path, node.name), (module, node))

    def members(self, key: Key) -> dict[str, Value]:
        if key not in self._members:
            self._members[key] = self._own_members(key)
        return self._members[key]

    def _own_members(self, key: Key) -> dict[str, Value]:
        module, node = self.nodes[key]
        found: dict[str, Value] = {}
        for item in node.body:
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                found[item.name] = ("def", (module.path, f"{node.name}.{item.name}"))
            elif isinstance(item, ast.Assign | ast.AnnAssign):
                targets = item.targets if isinstance(item, ast.Assign) else [item.target]
                for t in targets:
                    if isinstance(t, ast.Name):
                        found.setdefault(t.id, ("var", (module.path, f"{node.name}.{t.id}")))
        return found

    def bases(self, key: Key) -> list[Key] | None:
        """The workspace classes ``key`` derives from; None when one is unknown."""
        if key not in self._bases:
            self._bases[key] = self._own_bases(key)
        return self._bases[key]

    def _own_bases(self, key: Key) -> list[Key] | None:
        module, node = self.nodes[key]
        found: list[Key] = []
        for base in node.bases:
            if isinstance(base, ast.Name) and base.id == "object":
                continue
            values = module_value(self.project, module, base)
            keys = [v[1] for v in values or () if v[0] == "def" and v[1] in self.nodes]
            if len(keys) != 1:
                return None
            found.append(keys[0])
        return found

    def lookup(self, key: Key, attr: str, skip_self: bool = False) -> frozenset[Value] | None:
        """``attr`` on class ``key`` through its bases; None when a base is unknown."""
        order, seen = [key], {key}
        at = 0
        while at < len(order):
            current = order[at]
            at += 1
            if not (skip_self and current == key):
                hit = self.members(current).get(attr)
                if hit is not None:
                    return frozenset({hit})
            bases = self.bases(current)
            if bases is None:
                return None
            for b in bases:
                if b not in seen:
                    seen.add(b)
                    order.append(b)
        return None  # defined in a subclass or set on instances: not decided here


def _module_level(body: list[ast.stmt]) -> list[ast.stmt]:
    """Statements at module level, inside if/try/with blocks too."""
    found: list[ast.stmt] = []
    for node in body:
        found.append(node)
        if not isinstance(node, _DEFS):
            for block in ("body", "orelse", "finalbody"):
                found += _module_level(getattr(node, block, []) or [])
            for handler in getattr(node, "handlers", []) or []:
                found += _module_level(handler.body)
    return found


def module_value(project: Project, module: Module, node: ast.expr) -> set[Value] | None:
    """A module-level expression's value: a name or dotted attribute of module bindings."""
    if isinstance(node, ast.Name):
        found: set[Value] = set()
        for how, what in module.bindings.get(node.id, []):
            found |= project.binding(module, how, what, frozenset())
        return found
    if isinstance(node, ast.Attribute):
        base = module_value(project, module, node.value)
        if base is None:
            return None
        return _member_of(project, None, base, node.attr)
    return None


def _member_of(
    project: Project, classes: Classes | None, values: set[Value], attr: str
) -> set[Value] | None:
    found: set[Value] = set()
    for how, what in values:
        if how == "mod":
            found |= project.export(project.by_path[what], attr)
        elif how in ("def", "inst") and classes is not None and what in classes.nodes:
            hit = classes.lookup(what, attr)
            if hit is None:
                return None
            found |= hit
        else:
            return None
    return found


class Collector:
    """Walks one module and records the occurrences of the wanted names."""

    def __init__(self, project: Project, classes: Classes, module: Module, wanted: set[str]):
        self.project, self.classes, self.module, self.wanted = project, classes, module, wanted
        self.found: list[Occurrence] = []
        top = Scope("module", set(module.bindings), module.bindings, set())
        self.stack = [top]

    # -- resolution ---------------------------------------------------------------

    def lookup(self, name: str) -> set[Value]:
        """The bindings a bare name has here; {("local", name)} for a plain local."""
        innermost = self.stack[-1]
        for scope in reversed(self.stack[1:]):
            if scope.kind == "class" and scope is not innermost:
                continue
            if name in scope.globals:
                break
            if name in scope.locals:
                values: set[Value] = set()
                for how, what in scope.bindings.get(name, []):
                    kind, bound = how, what
                    if how == "relfrom":
                        node, imported = what  # type: ignore[misc]
                        kind, bound = "from", (absolute_base(self.module, node), imported)
                    if kind != "local":
                        values |= self.project.binding(self.module, kind, bound, frozenset())
                return values or {("local", name)}
        values = set()
        for how, what in self.module.bindings.get(name, []):
            values |= self.project.binding(self.module, how, what, frozenset())
        if not values:
            for star in self.module.stars:
                source = self.project.module(star, self.module)
                if source is not None:
                    values |= self.project.export(source, name)
        return values

    def value(self, node: ast.expr) -> set[Value] | None:
        if isinstance(node, ast.Name):
            scope = self.stack[-1]
            for s in reversed(self.stack):
                if s.kind == "function":
                    scope = s
                    break
            if scope.self_name == node.id and scope.key is not None:
                return {("inst", scope.key)}
            values = self.lookup(node.id)
            return None if any(v[0] == "local" for v in values) else values
        if isinstance(node, ast.Attribute):
            base = self.value(node.value)
            return None if base is None else _member_of(self.project, self.classes, base, node.attr)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "super"
            and not node.args
        ):
            key = next((s.key for s in reversed(self.stack) if s.kind == "function"), None)
            return {("super", key)} if key is not None else None
        return None

    def record(self, line: int, name: str, values: set[Value] | None) -> None:
        self.found.append(
            Occurrence(self.module.path, line, name, None if values is None else frozenset(values))
        )

    def attribute(self, node: ast.Attribute) -> None:
        if node.attr not in self.wanted:
            return
        base = self.value(node.value)
        if base and all(v[0] == "super" for v in base):
            key = next(iter(base))[1]
            hit = self.classes.lookup(key, node.attr, skip_self=True)
            self.record(
                node.end_lineno or node.lineno, node.attr, None if hit is None else set(hit)
            )
            return
        members = None if base is None else _member_of(self.project, self.classes, base, node.attr)
        self.record(node.end_lineno or node.lineno, node.attr, members)

    def import_from(self, node: ast.ImportFrom) -> None:
        base = absolute_base(self.module, node)
        source = self.project.module(base, self.module)
        for alias in node.names:
            if alias.name in self.wanted:
                values = self.project.export(source, alias.name) if source is not None else set()
                self.record(alias.lineno, alias.name, values)

    # -- the walk -------------------------------------------------------------------

    def visit(self, node: ast.AST) -> None:
        handler = getattr(self, "v_" + type(node).__name__, None)
        if handler is not None:
            handler(node)
        else:
            self.children(node)

    def children(self, node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            self.visit(child)

    def v_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load) and node.id in self.wanted:
            values = self.lookup(node.id)
            local = any(v[0] == "local" for v in values)
            self.record(node.lineno, node.id, set() if local else values)

    def v_Attribute(self, node: ast.Attribute) -> None:
        self.attribute(node)
        self.visit(node.value)

    def v_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.import_from(node)

    def annotation(self, node: ast.expr | None) -> None:
        """An annotation, and the names inside its strings (``"Foo"``, ``Optional["Foo"]``)."""
        if node is None:
            return
        self.visit(node)
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                try:
                    parsed = ast.parse(sub.value.strip(), mode="eval")
                except SyntaxError:
                    continue
                for inner in ast.walk(parsed):
                    inner.lineno = inner.end_lineno = sub.lineno  # type: ignore[attr-defined]
                self.visit(parsed.body)

    def v_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.visit(node.target)
        self.annotation(node.annotation)
        if node.value is not None:
            self.visit(node.value)

    def v_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for d in node.decorator_list:
            self.visit(d)
        args = node.args
        for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
            self.visit(default)
        every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        for a in every:
            if a is not None:
                self.annotation(a.annotation)
        self.annotation(node.returns)
        parent = self.stack[-1]
        static = any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in node.decorator_list
        )
        first = [*args.posonlyargs, *args.args][:1]
        scope = function_scope(node)
        if parent.kind == "class" and parent.key is not None:
            scope.key = parent.key
            scope.self_name = first[0].arg if first and not static else None
        self.stack.append(scope)
        for stmt in node.body:
            self.visit(stmt)
        self.stack.pop()

    v_AsyncFunctionDef = v_FunctionDef

    def v_Lambda(self, node: ast.Lambda) -> None:
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]:
            self.visit(default)
        self.stack.append(function_scope(node))
        self.visit(node.body)
        self.stack.pop()

    def v_ClassDef(self, node: ast.ClassDef) -> None:
        for expr in [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]:
            self.visit(expr)
        top = len(self.stack) == 1
        key = (self.module.path, node.name) if top else None
        key = key if key in self.classes.nodes else None
        bindings: dict[str, list[tuple[str, object]]] = {}
        for item in node.body:
            for name in _bound_names(item):
                how = "def" if top and isinstance(item, _DEFS) else "local"
                bindings.setdefault(name, []).append(
                    (how, (self.module.path, f"{node.name}.{name}"))
                )
        self.stack.append(Scope("class", set(bindings), bindings, set(), key))
        for stmt in node.body:
            self.visit(stmt)
        self.stack.pop()

    def comprehension(
        self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp
    ) -> None:
        names = {
            n.id for g in node.generators for n in ast.walk(g.target) if isinstance(n, ast.Name)
        }
        self.stack.append(Scope("comp", names, {n: [("local", None)] for n in names}, set()))
        self.children(node)
        self.stack.pop()

    v_ListComp = v_SetComp = v_GeneratorExp = v_DictComp = comprehension


_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_SCOPES = (*_DEFS, ast.Lambda, ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp)


def _bound_names(stmt: ast.AST) -> list[str]:
    """Names a statement binds in its own scope (not inside nested scopes)."""
    if isinstance(stmt, _DEFS):
        return [stmt.name]
    found: list[str] = []
    stack = [stmt]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            found.append(node.id)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            found += [(a.asname or a.name).split(".")[0] for a in node.names if a.name != "*"]
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            found.append(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            found.append(node.rest)
        if isinstance(node, _DEFS) and node is not stmt:
            found.append(node.name)
            continue
        if isinstance(node, _SCOPES) and node is not stmt:
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def function_scope(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> Scope:
    args = node.args
    params = [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs] if a]
    params += [a.arg for a in (args.vararg, args.kwarg) if a is not None]
    bindings: dict[str, list[tuple[str, object]]] = {p: [("local", None)] for p in params}
    declared: set[str] = set()
    body = node.body if isinstance(node.body, list) else [node.body]
    for stmt in body:
        for sub in _own_nodes(stmt):
            if isinstance(sub, ast.Global | ast.Nonlocal):
                declared.update(sub.names)
            elif isinstance(sub, ast.Import | ast.ImportFrom):
                _bind_import(bindings, sub)
        for name in _bound_names(stmt):
            bindings.setdefault(name, []).append(("local", None))
    for name in declared:
        bindings.pop(name, None)
    return Scope("function", set(bindings), bindings, declared)


def _own_nodes(stmt: ast.AST) -> list[ast.AST]:
    found, stack = [], [stmt]
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, _SCOPES) and node is not stmt:
            continue
        stack.extend(ast.iter_child_nodes(node))
    return found


def _bind_import(
    bindings: dict[str, list[tuple[str, object]]], node: ast.Import | ast.ImportFrom
) -> None:
    """A function-level import binds like a module-level one (resolved at lookup)."""
    for alias in node.names:
        if alias.name == "*":
            continue
        if isinstance(node, ast.Import):
            local = alias.asname or alias.name.split(".")[0]
            bindings.setdefault(local, []).insert(
                0, ("module", (alias.asname and alias.name) or local)
            )
        else:
            bindings.setdefault(alias.asname or alias.name, []).insert(
                0, ("relfrom", (node, alias.name))
            )


def occurrences(project: Project, wanted: set[str]) -> list[Occurrence]:
    classes = Classes(project)
    found: list[Occurrence] = []
    for module in project.by_path.values():
        collector = Collector(project, classes, module, wanted)
        collector.children(module.tree)
        found += collector.found
    return found
