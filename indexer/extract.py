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
- ``@receiver`` in a definition pattern names the type a method is declared on
  outside that type's body (Go's ``func (o *Order) Total()``, C++'s
  ``int Order::total()``); a top-level definition's qualified name then starts
  with it (``Order.Total``).

The engine, not the queries, works out parents, qualified names, methods
versus functions, signatures, leading-comment docs and the enclosing definition
of every reference, so queries stay small and alike across languages.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from tree_sitter import Node, QueryCursor

from symfuse.indexer import languages, rows
from symfuse.indexer.model import Kind, Reference, RefKind, Symbol

MAX_SIGNATURE = 240
MAX_DOC = 800

_FUNCTION_KINDS = frozenset({Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR})
_VALUE_KINDS = frozenset({Kind.VARIABLE, Kind.CONSTANT, Kind.FIELD, Kind.PROPERTY})
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
    Kind.FUNCTION: _VALUE_KINDS,
    Kind.METHOD: _VALUE_KINDS,
    Kind.CLASS: _VALUE_KINDS,
}
_CONSTRUCTOR_NAMES = frozenset({"__init__", "constructor", "initialize", "init", "new"})
_WRAPPERS = frozenset(
    {
        "decorated_definition",
        "export_statement",
        "template_declaration",
        "annotated_declaration",
        # Go: `type T ...`, `const C = ...`, `var v = ...` wrap a spec in a declaration
        "type_declaration",
        "const_declaration",
        "var_declaration",
        # Objective-C: each method of an @implementation sits in one
        "implementation_definition",
    }
)
# siblings between a definition and its leading comment: TypeScript decorators, Rust attributes
_DOC_TRANSPARENT = frozenset({"decorator", "attribute_item"})
_SPACES = re.compile(r"\s+")
_COMMENT_MARKS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|///?|//!|#+|--+|;+|%+|\(\*)\s?")
_LAST_NAME = re.compile(r"([A-Za-z_$][\w$]*)[^\w$]*$")
# C++ `operator bool() const`: a conversion operator's declarator, named `operator bool`
_CONVERSION_OPERATOR = re.compile(r"operator\s+[A-Za-z_:][^(]*\(")


@dataclass(slots=True)
class _Def:
    node: Node
    name_node: Node
    kind: Kind
    doc: str = ""
    decorators: list[tuple[str, Node]] = field(default_factory=list)
    extends: list[tuple[str, Node]] = field(default_factory=list)
    implements: list[tuple[str, Node]] = field(default_factory=list)
    receiver: str = ""
    symbol: Symbol | None = None
    index: int = -1  # the symbol's position in the file's list, once built


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
            Reference(name, self.path, line, col, kinds[code], ids[enclosing], qualifier, alias)
            for name, line, col, code, enclosing, qualifier, alias in self.reference_rows
        ]


class _Columns:
    """Byte offsets -> 1-based code-point columns; byte arithmetic on ASCII lines."""

    def __init__(self, source: bytes) -> None:
        self._source = source
        self.ascii = source.isascii()
        # rows holding a non-ASCII byte (a file with one accented comment is mostly ASCII)
        self.wide_rows: frozenset[int] = (
            frozenset()
            if self.ascii
            else frozenset(i for i, line in enumerate(source.split(b"\n")) if not line.isascii())
        )

    def col(self, row: int, byte_col: int, node_start_byte: int) -> int:
        if row not in self.wide_rows:
            return byte_col + 1
        line_start = node_start_byte - byte_col
        prefix = self._source[line_start:node_start_byte]
        return len(prefix.decode("utf-8", errors="replace")) + 1


def module_name(path: str) -> str:
    """``pkg/sub/mod.py`` -> ``pkg.sub.mod``; ``pkg/__init__.py`` -> ``pkg``."""
    folder, _, name = path.rpartition("/")
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name  # as PurePosixPath.stem
    parts = [p for p in folder.split("/") if p not in ("", ".")]
    if stem != "__init__":
        parts.append(stem)
    return ".".join(parts)


