"""The rules of the dead-code report: what is never reported, and what lowers confidence.

:meth:`Judge.reportable` leaves out what is used by convention rather than by
reference; :meth:`Judge.verdict` gives the rest a confidence and a reason (see
:mod:`symfuse.ranking.analysis.dead_code` for the reasoning behind the numbers).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symfuse.indexer.extract.texts import short_name
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.analysis import c_api, composer_api, gem_api, hex_api, jvm_api, python_api
from symfuse.ranking.analysis import dead_conventions as conventions
from symfuse.ranking.analysis import dead_evidence as evidence
from symfuse.ranking.analysis import dead_sources as sources
from symfuse.ranking.fusion.roles import Role, role_of
from symfuse.ranking.graph.inheritance import inheritance
from symfuse.ranking.text import paths

PRIVATE = 0.95  # a private name nothing refers to: only its own module could
PUBLIC = 0.8  # a public one: someone outside the workspace may import it
PUBLIC_METHOD = 0.75  # a public method: callers may reach it through an untyped value

PRIVATE_REASON = "private and unreferenced"
MODULE_REASON = "not exported from its module, and unreferenced"
PUBLIC_REASON = "public, but nothing imports, exports or runs it"
METHOD_REASON = "a public method nothing calls; no super- or subtype defines it"
GO_METHOD_REASON = "an exported Go method: may satisfy an interface of a dependency"

REPORTED = frozenset({Kind.FUNCTION, Kind.METHOD, Kind.MACRO, Kind.VARIABLE, Kind.CONSTANT})
REPORTED |= Kind.TYPES
# How a method calls the one it overrides, by language (``super.name`` elsewhere).
_SUPER_CALLS = {
    "python": r"\bsuper\([^)]*\)\.{name}\b",
    "ruby": r"(?<![\w.:])super\b",  # `super` calls the method of its own name
    "csharp": r"\bbase\.{name}\b",
    "php": r"\bparent::{name}\b",
}
ENTRY_POINTS = frozenset(
    {
        "main",
        "setup",
        "teardown",
        "pytestmark",
        "pytest_plugins",
        "collect_ignore",
        "collect_ignore_glob",
        "urlpatterns",
        "app_name",
    }
)
# Languages whose definitions are run or read by name from outside (make targets, a
# Nix flake's ``outputs``: attribute sets are read by key).
ENTRY_LANGUAGES = frozenset({"make", "cmake", "just", "dockerfile", "nix"})
# Decorators that change how a function is called but not who calls it.
NEUTRAL_DECORATORS = frozenset(
    {
        "staticmethod",
        "classmethod",
        "lru_cache",
        "cache",
        "wraps",
        "final",
        "override",
        "total_ordering",
        "dataclass",
        "unique",
    }
)
# Properties: read as attributes, a use the index may not record (``if self.ready:``).
PROPERTIES = frozenset({"property", "cached_property", "cached_classproperty"})
# Declarations, not code: an abstract method or an overload is implemented elsewhere.
DECLARING_DECORATORS = frozenset(
    {
        "abstractmethod",
        "abstractproperty",
        "abstractclassmethod",
        "abstractstaticmethod",
        "overload",
    }
)
# Bases whose subclasses inherit no method a caller could reach through them.
INERT_BASES = frozenset(
    {
        "object",
        "ABC",
        "Generic",
        "NamedTuple",
        "TypedDict",
        "Enum",
        "IntEnum",
        "StrEnum",
        "Exception",
        "BaseException",
        "ValueError",
        "TypeError",
        "RuntimeError",
        "KeyError",
        "AttributeError",
        "LookupError",
        "IndexError",
        "OSError",
        "ImportError",
        "Warning",
        "UserWarning",
        "DeprecationWarning",
    }
)
_STUBS = re.compile(r"\.(pyi|d\.ts|d\.mts|d\.cts)$")
# Modules read by name by a tool or framework: Sphinx's conf.py, Django's settings.
_CONFIG_FILE = re.compile(r"(^|/)(conf|config|\w*settings\w*|setup|noxfile|fabfile)\.py$")
_PROTOCOLS = frozenset({"Protocol", "Interface", "ABC"})
_SCRIPTS = frozenset({"javascript", "typescript", "tsx"})
_EXPORT = re.compile(r"(^|[\s;])export\s")
_MODULE_SYNTAX = re.compile(r"^\s*(import\s|import\{|export\s|export\{)", re.M)
_EXTERNAL = re.compile(r"^\s*(\w+\s+)*external\s")  # Kotlin: declared here, defined in JS
_RESERVED = re.compile(r"_[A-Z]")  # C's names of the system: `_POSIX_C_SOURCE` configures it
_EVENT_HANDLER = re.compile(r"on[a-z]+")  # onerror, onreadystatechange: the host calls it
_FUNCTION_VALUE = re.compile(r"([=(:,?&|]|\breturn)\s*(async\s+)?function\s*\*?\s*$")
BARREL = 0.3  # exported and re-exported by a package's barrel file: its public API


@dataclass(frozen=True, slots=True)
class Doubt:
    """A sign of a use no reference records: the confidence is capped at ``cap``.
    ``used_by_design``: the sign says who uses it (a framework, an interface, users of a
    library), so the reason leads with it instead of "public but not imported"."""

    cap: float
    reason: str
    used_by_design: bool = False


class Judge:
    """Reportability and confidence of unreferenced definitions, over one index."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self._classes: dict[str, tuple[set[str], list[str]]] = {}
        self._defined: dict[str, int] = {}
        self._modules: dict[str, bool] = {}
        self._impls: dict[str, list[Symbol]] = {}

    def reportable(self, symbol: Symbol) -> bool:
        """False for what is used by convention: entry points, tests, hooks, stubs."""
        name = symbol.name
        if symbol.kind not in REPORTED or _STUBS.search(symbol.file):
            return False
        if evidence.generated(self.index, symbol.file):
            return False  # a parser's or a stub generator's output, edited at its source
        if name in ENTRY_POINTS or name.startswith("__") or symbol.language in ENTRY_LANGUAGES:
            return False
        if conventions.is_entry_point(symbol, self._attributes(symbol)) or self._implements(symbol):
            return False
        if symbol.kind.is_type and any(conventions.is_main(c) for c in self._members(symbol)):
            return False  # the class a program starts from (Java's, C#'s `main`)
        if self._function_value(symbol) or self._augments(symbol):
            return False
        if symbol.kind in Kind.VALUES and symbol.parent is not None:
            return False  # a local or a member: read through values no reference names
        if symbol.language == "rust" and name.startswith("_"):
            return False  # Rust's mark of an item unused on purpose (a compile-time check)
        if symbol.kind is Kind.MACRO and _RESERVED.match(name):
            return False  # a feature-test macro, read by the system's headers
        if role_of(symbol.file) is not Role.PRODUCT and conventions.is_test_code(symbol):
            return False
        decorators = {_decorator_name(d) for d in symbol.decorators}
        if decorators & DECLARING_DECORATORS or any(_is_accessor(d) for d in symbol.decorators):
            return False
        parent = self.index.get(symbol.parent) if symbol.parent is not None else None
        if parent is not None and parent.kind in (Kind.INTERFACE, Kind.TRAIT):
            return False
        if any(_EXTERNAL.search(s.signature) for s in (symbol, parent) if s is not None):
            return False  # a Kotlin `external` declaration binds code written elsewhere
        if parent is None or symbol.kind not in Kind.CALLABLES:
            return True
        if parent.kind.is_type and self._overrides(symbol, parent):
            return False
        if not (parent.kind.is_type or parent.kind is Kind.MODULE):
            return True
        return not self._calls_super(symbol)  # a Ruby module's too: it overrides its includer's

    def _members(self, owner: Symbol) -> list[Symbol]:
        return [self.index.symbols[i] for i in self.index.children.get(owner.symbol_id, ())]

    def _implements(self, method: Symbol) -> bool:
        """A Go method whose receiver type's supertypes (interfaces it satisfies) or
        subtypes also define its name: called through the interface."""
        receiver = conventions.go_receiver(method)
        if receiver is None or method.parent is not None:
            return False
        folder = method.file.rpartition("/")[0]
        owners = (self.index.symbols[i] for i in self.index.by_name.get(receiver, ()))
        return any(
            owner.kind.is_type
            and owner.file.rpartition("/")[0] == folder
            and self._overrides(method, owner)
            for owner in owners
        )

    def _calls_super(self, method: Symbol) -> bool:
        """Its own body calls the method it overrides (``super().name(...)``, Ruby's
        ``super``, ``base.Name(...)``): a base's or, for a Ruby module's method, the class's
        it is mixed into."""
        shape = _SUPER_CALLS.get(method.language, r"\bsuper\.{name}\b")
        lines = paths.read_lines(self.index, method.file)[method.line - 1 : method.end_line]
        body = evidence.strip_comments("\n".join(lines), method.language)
        return re.search(shape.format(name=re.escape(method.name)), body) is not None

    def verdict(self, symbol: Symbol) -> tuple[float, str]:
        """The confidence that ``symbol`` is dead, and why."""
        confidence, reason = self._base(symbol)
        doubts = self._doubts(symbol)
        if any(d.used_by_design for d in doubts):
            reason = "unreferenced, but " + "; ".join(d.reason for d in doubts if d.used_by_design)
        for doubt in doubts:
            confidence = min(confidence, doubt.cap)
            if not doubt.used_by_design:
                reason += "; " + doubt.reason
        return confidence, reason

    def _base(self, symbol: Symbol) -> tuple[float, str]:
        scripted = symbol.language in _SCRIPTS and self._module_level(symbol)
        if scripted and self._is_module(symbol.file):
            exported = self._exported(symbol)
            return (PUBLIC, PUBLIC_REASON) if exported else (PRIVATE, MODULE_REASON)
        if is_private(symbol):
            return PRIVATE, PRIVATE_REASON
        if symbol.kind in Kind.CALLABLES and symbol.parent is not None:
            parent = self.index.get(symbol.parent)
            if parent is not None and parent.kind.is_type:
                return PUBLIC_METHOD, METHOD_REASON
        return PUBLIC, PUBLIC_REASON

    def _doubts(self, symbol: Symbol) -> list[Doubt]:
        found: list[Doubt] = []
        names = {_decorator_name(d) for d in symbol.decorators}
        decorators = [d for d in symbol.decorators if _decorator_name(d) not in NEUTRAL_DECORATORS]
        hook = conventions.framework_hook(symbol, self._exported(symbol))
        hook = hook or conventions.rust_trait_impl(symbol, self._rust_impls(symbol.file))
        runtime = self._attributes(symbol) & conventions.RUST_RUNTIME_ATTRIBUTES.keys()
        hook = hook or (conventions.RUST_RUNTIME_ATTRIBUTES[min(runtime)] if runtime else None)
        hook = hook or self._literal_member(symbol) or self._configured(symbol)
        lines = paths.read_lines(self.index, symbol.file)
        hook = hook or sources.elixir_callback(symbol, lines)
        if hook is not None:
            found.append(Doubt(conventions.HOOK, hook, used_by_design=True))
        elif names & PROPERTIES:
            found.append(Doubt(0.45, "a property: read as an attribute, which may go unrecorded"))
        elif decorators:
            found.append(Doubt(0.3, f"decorated with @{decorators[0]}: a framework may call it"))
        parent = self.index.get(symbol.parent) if symbol.parent is not None else None
        if hook is None:
            found.extend(_protocol_doubts(symbol, parent))
        if parent is not None and parent.kind.is_callable and sources.built(symbol, lines):
            found.append(Doubt(0.3, "a member of an object built in a function: a callback"))
        if parent is not None and parent.kind.is_type:
            outside = self._related(parent)[1]
            if outside and not (is_private(symbol) and symbol.language != "python"):
                found.append(Doubt(0.3, f"may override a method of {outside[0]} (outside)"))
            if symbol.kind.is_type:
                found.append(Doubt(0.3, "a class inside a class: frameworks read those by name"))
        if symbol.kind.is_type:
            bases = [b for b in _bases(symbol) if b not in INERT_BASES]
            if bases:
                found.append(Doubt(0.3, f"subclass of {bases[0]}: may be found by its base"))
        if ">>>" in symbol.doc and f"{symbol.name}(" in symbol.doc:
            found.append(Doubt(0.3, "its docstring runs it (a doctest)"))
        if symbol.kind in Kind.VALUES and self._base(symbol)[0] != PRIVATE:
            if _CONFIG_FILE.search(symbol.file):
                found.append(Doubt(0.2, "a setting in a configuration module: read by name"))
            else:
                found.append(Doubt(0.6, "a public module-level value: may be read by name"))
        found.extend(self._public_doubts(symbol))
        found.extend(self._text_doubts(symbol))
        return found

    def _configured(self, symbol: Symbol) -> str | None:
        """A function of a module a configuration file names (mkdocs.yml's hooks)."""
        if symbol.parent is not None or symbol.kind is not Kind.FUNCTION:
            return None
        where = evidence.configured_modules(self.index).get(symbol.file)
        return f"its module is named in {where}: loaded and called by name" if where else None

    def _public_doubts(self, symbol: Symbol) -> list[Doubt]:
        """Signs of a library's public API: re-exported by a barrel, exported Go names,
        Rust ``pub`` items, public names of a Python distribution's packages."""
        found: list[Doubt] = []
        barrel = evidence.reexported_files(self.index).get(symbol.file)
        hidden = barrel is None or self._base(symbol)[0] == PRIVATE
        if symbol.language in _SCRIPTS and not hidden:
            top = self._outermost(symbol)
            exported = self._exported(symbol) or not self._module_level(symbol)
            if exported and self._exported(top):
                what = "exported" if top is symbol else f"part of the exported {top.name}"
                reason = f"{what}, and re-exported by {barrel} (export *): public API"
                found.append(Doubt(BARREL, reason, used_by_design=True))
        lines = paths.read_lines(self.index, symbol.file)
        above = "\n".join(lines[max(0, symbol.line - 4) : symbol.line - 1])
        public = conventions.public_api(symbol, lines[0] if lines else "", above)
        apis = (python_api, gem_api, hex_api, composer_api, c_api, jvm_api)
        shipped = (api.public_api(self.index, symbol) for api in apis)
        for reason in (r for r in (public, *shipped) if r is not None):
            found.append(Doubt(conventions.PUBLIC_API, reason, used_by_design=True))
        return found

    def _attributes(self, symbol: Symbol) -> set[str]:
        """A Rust item's attributes (``#[test]``, ``#[global_allocator]``); empty for
        other languages."""
        if symbol.language != "rust":
            return set()
        lines = paths.read_lines(self.index, symbol.file)
        return conventions.rust_attributes(symbol, lines[max(0, symbol.line - 9) : symbol.line - 1])

    def _rust_impls(self, file: str) -> list[Symbol]:
        """The ``impl`` blocks of a Rust file (cached per file)."""
        known = self._impls.get(file)
        if known is None:
            entry = self.index.files.get(file)
            found = conventions.rust_impls(entry.definitions()) if entry is not None else []
            known = self._impls[file] = found
        return known

    def _literal_member(self, symbol: Symbol) -> str | None:
        """A JavaScript/TypeScript method of an object literal (``bench({ "case"() {}
        })``, ``const api = { helper() {} }``): whoever gets the object calls it by key."""
        if symbol.language not in _SCRIPTS or symbol.kind is not Kind.METHOD:
            return None
        parent = self.index.get(symbol.parent) if symbol.parent is not None else None
        if parent is not None and (parent.kind.is_type or parent.kind is Kind.OBJECT):
            return None
        return "a member of an object literal: whoever receives the object calls it by key"

    def _module_level(self, symbol: Symbol) -> bool:
        """At a module's top level, or in a namespace there (``export namespace util``)."""
        parent = self.index.get(symbol.parent) if symbol.parent is not None else None
        return parent is None or parent.kind in (Kind.NAMESPACE, Kind.MODULE)

    def _outermost(self, symbol: Symbol) -> Symbol:
        """The top-level definition ``symbol`` is part of (itself when top-level)."""
        while symbol.parent is not None:
            parent = self.index.get(symbol.parent)
            if parent is None:
                break
            symbol = parent
        return symbol

    def _augments(self, symbol: Symbol) -> bool:
        """A TypeScript declaration inside ``declare module "react"`` or ``declare
        global``: it merges with one outside the workspace."""
        parent = self.index.get(symbol.parent) if symbol.parent is not None else None
        if symbol.language not in _SCRIPTS or parent is None or parent.kind is not Kind.MODULE:
            return False
        line = paths.line_text(paths.read_lines(self.index, parent.file), parent.line)
        return line.lstrip().startswith("declare")

    def _function_value(self, symbol: Symbol) -> bool:
        """A named JavaScript/TypeScript function expression (``x.run = function shim()
        {}``, ``f(function done() {})``, the argument on a line of its own): used where
        it is written; an event handler (``request.onerror = ...``), which the host calls;
        a method with a computed name (``[Symbol.iterator]()``), which the language
        calls."""
        if symbol.language not in _SCRIPTS:
            return False
        if symbol.name.startswith("[") or _EVENT_HANDLER.fullmatch(symbol.name):
            return True
        if symbol.kind is not Kind.FUNCTION:
            return False
        lines = paths.read_lines(self.index, symbol.file)
        head = paths.line_text(lines, symbol.name_line)[: max(0, symbol.name_col - 1)]
        if not head.strip() or head.strip() in ("function", "async function"):
            before = paths.line_text(lines, symbol.name_line - 1).rstrip()
            head = f"{before} {head.strip()}"
        return _FUNCTION_VALUE.search(head) is not None

    def _exported(self, symbol: Symbol) -> bool:
        """A JavaScript/TypeScript definition written with ``export``."""
        if symbol.language not in _SCRIPTS:
            return False
        lines = paths.read_lines(self.index, symbol.file)[symbol.line - 1 : symbol.name_line]
        return _EXPORT.search("\n".join(lines)) is not None

    def _is_module(self, file: str) -> bool:
        """A JavaScript/TypeScript file that imports or exports: its other top-level
        names are its own (in a script they are global)."""
        known = self._modules.get(file)
        if known is None:
            text = "\n".join(paths.read_lines(self.index, file))
            known = self._modules[file] = _MODULE_SYNTAX.search(text) is not None
        return known

    def _text_doubts(self, symbol: Symbol) -> list[Doubt]:
        name = symbol.name
        found: list[Doubt] = []
        said = evidence.mentions(self.index)
        if name in said.quoted:
            found.append(Doubt(0.2, f'written as a string ("{name}") somewhere: may be looked up'))
        owner = self.index.get(symbol.parent) if symbol.parent is not None else None
        for type_ in (symbol, owner) if not is_private(symbol) else ():
            if type_ is not None and type_.kind.is_type and type_.name in said.reflected:
                why = f"{type_.name} is handed over for reflection ({type_.name}.class)"
                found.append(Doubt(0.3, f"{why}: a runner may call it by name"))
                break
        if said.built is not None and said.built.fullmatch(name):
            found.append(Doubt(0.2, "code builds names of this shape: may be found by name"))
        extra = said.code[name] - (self._definitions(name) - 1) - self._own_mentions(symbol)
        if extra > 0:
            found.append(Doubt(0.45, f"its name appears {extra} more times in code or strings"))
        elif said.prose[name]:
            found.append(Doubt(0.5, "named only in documentation: public API?"))
        return found

    def _own_mentions(self, symbol: Symbol) -> int:
        """Mentions of the name inside its own definition (its name, a recursive call):
        no use from elsewhere."""
        lines = paths.read_lines(self.index, symbol.file)[symbol.line - 1 : symbol.end_line]
        words = evidence.words(evidence.strip_comments("\n".join(lines), symbol.language))
        return max(1, words.count(symbol.name))

    def _definitions(self, name: str) -> int:
        return len(self.index.by_name.get(name, ()))

    def _overrides(self, method: Symbol, owner: Symbol) -> bool:
        """Whether a supertype or a subtype of ``owner`` also defines ``method``'s name."""
        names, _ = self._related(owner)
        return method.name in names

    def _related(self, owner: Symbol) -> tuple[set[str], list[str]]:
        """Member names of the supertypes and subtypes of ``owner``, and the names of its
        bases outside the workspace (not inert) or that declare an interface."""
        cached = self._classes.get(owner.symbol_id)
        if cached is not None:
            return cached
        index = self.index
        tree = inheritance(index)
        names: set[str] = set()
        outside = [b for b in tree.outside_bases(owner.symbol_id) if b not in INERT_BASES]
        for other in (*tree.ancestors(owner.symbol_id), *tree.descendants(owner.symbol_id)):
            symbol = index.get(other)
            if symbol is not None and symbol.name in _PROTOCOLS:
                outside.append(symbol.name)
            names.update(index.symbols[i].name for i in index.children.get(other, ()))
        self._classes[owner.symbol_id] = (names, outside)
        return names, outside


