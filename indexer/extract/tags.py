"""Source bytes -> definitions and references, driven by a language's tags query.

Capture conventions in ``queries/<language>.scm`` (those of tree-sitter tags,
plus a few of ours):

- ``@definition.<kind>`` on the whole definition node, with ``@name`` on its
  name; ``<kind>`` is a :class:`Kind` value (``class``, ``function``, ...).
  Optional in the same pattern: ``@doc`` (a docstring node), ``@decorator``,
  ``@extends`` and ``@implements`` (one node each, quantifiers allowed).
- ``@reference.<kind>`` on a use, with ``@name`` on the name; ``<kind>`` is a
  :class:`RefKind` value. Optional: ``@qualifier`` (``os.path`` in
  ``os.path.join``) and ``@alias`` (the local name an import binds).
- ``@words`` beside ``@name`` on a C macro's body (``preproc_arg``, text the grammar leaves
  unparsed): each name in it is a reference (:mod:`.macro_words`), but for the macro's
  ``@parameters``.
- ``@receiver`` in a definition pattern names the type a method is declared on
  outside that type's body (Go's ``func (o *Order) Total()``, C++'s
  ``int Order::total()``); a top-level definition's qualified name then starts
  with it (``Order.Total``).

The engine, not the queries, works out parents, qualified names, methods
versus functions, signatures, leading-comment docs and the enclosing definition
of every reference, so queries stay small and alike across languages.

What this module (with definitions.py, extract_text.py and prepass.py) yields is versioned by
:data:`~symfuse.indexer.versions.EXTRACTOR_VERSION`: bump it when that changes.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tree_sitter import Node, QueryCursor, Tree

from symfuse.indexer.extract import conditionals, cpp_declared
from symfuse.indexer.extract.arguments import COUNTED, UNKNOWN, argument_count
from symfuse.indexer.extract.cpp_declared import declared_name
from symfuse.indexer.extract.definitions import Columns, Def, SymbolBuilder, receiver_path
from symfuse.indexer.extract.haskell import instance_types, whole_functions
from symfuse.indexer.extract.macro_words import blanked_words, macro_words
from symfuse.indexer.extract.prepass import PREPASS
from symfuse.indexer.extract.texts import (
    SPACES,
    clean_doc_string,
    module_name,
    node_text,
    short_name,
)
from symfuse.indexer.files import languages
from symfuse.indexer.files.source import strip_bom
from symfuse.indexer.model import Kind, Reference, RefKind, Symbol
from symfuse.indexer.store import rows

# When two patterns capture one name, a kind here replaces the kinds it refines.
_REFINED_BY: dict[Kind, frozenset[Kind]] = {
    Kind.CONSTANT: frozenset({Kind.VARIABLE, Kind.FIELD, Kind.PROPERTY}),
    Kind.CONSTRUCTOR: frozenset({Kind.FUNCTION, Kind.METHOD}),
    Kind.INTERFACE: frozenset({Kind.CLASS}),
    Kind.ENUM: frozenset({Kind.CLASS, Kind.TYPE}),
    # `typedef struct {...} name_t;` is a struct named by its typedef
    Kind.STRUCT: frozenset({Kind.TYPE}),
    Kind.UNION: frozenset({Kind.TYPE}),
    # a variable, field or property holding a function or class (`const f = () => 1`)
    Kind.FUNCTION: Kind.VALUES,
    Kind.METHOD: Kind.VALUES,
    Kind.CLASS: Kind.VALUES,
}


@dataclass(frozen=True, slots=True)
class Extraction:
    path: str
    symbols: list[Symbol]
    reference_rows: list[rows.RefRow]  # the stored form; the indexer packs them as they are
    problems: list[str]

    @property
    def references(self) -> list[Reference]:
        ids: list[str | None] = [s.symbol_id for s in self.symbols]
        ids.append(None)  # enclosing -1: at file level
        kinds = list(RefKind)
        return [
            Reference(
                name, self.path, line, col, kinds[code], ids[enclosing], qualifier, alias, args
            )
            for name, line, col, code, enclosing, qualifier, alias, args in self.reference_rows
        ]


def extract(
    path: str,
    root: str,
    language: str,
    source: bytes,
    module_path: str | None = None,
    *,
    definitions_only: bool = False,
) -> Extraction:
    """Definitions and references of one file. Syntax errors yield what tree-sitter recovers.
    ``definitions_only``: no references (their patterns are not run).

    ``module_path`` is the path that module-qualified names come from (Python's
    ``pkg/mod.py`` -> ``pkg.mod``), when it differs from ``path``: a root that is
    itself a package puts its own name first.
    """
    source = strip_bom(source)  # editors hide it: line 1's columns start after it
    prepass = PREPASS.get(language)
    text = prepass(source) if prepass else source
    tree = conditionals.parse(languages.parser(language), language, text)
    hidden = blanked_words(source, text) if language in _BLANKS_USES else ()
    return extract_tree(path, root, language, source, tree, module_path, definitions_only, hidden)


def extract_tree(
    path: str,
    root: str,
    language: str,
    source: bytes,
    tree: Tree,
    module_path: str | None = None,
    definitions_only: bool = False,
    hidden: Sequence[_RawRef] = (),
) -> Extraction:
    """:func:`extract` of a file already parsed (``source`` without its BOM): the history
    index parses a file's next version incrementally, from the previous one's tree.
    ``hidden``: references the parsed text no longer shows (:func:`blanked_words`)."""
    spec = languages.supported()[language]
    problems: list[str] = []
    # an error node, not the flag alone: a C# file ending in `#pragma warning restore 618`
    # with no newline is flagged for a token the tree never shows (Newtonsoft's tests)
    line = conditionals.first_error_line(tree) if tree.root_node.has_error else None
    if line is not None and not spec.stand_in:
        problems.append(f"syntax errors from line {line}; indexed what the parser recovered")
    columns = Columns(source)
    defs, raw_refs = _collect(language, tree, source, definitions_only)
    if hidden and not definitions_only:
        raw_refs.extend(hidden)
    _fold_function_values(defs)
    if spec.grammar_name == "haskell":
        instance_types(defs)
        whole_functions(defs)
    # a definition's own name is not a call of it (Julia's `f(x) = ...` head is a call),
    # nor in C++ a read of it (`void DBImpl::go() {}` is a qualified name); a mark
    # (`@local`) at a local's name stays
    own = (RefKind.CALL, RefKind.REFERENCE) if language in cpp_declared.LANGUAGES else _CALLS
    raw_refs = [r for r in raw_refs if r[5] not in own or r[0] not in defs or r[7] in _LOCALS]
    ordered = sorted(
        defs.values(), key=lambda d: (d.node.start_byte, -d.end_byte, d.name_node.start_byte)
    )
    prefix = module_name(module_path or path) if spec.module_fqn else ""
    symbols = SymbolBuilder(path, root, spec, source, columns, prefix).build(ordered)
    references = _build_references(ordered, raw_refs, columns, _marks_free(language))
    return Extraction(path, symbols, references, problems)


_CALLS = (RefKind.CALL,)
# The languages whose pre-pass blanks names that are uses (C's attribute macros); other
# pre-passes blank keywords (TypeScript's `in` / `out`) or rewrite whole files (Teal).
_BLANKS_USES = frozenset({"c", "cpp", "cuda", "objc"})


@functools.cache
def _marks_free(language: str) -> bool:
    """Whether the language's query marks bare names ``@free``: it writes a call apart
    from a variable (Ruby's ``stat = stat(path)`` calls ``stat``), so its locals hide only
    those."""
    return FREE_MARK in languages.query_source(language)


# A reference as collected from a match: start and end byte, row, byte column, name,
# kind, qualifier, alias, arguments a call passes (plain values: reading a Node's
# fields crosses into C each time).
_RawRef = tuple[int, int, int, int, bytes, RefKind, str, str, int]


Role = tuple[str, Kind | RefKind] | None
# (language, definitions only) -> pattern index -> role. Module-level on purpose: a
# pattern's role depends only on the language's query (the installed grammar and its .scm
# file), never on a workspace or an index, so every index may share what was learnt.
_ROLES: dict[tuple[str, bool], dict[int, Role]] = {}
_UNKNOWN: Role = ("", Kind.VARIABLE)  # a pattern not seen yet (None: seen, no known role)
_USES: dict[str, dict[int, Role]] = {}  # language -> _use_roles


def _collect(
    language: str, tree: Tree, source: bytes, definitions_only: bool = False
) -> tuple[dict[int, Def], list[_RawRef]]:
    """The query's definitions (by their name's start byte) and references (their rows
    made in the loop itself, which runs once a match: no call a reference)."""
    defs: dict[int, Def] = {}
    raw_refs: list[_RawRef] = []
    append = raw_refs.append
    roles = _ROLES.setdefault((language, definitions_only), {})  # two queries, two numberings
    uses = {} if definitions_only else _use_roles(language)
    counted = language in COUNTED
    call, typed = RefKind.CALL, RefKind.TYPE
    declaring = language in cpp_declared.LANGUAGES
    query = languages.definitions_query(language) if definitions_only else languages.query(language)
    for pattern, caps in QueryCursor(query).matches(tree.root_node):
        names = caps.get("name")
        if not names:
            continue
        role: Role = uses.get(pattern)  # a use's role capture is disabled: its pattern says it
        if role is None:
            role = roles.get(pattern, _UNKNOWN)
            if role is _UNKNOWN or (role is not None and role[0] not in caps):
                # A pattern's role capture is the same in every match, except across the
                # branches of an alternation: look again whenever the remembered one is absent.
                role = roles[pattern] = _role(caps)
            if role is None:
                continue
        cap, kind = role
        name = names[0]
        if isinstance(kind, Kind):
            _add_def(defs, kind, caps[cap][0], name, caps)
            continue
        if definitions_only:
            continue  # the history index reads definitions alone
        start, end = name.start_byte, name.end_byte
        row, byte_col = name.start_point
        if cap in _MARKS:
            append((start, end, row, byte_col, source[start:end], kind, "", _MARKS[cap], UNKNOWN))
            continue
        if "words" in caps:  # a C macro's body: token text the grammar does not parse
            raw_refs.extend(macro_words(name, source, caps.get("parameters")))
            continue
        qualifiers = caps.get("qualifier")
        aliases = caps.get("alias")
        alias = node_text(aliases[0]) if aliases else (FREE_MARK if "free" in caps else "")
        if declaring and kind is typed and not alias:  # C++'s `backtracer tracer_;`
            alias = declared_name(name)
        append((
            start, end, row, byte_col, source[start:end], kind,
            _qualifier(qualifiers, name, source) if qualifiers else "", alias,
            argument_count(name) if counted and kind is call else UNKNOWN,
        ))  # fmt: skip
    return defs, raw_refs


def _fold_function_values(defs: dict[int, Def]) -> None:
    """A named function expression that is the value of a definition of the same name
    is that definition (its own name is visible only inside it): ``obj.init =
    function init() {}`` and ``var f = (function f() {})`` are ``obj.init`` and ``f``,
    functions, not also ``obj.init.init`` and ``f.f``. Under another name it stays a
    definition of its own (``module.exports = function parse() {}``)."""
    holders = {(d.node.start_byte, d.node.end_byte, d.node.type): d for d in defs.values()}
    for key, entry in list(defs.items()):
        if entry.node.type != "function_expression":
            continue
        holder = entry.node.parent
        while holder is not None and holder.type == "parenthesized_expression":
            holder = holder.parent
        outer = holders.get((holder.start_byte, holder.end_byte, holder.type)) if holder else None
        if outer is None or outer is entry or outer.name_node.text != entry.name_node.text:
            continue  # `module.exports = function parse() {}`: `parse` names it better
        del defs[key]
        if outer.kind in Kind.VALUES:
            outer.kind = entry.kind


def _use_roles(language: str) -> dict[int, Role]:
    """Pattern number -> the role of each pattern of the full query that finds a use
    (:func:`~symfuse.indexer.files.languages.reference_roles`), remembered."""
    found = _USES.get(language)
    if found is None:
        found = _USES[language] = {}
        for number, capture in languages.reference_roles(language).items():
            role = _role((capture,))
            if role is not None and isinstance(role[1], RefKind):
                found[number] = role
    return found


def _role(captures: Iterable[str]) -> Role:
    """The capture that says what a pattern finds, with its kind; None for no known role."""
    for cap in captures:
        prefix, _, kind = cap.partition(".")
        try:
            if prefix == "definition":
                return cap, Kind(kind)
            if prefix == "reference":
                return cap, RefKind(kind)
            if cap in _MARKS:
                return cap, RefKind.REFERENCE
        except ValueError:
            return None
    return None


def _add_def(
    defs: dict[int, Def],
    kind: Kind,
    node: Node,
    name_node: Node,
    caps: dict[str, list[Node]],
) -> None:
    entry = defs.get(name_node.start_byte)
    if entry is None:
        entry = defs[name_node.start_byte] = Def(node, name_node, kind)
    elif entry.kind in _REFINED_BY.get(kind, ()):
        entry.kind = kind  # a more specific pattern, e.g. a `const` field, wins
    if node.end_byte - node.start_byte < entry.node.end_byte - entry.node.start_byte:
        entry.node = node  # the tighter of two captures of one definition
    if "doc" in caps and not entry.doc:
        entry.doc = clean_doc_string(node_text(caps["doc"][0]))
    if "body" in caps and entry.body is None:
        entry.body = caps["body"][0]
    if "receiver" in caps and not entry.receiver:
        entry.receiver, entry.nested_receiver = receiver_path(caps["receiver"][0])
    for cap, target in (
        ("decorator", entry.decorators),
        ("extends", entry.extends),
        ("implements", entry.implements),
    ):
        for item in caps.get(cap, ()):
            text = SPACES.sub(" ", node_text(item)).strip().lstrip("@").strip()
            if text and all(text != seen for seen, _ in target):
                target.append((text, item))


def _qualifier(nodes: list[Node], name_node: Node, source: bytes) -> str:
    """The qualifier's text; one that spans the whole path (``a.b.C``) is cut before the name."""
    start, end = nodes[0].start_byte, nodes[-1].end_byte
    if start <= name_node.start_byte < end:
        end = name_node.start_byte
    text = source[start:end].decode("utf-8", errors="replace")
    if text.strip(" \t") and not text.strip(" \t."):
        return text.strip(" \t")  # a relative module of dots alone (`from . import x`)
    return text.rstrip(" \t.:/\\")