def _text(node: Node) -> str:
    raw = node.text
    return raw.decode("utf-8", errors="replace") if raw is not None else ""


def short_name(text: str) -> str:
    """The last identifier in a written type or decorator: ``a.B[T]`` -> ``B``."""
    head = text.split("(", 1)[0].split("<", 1)[0].split("[", 1)[0].strip().lstrip("@")
    match = _LAST_NAME.search(head)
    return match.group(1) if match else head


def _clean_doc_string(text: str) -> str:
    body = text.strip()
    for quote in ('"""', "'''", '"', "'"):
        if body.endswith(quote):
            start = body.find(quote)
            if start != -1 and start + len(quote) <= len(body) - len(quote):
                body = body[start + len(quote) : len(body) - len(quote)]
                break
    return _trim_doc(body)


def _trim_doc(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines()]
    doc = "\n".join(lines).strip()
    return doc[:MAX_DOC]


def _is_comment(node: Node | None) -> bool:
    return node is not None and "comment" in node.type


def _comment_doc(node: Node) -> str:
    anchor = node
    while (
        anchor.parent is not None
        and anchor.parent.type in _WRAPPERS
        and not _is_comment(anchor.prev_sibling)  # a comment inside the wrapper is closer
    ):
        anchor = anchor.parent
    comments: list[str] = []
    expected_row = anchor.start_point[0]
    sibling = anchor.prev_sibling
    while sibling is not None and sibling.type in _DOC_TRANSPARENT:
        expected_row = sibling.start_point[0]  # doc comments go above decorators too
        sibling = sibling.prev_sibling
    while sibling is not None and "comment" in sibling.type:
        if sibling.end_point[0] < expected_row - 1:
            break
        comments.append(_text(sibling))
        expected_row = sibling.start_point[0]
        sibling = sibling.prev_sibling
    if not comments:
        return ""
    lines: list[str] = []
    for comment in reversed(comments):
        for line in comment.splitlines():
            stripped = _COMMENT_MARKS.sub("", line).rstrip().removesuffix("*/").rstrip()
            lines.append(stripped)
    return _trim_doc("\n".join(lines))


def _body(node: Node) -> Node | None:
    """The ``body`` field, or in grammars without fields a last child named ``*_body``."""
    body = node.child_by_field_name("body")
    if body is None and node.named_child_count:
        last = node.named_children[-1]
        if last.type.endswith("_body") and last.start_byte > node.start_byte:
            body = last
    return body


def _signature(node: Node, name_node: Node, source: bytes) -> str:
    body = _body(node)
    end = body.start_byte if body is not None and body.start_byte > node.start_byte else -1
    if end == -1:  # up to the end of the name's line, past annotations above it
        newline = source.find(b"\n", max(node.start_byte, name_node.start_byte), node.end_byte)
        end = newline if newline != -1 else node.end_byte
    text = source[node.start_byte : min(end, node.start_byte + MAX_SIGNATURE * 2)]
    squashed = " ".join(text.decode("utf-8", errors="replace").split())
    return squashed.rstrip("{:= ").strip()[:MAX_SIGNATURE] or squashed[:MAX_SIGNATURE]


def _refine_kind(kind: Kind, name: str, parent: _Def | None) -> Kind:
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


# ---- pre-passes: byte-preserving rewrites before parsing --------------------------------
# Some constructs throw a bundled grammar's error recovery off for the rest of the file
# (its root becomes one ERROR node). A pre-pass rewrites them with bytes of the same length,
# newlines untouched, so every position in the tree is a position in the file. Each is a
# few literal-prefixed regex scans: cheap next to parsing.

