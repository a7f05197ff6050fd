"""Definitions found by a query -> symbols, each nested in the innermost one around it.

Works out what the queries leave to the engine: parents and qualified names,
methods versus functions, constructors, fields versus locals, stable ids, spans
in code-point columns, signatures and leading-comment docs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from symfuse.indexer.extract.texts import SPACES, comment_doc, node_text, short_name, signature
from symfuse.indexer.files import languages
from symfuse.indexer.model import Kind, Span, Symbol

if TYPE_CHECKING:
    from tree_sitter import Node

_CONSTRUCTOR_NAMES = frozenset({"__init__", "constructor", "initialize", "init", "new"})
# C++ `operator bool() const`: a conversion operator's declarator, named `operator bool`
_CONVERSION_OPERATOR = re.compile(r"operator\s+[A-Za-z_:][^(]*\(")


@dataclass(slots=True)
class Def:
    node: Node
    name_node: Node
    kind: Kind
    doc: str = ""
    decorators: list[tuple[str, Node]] = field(default_factory=list)
    extends: list[tuple[str, Node]] = field(default_factory=list)
    implements: list[tuple[str, Node]] = field(default_factory=list)
    receiver: str = ""
    # the receiver is written from the enclosing scope: C++'s `void Foo::enable() {}`
    # inside `namespace ns` is `ns.Foo.enable` (Julia's `Base.show(...) = ...` in a
    # module names another module's function: not nested)
    nested_receiver: bool = False
    symbol: Symbol | None = None
    index: int = -1  # the symbol's position in the file's list, once built
    overloads: list[str] = field(default_factory=list)  # signatures of its typing stubs
    # A body the grammar keeps beside the captured node, not in it (Dart's function_body
    # follows its function_signature): the definition's span runs to the body's end.
    body: Node | None = None

    @property
    def end_byte(self) -> int:
        body = self.body
        return body.end_byte if body is not None else self.node.end_byte


def _wide_rows(source: bytes) -> frozenset[int]:
    """The rows holding a non-ASCII byte: each such byte's row is the count of newlines
    before it (numpy, a moment even for a file of thousands of lines)."""
    data = np.frombuffer(source, dtype=np.uint8)
    rows = np.searchsorted(np.flatnonzero(data == 0x0A), np.flatnonzero(data >= 0x80))
    return frozenset(rows.tolist())  # not np.unique: its first call imports numpy.ma


class Columns:
    """Byte offsets -> 1-based code-point columns; byte arithmetic on ASCII lines."""

    def __init__(self, source: bytes) -> None:
        self._source = source
        self.ascii = source.isascii()
        # rows holding a non-ASCII byte (a file with one accented comment is mostly ASCII)
        self.wide_rows: frozenset[int] = frozenset() if self.ascii else _wide_rows(source)

    def col(self, row: int, byte_col: int, node_start_byte: int) -> int:
        if row not in self.wide_rows:
            return byte_col + 1
        line_start = node_start_byte - byte_col
        prefix = self._source[line_start:node_start_byte]
        return len(prefix.decode("utf-8", errors="replace")) + 1

    def span(self, node: Node, end: Node | None = None) -> Span:
        """A node's lines and columns, to the end of ``end`` when given (each point read
        crosses into C: read once)."""
        last = end if end is not None else node
        (row, byte_col), (end_row, end_byte_col) = node.start_point, last.end_point
        if self.ascii:
            return Span(row + 1, byte_col + 1, end_row + 1, end_byte_col + 1)
        return Span(
            row + 1,
            self.col(row, byte_col, node.start_byte),
            end_row + 1,
            self.col(end_row, end_byte_col, last.end_byte),
        )


def _refine_kind(kind: Kind, name: str, parent: Def | None) -> Kind:
    if kind is Kind.VARIABLE and len(name) > 1 and name.isupper():
        return Kind.CONSTANT if parent is None or not parent.kind.is_container else Kind.FIELD
    if parent is None:
        return kind
    if kind is Kind.FUNCTION and parent.kind.is_container:
        return Kind.CONSTRUCTOR if name in _CONSTRUCTOR_NAMES else Kind.METHOD
    if kind is Kind.METHOD and name in _CONSTRUCTOR_NAMES and parent.kind.is_container:
        return Kind.CONSTRUCTOR
    if kind is Kind.VARIABLE and parent.kind.is_container:
        return Kind.FIELD
    return kind


class SymbolBuilder:
    """Definitions in source order -> symbols, each nested in the innermost one around it."""

    def __init__(
        self,
        path: str,
        root: str,
        spec: languages.LanguageSpec,
        source: bytes,
        columns: Columns,
        prefix: str,
    ) -> None:
        self.path, self.root, self.spec = path, root, spec
        self.bare = spec.name == "csharp"  # signatures without their `#if` lines
        self.source, self.columns, self.prefix = source, columns, prefix
        self.stack: list[tuple[Def, str]] = []  # enclosing definitions, qualified names
        self.seen_ids: dict[str, int] = {}
        self.symbols: list[Symbol] = []

    def build(self, ordered: list[Def]) -> list[Symbol]:
        if self.spec.name == "python":
            ordered = self._merge_overloads(ordered)
        for entry in ordered:
            stack = self.stack
            while stack and (not _contains(stack[-1][0], entry) or _same_span(stack[-1][0], entry)):
                stack.pop()  # names declared together (`int x, y;`) are siblings, not nested
            self._add(entry)
        return self.symbols

    def _merge_overloads(self, ordered: list[Def]) -> list[Def]:
        """``@typing.overload`` stubs and their implementation as one definition: the
        implementation (the stubs' last when there is none, as in a ``.pyi``) carries
        every stub's signature, one a line after its own; the stubs are dropped, so
        the plain id, the callers and the callees are the implementation's."""
        stubs: dict[tuple[int, int, str], list[Def]] = {}
        dropped: set[int] = set()
        for entry in ordered:
            if entry.kind is not Kind.FUNCTION:
                continue
            scope = _scope_of(entry.node)
            key = (scope.start_byte, scope.end_byte, node_text(entry.name_node))
            if any(short_name(text) == "overload" for text, _ in entry.decorators):
                stubs.setdefault(key, []).append(entry)
                continue
            waiting = stubs.pop(key, None)
            if waiting:
                self._take_overloads(entry, waiting, dropped)
        for waiting in stubs.values():  # stubs without an implementation
            if len(waiting) > 1:
                self._take_overloads(waiting[-1], waiting[:-1], dropped)
        return [d for d in ordered if id(d) not in dropped] if dropped else ordered

    def _take_overloads(self, target: Def, stubs: list[Def], dropped: set[int]) -> None:
        target.overloads = [signature(d.node, d.name_node, self.source) for d in stubs]
        dropped.update(id(d) for d in stubs)

    def _add(self, entry: Def) -> None:
        name = _name(entry)
        if not name:
            return
        stack = self.stack
        parent, parent_q = stack[-1] if stack else (None, "")
        kind = _refine_kind(entry.kind, name, parent)
        if kind in Kind.VALUES and parent is not None and parent.kind.is_callable:
            if _is_parameter_property(entry, parent) and len(stack) >= 2:
                parent, parent_q = stack[-2]  # `constructor(private x: T)` declares a member
            elif not (_is_module_function(parent.node) and _holds_a_call(entry.node)):
                return  # a local variable: noise for a workspace index, as in ctags
        entry.kind = kind
        if entry.nested_receiver and parent_q:
            scope = f"{parent_q}.{entry.receiver}"
        else:
            scope = parent_q or entry.receiver
        if "::" in name and self.spec.name == "ruby":  # `class Sinatra::Base` is Base in Sinatra
            written, _, name = name.rpartition("::")
            written = written.lstrip(":").replace("::", ".")
            scope = f"{scope}.{written}" if scope and written else scope or written
        qualified = f"{scope}.{name}" if scope else name
        if "\n" in qualified or "\r" in qualified:  # one line in every table and answer
            name, qualified = SPACES.sub(" ", name), SPACES.sub(" ", qualified)
        entry.symbol = self._symbol(entry, name, qualified, parent)
        entry.index = len(self.symbols)
        self.symbols.append(entry.symbol)
        stack.append((entry, qualified))

    def _symbol_id(self, qualified: str, kind: Kind) -> str:
        """``path::Qualified.name#kind``; a repeated one gets ``~2``, ``~3``, ..."""
        symbol_id = f"{self.path}::{qualified}#{kind.value}"
        count = self.seen_ids.get(symbol_id, 0) + 1
        self.seen_ids[symbol_id] = count
        return f"{symbol_id}~{count}" if count > 1 else symbol_id

    def _symbol(self, entry: Def, name: str, qualified: str, parent: Def | None) -> Symbol:
        node, name_node, kind, spec = entry.node, entry.name_node, entry.kind, self.spec
        whole, named = self.columns.span(node, entry.body), self.columns.span(name_node)
        return Symbol(
            self._symbol_id(qualified, kind),
            name,
            kind,
            f"{self.prefix}.{qualified}" if self.prefix else qualified,
            "\n".join([signature(node, name_node, self.source, self.bare), *entry.overloads]),
            spec.name,
            self.path,
            self.root,
            *whole,
            *named,
            parent.symbol.symbol_id if parent is not None and parent.symbol else None,
            tuple([text for text, _ in entry.decorators]) if entry.decorators else (),
            tuple([text for text, _ in entry.extends]) if entry.extends else (),
            tuple([text for text, _ in entry.implements]) if entry.implements else (),
            entry.doc or (comment_doc(node) if spec.comment_docs else ""),
        )


def _name(entry: Def) -> str:
    name = node_text(entry.name_node).strip()
    if entry.kind is Kind.HEADING:
        return plain_heading(name)
    if _CONVERSION_OPERATOR.match(name):
        name = SPACES.sub(" ", name.split("(", 1)[0]).strip()  # not its parameters
    if len(name) > 2 and name[0] == name[-1] == "`":
        return name[1:-1]  # a quoted identifier (Swift's `protocol`, Kotlin's `my test`)
    if name.startswith(":") and name[1:2].isidentifier():
        name = name[1:]  # a symbol literal (Ruby's `:name`) names its bare word
    elif name.startswith("`") and name[1:2].isidentifier():
        name = name[1:]  # an OCaml polymorphic variant tag (`` `Assoc ``) names its bare word
    return name


_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")  # [text](url), ![alt](src)
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
# Only asterisks: underscores are far more often a name's (my_var, __init__) than emphasis.
_STRONG = re.compile(r"(\*\*)(?=\S)(.+?)(?<=\S)\1")
_EMPHASIS = re.compile(r"(?<![\w*])(\*)(?=\S)(.+?)(?<=\S)\1(?![\w*])")


def plain_heading(text: str) -> str:
    """A Markdown heading's words without their inline markup: code spans, links,
    strong and emphasis (``## `AsyncClient` `` is ``AsyncClient``)."""
    text = _LINK.sub(r"\1", text)
    text = _CODE_SPAN.sub(lambda m: m.group(2).strip(), text)
    text = _STRONG.sub(r"\2", text)
    text = _EMPHASIS.sub(r"\2", text)
    return SPACES.sub(" ", text).strip()


def _is_parameter_property(entry: Def, function: Def) -> bool:
    """A value declared in a constructor's parameters, before its body (TypeScript, PHP)."""
    if function.kind is not Kind.CONSTRUCTOR:
        return False
    body = function.node.child_by_field_name("body")
    return body is not None and entry.node.end_byte <= body.start_byte


_FUNCTION_VALUES = frozenset({"function_expression", "arrow_function", "function"})


def _is_module_function(node: Node) -> bool:
    """A JavaScript function that stands for a module: called where it is written
    (``(function () { ... })()``, ``function () { ... }.call(this)``) or wrapped in
    parentheses as such factories are (``var runInContext = (function runInContext()
    { ... })``). ``node`` is the function, or the definition it is the value of."""
    value = node.child_by_field_name("value") or node.child_by_field_name("right") or node
    while value.type == "parenthesized_expression" and value.named_child_count:
        value = value.named_children[0]
    if value.type not in _FUNCTION_VALUES:
        return False
    around = value.parent
    if around is not None and around.type == "member_expression":  # `.call(this)`
        around = around.parent
    return around is not None and around.type in ("parenthesized_expression", "call_expression")


def _holds_a_call(node: Node) -> bool:
    """``var merge = makeMerger(...)``: a declarator bound to a call's result."""
    value = node.child_by_field_name("value")
    return value is not None and value.type in ("call_expression", "new_expression")


def _scope_of(node: Node) -> Node:
    """The block a definition stands in, past the decorators wrapping it."""
    parent = node.parent
    while parent is not None and parent.type == "decorated_definition":
        parent = parent.parent
    return parent if parent is not None else node


def _contains(outer: Def, inner: Def) -> bool:
    return outer.node.start_byte <= inner.node.start_byte and inner.end_byte <= outer.end_byte


def _same_span(one: Def, other: Def) -> bool:
    return one.node.start_byte == other.node.start_byte and one.end_byte == other.end_byte


_SCOPE_NAMES = frozenset({"namespace_identifier", "type_identifier", "identifier"})


def receiver_path(receiver: Node) -> tuple[str, bool]:
    """The receiver's name with the scopes written before it, dotted, and whether it is
    a C++ qualified name (written from the enclosing namespace): ``void
    spdlog::details::backtracer::enable()`` is a member of ``spdlog.details.backtracer``,
    ``Foo<T>::bar`` of ``Foo``."""
    text = node_text(receiver)
    scope = receiver.parent
    if scope is not None and scope.type == "template_type":
        scope = scope.parent
    if scope is None or scope.type != "qualified_identifier":
        return text, False
    while scope is not None and scope.type == "qualified_identifier":
        outer = scope.parent
        if (
            outer is None
            or outer.type != "qualified_identifier"
            or outer.child_by_field_name("name") != scope
        ):
            break
        written = outer.child_by_field_name("scope")
        if written is None:
            break
        if written.type == "template_type":
            written = written.child_by_field_name("name") or written
        if written.type not in _SCOPE_NAMES:
            break  # not a name: a misparse can make the scope a whole class's text
        text = f"{node_text(written)}.{text}"
        scope = outer
    return text, True
