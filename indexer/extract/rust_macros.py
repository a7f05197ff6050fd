"""Rust items declared inside macro invocations, read as the items they are.

Crates gate or wrap whole items in macros: tokio's ``cfg_rt! { pub fn spawn(...) {...} }``
(about 200 such blocks), ``pin_project! { pub struct Sleep { ... } }``. The grammar reads a
macro's body as a token tree, so every item in it was missing from the index (16 of tokio's
source files had no definitions at all). The pre-pass blanks the invocation's head
(``cfg_rt! {``) and its closing brace with spaces, byte for byte, so the items inside
parse where the invocation stands: at the top of a file, or in an ``impl`` or ``mod``.

Only an invocation that stands where an item would (at a file's level, or
:data:`ITEM_INDENT` columns in under an ``impl``, ``mod``, ``trait`` or another such
macro, not under a ``fn``) and whose body starts with an item (an attribute, ``pub``,
``fn``, ``struct`` ...) is opened; ``forward_to_deserialize_any! { bool i8 }``,
``select! { ... }`` or ``quote! { ... }`` inside a function keep their token trees, and
``macro_rules!`` definitions are left alone.
"""

from __future__ import annotations

import re

from symfuse.indexer.extract.rewrites import spaces

ITEM_INDENT = 4  # columns (a tab is 4)
_HEAD = re.compile(  # a line that starts a brace-bodied invocation
    rb"^(?P<indent>[ \t]*)(?P<head>(?:[A-Za-z_]\w*::)*(?P<name>[a-z_]\w*)!\s*\{)", re.M
)
# The line that opens what an indented invocation stands in: an item's first line at the
# file's level (attributes, `where` clauses, braces and comments skipped).
_OPENER = re.compile(rb"^(?!\s|#|//|/\*|\*|\{|\}|\)|where\b)[^\n]*", re.M)
_FUNCTION = re.compile(
    rb"^(?:pub(?:\([^)]*\))?\s+)?(?:const\s+)?(?:async\s+)?(?:unsafe\s+)?"
    rb"(?:extern\s+\"[^\"]*\"\s+)?fn\b"
)
_ITEM = re.compile(
    rb"(?:\s|//[^\n]*\n|/\*.*?\*/)*"
    rb"(?:#!?\[|pub\b|fn\b|struct\b|enum\b|union\b|impl\b|trait\b|mod\b|use\b|const\b|"
    rb"static\b|type\b|async\b|unsafe\b|extern\b|macro_rules!)",
    re.S,
)


def open_item_macros(source: bytes) -> bytes:
    """``source`` with each item-level macro invocation's head and closing brace blanked."""
    if b"! {" not in source and b"!{" not in source:
        return source
    out: bytearray | None = None
    for match in _HEAD.finditer(source):
        indent = match["indent"].replace(b"\t", b"    ")
        if len(indent) > ITEM_INDENT or match["name"] == b"macro_rules":
            continue
        if indent and _in_function(source, match.start()):
            continue
        opening = match.end("head") - 1
        if not _ITEM.match(source, opening + 1):
            continue
        closing = closing_brace(source, opening)
        if closing is None:
            continue
        if out is None:
            out = bytearray(source)
        start = match.start("head")
        out[start : opening + 1] = spaces(source[start : opening + 1])
        out[closing] = 0x20
        _blank_tails(source, out, opening, closing)
    return bytes(out) if out is not None else source


# An item's closing brace in an opened macro with more after it on its line (hyper's
# `ffi_fn! { fn hyper_executor_new() -> ... { ... } ?= ptr::null() }`: the macro's own
# syntax, which made the opened file one syntax error from its first line).
_TAIL = re.compile(rb"^([ \t]*)\}([ \t]*[^\s;,)/}=.][^\n{]*)$", re.M)
_FIRST_LINE = re.compile(rb"\n([ \t]*)\S")