# TypeScript: a call signature on its own line after a member ending in a type
# (`(a: A): Option<B>\n  <C>(c: C): D`) reads as type arguments of that type; TypeScript
# itself never takes type arguments across a line break. A `;` in the indentation ends
# the member first.
_TS_SIGNATURE_LINE = re.compile(rb"\n[ \t]*[ \t]<(?=[\w$\r\n])")
# variance annotations (`interface Tag<in out Id, out A>`): unknown to the grammar, blanked
_TS_VARIANCE_FIRST = re.compile(
    rb"<(\s*)(in[ \t]+out|in|out)(?=[ \t]+[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))"
)
_TS_VARIANCE_NEXT = re.compile(
    rb",(\s*)(in[ \t]+out|in|out)(?=[ \t]+[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))"
)
# an escaped backtick, which the grammar's template literal *types* do not take
_TS_ESCAPED_BACKTICK = re.compile(rb"(?<!\\)((?:\\\\)*)\\`")


def _blank_variance(match: re.Match[bytes]) -> bytes:
    return match.group(0)[:1] + match.group(1) + b" " * len(match.group(2))


def _ts_prepass(source: bytes) -> bytes:
    out: bytearray | None = None
    for match in _TS_SIGNATURE_LINE.finditer(source):
        end = match.start()  # the previous line's end; skip comments back to the code
        while True:
            stop = end
            while stop > 0 and source[stop - 1] in b" \t\r\n":
                stop -= 1
            if source[stop - 2 : stop] == b"*/":
                opening = source.rfind(b"/*", 0, stop - 2)
                if opening == -1:
                    break
                end = opening
                continue
            line_start = source.rfind(b"\n", 0, stop) + 1
            if source[line_start:stop].lstrip().startswith(b"//"):
                end = line_start
                continue
            break
        last = source[stop - 1 : stop]  # a type ends here, not an arrow's `=>`
        arrow = last == b">" and source[stop - 2 : stop - 1] == b"="
        if last and not arrow and (last.isalnum() or last in b"_$)]>"):
            if out is None:
                out = bytearray(source)
            out[match.end() - 2] = 0x3B  # `;`
    if out is not None:
        source = bytes(out)
    source = _TS_VARIANCE_FIRST.sub(_blank_variance, source)
    source = _TS_VARIANCE_NEXT.sub(_blank_variance, source)
    if b"\\`" in source:
        source = _TS_ESCAPED_BACKTICK.sub(rb"\1  ", source)
    return source


# C and C++: attribute-like macros (`BOOST_CONTAINER_FORCEINLINE T& f() BOOST_NOEXCEPT {`,
# `ZSTDLIB_API size_t g(void)`) break the declaration around them; blanked when they sit
# before a declaration (an identifier follows) or after a parameter list (`)` or `const`
# precedes), never on a preprocessor line. Found by their suffix, then widened to the word.
_C_ATTRIBUTE_MACRO = re.compile(
    rb"_(?:FORCEINLINE|INLINE|NOINLINE|NOEXCEPT\w*|NOTHROW|CONSTEXPR|DECL|API|EXPORT|IMPORT"
    rb"|NORETURN|NODISCARD|DEPRECATED|MAY_ALIAS|SYMBOL_VISIBLE|VISIBLE|HIDDEN|OVERRIDE|FINAL"
    rb"|ATTRIBUTE_\w+)\b"
)
_C_MACRO_ARGS = re.compile(rb"[ \t]*\((?:[^()\n]|\([^()\n]*\))*\)")
_C_MACRO_WORD = re.compile(rb"[A-Z][A-Z0-9_]*")
_C_PREVIOUS_WORD = re.compile(rb"(\w+)\s*\Z")
_C_AFTER_PARAMETERS = frozenset({b"const", b"override", b"final", b"noexcept", b"volatile"})
_C_MACRO_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_BLANKS = frozenset(b" \t\r\n")