def _build_references(
    ordered: list[Def], raw_refs: list[_RawRef], columns: Columns, marks_free: bool
) -> list[rows.RefRow]:
    kept = [entry for entry in ordered if entry.symbol is not None]
    references = _attribute_references(kept, columns)
    code_of = rows.REF_KIND_CODE
    spans = [(e.node.start_byte, e.end_byte, e.index) for e in kept]
    count = len(spans)
    stack: list[tuple[int, int, int]] = []  # the definitions around the reference
    position = 0
    raw_refs = _not_their_names(_one_per_name(raw_refs), kept)
    wide_rows = columns.wide_rows
    local_names: set[tuple[int, str]] = set()
    global_names: set[tuple[int, str]] = set()  # declared global: never local
    free: set[int] = set()  # positions in ``references`` of bare names (``@free``)
    for start, end, row, byte_col, raw_name, ref_kind, qualifier, alias, args in raw_refs:
        while position < count and spans[position][0] <= start:
            span = spans[position]
            while stack and not (stack[-1][0] <= span[0] and span[1] <= stack[-1][1]):
                stack.pop()
            stack.append(span)
            position += 1
        while stack and stack[-1][1] < end:
            stack.pop()
        name = raw_name.decode("utf-8", errors="replace").strip()
        if not name:
            continue
        if name[0] == "`":  # a quoted identifier (Swift, Kotlin, Scala), an OCaml variant tag
            name = name.strip("`")
        col = columns.col(row, byte_col, start) if row in wide_rows else byte_col + 1
        enclosing = stack[-1][2] if stack else -1
        if alias in _MARK_OF:  # a name the function binds, or declares global
            (local_names if alias == _MARKS[LOCAL] else global_names).add((enclosing, name))
            continue
        if alias == FREE_MARK:
            free.add(len(references))
        references.append((
            name, row + 1, col, code_of[ref_kind], enclosing, qualifier,
            "" if alias == FREE_MARK else alias, args,
        ))  # fmt: skip
    hidden = free if marks_free else None
    return _not_local(references, local_names - global_names, kept, free, hidden)


