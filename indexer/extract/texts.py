"""What a definition says about itself in the source: its module's name, its
signature, its doc (a docstring or the comments above it), short names of what it
mentions. Pure functions of nodes and text."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from symfuse.indexer.model import Kind

if TYPE_CHECKING:
    from tree_sitter import Node

    from symfuse.indexer.model import Symbol

MAX_SIGNATURE = 240
MAX_DOC = 800

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
SPACES = re.compile(r"\s+")
_COMMENT_MARKS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|///?|//!|#+|--+(?:\s?[|^])?|;+|%+|\(\*+)\s?")
_LAST_NAME = re.compile(r"([A-Za-z_$][\w$]*)[^\w$]*$")


_BINDS_AN_IMPORT = re.compile(r"=\s*(?:await\s+)?@?(?:require|import)\s*\(")
_VALUE_KINDS = frozenset({Kind.VARIABLE, Kind.CONSTANT})


def binds_an_import(symbol: Symbol) -> bool:
    """``var compile = require('./compile')``, Zig's ``const Uri = @import("Uri.zig")``:
    a variable that only names an import (it stands for what it imports)."""
    return symbol.kind in _VALUE_KINDS and bool(_BINDS_AN_IMPORT.search(symbol.signature))


# a declaration that opens with `extension` (after Swift's attributes and modifiers)
_EXTENSION = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+|\w+\s+)*?extension\b")


def is_extension(symbol: Symbol) -> bool:
    """A Swift or Dart ``extension``: more of a type declared elsewhere (or of a protocol)."""
    return symbol.language in ("swift", "dart") and _EXTENSION.match(symbol.signature) is not None


def adds_to_a_type(symbol: Symbol) -> bool:
    """A Swift ``extension Session``, a Rust ``impl Session`` or a Haskell ``instance ToJSON
    Value``: a block named after a type (or class) declared elsewhere, not a declaration
    of it. (A Dart extension has a name of its own.)"""
    if symbol.kind is Kind.OBJECT:
        return symbol.language in ("rust", "haskell")
    return symbol.language == "swift" and is_extension(symbol)


def module_name(path: str) -> str:
    """``pkg/sub/mod.py`` -> ``pkg.sub.mod``; ``pkg/__init__.py`` -> ``pkg``."""
    folder, _, name = path.rpartition("/")
    dot = name.rfind(".")
    stem = name[:dot] if 0 < dot < len(name) - 1 else name  # as PurePosixPath.stem
    parts = [p for p in folder.split("/") if p not in ("", ".")]
    if stem != "__init__":
        parts.append(stem)
    return ".".join(parts)


def node_text(node: Node) -> str:
    raw = node.text
    return raw.decode("utf-8", errors="replace") if raw is not None else ""


def short_name(text: str) -> str:
    """The last identifier in a written type or decorator: ``a.B[T]`` -> ``B``."""
    head = text.split("(", 1)[0].split("<", 1)[0].split("[", 1)[0].strip().lstrip("@")
    match = _LAST_NAME.search(head)
    return match.group(1) if match else head


def clean_doc_string(text: str) -> str:
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
    return node is not None and ("comment" in node.type or node.type == "haddock")


def comment_doc(node: Node) -> str:
    """The comments right above ``node`` (or above the decorators and attributes in front
    of it), without their comment marks."""
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
    if sibling is not None and not _is_comment(sibling):
        sibling = _trailing_comment(sibling)
    while sibling is not None and _is_comment(sibling):
        if sibling.end_point[0] < expected_row - 1:
            break
        comments.append(node_text(sibling))
        expected_row = sibling.start_point[0]
        sibling = sibling.prev_sibling
    if not comments:
        return ""
    lines: list[str] = []
    for comment in reversed(comments):
        for line in comment.splitlines():
            stripped = _COMMENT_MARKS.sub("", line).rstrip()
            lines.append(stripped.removesuffix("*/").removesuffix("*)").rstrip())
    return _trim_doc("\n".join(lines))


def _trailing_comment(node: Node) -> Node | None:
    """The comment ``node`` ends with on a line of its own: grammars that hang the
    comment above a definition on the node before it (Kotlin's import list, Haskell's,
    a YAML mapping) keep the definition's doc there."""
    last = node
    while last.child_count:
        last = last.children[-1]
    if not _is_comment(last) or last.start_point[0] == node.start_point[0]:
        return None
    before = last.prev_sibling
    if before is not None and before.end_point[0] == last.start_point[0]:
        return None  # it ends a line of code
    return last


def body_of(node: Node) -> Node | None:
    """The ``body`` field, or in grammars without fields a last child named ``*_body``."""
    body = node.child_by_field_name("body")
    if body is None and node.named_child_count:
        last = node.named_children[-1]
        if last.type.endswith("_body") and last.start_byte > node.start_byte:
            body = last
    return body


# a conditional compilation line inside a definition's head: not its signature
_CONDITIONAL_LINE = re.compile(rb"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b[^\n]*", re.M)


def signature(node: Node, name_node: Node, source: bytes, bare: bool = False) -> str:
    """The definition's head, squashed to one line; ``bare``: without its conditional
    compilation lines (C#'s base lists; C and C++ keep theirs, whose words the ranking
    reads)."""
    body = body_of(node)
    end = body.start_byte if body is not None and body.start_byte > node.start_byte else -1
    if end == -1:  # up to the end of the name's line, past annotations above it
        newline = source.find(b"\n", max(node.start_byte, name_node.start_byte), node.end_byte)
        end = newline if newline != -1 else node.end_byte
    text = source[node.start_byte : min(end, node.start_byte + MAX_SIGNATURE * 2)]
    if bare and b"#" in text:  # `class JValue : JToken #if HAVE_X , IConvertible #endif`
        text = _CONDITIONAL_LINE.sub(b"", text)
    squashed = " ".join(text.decode("utf-8", errors="replace").split())
    return squashed.rstrip("{:= ").strip()[:MAX_SIGNATURE] or squashed[:MAX_SIGNATURE]
