"""Swift, Zig, Rust and Scala written in forms the bundled grammars cannot read (newer
syntax, or a gap in the grammar), rewritten byte for byte before the parse (see
:mod:`.prepass`): each form below threw the grammar's recovery off for the statement or
the type around it."""

from __future__ import annotations

import re

from symfuse.indexer.extract.rewrites import blank, blank_second, by_line
from symfuse.indexer.extract.rust_macros import open_item_macros

# Swift: the grammar takes a conditional compilation block (`#if canImport(Darwin)` ...
# `#endif`) inside a type's body as the body's end, and the members after it as top-level
# code (Alamofire's `Protected` ended at its first line). The directive lines, and the
# `#error` / `#warning` diagnostics between them, are blanked: every branch is read.
_SWIFT_DIRECTIVE = re.compile(rb"^[ \t]*#(?:if|elseif|else|endif|error|warning)\b.*$", re.M)
# Swift 5.10 and 6: `nonisolated(unsafe) var value` (no property of Alamofire's
# `Protected`), a `sending` parameter (`_ event: sending @escaping ...`), and the empty
# tuple as an argument (`.success(())`, `Result(value: (), error: e)`): the first two
# lose their extra word, the tuple reads `0 `; a property wrapper's empty arguments
# (`@Option() var name`) are blanked.
# Each starts on a literal (a fast scan) and checks what stands before it.
_SWIFT_UNSAFE = re.compile(rb"nonisolated(\(unsafe\))")
_SWIFT_SENDING = re.compile(rb"sending(?=[ \t]+[@\w(\[])")
_SWIFT_VOID_ARGUMENT = re.compile(rb"\(\)(?=[ \t]*[,)]|[ \t]+(?:var|let)\b)")
_SWIFT_ATTRIBUTE_END = re.compile(rb"@[A-Za-z_][\w.]*\Z")
# Swift 6's typed throws (`) throws(CommandError) -> ParsableCommand {`): the grammar read
# the function's signature as an error and lost it (swift-argument-parser's parsers); the
# error type is blanked, the function `throws`.
_SWIFT_TYPED_THROWS = re.compile(rb"\b(throws)(\([ \t]*[\w.]+[ \t]*\))")


def _unsafe(match: re.Match[bytes]) -> bytes:
    before = match.string[match.start() - 1 : match.start()]
    if before.isalnum() or before == b"_":
        return match.group(0)
    return b"nonisolated" + b" " * len(match.group(1))


def _sending(match: re.Match[bytes]) -> bytes:
    before = match.string[max(0, match.start() - 2) : match.start()]
    return b"       " if before in (b": ", b":\t") else match.group(0)


def _void_argument(match: re.Match[bytes]) -> bytes:
    start = match.start()  # a bounded look back: not a copy of the text before each `()`
    before = match.string[max(0, start - 80) : start].rstrip(b" \t")
    if _SWIFT_ATTRIBUTE_END.search(before):
        return b"  "  # an attribute's empty arguments (`@Option() var name: String`)
    return b"0 " if before[-1:] in (b"(", b":", b",") else match.group(0)


def swift_prepass(source: bytes) -> bytes:
    if b"#" in source:
        source = _SWIFT_DIRECTIVE.sub(blank, source)
    if b"nonisolated(" in source:
        source = _SWIFT_UNSAFE.sub(_unsafe, source)
    if b"sending" in source:
        source = _SWIFT_SENDING.sub(_sending, source)
    if b"()" in source:
        source = _SWIFT_VOID_ARGUMENT.sub(_void_argument, source)
    if b"throws(" in source:
        source = _SWIFT_TYPED_THROWS.sub(blank_second, source)
    return source


# Zig 0.12's destructuring (`const lhs, const rhs = tree.nodeData(n).node_and_node;`),
# which the bundled grammar predates: the targets after the first are blanked, and the
# statement declares its first (the others are locals, never indexed).
_ZIG_TARGET = rb"(?:(?:const|var)[ \t]+)?[\w.]+(?:[ \t]*:[ \t]*[^,=\n{]+)?"
_ZIG_DESTRUCTURE = re.compile(
    rb"([ \t]*" + _ZIG_TARGET + rb")((?:,[ \t]*" + _ZIG_TARGET + rb")+)(?=[ \t]*=[^=>])"
)
# a line that may be one: a declared target and a comma, `, const` / `, var`, or `_,`
_ZIG_CORE = re.compile(rb"(?:const|var)[ \t]+[^,=\n{]+,|,[ \t]*(?:const|var)\b|_[ \t]*,")
_DECLARES = re.compile(rb"\b(?:const|var)\b")


def _zig_destructure(match: re.Match[bytes]) -> bytes:
    first, rest = match.group(1, 2)
    if not (_DECLARES.search(match.group(0)) or first.strip() == b"_"):
        return match.group(0)  # `a: u8, b: u8 = 0` (fields) or a plain assignment
    return first + b" " * len(rest)


def zig_prepass(source: bytes) -> bytes:
    if b"," not in source:
        return source
    return by_line(source, _ZIG_CORE, _ZIG_DESTRUCTURE, _zig_destructure)


# Rust: `impl<> Waiter {` (tokio writes empty generics in its `generate_addr_of_methods!`
# invocations): the grammar wants a parameter between the brackets.
_RUST_EMPTY_GENERICS = re.compile(rb"\bimpl<>")


def rust_prepass(source: bytes) -> bytes:
    source = open_item_macros(source)
    if b"impl<>" in source:
        source = _RUST_EMPTY_GENERICS.sub(b"impl  ", source)
    return source


# Scala: a parent's empty argument list before another (cats' `extends ListEq[A]()(ev)`,
# the implicit list after the explicit one): the grammar takes one list; the empty one
# is blanked (`ListEq[A]  (ev)`).
_SCALA_EMPTY_FIRST_LIST = re.compile(rb"(?<=\])\(\)(?=\()")


def scala_prepass(source: bytes) -> bytes:
    if b"]()(" not in source:
        return source
    return _SCALA_EMPTY_FIRST_LIST.sub(b"  ", source)