LOCAL = "local"  # a query's capture for a name a function binds (a parameter, an assignment)
GLOBAL = "global"  # ... for a name it declares the module's (Python's `global CACHE`)
# their marks in the alias slot (no variable's name: `local = f()`)
_MARKS = {LOCAL: "@local", GLOBAL: "@global"}
_LOCALS = frozenset(_MARKS.values())
_MARK_OF = frozenset(_MARKS.values())
# ... for a bare name that is a use only inside a function that does not bind it (Ruby's
# `helper`, a call or a local variable by the bindings before it); no variable's name either
FREE_MARK = "@free"
_LOCAL_KINDS = frozenset(rows.REF_KIND_CODE[k] for k in (RefKind.REFERENCE, RefKind.CALL))


def _not_local(
    references: list[rows.RefRow],
    local_names: set[tuple[int, str]],
    kept: list[Def],
    free: set[int],
    hidden: set[int] | None,
) -> list[rows.RefRow]:
    """The references less the bare names a function binds itself (its parameters and
    assignments): ``attrs = tuple(attrs)`` inside a function is not the module's
    ``attrs``, unless it defines the name there. Only where the language's query says
    what is local (``@local``); of ``hidden`` positions alone when given. A bare name
    marked ``@free`` (at a position in ``free``) is kept only inside a function."""
    if not local_names and not free:
        return references
    functions = {e.index for e in kept if e.symbol is not None and e.symbol.kind.is_callable}
    # a name a function binds by a nested definition too (`def wrapper(): ...` then
    # `wrapper = wraps(f)(wrapper)`) stands for that definition: its uses are kept
    if local_names:
        number = {e.symbol.symbol_id: e.index for e in kept if e.symbol is not None}
        local_names = local_names - {
            (number[e.symbol.parent], e.symbol.name)
            for e in kept
            if e.symbol is not None and e.symbol.parent in number
        }
    return [
        r
        for at, r in enumerate(references)
        if not (
            r[3] in _LOCAL_KINDS
            and not r[5]
            and r[4] in functions
            and (r[4], r[0]) in local_names
            and (hidden is None or at in hidden)
        )
        and (at not in free or r[4] in functions)
    ]


