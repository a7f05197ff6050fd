"""JavaScript/TypeScript ground truth for graph_truth.py, from the tree-sitter grammars
read directly (tree_sitter_language_pack), not through symfuse's extractor or queries.

Imports of a file: ``import ... from 's'``, ``import 's'`` (side effect), ``export ...
from 's'``, ``require('s')``, dynamic ``import('s')`` and TypeScript's ``import x =
require('s')``, wherever they stand. A relative specifier resolves as Node and
TypeScript would: the path itself, then with .js/.mjs/.cjs/.jsx/.ts/.tsx/.mts/.cts/
.d.ts, then ``index.*`` in the folder; ``./x.js`` also names ``x.ts``. Bare
specifiers (packages, ``node:``) are external. Required and acceptable edges are the
same here.

References of a top-level function, class or ``const`` and of class methods, per
occurrence of the name:

- an identifier (or ``{ name }`` shorthand) is *yes* when no function or block on
  its way up declares the name (parameters, ``var``/``let``/``const``, nested
  ``function``/``class``; hoisting is approximated by "anywhere in that function")
  and the module binds it to the definition: the definition itself, or an import
  from the defining module (named, default, re-exports followed);
- ``x.name`` is *yes*/*no* when ``x`` is a namespace import or a default import of a
  module whose default export is an object literal (axios' ``utils``), a class
  (static members, ``extends`` followed) or ``this`` inside a class method; else
  *unknown*, counted on neither side;
- names in import and export specifiers count; declarations, object keys and
  strings do not.
"""

from __future__ import annotations

import posixpath
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tree_sitter import Node
from tree_sitter_language_pack import get_parser