def is_private(symbol: Symbol) -> bool:
    """Private by its language's convention: ``_name`` (Python), a lower-case first letter
    (Go), no ``pub`` (Rust), ``#name`` or ``private`` (JavaScript/TypeScript; ``_name``
    too, in a script, whose names are global: in a module the leading underscore hides
    nothing, ``export`` decides), ``static`` (C family), ``defp`` (Elixir), ``private``
    (the others)."""
    name, language, signature = symbol.name, symbol.language, symbol.signature
    if language == "python":
        return name.startswith("_")
    if language == "go":
        return name[:1].islower()
    if language in _SCRIPTS:
        hidden = name.startswith("#") or (name.startswith("_") and symbol.parent is None)
        return hidden or re.search(r"\bprivate\b", signature) is not None
    if language in ("c", "cpp", "objc", "cuda"):
        return signature.lstrip().startswith("static")
    if language == "rust":
        return not signature.lstrip().startswith("pub")
    if language == "elixir":
        return re.match(r"\s*def(p|macrop|guardp)\s", signature) is not None
    return re.search(r"\bprivate\b", signature) is not None


def _protocol_doubts(symbol: Symbol, parent: Symbol | None) -> list[Doubt]:
    """Methods an interface or a protocol outside the workspace may call: an exported
    Go method (types satisfy interfaces silently), a Python method of a standard
    duck-typed protocol (``readline`` of a file object, ``get_full_url`` of a request)."""
    if conventions.go_exported_method(symbol):
        return [Doubt(0.3, GO_METHOD_REASON)]
    protocol = conventions.PYTHON_PROTOCOL_METHODS.get(symbol.name)
    if protocol is not None and symbol.language == "python" and parent is not None:
        reason = f"{symbol.name} is a method of {protocol}: code outside may call it"
        return [Doubt(0.3, reason, used_by_design=True)]
    return []


def _decorator_name(text: str) -> str:
    return short_name(text.lstrip("@").split("(", 1)[0])


def _is_accessor(text: str) -> bool:
    return text.lstrip("@").split("(", 1)[0].endswith((".setter", ".getter", ".deleter"))


def _bases(symbol: Symbol) -> list[str]:
    return [short_name(b.split("[", 1)[0]) for b in (*symbol.extends, *symbol.implements)]