def _c_prepass(source: bytes) -> bytes:
    out: bytearray | None = None
    previous_end = -1
    for match in _C_ATTRIBUTE_MACRO.finditer(source):
        start, end = match.start(), match.end()
        while start > 0 and source[start - 1] in _C_MACRO_CHARS:
            start -= 1
        if start == match.start() or not _C_MACRO_WORD.fullmatch(source, start, end):
            continue
        if start and (source[start - 1 : start].isalnum() or source[start - 1] == 0x5F):
            continue  # part of a longer, mixed-case word
        args = _C_MACRO_ARGS.match(source, end)
        if args is not None:
            end = args.end()
        after = end
        while after < len(source) and source[after] in _BLANKS:
            after += 1
        before = start
        while before > 0 and source[before - 1] in _BLANKS:
            before -= 1
        next_char = source[after : after + 1]
        leading = next_char.isalpha() or next_char in (b"_", b"~")  # before a declaration
        if (
            not leading
            and source[before - 1 : before] not in (b")", b"]")
            and before != previous_end
        ):
            word = _C_PREVIOUS_WORD.search(source, max(0, before - 40), before)
            if word is None or word.group(1) not in _C_AFTER_PARAMETERS:
                continue  # nor after a parameter list: an expression's constant
        line_start = source.rfind(b"\n", 0, start) + 1
        if source[line_start:start].lstrip().startswith(b"#"):
            continue  # `#define X_API ...`, `#ifdef X_API`
        if out is None:
            out = bytearray(source)
        for index in range(start, end):
            if out[index] not in (10, 13):
                out[index] = 32
        previous_end = end
    return bytes(out) if out is not None else source


_BOM = b"\xef\xbb\xbf"
_PREPASS = {"typescript": _ts_prepass, "tsx": _ts_prepass, "c": _c_prepass, "cpp": _c_prepass}


def extract(
    path: str, root: str, language: str, source: bytes, module_path: str | None = None
) -> Extraction:
    """Definitions and references of one file. Syntax errors yield what tree-sitter recovers.

    ``module_path`` is the path that module-qualified names come from (Python's
    ``pkg/mod.py`` -> ``pkg.mod``), when it differs from ``path``: a root that is
    itself a package puts its own name first.
    """
    spec = languages.supported()[language]
    if source.startswith(_BOM):
        source = source[len(_BOM) :]  # editors hide it: line 1's columns start after it
    prepass = _PREPASS.get(language)
    tree = languages.parser(language).parse(prepass(source) if prepass else source)
    problems: list[str] = []
    if tree.root_node.has_error:
        problems.append("syntax errors; indexed what the parser recovered")
    columns = _Columns(source)

    defs: dict[int, _Def] = {}
    raw_refs: list[_RawRef] = []
    roles = _ROLES.setdefault(language, {})
    for pattern, caps in QueryCursor(languages.query(language)).matches(tree.root_node):
        names = caps.get("name")
        if not names:
            continue
        role = roles.get(pattern, _UNKNOWN)
        if role is _UNKNOWN or (role is not None and role[0] not in caps):
            # A pattern's role capture is the same in every match, except across the
            # branches of an alternation: look again whenever the remembered one is absent.
            role = roles[pattern] = _role(caps)
        if role is None:
            continue
        name_node = names[0]
        cap, kind = role
        if isinstance(kind, Kind):
            _add_def(defs, kind, caps[cap][0], name_node, caps)
            continue
        qualifiers = caps.get("qualifier")
        aliases = caps.get("alias")
        row, byte_col = name_node.start_point
        start, end = name_node.start_byte, name_node.end_byte
        raw_refs.append(
            (
                start,
                end,
                row,
                byte_col,
                source[start:end],
                kind,
                _qualifier(qualifiers, name_node, source) if qualifiers else "",
                _text(aliases[0]) if aliases else "",
            )
        )

    # a definition's own name is not a call of it (Julia's `f(x) = ...` head is a call)
    raw_refs = [r for r in raw_refs if r[5] is not RefKind.CALL or r[0] not in defs]
    ordered = sorted(
        defs.values(), key=lambda d: (d.node.start_byte, -d.node.end_byte, d.name_node.start_byte)
    )
    symbols = _build_symbols(ordered, path, root, spec, source, columns, module_path)
    return Extraction(path, symbols, _build_references(ordered, raw_refs, columns), problems)