SUFFIXES = (".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".cts")
SKIP_DIRS = frozenset({".git", "node_modules", "dist", "build", "coverage"})
ENDINGS = ("", *SUFFIXES, ".d.ts", *(f"/index{s}" for s in (*SUFFIXES, ".d.ts")))
SWAPS = {".js": (".ts", ".tsx", ".d.ts"), ".mjs": (".mts",), ".cjs": (".cts", ".d.cts")}
FUNCTIONS = frozenset(
    {
        "function_declaration",
        "function_expression",
        "arrow_function",
        "method_definition",
        "generator_function_declaration",
        "function",
        "generator_function",
    }
)


@dataclass
class Script:
    path: str
    root: Node
    specs: list[tuple[str, int]] = field(default_factory=list)  # (specifier, line)


def script_files(root: Path) -> Iterator[Path]:
    for path in sorted(root.rglob("*")):
        wanted = path.suffix in SUFFIXES or path.name.endswith((".d.ts", ".d.cts"))
        if wanted and path.is_file() and not SKIP_DIRS.intersection(path.relative_to(root).parts):
            yield path


def parse_all(root: Path) -> dict[str, Script]:
    found: dict[str, Script] = {}
    for path in script_files(root):
        language = (
            "tsx"
            if path.suffix == ".tsx"
            else "typescript"
            if ".ts" in path.name or path.suffix in (".cts", ".mts")
            else "javascript"
        )
        tree = get_parser(language).parse(path.read_bytes())  # type: ignore[arg-type]
        rel = path.relative_to(root).as_posix()
        found[rel] = Script(rel, tree.root_node, list(_specs(tree.root_node)))
    return found


def text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _string(node: Node | None) -> str | None:
    if node is None or node.type != "string":
        return None
    return text(node)[1:-1]


def walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _specs(root: Node) -> Iterator[tuple[str, int]]:
    for node in walk(root):
        spec = None
        if node.type in ("import_statement", "export_statement"):
            spec = _string(node.child_by_field_name("source"))
            if spec is None and node.type == "import_statement":
                spec = next((_string(c) for c in node.children if c.type == "string"), None)
        elif node.type == "call_expression":
            fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
            if (
                fn is not None
                and (fn.type == "import" or text(fn) == "require")
                and args is not None
            ):
                first = next((c for c in args.children if c.is_named), None)
                spec = _string(first)
        elif node.type == "import_require_clause":
            spec = _string(node.child_by_field_name("source"))
        if spec is not None:
            yield spec, node.start_point[0] + 1


def resolve(scripts: dict[str, Any], importer: str, spec: str) -> str | None:
    if not spec.startswith("."):
        return None
    base = posixpath.normpath(posixpath.join(posixpath.dirname(importer), spec))
    for ending in ENDINGS:
        if base + ending in scripts:
            return base + ending
    stem, extension = posixpath.splitext(base)
    for swapped in SWAPS.get(extension, ()):
        if stem + swapped in scripts:
            return stem + swapped
    return None


def imports(root: Path) -> tuple[dict[str, dict[str, set[int]]], dict[str, set[str]]]:
    scripts = parse_all(root)
    required: dict[str, dict[str, set[int]]] = {}
    for path, script in scripts.items():
        edges: dict[str, set[int]] = defaultdict(set)
        for spec, line in script.specs:
            target = resolve(scripts, path, spec)
            if target is not None and target != path:
                edges[target].add(line)
        required[path] = dict(edges)
    return required, {p: set(e) for p, e in required.items()}


# -- references ------------------------------------------------------------------------

Value = tuple[str, Any]


class ScriptProject:
    """Top-level definitions, exports and import bindings of every script."""

    def __init__(self, root: Path) -> None:
        self.scripts = parse_all(root)
        self.defs: dict[str, dict[str, Node]] = {}  # path -> name -> declaration
        self.classes: dict[tuple[str, str], Node] = {}
        self.exports: dict[str, dict[str, Value]] = {}
        self.stars: dict[str, list[str]] = {}
        self.bindings: dict[str, dict[str, Value]] = {}
        for path, script in self.scripts.items():
            self._read(path, script.root)

    def _read(self, path: str, root: Node) -> None:
        defs: dict[str, Node] = {}
        exports: dict[str, Value] = {}
        stars: list[str] = []
        bindings: dict[str, Value] = {}
        for statement in root.named_children:
            exported = statement.type == "export_statement"
            inner = statement.child_by_field_name("declaration") if exported else statement
            for name, node in _declared(inner):
                defs.setdefault(name, node)
                if exported:
                    exports[name] = ("local", name)
            if statement.type == "import_statement":
                self._bind_import(path, statement, bindings)
            if exported:
                self._export(path, statement, exports, stars)
        for name, node in defs.items():
            if node.type in ("class_declaration", "class"):
                self.classes[(path, name)] = node
        self.defs[path], self.exports[path], self.stars[path] = defs, exports, stars
        self.bindings[path] = bindings

    def _bind_import(self, path: str, statement: Node, bindings: dict[str, Value]) -> None:
        target = resolve(self.scripts, path, _string(statement.child_by_field_name("source")) or "")
        clause = next((c for c in statement.named_children if c.type == "import_clause"), None)
        if target is None or clause is None:
            return
        for part in clause.named_children:
            if part.type == "identifier":
                bindings[text(part)] = ("import", (target, "default"))
            elif part.type == "namespace_import":
                bindings[text(part.named_children[-1])] = ("mod", target)
            elif part.type == "named_imports":
                for spec in part.named_children:
                    name, alias = (
                        spec.child_by_field_name("name"),
                        spec.child_by_field_name("alias"),
                    )
                    bindings[text(alias or name)] = ("import", (target, text(name)))

    def _export(
        self, path: str, statement: Node, exports: dict[str, Value], stars: list[str]
    ) -> None:
        source = _string(statement.child_by_field_name("source"))
        target = resolve(self.scripts, path, source) if source else None
        value = statement.child_by_field_name("value")
        if any(c.type == "default" for c in statement.children):
            declaration = statement.child_by_field_name("declaration")
            names = [n for n, _ in _declared(declaration)] if declaration is not None else []
            if names:
                exports["default"] = ("local", names[0])
            elif value is not None and value.type == "identifier":
                exports["default"] = ("local", text(value))
            elif value is not None and value.type == "object":
                exports["default"] = ("object", (path, tuple(sorted(_members(value).items()))))
        clause = next((c for c in statement.named_children if c.type == "export_clause"), None)
        for spec in clause.named_children if clause is not None else ():
            name, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
            exported = text(alias or name)
            exports[exported] = ("from", (target, text(name))) if target else ("local", text(name))
        if source and target and clause is None and "*" in [c.type for c in statement.children]:
            stars.append(target)

    def export(self, path: str, name: str, seen: frozenset[str] = frozenset()) -> set[Value]:
        if path in seen:
            return set()
        seen = seen | {path}
        how, what = self.exports[path].get(name, ("", None))
        if how == "local":
            return self.module_name(path, what)
        if how == "from":
            return self.export(what[0], what[1], seen)
        if how == "object":
            return {("object", what)}
        found: set[Value] = set()
        for star in self.stars[path]:
            found |= self.export(star, name, seen)
        return found

    def module_name(self, path: str, name: str) -> set[Value]:
        """What a module-level name is: its own definition, or what an import brings."""
        if name in self.defs[path]:
            return {("def", (path, name))}
        how, what = self.bindings[path].get(name, ("", None))
        if how == "mod":
            return {("mod", what)}
        if how == "import":
            return self.export(what[0], what[1])
        return set()

    def member(self, value: Value, attr: str) -> set[Value] | None:
        how, what = value
        if how == "mod":
            return self.export(what, attr)
        if how == "object":
            path, members = what
            local = dict(members).get(attr)
            return self.module_name(path, local) if local else set()
        if how == "def" and what in self.classes:
            return self.class_member(what, attr)
        return None

    def class_member(
        self, key: tuple[str, str], attr: str, skip: bool = False
    ) -> set[Value] | None:
        seen: set[tuple[str, str]] = set()
        while key not in seen:
            seen.add(key)
            node = self.classes[key]
            if not skip and attr in _methods(node):
                return {("def", (key[0], f"{key[1]}.{attr}"))}
            skip = False
            heritage = next((c for c in node.named_children if c.type == "class_heritage"), None)
            if heritage is None:
                return None  # not found: a subclass's or an instance field
            base = heritage.named_children[-1] if heritage.named_children else None
            bases = (
                self.module_name(key[0], text(base))
                if base is not None and base.type == "identifier"
                else set()
            )
            key = next((v[1] for v in bases if v[0] == "def" and v[1] in self.classes), ("", ""))
            if key not in self.classes:
                return None
        return None


def _declared(node: Node | None) -> Iterator[tuple[str, Node]]:
    if node is None:
        return
    if node.type in ("function_declaration", "generator_function_declaration", "class_declaration"):
        name = node.child_by_field_name("name")
        if name is not None:
            yield text(name), node
    elif node.type in ("lexical_declaration", "variable_declaration"):
        for declarator in node.named_children:
            name = declarator.child_by_field_name("name")
            if (
                declarator.type == "variable_declarator"
                and name is not None
                and name.type == "identifier"
            ):
                yield text(name), declarator


def _members(obj: Node) -> dict[str, str]:
    found: dict[str, str] = {}
    for part in obj.named_children:
        if part.type == "shorthand_property_identifier":
            found[text(part)] = text(part)
        elif part.type == "pair":
            key, value = part.child_by_field_name("key"), part.child_by_field_name("value")
            if value is not None and value.type == "identifier":
                found[text(key)] = text(value)
    return found


def _methods(node: Node) -> set[str]:
    body = node.child_by_field_name("body")
    return {
        text(m.child_by_field_name("name"))
        for m in (body.named_children if body is not None else ())
        if m.type == "method_definition"
    }


def _locals(scope: Node, cache: dict[tuple[int, int], set[str]]) -> set[str]:
    """Names a function declares anywhere in its own body (not in nested functions)."""
    key = (scope.start_byte, scope.end_byte)
    if key in cache:
        return cache[key]
    found: set[str] = set()
    params = scope.child_by_field_name("parameters") or scope.child_by_field_name("parameter")
    for node in walk(params) if params is not None else ():
        if node.type in ("identifier", "shorthand_property_identifier_pattern"):
            found.add(text(node))
    stack = list(scope.children)
    while stack:
        node = stack.pop()
        if node.type in FUNCTIONS or node.type in ("class_declaration", "class"):
            name = node.child_by_field_name("name")
            if node.type in ("function_declaration", "class_declaration") and name is not None:
                found.add(text(name))
            continue
        if node.type == "variable_declarator":
            for part in walk(node.child_by_field_name("name") or node):
                if part.type in ("identifier", "shorthand_property_identifier_pattern"):
                    found.add(text(part))
        if node.type == "catch_clause":
            parameter = node.child_by_field_name("parameter")
            if parameter is not None:
                found.add(text(parameter))
        stack.extend(node.children)
    cache[key] = found
    return found


@dataclass(frozen=True)
class Occurrence:
    path: str
    line: int
    name: str
    values: frozenset[Value] | None


_CALLABLE = frozenset({"arrow_function", "function_expression", "function", "class"})


def definitions(project: ScriptProject) -> dict[tuple[str, str], str]:
    """(path, qualname) -> class / function / method (functions include ``const f = () =>``)."""
    found: dict[tuple[str, str], str] = {}
    for path, defs in project.defs.items():
        for name, node in defs.items():
            if node.type == "class_declaration":
                found[(path, name)] = "class"
                found.update({(path, f"{name}.{m}"): "method" for m in _methods(node)})
            elif node.type != "variable_declarator":
                found[(path, name)] = "function"
            else:
                value = node.child_by_field_name("value")
                if value is not None and value.type in _CALLABLE:
                    found[(path, name)] = "class" if value.type == "class" else "function"
    return found


def occurrences(project: ScriptProject, wanted: set[str]) -> list[Occurrence]:
    found: list[Occurrence] = []
    for path, script in project.scripts.items():
        cache: dict[tuple[int, int], set[str]] = {}
        for node in walk(script.root):
            if node.type in ("identifier", "shorthand_property_identifier", "property_identifier"):
                name = text(node)
                if name in wanted:
                    judged = _judge(project, path, node, name, cache)
                    if judged is not False:
                        values = None if judged is None else frozenset(judged)
                        found.append(Occurrence(path, node.start_point[0] + 1, name, values))
    return found


_DECLARING = frozenset(
    {
        "function_declaration",
        "class_declaration",
        "variable_declarator",
        "method_definition",
        "generator_function_declaration",
        "class",
        "function_expression",
        "pair",
    }
)


def _judge(
    project: ScriptProject, path: str, node: Node, name: str, cache: dict
) -> set[Value] | bool | None:  # type: ignore[type-arg]
    """The values an occurrence resolves to; None: unknown; False: not a reference."""
    parent = node.parent
    if parent is None:
        return False
    if parent.type in _DECLARING and parent.child_by_field_name("name") == node:
        return False
    if parent.type == "pair" and parent.child_by_field_name("key") == node:
        return False
    if parent.type == "import_specifier":
        if parent.child_by_field_name("alias") == node:
            return False
        statement = parent.parent.parent.parent  # named_imports < import_clause < import_statement
        target = resolve(
            project.scripts, path, _string(statement.child_by_field_name("source")) or ""
        )
        return project.export(target, name) if target else set()
    if parent.type == "export_specifier":
        if parent.child_by_field_name("alias") == node:
            return False
        source = _string(parent.parent.parent.child_by_field_name("source"))
        target = resolve(project.scripts, path, source) if source else None
        return project.export(target, name) if target else project.module_name(path, name)
    if node.type == "property_identifier":
        if parent.type != "member_expression" or parent.child_by_field_name("property") != node:
            return False
        return _member(project, path, parent.child_by_field_name("object"), name, cache)
    if _in_parameters(node):
        return False
    return _identifier(project, path, node, name, cache)


def _in_parameters(node: Node) -> bool:
    current = node.parent
    while current is not None and current.type not in FUNCTIONS:
        if current.type == "formal_parameters":
            return True
        current = current.parent
    return False


def _identifier(
    project: ScriptProject, path: str, node: Node, name: str, cache: dict
) -> set[Value]:  # type: ignore[type-arg]
    current = node.parent
    while current is not None:
        if current.type in FUNCTIONS and name in _locals(current, cache):
            return set()
        current = current.parent
    return project.module_name(path, name)


def _member(
    project: ScriptProject, path: str, obj: Node | None, name: str, cache: dict
) -> set[Value] | None:  # type: ignore[type-arg]
    if obj is None:
        return None
    if obj.type in ("this", "super"):
        current = obj.parent
        while current is not None and current.type not in ("class_declaration", "class"):
            current = current.parent
        owner = current.child_by_field_name("name") if current is not None else None
        key = (path, text(owner))
        if owner is None or key not in project.classes:
            return None
        return project.class_member(key, name, skip=obj.type == "super")
    if obj.type != "identifier":
        return None
    values = _identifier(project, path, obj, text(obj), cache)
    found: set[Value] = set()
    for value in values:
        hit = project.member(value, name)
        if hit is None:
            return None
        found |= hit
    return found if values else None