def _blank_tails(source: bytes, out: bytearray, opening: int, closing: int) -> None:
    """Blank what follows an item's closing brace on its line, in the opened body between
    ``opening`` and ``closing`` (the items' own indent only: a body's `} else {` stays)."""
    first = _FIRST_LINE.search(source, opening, closing)
    if first is None:
        return
    indent = first.group(1)
    for tail in _TAIL.finditer(source, first.start(), closing):
        if tail.group(1) == indent:
            out[tail.start(2) : tail.end(2)] = b" " * (tail.end(2) - tail.start(2))


def _in_function(source: bytes, at: int) -> bool:
    """Whether the file-level item above the line at ``at`` is a function (its body holds
    statements, not items)."""
    end = at - 1  # the newline before the line at ``at``
    while end > 0:
        start = source.rfind(b"\n", 0, end) + 1
        line = source[start:end]
        if _OPENER.match(line):
            return _FUNCTION.match(line) is not None
        end = start - 1
    return False


_SPECIAL = re.compile(rb"[{}\"'/r]")


def closing_brace(source: bytes, opening: int) -> int | None:
    """The index of the brace that closes the one at ``opening``, past strings, raw
    strings, characters and (nested) comments; ``None`` when the file ends first."""
    depth, i, n = 0, opening, len(source)
    while i < n:
        special = _SPECIAL.search(source, i)
        if special is None:
            return None
        i = special.start()
        c = source[i]
        if c == 0x7B:  # {
            depth += 1
        elif c == 0x7D:  # }
            depth -= 1
            if depth == 0:
                return i
        elif c == 0x22:  # "
            i = _string_end(source, i + 1)
        elif c == 0x72 and _raw_string_at(source, i):  # r#"..."#
            i = _raw_string_end(source, i + 1)
        elif c == 0x2F and i + 1 < n and source[i + 1] == 0x2F:  # //
            end = source.find(b"\n", i)
            i = n if end == -1 else end
        elif c == 0x2F and i + 1 < n and source[i + 1] == 0x2A:  # /*
            i = _block_comment_end(source, i + 2)
        elif c == 0x27:  # ' : a character, or a lifetime
            i = _char_end(source, i)
        i += 1
    return None


def _string_end(source: bytes, i: int) -> int:
    n = len(source)
    while i < n and source[i] != 0x22:
        i += 2 if source[i] == 0x5C else 1
    return i


def _raw_string_at(source: bytes, i: int) -> bool:
    if i > 0 and (chr(source[i - 1]).isalnum() or source[i - 1] == 0x5F):
        return False  # an identifier ending in r
    j = i + 1
    while j < len(source) and source[j] == 0x23:
        j += 1
    return j < len(source) and source[j] == 0x22 and j > i


def _raw_string_end(source: bytes, i: int) -> int:
    hashes = 0
    while source[i] == 0x23:
        hashes += 1
        i += 1
    end = source.find(b'"' + b"#" * hashes, i + 1)
    return len(source) if end == -1 else end + hashes


def _block_comment_end(source: bytes, i: int) -> int:
    depth, n = 1, len(source)
    while i < n:
        if source.startswith(b"/*", i):
            depth, i = depth + 1, i + 2
        elif source.startswith(b"*/", i):
            depth, i = depth - 1, i + 2
            if depth == 0:
                return i - 1
        else:
            i += 1
    return n


def _char_end(source: bytes, i: int) -> int:
    """The last byte of a character literal at ``i`` (``'x'``, ``'\\n'``, ``'\\u{1F600}'``);
    ``i`` itself for a lifetime (``'a``)."""
    if i + 1 < len(source) and source[i + 1] == 0x5C:
        end = source.find(b"'", i + 2)
        return i if end == -1 or end - i > 12 else end
    if i + 2 < len(source) and source[i + 2] == 0x27:
        return i + 2
    end = source.find(b"'", i + 1, i + 6)  # a multi-byte UTF-8 character
    if end != -1 and not any(chr(b).isalnum() and b < 0x80 for b in source[i + 1 : end]):
        return end
    return i