# A reference as collected from a match: start and end byte, row, byte column, name,
# kind, qualifier, alias (plain values: reading a Node's fields crosses into C each time).
_RawRef = tuple[int, int, int, int, bytes, RefKind, str, str]


Role = tuple[str, Kind | RefKind] | None
_ROLES: dict[str, dict[int, Role]] = {}
_UNKNOWN: Role = ("", Kind.VARIABLE)  # a pattern not seen yet (None: seen, no known role)


def _role(captures: Iterable[str]) -> Role:
    """The capture that says what a pattern finds, with its kind; None for no known role."""
    for cap in captures:
        prefix, _, kind = cap.partition(".")
        try:
            if prefix == "definition":
                return cap, Kind(kind)
            if prefix == "reference":
                return cap, RefKind(kind)
        except ValueError:
            return None
    return None


def _add_def(
    defs: dict[int, _Def],
    kind: Kind,
    node: Node,
    name_node: Node,
    caps: dict[str, list[Node]],
) -> None:
    entry = defs.get(name_node.start_byte)
    if entry is None:
        entry = defs[name_node.start_byte] = _Def(node, name_node, kind)
    elif entry.kind in _REFINED_BY.get(kind, ()):
        entry.kind = kind  # a more specific pattern, e.g. a `const` field, wins
    if node.end_byte - node.start_byte < entry.node.end_byte - entry.node.start_byte:
        entry.node = node  # the tighter of two captures of one definition
    if "doc" in caps and not entry.doc:
        entry.doc = _clean_doc_string(_text(caps["doc"][0]))
    if "receiver" in caps and not entry.receiver:
        entry.receiver = _text(caps["receiver"][0])
    for cap, target in (
        ("decorator", entry.decorators),
        ("extends", entry.extends),
        ("implements", entry.implements),
    ):
        for item in caps.get(cap, ()):
            text = _SPACES.sub(" ", _text(item)).strip().lstrip("@").strip()
            if text and all(text != seen for seen, _ in target):
                target.append((text, item))


