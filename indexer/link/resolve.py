"""References -> the definitions they stand for.

A reference is resolved by trying, in order:

1. the same scope: the enclosing definition, its parents, the enclosing class (for
   ``self.x``/``this.x``) and the file;
2. the declared type of its receiver (``c.Next()`` with ``c *Context``: :mod:`.typed`);
3. imports: a name or module alias an import of the file binds, by qualified name
   (a Python module's imports are names of its own, ``from x import *`` too; a
   JavaScript/TypeScript relative import names a file, barrels are followed), by
   path where names are not qualified by it (Java, Rust); a qualifier naming a type
   or a Go package narrows to its members (a Rust path first: :mod:`.rust_paths`);
4. the bare name anywhere in the workspace, ``n`` candidates at ``0.5/n`` (0.8 for
   one, 0.4 for a script's member of an unknown receiver; more than ``MAX_CANDIDATES``
   are too ambiguous to link).

Resolution is versioned by :data:`~symfuse.indexer.versions.LINKER_VERSION`: bump
it when what this module resolves changes.
"""

from __future__ import annotations

from typing import NamedTuple

from symfuse.indexer.extract.texts import adds_to_a_type
from symfuse.indexer.files.languages import family
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.link import (
    go_scope,
    inherit,
    overloads,
    receivers,
    rust_paths,
    scopes,
    swift,
    typed,
    zig_imports,
)
from symfuse.indexer.link.bindings import (
    RELATIVE,
    Bindings,
    exported_value,
    import_bindings,
    import_fqn,
    python_module_of,
    python_modules,
    script_module,
)
from symfuse.indexer.model import Kind, Reference, RefKind, Symbol
from symfuse.indexer.store.rows import LinkGroup

MAX_CANDIDATES = 8
MAX_REEXPORT_HOPS = 4  # `pkg` re-exports from `pkg.sub`, which re-exports from ...
SELF_NAMES = frozenset({"self", "this", "cls", "super()", "Self", "@"})
SUPER_NAMES = frozenset({"super()", "super"})
SCOPE, IMPORT, TYPE, NAME = "scope", "import", "type", "name"  # Resolution.how


class Resolution(NamedTuple):
    """A definition a reference resolves to (a named tuple: hundreds of thousands per index),
    and how: through the reference's scopes, the file's imports, the declared type of
    its receiver, or by its name alone (a guess among same-named definitions)."""

    target: Symbol
    confidence: float
    how: str = NAME