def _attribute_references(kept: list[Def], columns: Columns) -> list[rows.RefRow]:
    """What definitions name in their decorators, bases and interfaces."""
    code_of = rows.REF_KIND_CODE
    references: list[rows.RefRow] = []
    for entry in kept:
        for attrs, ref_kind in (
            (entry.decorators, RefKind.DECORATE),
            (entry.extends, RefKind.INHERIT),
            (entry.implements, RefKind.IMPLEMENT),
        ):
            for text, node in attrs:
                name = short_name(text)
                head = text.split("(", 1)[0].split("<", 1)[0].split("[", 1)[0].strip()
                qualifier = head[: -len(name)].rstrip(".:") if head.endswith(name) else ""
                row, byte_col = node.start_point
                col = columns.col(row, byte_col, node.start_byte)
                references.append(
                    (name, row + 1, col, code_of[ref_kind], entry.index, qualifier, "", UNKNOWN)
                )
    return references


_first = operator.itemgetter(0)


def _not_their_names(raw_refs: list[_RawRef], kept: list[Def]) -> list[_RawRef]:
    """The references less a bare name read at an enum member's own name: Zig's members
    are bare names in their container, which its pattern for names as values matches
    too, and a member would be a use of itself. Other definitions keep a reference at
    their name (a Fortran binding `procedure :: order_total` names what it binds, a
    Haskell instance the type it is for)."""
    named_at = {e.name_node.start_byte for e in kept if e.kind is Kind.ENUM_MEMBER}
    if not named_at:
        return raw_refs
    return [r for r in raw_refs if not (r[5] is RefKind.REFERENCE and r[0] in named_at)]


def _one_per_name(raw_refs: list[_RawRef]) -> list[_RawRef]:
    """The references in source order, one per written name: a name two patterns match
    (``self.save()`` is a call and a member read) keeps the more specific kind, and of
    two of one kind the one naming an alias (``var m = require('./m')``) or else its
    qualifier (``x[k] = self.select``, where one pattern reads the value alone); a name
    marked ``@free`` gives way to any other reading of it."""
    raw_refs.sort(key=_first)
    kept: list[_RawRef] = []
    for ref in raw_refs:
        if kept and kept[-1][0] == ref[0] and kept[-1][1] == ref[1]:
            last = kept[-1]
            if FREE_MARK in (ref[7], last[7]):  # a bare name another pattern reads too
                kept[-1] = last if ref[7] == FREE_MARK else ref
                continue
            specific = last[5] is RefKind.REFERENCE and ref[5] is not RefKind.REFERENCE
            same = last[5] is ref[5]
            if specific or (same and ref[7] and not last[7]) or (same and ref[6] and not last[6]):
                kept[-1] = ref
            continue
        kept.append(ref)
    return kept