def _build_symbols(
    ordered: list[_Def],
    path: str,
    root: str,
    spec: languages.LanguageSpec,
    source: bytes,
    columns: _Columns,
    module_path: str | None = None,
) -> list[Symbol]:
    prefix = module_name(module_path or path) if spec.module_fqn else ""
    stack: list[tuple[_Def, str]] = []
    seen_ids: dict[str, int] = {}
    symbols: list[Symbol] = []
    for entry in ordered:
        while stack and (
            not _contains(stack[-1][0].node, entry.node)
            or _same_span(stack[-1][0].node, entry.node)
        ):
            stack.pop()  # names declared together (`int x, y;`) are siblings, not nested
        parent, parent_q = stack[-1] if stack else (None, "")
        name = _text(entry.name_node).strip()
        if _CONVERSION_OPERATOR.match(name):
            name = _SPACES.sub(" ", name.split("(", 1)[0]).strip()  # not its parameters
        if name.startswith(":") and name[1:2].isidentifier():
            name = name[1:]  # a symbol literal (Ruby's `:name`) names its bare word
        if not name:
            continue
        kind = _refine_kind(entry.kind, name, parent)
        if kind in _VALUE_KINDS and parent is not None and parent.kind in _FUNCTION_KINDS:
            if not _is_parameter_property(entry, parent) or len(stack) < 2:
                continue  # a local variable: noise for a workspace index, as in ctags
            parent, parent_q = stack[-2]  # `constructor(private x: T)` declares a member
        entry.kind = kind
        scope = parent_q or entry.receiver
        qualified = f"{scope}.{name}" if scope else name
        symbol_id = f"{path}::{qualified}#{kind.value}"
        count = seen_ids.get(symbol_id, 0) + 1
        seen_ids[symbol_id] = count
        if count > 1:
            symbol_id = f"{symbol_id}~{count}"
        node, name_node = entry.node, entry.name_node
        # each point read crosses into C and builds a tuple: read each once
        (row, byte_col), (end_row, end_byte_col) = node.start_point, node.end_point
        (name_row, name_byte_col), (name_end_row, name_end_byte_col) = (
            name_node.start_point,
            name_node.end_point,
        )
        if columns.ascii:
            col, end_col = byte_col + 1, end_byte_col + 1
            name_col, name_end_col = name_byte_col + 1, name_end_byte_col + 1
        else:
            col = columns.col(row, byte_col, node.start_byte)
            end_col = columns.col(end_row, end_byte_col, node.end_byte)
            name_col = columns.col(name_row, name_byte_col, name_node.start_byte)
            name_end_col = columns.col(name_end_row, name_end_byte_col, name_node.end_byte)
        entry.symbol = Symbol(
            symbol_id,
            name,
            kind,
            f"{prefix}.{qualified}" if prefix else qualified,
            _signature(node, name_node, source),
            spec.name,
            path,
            root,
            row + 1,
            col,
            end_row + 1,
            end_col,
            name_row + 1,
            name_col,
            name_end_row + 1,
            name_end_col,
            parent.symbol.symbol_id if parent is not None and parent.symbol else None,
            tuple([text for text, _ in entry.decorators]) if entry.decorators else (),
            tuple([text for text, _ in entry.extends]) if entry.extends else (),
            tuple([text for text, _ in entry.implements]) if entry.implements else (),
            entry.doc or (_comment_doc(node) if spec.comment_docs else ""),
        )
        entry.index = len(symbols)
        symbols.append(entry.symbol)
        stack.append((entry, qualified))
    return symbols


def _qualifier(nodes: list[Node], name_node: Node, source: bytes) -> str:
    """The qualifier's text; one that spans the whole path (``a.b.C``) is cut before the name."""
    start, end = nodes[0].start_byte, nodes[-1].end_byte
    if start <= name_node.start_byte < end:
        end = name_node.start_byte
    return source[start:end].decode("utf-8", errors="replace").rstrip(" \t.:/\\")


def _is_parameter_property(entry: _Def, function: _Def) -> bool:
    """A value declared in a constructor's parameters, before its body (TypeScript, PHP)."""
    if function.kind is not Kind.CONSTRUCTOR:
        return False
    body = function.node.child_by_field_name("body")
    return body is not None and entry.node.end_byte <= body.start_byte


def _contains(outer: Node, inner: Node) -> bool:
    return outer.start_byte <= inner.start_byte and inner.end_byte <= outer.end_byte


def _same_span(one: Node, other: Node) -> bool:
    return one.start_byte == other.start_byte and one.end_byte == other.end_byte


def _build_references(
    ordered: list[_Def], raw_refs: list[_RawRef], columns: _Columns
) -> list[rows.RefRow]:
    kept = [entry for entry in ordered if entry.symbol is not None]
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
                    (name, row + 1, col, code_of[ref_kind], entry.index, qualifier, "")
                )

    spans = [(e.node.start_byte, e.node.end_byte, e.index) for e in kept]
    count = len(spans)
    stack: list[tuple[int, int, int]] = []
    position = 0
    raw_refs.sort(key=_first)
    wide_rows = columns.wide_rows
    for start, end, row, byte_col, raw_name, ref_kind, qualifier, alias in raw_refs:
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
        references.append(
            (
                name,
                row + 1,
                columns.col(row, byte_col, start) if row in wide_rows else byte_col + 1,
                code_of[ref_kind],
                stack[-1][2] if stack else -1,
                qualifier,
                alias,
            )
        )
    return references


_first = operator.itemgetter(0)