class Resolver:
    """Resolves references against an index's current symbols."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.symbols = index.symbols
        self._by_fqn = index.by_fqn
        self._bare: dict[tuple[str, bool, RefKind, str, str], list[Resolution]] = {}
        self._imports: dict[str, Bindings] = {}
        self._groups: tuple[str | None, list[LinkGroup]] = (None, [])
        self._outside_cache: dict[tuple[str, str, str, RefKind, int], list[Resolution]] = {}
        self._fqn_misses: dict[tuple[str, int], Symbol | None] = {}
        self._module_names: dict[str, str] = {}
        self._modules: dict[str, FileEntry] | None = None
        self._module_parts: set[str] | None = None
        self._declared: dict[str, receivers.Declared] = {}
        self._declared_variables: dict[str, set[str]] = {}
        self.typing: set[tuple[str, str | None, str]] = set()  # receivers being typed
        # (type id, name, calls only) -> its same-named members per class (overloads.py)
        self.same_named: dict[tuple[str, str, bool], list[list[Symbol]]] = {}
        self.inherited: dict[tuple[str, str, bool], Symbol | None] = {}  # (inherit.py)
        self.bases_of: dict[str, list[Symbol]] = {}
        self.implicit: dict[tuple[str, str], list[Resolution]] = {}  # (swift.py)

    def declared(self, entry: FileEntry) -> receivers.Declared:
        """The declared types of the file's variables, per scope (remembered)."""
        if entry.path not in self._declared:
            groups = self.link_groups(entry) if self._groups[0] == entry.path else None
            self._declared[entry.path] = receivers.declared_types(entry, groups or [])
        return self._declared[entry.path]

    def declared_variables(self, entry: FileEntry) -> set[str]:
        """The variables some scope of the file declares a type for (remembered)."""
        found = self._declared_variables.get(entry.path)
        if found is None:
            found = self._declared_variables[entry.path] = {v for _, v in self.declared(entry)}
        return found

    def member(self, owner: Symbol, name: str) -> Symbol | None:
        """``owner``'s member ``name``, its own or the nearest base's."""
        levels = overloads.same_named(self, owner, name, RefKind.REFERENCE)
        return levels[0][0] if levels else None

    def _bindings(self, entry: FileEntry) -> Bindings:
        found = self._imports.get(entry.path)
        if found is None:
            # another file's (a module that re-exports): decoded without evicting the
            # groups of the file being linked
            groups = self.link_groups(entry) if self._groups[0] == entry.path else None
            module = self._python_module(entry) if entry.language == "python" else None
            found = self._imports[entry.path] = import_bindings(entry, groups, module)
        return found

    def _python_module(self, entry: FileEntry) -> str:
        """The module a Python file names (remembered: each of its imports asks)."""
        found = self._module_names.get(entry.path)
        if found is None:
            found = self._module_names[entry.path] = python_module_of(self.index, entry)
        return found

    def file_imports(self, entry: FileEntry) -> dict[str, str]:
        """Local name -> qualified name it stands for, from the file's import references."""
        return self._bindings(entry).names

    def _from_stars(self, entry: FileEntry, dotted: str, hops: int = 0) -> Symbol | None:
        """``dotted`` looked up in the modules the file imports ``*`` from, in order."""
        for module in self._bindings(entry).stars:
            found = self._fqn(f"{module}.{dotted}", hops + 1)
            if found is not None:
                return found
        return None

    def link_groups(self, entry: FileEntry) -> list[LinkGroup]:
        """The file's link groups, decoded once while it is being linked."""
        if self._groups[0] != entry.path:
            self._groups = (entry.path, entry.link_groups())
        return self._groups[1]

    def resolve(self, ref: Reference, entry: FileEntry) -> list[Resolution]:
        """The definitions one reference of ``entry`` may stand for."""
        found = self.resolve_name(
            ref.name, ref.qualifier, ref.kind, ref.enclosing, entry, args=ref.args
        )
        return scopes.implementable(found, ref.kind, entry, ref.qualifier)

    def resolve_name(
        self,
        name: str,
        qualifier: str,
        kind: RefKind,
        enclosing: str | None,
        entry: FileEntry,
        *,
        once: bool = False,
        args: int = -1,
    ) -> list[Resolution]:
        """``once``: asked once per file (a link group): the answer past the scopes is not
        remembered. ``args``: a call's number of arguments (-1: unknown), for overloads."""
        if name == "_" and entry.language == "go":
            return []  # the blank identifier (`_ = f()`, `var _ I = T{}`) names nothing
        if qualifier[:1] == "(":  # `((Element) child).x`
            qualifier = receivers.cast_type(qualifier) or qualifier
        if kind is RefKind.IMPORT:
            if family(entry.language) == "javascript" and not (
                qualifier.startswith(RELATIVE) or name.startswith(RELATIVE)
            ):
                return []  # a package (`require('util')`): not a workspace name `util`
            own = self._python_module(entry) if entry.language == "python" else None
            target = self._fqn(import_fqn(name, qualifier, entry, own))
            if target is None and qualifier.startswith(RELATIVE):
                module = script_module(self.index, entry, qualifier)
                target = self._script_export(module, name) if module is not None else None
            if target is None and family(entry.language) in receivers.TYPED_FAMILIES:
                target = receivers.import_by_path(self.index, name, qualifier, entry)
            return [Resolution(target, 1.0, IMPORT)] if target is not None else []
        if qualifier == swift.IMPLICIT and entry.language == "swift":
            return swift.implicit_member(self, name, entry)  # `.accept("x")`, `.retry`
        paths = rust_paths.linked(self.index, entry, qualifier, name, enclosing)
        if paths is not None:  # a Rust path: `mpsc::channel()`, `std::mem::take()`
            return [Resolution(s, weight, IMPORT) for s, weight in paths]
        if qualifier in SUPER_NAMES or (not qualifier or qualifier in SELF_NAMES):
            scoped = None
            if qualifier not in SUPER_NAMES:
                scoped = scopes.in_scope(name, bool(qualifier), enclosing, entry, kind)
            if scoped is not None and not qualifier and self._is_import_alias(scoped, entry):
                required = self._script_import(entry, name, "")
                scoped = required if required is not None else scoped
            # Ruby's `helper` (a call on self); a bare name in a C++ member function
            members = inherit.self_call(qualifier, kind, entry) or inherit.member_scope(entry)
            if scoped is None and (qualifier or members):
                scoped = inherit.inherited(self, name, qualifier in SUPER_NAMES, enclosing, entry)
            if scoped is None and not qualifier and kind is RefKind.CALL:
                scoped = overloads.of_enclosing(self, name, enclosing, entry, args)
            if scoped is not None:
                reached = scopes.reached(self, scoped, args, entry)
                return [Resolution(s, share, SCOPE) for s, share in reached]
        elif kind in (RefKind.CALL, RefKind.REFERENCE) or go_scope.indexed_type(kind, entry):
            used = RefKind.REFERENCE if kind is RefKind.TYPE else kind
            by_type = typed.by_receiver(self, name, qualifier, enclosing, entry, used, args)
            if by_type is not None:
                return by_type
        args = args if kind is RefKind.CALL and qualifier else -1  # `Type.m(x)`: overloads
        if once:
            return self._outside_scopes(name, qualifier, kind, entry, args)
        return self._outside(name, qualifier, kind, entry, args)

    def _outside(
        self, name: str, qualifier: str, kind: RefKind, entry: FileEntry, args: int
    ) -> list[Resolution]:
        # Past the scopes the answer depends on the file, the written name and a qualified
        # call's argument count alone: remembered per file (`self.assertEqual` x1000).
        key = (entry.path, name, qualifier, kind, args)
        found = self._outside_cache.get(key)
        if found is None:
            found = self._outside_scopes(name, qualifier, kind, entry, args)
            self._outside_cache[key] = found
        return found

    def _relative(self, entry: FileEntry, local: str, member: str = "") -> Symbol | None:
        """What a JavaScript/TypeScript name bound by a relative import stands for: the
        top-level definition of the module file (``member`` of a namespace import)."""
        bound = self._bindings(entry).relative.get(local)
        if bound is None:
            return None
        spec, imported = bound
        module = script_module(self.index, entry, spec)
        if module is None:
            return None
        if not imported and not member:
            # a module used as a value: CommonJS `var compile = require('./compile');
            # compile(x)` calls what the module exports, by convention its definition
            # of that name (`import * as m` is used as `m.x`, never so)
            return self._script_export(module, local) or exported_value(module, local)
        found = self._script_export(module, imported or member)
        if imported and member:  # `Headers.from()`: a static member of an imported class
            return inherit.member_of(self, found, member) if found is not None else None
        return found

    def _is_import_alias(self, symbol: Symbol, entry: FileEntry) -> bool:
        """A top-level JavaScript variable that a relative import binds
        (``var compile = require('./compile')``): it stands for the module's definition."""
        return (
            symbol.parent is None
            and symbol.kind in Kind.VALUES
            and family(entry.language) == "javascript"
            and symbol.name in self._bindings(entry).relative
        )

    def _script_export(self, module: FileEntry, name: str, hops: int = 0) -> Symbol | None:
        """The definition a JavaScript/TypeScript module exports as ``name``: its own, or
        one it re-exports (`export { name } from "./x"`, `export * from "./y"`: barrels)."""
        found = module.lookups().top.get(name)
        if found is not None or hops >= MAX_REEXPORT_HOPS:
            return found
        bindings = self._bindings(module)
        bound = bindings.relative.get(name)
        if bound is not None and bound[1]:
            origin = script_module(self.index, module, bound[0])
            if origin is not None:
                return self._script_export(origin, bound[1], hops + 1)
        for spec in bindings.relative_stars:
            origin = script_module(self.index, module, spec)
            found = self._script_export(origin, name, hops + 1) if origin is not None else None
            if found is not None:
                return found
        return None

    def _script_import(self, entry: FileEntry, name: str, qualifier: str) -> Symbol | None:
        """``name`` or ``m.name`` bound by a relative import of a JavaScript/TypeScript
        file (``import { Order } from "./models"``, ``import * as m from "./models"``)."""
        if not qualifier:
            return self._relative(entry, name)
        namespace, dot, _ = qualifier.partition(".")
        return None if dot else self._relative(entry, namespace, name)

    def _outside_scopes(
        self, name: str, qualifier: str, kind: RefKind, entry: FileEntry, args: int = -1
    ) -> list[Resolution]:
        if family(entry.language) == "javascript":
            found = self._script_import(entry, name, qualifier)
            if found is not None:
                return [Resolution(found, 1.0, IMPORT)]
        elif entry.language == "zig" and qualifier:  # `posix.listen(fd)`: a module's
            in_module = zig_imports.member(self, name, qualifier, kind, entry)
            if in_module is not None:
                return in_module
        imports = self.file_imports(entry)
        if not qualifier and go_scope.names_a_package(name, entry):
            return []  # `fmt` of `fmt.Println`, `json` of `json.Marshal`: no definition
        if qualifier:
            head = qualifier.split(".", 1)[0]
            rest = qualifier[len(head) :]
            # The qualifier's head is an imported name, or a definition of this file
            # (``Order.total(self)`` next to ``class Order``).
            local = entry.lookups().top.get(head)
            for base, how in ((imports.get(head), IMPORT), (local and local.fqn, SCOPE)):
                if base is None:
                    continue
                target = self._fqn(f"{base}{rest}.{name}")
                if target is not None:  # `Jsoup.parse(html)`: the overload it calls
                    called = overloads.in_scope(self, target, args)
                    share = 1.0 if len(called) == 1 else round(0.5 / len(called), 3)
                    return [Resolution(s, share, how) for s in called]
            if family(entry.language) in receivers.TYPED_FAMILIES:
                narrowed = typed.by_qualifier(self, name, qualifier, entry, args)
                if narrowed is not None:
                    return narrowed
        elif name in imports:
            target = self._fqn(imports[name])
            if target is not None:
                return [Resolution(target, 1.0, IMPORT)]
            if entry.language == "python" and self._not_a_definition(imports[name]):
                return []
        else:
            target = self._from_stars(entry, name)
            if target is not None:
                return [Resolution(target, 1.0, IMPORT)]
            if entry.language == "go":  # the package's other files are its scope too
                return go_scope.same_package(self.index, name, entry) or self._by_bare_name(
                    name, False, kind, entry
                )
            if scopes.a_modules_global(name, kind, entry):
                return []
        return self._by_bare_name(name, bool(qualifier), kind, entry)

    def _fqn(self, dotted: str, hops: int = 0) -> Symbol | None:
        """The definition with this qualified name; failing that, with its longest suffix
        of two or more parts (``django.db.models.Q`` when the workspace root is the
        ``django`` package itself, whose names start at ``db``); failing that, the one a
        module re-exports under it (:meth:`_reexported`)."""
        found = self._by_fqn.get(dotted)
        if found is not None:
            return self._past_stub(found, dotted, hops) if found.file.endswith(".pyi") else found
        # No definition of that name: what its suffixes and re-exports give is remembered
        # (a file's imports and qualified calls ask for the same misses again and again).
        key = (dotted, hops)
        if key in self._fqn_misses:
            return self._fqn_misses[key]
        found = self._fqn_misses[key] = self._fqn_elsewhere(dotted, hops)
        return found

    def _fqn_elsewhere(self, dotted: str, hops: int) -> Symbol | None:
        """:meth:`_fqn` of a name no definition has: a suffix's, or a re-export's."""
        parts = dotted.split(".")
        for start in range(1, len(parts) - 1):
            found = self._by_fqn.get(".".join(parts[start:]))
            if found is not None:
                return found
        if hops < MAX_REEXPORT_HOPS and len(parts) > 1:
            return self._reexported(parts, hops)
        return None

    def _past_stub(self, stub: Symbol, dotted: str, hops: int) -> Symbol:
        """A definition in a Python stub (``mod.pyi``) stands for the module beside it:
        the same definition there, or the one that module re-exports under the name."""
        twin = self.index.files.get(stub.file[:-1])
        if twin is None:
            return stub
        same = next((s for s in twin.symbols if s.fqn == stub.fqn), None)
        if same is not None:
            return same
        if hops < MAX_REEXPORT_HOPS:
            found = self._reexported(dotted.split("."), hops)
            if found is not None and not found.file.endswith(".pyi"):
                return found
        return stub

    def _reexported(self, parts: list[str], hops: int) -> Symbol | None:
        """``django.db.models.Model``: the module ``django.db.models`` defines no
        ``Model`` but imports it (``from django.db.models.base import Model``), and a
        module's imports are names of its own: follow them. The longest module path
        first, leading parts dropped as in :meth:`_fqn`."""
        modules = self._module_map()
        for start in range(len(parts) - 1):
            for cut in range(len(parts) - 1, start, -1):
                module = modules.get(".".join(parts[start:cut]))
                if module is None:
                    continue
                target = self.file_imports(module).get(parts[cut])
                if target is None:  # perhaps from a module it imports `*` from
                    return self._from_stars(module, ".".join(parts[cut:]), hops)
                return self._fqn(".".join([target, *parts[cut + 1 :]]), hops + 1)
        return None

    def importable(self, dotted: str) -> list[Symbol]:
        """The definitions ``dotted`` names as an import path would (``models.CharField``,
        ``db.models.Model``): the name in every module whose dotted name ends with the
        path's head, where the module defines, re-exports or ``*``-imports it. For
        queries written as people import names, not as the files define them."""
        head, _, last = dotted.rpartition(".")
        if not head or not last:
            return []
        suffix = "." + head
        found: dict[str, Symbol] = {}
        for module in self._module_map():
            if module == head or module.endswith(suffix):
                target = self._fqn(f"{module}.{last}")
                if target is not None and target.name == last:
                    found.setdefault(target.symbol_id, target)
        return list(found.values())

    def _not_a_definition(self, dotted: str) -> bool:
        """A Python import binds the name to a module of the workspace (``import attrs``)
        or to something from outside it (``from typing import Any``): not to a
        same-named definition found by name elsewhere."""
        modules = self._module_map()
        if dotted in modules:
            return True
        if self._module_parts is None:
            self._module_parts = {part for module in modules for part in module.split(".")}
        return dotted.split(".", 1)[0] not in self._module_parts

    def _module_map(self) -> dict[str, FileEntry]:
        """Python module name (from the path under its root) -> the file."""
        if self._modules is None:
            self._modules = python_modules(self.index)
        return self._modules

    def _by_bare_name(
        self, name: str, qualified: bool, kind: RefKind, entry: FileEntry
    ) -> list[Resolution]:
        """Candidates by name alone in the reference's own root (across repositories only
        an import links, resolved before this); cached, they depend on nothing else."""
        key = (name, qualified, kind, family(entry.language), entry.root)
        found = self._bare.get(key)
        if found is None:
            found = self._bare[key] = self._bare_candidates(*key)
        return found

    def _bare_candidates(
        self, name: str, qualified: bool, kind: RefKind, group: str, root: str
    ) -> list[Resolution]:
        positions = self.index.by_name.get(name)  # made when a name is first looked up
        if not positions:
            return []
        candidates = [self.symbols[i] for i in positions if self.symbols[i].root == root]
        # A bare name never links across languages (Python's builtin ``sum`` is not a
        # Java method ``sum``), except within a family that shares its definitions.
        candidates = [c for c in candidates if family(c.language) == group]
        if kind is RefKind.REFERENCE and not qualified:
            # An unqualified name is not a member of some class elsewhere: a parameter
            # ``items`` is not the field ``Order.items`` (members in scope resolved above).
            candidates = [c for c in candidates if c.kind not in Kind.MEMBERS]
        elif qualified:  # ``order.total()``: an attribute of a value is a member
            candidates = scopes.attribute_candidates(candidates, kind, group)
        # `extension Session {}`, `impl Session {}`, `instance ToJSON Value`: more of a type
        # declared elsewhere, not its declaration (none here: the type is from outside)
        candidates = [c for c in candidates if not adds_to_a_type(c)]
        if not candidates:
            return []
        # `new ParseException(..)`: the class and its constructor are one candidate
        classes = {c.symbol_id for c in candidates if c.kind in Kind.TYPES}
        candidates = [
            c for c in candidates if c.kind is not Kind.CONSTRUCTOR or c.parent not in classes
        ]
        wanted = Kind.CALL_TARGETS if kind is RefKind.CALL else None
        if kind in scopes.TYPED:
            wanted = Kind.TYPE_TARGETS
        if wanted is not None:
            candidates = [c for c in candidates if c.kind in wanted] or candidates
        if len(candidates) > MAX_CANDIDATES:
            return []
        # `res.json()` in a script, `res` of a type unknown: one `json` is no reason to link
        one = 0.4 if qualified and group == "javascript" else 0.8
        # three decimals, as the store keeps them: stored and fresh edges compare equal
        confidence = round(1.0 / len(candidates) * (0.5 if len(candidates) > 1 else one), 3)
        return [Resolution(c, confidence) for c in candidates]
