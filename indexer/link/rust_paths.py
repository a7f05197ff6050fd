"""Rust paths as Rust code writes them: ``tokio::spawn``, ``tokio::sync::mpsc::channel``,
``serde_json::Value::as_str``, from a crate's name through its modules and the ``use``
declarations that re-export a name; and a qualified reference (``mpsc::channel()``,
``crate::io::read``, ``super::helper()``) or a name a ``use`` binds (``channel()``) from
the module it is written in.

A crate is a ``Cargo.toml`` with a ``[package]`` name (``-`` read as ``_``, or its
``[lib]`` name) beside ``src/lib.rs`` or ``src/main.rs``. A module is a file (``a.rs`` or
``a/mod.rs`` beside its parent's) or an inline ``mod a { ... }``; the parts of a path after
a type are its members (``TcpStream::connect``, wherever in the crate its ``impl`` is). A
name a module does not define may be brought there by a ``use`` (``pub use
self::bounded::{channel, Sender};``, ``pub use spawn::spawn;``, ``pub use engine::*;``),
followed to where it is defined, a few hops at most. ``use`` declarations are read from
the module's text (those inside macro calls such as tokio's ``cfg_rt! { ... }`` too).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import Kind, Symbol

MAX_HOPS = 8  # `use` declarations followed for one path
_ROOTS = ("src/lib.rs", "src/main.rs")
_PACKAGE_FILES = frozenset({"lib.rs", "main.rs", "mod.rs"})  # modules named by their folder


@dataclass(frozen=True, slots=True)
class _Module:
    crate: str  # the crate's folder ("" at the root), ending in "/" otherwise
    file: str
    prefix: str  # an inline module's qualified name and a dot, "" for the file's own


def resolve(index: Index, parts: Sequence[str]) -> list[Symbol]:
    """The definitions the Rust path ``parts`` (``["tokio", "spawn"]``) names, starting
    from the crate it names first; none when no crate of the workspace has that name."""
    if len(parts) < 2:
        return []
    found: dict[str, Symbol] = {}
    for crate, root in _crates(index).get(parts[0], ()):
        walked = _walk(index, _Module(crate, root, ""), list(parts[1:]), MAX_HOPS)
        if not walked and len(parts) == 2:  # `serde_json::json`: a `#[macro_export]` macro
            walked = _exported_macros(index, crate, parts[1])
        for symbol in walked:
            found.setdefault(symbol.symbol_id, symbol)
    return list(found.values())


def linked(
    index: Index, entry: FileEntry, qualifier: str, name: str, enclosing: str | None
) -> list[tuple[Symbol, float]] | None:
    """:func:`qualified`'s definitions, each with the linker's confidence (1/n: a path
    names several where ``#[cfg]`` picks one); an empty list for a path into another
    crate (``std::mem::take``, ``mpsc::channel`` after ``use std::sync::mpsc;``), which
    names nothing here; None when the path says nothing (``self.x``, ``tx.send``)."""
    if qualifier == "self" or entry.language != "rust":
        return None
    if qualifier:
        found = qualified(index, entry, qualifier, name, enclosing)
    else:
        found = imported(index, entry, name, enclosing)
    return None if found is None else [(s, round(1.0 / len(found), 3)) for s in found]


def imported(
    index: Index, entry: FileEntry, name: str, enclosing: str | None
) -> list[Symbol] | None:
    """What a name a ``use`` binds names where code writes it alone (``channel()`` after
    ``use tokio::sync::mpsc::channel;``, ``build()`` after ``use my_crate::make as
    build;``): [] for a name from a crate outside the workspace (``use std::mem::take;``);
    None when no ``use`` of the file binds it, the module defines it itself, or no
    definition of the workspace is found."""
    if name not in _bound(index, entry.path):
        return None
    module = _module_of(index, entry.path, enclosing)

    def find() -> list[Symbol] | None:
        defined = _defined(index, module, name)
        return None if defined else _through_use(index, module, name, [], MAX_HOPS)

    return _remembered(index, (module, "", name), find)


def qualified(
    index: Index, entry: FileEntry, qualifier: str, name: str, enclosing: str | None
) -> list[Symbol] | None:
    """What a qualified reference written in ``entry`` names (``mpsc::channel`` where the
    file says ``use tokio::sync::mpsc;``, ``crate::io::read``, ``super::helper``,
    ``tokio::spawn``), from the module the reference is in: [] for a path into a crate
    outside the workspace; None when its qualifier's first part is neither ``crate``,
    ``self``, ``super``, a name a ``use`` binds, a child module nor a crate (a variable:
    ``tx.send``), or when no definition of the workspace is found."""
    parts = qualifier.split("::")
    module = _module_of(index, entry.path, enclosing)
    if not all(p.isidentifier() for p in parts):
        return None
    return _remembered(
        index, (module, qualifier, name), lambda: _from(index, module, [*parts, name], MAX_HOPS)
    )


def _remembered(
    index: Index, key: tuple[_Module, str, str], find: Callable[[], list[Symbol] | None]
) -> list[Symbol] | None:
    """What ``find`` gives for a reference ``key`` (module, qualifier, name), each
    definition once, found once per index generation."""
    resolved = _state(index).resolved
    if key not in resolved:
        found = find()
        resolved[key] = found and list({s.symbol_id: s for s in found}.values())
    return resolved[key]


def _module_of(index: Index, file: str, enclosing: str | None) -> _Module:
    """The module a reference at ``enclosing`` (a symbol id) in ``file`` is written in:
    the file's, or an inline ``mod`` holding it. A file outside every crate's folder (a
    workspace's benches, a crate of bench targets alone) is in the workspace's root."""
    modules = _state(index).modules
    found = modules.get((file, enclosing))
    if found is None:
        found = modules[(file, enclosing)] = _module_in(index, file, enclosing)
    return found


def _module_in(index: Index, file: str, enclosing: str | None) -> _Module:
    crates = [c for c, _ in _all_crates(index) if file.startswith(c)]
    inline: list[str] = []
    at = index.get(enclosing) if enclosing else None
    while at is not None and at.file == file:
        if at.kind is Kind.MODULE:
            inline.insert(0, at.name)
        at = index.get(at.parent) if at.parent else None
    return _Module(max(crates, key=len, default=""), file, "".join(p + "." for p in inline))


def _from(index: Index, module: _Module, path: list[str], hops: int) -> list[Symbol] | None:
    """``path`` (two parts or more) read from ``module`` as Rust resolves a path there:
    its definitions, [] when it leads into a crate outside the workspace, None when it
    finds nothing (its first part may be a variable's name)."""
    head, rest = path[0], path[1:]
    if head in _KEYWORDS:
        start = _start(index, module, [head])
        return (_walk(index, start, rest, hops) if start is not None else []) or None
    if head in _STANDARD:
        return []
    through = _through_use(index, module, head, rest, hops)
    if through is not None:
        return through
    child = _child(index, module, head)
    if child is not None:
        return _walk(index, child, rest, hops) or None
    found = []
    for crate, root in _crates(index).get(head, ()):
        found += _walk(index, _Module(crate, root, ""), rest, hops)
    return found or None


def _through_use(
    index: Index, module: _Module, head: str, rest: list[str], hops: int
) -> list[Symbol] | None:
    """``rest`` inside what a ``use`` of the file binds to ``head``: [] when that leads
    out of the workspace, None when no ``use`` binds ``head`` to something found."""
    for used in _bound(index, module.file).get(head, ()):
        if used[-1] != "*":
            if _foreign(index, module, used[0]):
                return []
            start = _start(index, module, used[:-1])
            found = _walk(index, start, [used[-1], *rest], hops - 1) if start else []
            if found:
                return found
    return None


def _foreign(index: Index, module: _Module, first: str) -> bool:
    """Whether a ``use`` path starting with ``first`` leads out of the workspace: not
    ``crate``/``self``/``super``, no module here or at the crate's root (2015's paths),
    no crate of the workspace."""
    if first in _KEYWORDS or first in _crates(index) or _child(index, module, first):
        return False
    root = _crate_root(index, module.crate)
    return not (root and _child(index, root, first))


_STANDARD = frozenset({"std", "core", "alloc"})
_KEYWORDS = frozenset({"crate", "self", "super"})


def _exported_macros(index: Index, crate: str, name: str) -> list[Symbol]:
    """The crate's ``#[macro_export]`` macros called ``name``: at its root, wherever written."""
    named = (index.symbols[i] for i in index.by_name.get(name, ()))
    return [
        s
        for s in named
        if s.kind is Kind.MACRO and s.file.startswith(crate) and _exported(index, s)
    ]


def _exported(index: Index, macro: Symbol) -> bool:
    """Whether the attributes above ``macro`` say ``#[macro_export]``."""
    lines = _text(index, macro.file).splitlines()[: macro.line - 1]
    for line in reversed(lines):
        if not line.lstrip().startswith("#["):
            return False
        if "macro_export" in line:
            return True
    return False


def _walk(index: Index, module: _Module, rest: list[str], hops: int) -> list[Symbol]:
    """The definitions ``rest`` names inside ``module`` (memoized; a path met again while
    it is being walked, through ``use`` declarations that go round, names nothing)."""
    walks = _state(index).walks
    key = (module, tuple(rest))
    found = walks.get(key)
    if found is None:
        walks[key] = []
        found = walks[key] = _walked(index, module, rest, hops)
    return found


def _walked(index: Index, module: _Module, rest: list[str], hops: int) -> list[Symbol]:
    name = rest[0]
    defined = _defined(index, module, name)
    if len(rest) == 1:  # a value before a module of its name (`mod spawn; pub use spawn::spawn;`)
        items = [s for s in defined if s.kind is not Kind.MODULE]
        return items or _used(index, module, rest, hops) or defined
    child = _child(index, module, name)
    if child is not None:
        return _walk(index, child, rest[1:], hops)
    if defined:
        return _members(index, module.crate, defined, rest[1:])
    return _used(index, module, rest, hops)


def _defined(index: Index, module: _Module, name: str) -> list[Symbol]:
    """The module's own definitions called ``name`` (not a type's ``impl`` blocks)."""
    found = _by_fqn(index, module.file).get(module.prefix + name, ())
    return [s for s in found if s.kind is not Kind.OBJECT]


def _by_fqn(index: Index, file: str) -> dict[str, list[Symbol]]:
    """The file's definitions by qualified name."""
    fqns = _state(index).fqns
    found = fqns.get(file)
    if found is None:
        found = fqns[file] = {}
        entry = index.files.get(file)
        for symbol in entry.symbols if entry is not None else ():
            found.setdefault(symbol.fqn, []).append(symbol)
    return found


def _child(index: Index, module: _Module, name: str) -> _Module | None:
    """The module ``name`` inside ``module``: its file, else an inline ``mod name {...}``."""
    children = _state(index).children
    key = (module, name)
    if key not in children:
        children[key] = _child_module(index, module, name)
    return children[key]


def _child_module(index: Index, module: _Module, name: str) -> _Module | None:
    folder = _folder(module)
    for candidate in (f"{folder}{name}.rs", f"{folder}{name}/mod.rs"):
        if candidate in index.files:
            return _Module(module.crate, candidate, "")
    inline = _by_fqn(index, module.file).get(module.prefix + name, ())
    if any(s.kind is Kind.MODULE and s.end_line > s.line for s in inline):
        return _Module(module.crate, module.file, f"{module.prefix}{name}.")
    return None


def _folder(module: _Module) -> str:
    """Where the files of ``module``'s child modules are (``src/``, ``src/sync/mpsc/``)."""
    head, _, stem = module.file.rpartition("/")
    base = f"{head}/" if head else ""
    # a file of src/ other than lib.rs and mod.rs holds its children in a folder of its
    # name; a crate's root, and an example's, test's or bench's file, beside it
    if stem not in _PACKAGE_FILES and module.file.startswith(module.crate + "src/"):
        base += stem.removesuffix(".rs") + "/"
    return base + "".join(p + "/" for p in module.prefix.split(".") if p)


def _parent(index: Index, module: _Module) -> _Module | None:
    """The module holding ``module`` (``super``)."""
    if module.prefix:
        outer = module.prefix[:-1].rpartition(".")[0]
        return _Module(module.crate, module.file, outer + "." if outer else "")
    if module.file.removeprefix(module.crate) in _ROOTS:
        return None
    folder = module.file.rpartition("/")[0]
    if module.file.endswith("/mod.rs"):
        folder = folder.rpartition("/")[0]
    for candidate in (f"{folder}/mod.rs", f"{folder}.rs", f"{folder}/lib.rs", f"{folder}/main.rs"):
        if candidate in index.files:
            return _Module(module.crate, candidate, "")
    return None


def _members(index: Index, crate: str, types: list[Symbol], rest: list[str]) -> list[Symbol]:
    """The members ``rest`` of ``types`` (a method in an ``impl`` anywhere in the crate)."""
    wanted = {f"{t.fqn}.{'.'.join(rest)}" for t in types}
    named = (index.symbols[i] for i in index.by_name.get(rest[-1], ()))
    return [s for s in named if s.fqn in wanted and s.file.startswith(crate)]


def _used(index: Index, module: _Module, rest: list[str], hops: int) -> list[Symbol]:
    """``rest`` through the ``use`` declarations of ``module`` that bring its first part
    there, by name, alias or glob."""
    if hops <= 0:
        return []
    found: list[Symbol] = []
    for path, alias in _uses(index, module.file):
        if path[-1] == "*":
            start = _start(index, module, path[:-1])
            if start is not None:
                found += _walk(index, start, rest, hops - 1)
        elif alias == rest[0]:
            start = _start(index, module, path[:-1])
            if start is not None:
                found += _walk(index, start, [path[-1], *rest[1:]], hops - 1)
    return found


def _start(index: Index, module: _Module, path: list[str]) -> _Module | None:
    """The module a ``use`` path's leading parts name, from ``module``."""
    at: _Module | None = module
    for position, part in enumerate(path):
        if at is None:
            return None
        if part == "crate":
            at = _crate_root(index, at.crate)
        elif part == "self":
            continue
        elif part == "super":
            at = _parent(index, at)
        else:
            child = _child(index, at, part)
            if child is None and position == 0:  # another crate (`use tokio::sync::Mutex`)
                crates = _crates(index).get(part, ())
                child = _Module(crates[0][0], crates[0][1], "") if crates else None
            at = child
    return at


def _bound(index: Index, file: str) -> dict[str, list[list[str]]]:
    """The file's ``use`` paths by the name each binds."""
    bound = _state(index).bound
    found = bound.get(file)
    if found is None:
        found = bound[file] = {}
        for path, alias in _uses(index, file):
            found.setdefault(alias, []).append(path)
    return found


def _uses(index: Index, file: str) -> list[tuple[list[str], str]]:
    """The ``use`` declarations of a file: each imported path and the name it binds."""
    uses = _state(index).uses
    out = uses.get(file)
    if out is None:
        out = uses[file] = []
        for found in _USE.finditer(_text(index, file)):
            tree = _SPACE_AROUND.sub(r"\1", " ".join(found[1].split()))
            out += _expand(tree.removeprefix("::"), [])
    return out


# a `use` declaration starting a line (`pub use`, `pub(crate) use`): its tree up to the `;`
_USE = re.compile(r"^[ \t]*(?:pub(?:\([\w: ]*\))?\s+)?use\s+([\w:{}*,\s]+);", re.M)
_SPACE_AROUND = re.compile(r"\s*(::|[{},])\s*")
_ALIAS = re.compile(r"(.+?) as (\w+)")


def _expand(tree: str, prefix: list[str]) -> list[tuple[list[str], str]]:
    """``a::{b as c, d::*, self}`` -> ([a, b], c), ([a, d, *], *), ([a], a)."""
    head, brace, inner = tree.partition("{")
    if brace:
        parts = [*prefix, *(p for p in head.split("::") if p)]
        out: list[tuple[list[str], str]] = []
        for item in _top_level(inner[: inner.rfind("}")]):
            out += _expand(item, parts)
        return out
    aliased = _ALIAS.fullmatch(tree)
    written, alias = (aliased[1], aliased[2]) if aliased else (tree, "")
    path = [*prefix, *(p for p in written.split("::") if p)]
    if path and path[-1] == "self":  # `use a::{self}` binds a
        path.pop()
    return [(path, alias or path[-1])] if path else []


def _top_level(body: str) -> list[str]:
    """``b,d::{e,f}`` -> ["b", "d::{e,f}"]: the items of a brace list."""
    items, depth, start = [], 0, 0
    for i, ch in enumerate(body):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            items.append(body[start:i])
            start = i + 1
    items.append(body[start:])
    return [item for item in items if item]


@dataclass(slots=True)
class _State:
    """What one generation of an index has read: its crates, files' texts and ``use``s,
    definitions by qualified name per file, and the qualified references resolved."""

    generation: int
    crates: dict[str, list[tuple[str, str]]]
    texts: dict[str, str] = field(default_factory=dict)
    all_crates: list[tuple[str, str]] = field(default_factory=list)
    uses: dict[str, list[tuple[list[str], str]]] = field(default_factory=dict)
    bound: dict[str, dict[str, list[list[str]]]] = field(default_factory=dict)
    modules: dict[tuple[str, str | None], _Module] = field(default_factory=dict)
    children: dict[tuple[_Module, str], _Module | None] = field(default_factory=dict)
    fqns: dict[str, dict[str, list[Symbol]]] = field(default_factory=dict)
    resolved: dict[tuple[_Module, str, str], list[Symbol] | None] = field(default_factory=dict)
    walks: dict[tuple[_Module, tuple[str, ...]], list[Symbol]] = field(default_factory=dict)


def _state(index: Index) -> _State:
    """The index's :class:`_State` for its generation (kept with the index)."""
    state = index.companions.get(_State)
    if isinstance(state, _State) and state.generation == index.generation:
        return state
    state = _State(index.generation, {})
    for key in index.files:
        folder, _, file = key.rpartition("/")
        if file != "Cargo.toml":
            continue
        crate = f"{folder}/" if folder else ""
        root = next((crate + r for r in _ROOTS if crate + r in index.files), None)
        name = _crate_name(_read(index, key))
        if root is not None and name:
            state.crates.setdefault(name, []).append((crate, root))
    state.all_crates = [pair for pairs in state.crates.values() for pair in pairs]
    index.companions[_State] = state
    return state


def _crates(index: Index) -> dict[str, list[tuple[str, str]]]:
    """Crate name -> (its folder, its root file) of each crate in the workspace."""
    return _state(index).crates


def _crate_root(index: Index, crate: str) -> _Module | None:
    """The root module (``src/lib.rs`` or ``src/main.rs``) of the crate in folder ``crate``."""
    return next((_Module(c, r, "") for c, r in _all_crates(index) if c == crate), None)


def _all_crates(index: Index) -> list[tuple[str, str]]:
    return _state(index).all_crates


def _text(index: Index, file: str) -> str:
    texts = _state(index).texts
    found = texts.get(file)
    if found is None:
        found = texts[file] = _read(index, file)
    return found


def _read(index: Index, file: str) -> str:
    try:
        with open(index.abs_path(file), encoding="utf-8", errors="replace") as handle:
            return handle.read()
    except OSError:
        return ""


def _crate_name(manifest: str) -> str:
    """The name code uses for a crate: its ``[lib]`` name, else its package's, ``-`` as ``_``."""
    try:
        data = tomllib.loads(manifest)
    except tomllib.TOMLDecodeError:
        return ""
    lib, package = data.get("lib"), data.get("package")
    name = lib.get("name") if isinstance(lib, dict) else None
    if not isinstance(name, str) and isinstance(package, dict):
        name = package.get("name")
    return name.replace("-", "_") if isinstance(name, str) else ""
