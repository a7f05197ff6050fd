"""Byte-preserving rewrites of a source before it is parsed.

Some constructs throw a bundled grammar's error recovery off for the rest of the file
(its root becomes one ERROR node). A pre-pass rewrites them with bytes of the same
length, newlines untouched, so every position in the tree is a position in the file.
Each is a few literal-prefixed regex scans: cheap next to parsing.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from symfuse.indexer.extract.c_prepass import c_prepass
from symfuse.indexer.extract.grammar_gaps import (
    rust_prepass,
    scala_prepass,
    swift_prepass,
    zig_prepass,
)
from symfuse.indexer.extract.kotlin_heads import kotlin_heads
from symfuse.indexer.extract.rewrites import blank, blank_second
from symfuse.indexer.extract.teal import teal_to_lua

# TypeScript: a call signature on its own line after a member ending in a type
# (`(a: A): Option<B>\n  <C>(c: C): D`) reads as type arguments of that type; TypeScript
# itself never takes type arguments across a line break. A `;` in the indentation ends
# the member first.
_TS_SIGNATURE_LINE = re.compile(rb"\n[ \t]*[ \t]<(?=[\w$\r\n])")
# variance annotations (`interface Tag<in out Id, out A>`): unknown to the grammar, blanked
# (also after a comment: zod's `<` / `/** @ts-ignore Cast variance */` / `out Shape ...`)
_TS_GAP = rb"(\s*+(?:(?:/\*(?:[^*]|\*(?!/))*+\*/|//[^\n]*+)\s*+)*+)"  # possessive: no backtracking
_TS_VARIANCE = rb"(in[ \t]+out|in|out)(?=[ \t]+[A-Za-z_$][\w$]*\s*(?:[,>=]|extends\b))"
_TS_VARIANCE_FIRST = re.compile(rb"<" + _TS_GAP + _TS_VARIANCE)
_TS_VARIANCE_NEXT = re.compile(rb"," + _TS_GAP + _TS_VARIANCE)
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


# Objective-C headers: a macro alone on its line (`NS_ASSUME_NONNULL_BEGIN`,
# `GS_EXPORT_CLASS`) reads as the start of a declaration that swallows what follows,
# and an annotation after a method or property (`- (id) init NS_DESIGNATED_INITIALIZER;`,
# `API_AVAILABLE(macos(10.10))`) breaks it. Both are blanked, as the C attribute macros.
_OBJC_MACRO_LINE = re.compile(
    rb"^[ \t]*[A-Z][A-Z0-9_]{2,}(?:[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?[ \t]*$", re.M
)
_OBJC_MEMBER_LINE = re.compile(rb"^[ \t]*(?:[-+][ \t]*\(|@property\b)[^\n]*", re.M)
# an annotation macro after a declared name (`id _internal GS_UNUSED_IVAR;`)
_OBJC_ANNOTATION = re.compile(
    rb"(?<=[\w\]])[ \t]+[A-Z][A-Z0-9_]*(?:UNUSED|UNAVAILABLE|DEPRECATED|AVAILABLE|NONNULL|NULLABLE"
    rb"|NORETURN|SWIFT|DESIGNATED|REQUIRES|RETURNS|WARN|IVAR|ATTRIBUTE)[A-Z0-9_]*"
    rb"(?:[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?(?=[ \t]*;)"
)
_OBJC_TRAILING_MACRO = re.compile(
    rb"(?<=\w)([ \t]+[A-Z][A-Z0-9_]{2,}(?:[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?)+"
    rb"(?=[ \t]*[;{]?[ \t]*$)"
)


# `#if defined(__cplusplus)` / `extern "C" {` / `#endif`: the grammar takes the brace
# as opened for the rest of the file (and its closing twin as stray); both are blanked.
_OBJC_LINKAGE_GUARD = re.compile(
    rb"(^[ \t]*#[ \t]*if[^\n]*__cplusplus[^\n]*\n)([ \t]*(?:extern[ \t]+\"C\"[ \t]*)?[{}][ \t]*)"
    rb"(?=\n[ \t]*#[ \t]*endif)",
    re.M,
)


# Preprocessor lines inside an @interface's instance-variable block (`{ ... #if X ...
# #else ... #endif }`) break it; they are blanked, so both branches' ivars are read.
_OBJC_INTERFACE = re.compile(rb"^[ \t]*@interface\b", re.M)
_OBJC_DIRECTIVE = re.compile(rb"^[ \t]*#[^\n]*", re.M)
_OBJC_BEFORE_IVARS = re.compile(rb";|\n[ \t]*[-+@]")


def _blank_ivar_directives(source: bytes) -> bytes:
    out: bytearray | None = None
    for match in _OBJC_INTERFACE.finditer(source):
        end = source.find(b"@end", match.end())
        brace = source.find(b"{", match.end(), end if end != -1 else len(source))
        if brace == -1 or _OBJC_BEFORE_IVARS.search(source, match.end(), brace):
            continue
        close = source.find(b"}", brace)
        if close == -1:
            continue
        block = source[brace:close]
        if b"#" not in block:
            continue
        if out is None:
            out = bytearray(source)
        for directive in _OBJC_DIRECTIVE.finditer(source, brace, close):
            out[directive.start() : directive.end()] = b" " * (directive.end() - directive.start())
    return bytes(out) if out is not None else source


def _blank_trailing_macros(match: re.Match[bytes]) -> bytes:
    return _OBJC_TRAILING_MACRO.sub(blank, match.group(0))


def _objc_prepass(source: bytes) -> bytes:
    source = c_prepass(source)
    if b"__cplusplus" in source:
        source = _OBJC_LINKAGE_GUARD.sub(blank_second, source)
    source = _OBJC_MACRO_LINE.sub(blank, source)
    source = _OBJC_ANNOTATION.sub(blank, source)
    if b"#" in source:
        source = _blank_ivar_directives(source)
    return _OBJC_MEMBER_LINE.sub(_blank_trailing_macros, source)


# Vue and Svelte components: their code is the `<script>` blocks. Everything else (the
# template, styles, the tags themselves) is blanked, newlines kept, and the rest is read
# as TypeScript (which reads plain JavaScript too).
_SCRIPT_BLOCK = re.compile(rb"(<script\b[^>]*>)(.*?)(</script\s*>)", re.S | re.I)


def _blank_markup(chunk: bytes) -> bytes:
    return bytes(c if c in (10, 13) else 32 for c in chunk)


def _script_prepass(source: bytes) -> bytes:
    out = bytearray(_blank_markup(source))
    for match in _SCRIPT_BLOCK.finditer(source):
        out[match.start(2) : match.end(2)] = match.group(2)
    return _ts_prepass(bytes(out))


# SQL scripts: a psql meta-command line (`\echo ...`, `\quit`, `\set x 1`) is no SQL, and
# one at the top of an extension script (pgvector's) turns the whole file into an ERROR.
_PSQL_META_LINE = re.compile(rb"^[ \t]*\\[A-Za-z!?].*$", re.M)
# PostgreSQL statements the grammar lacks (aggregates, casts, operators, operator classes,
# access methods): each throws its recovery off for the statements after it, so they are
# blanked to their `;` (pgvector's vector.sql lost most of its functions without it).
_SQL_UNKNOWN_STATEMENT = re.compile(
    rb"^[ \t]*(?:CREATE|COMMENT[ \t]+ON)\s+(?:AGGREGATE|CAST|OPERATOR|ACCESS\s+METHOD)\b[^;]*;",
    re.M | re.I,
)


def _sql_prepass(source: bytes) -> bytes:
    if b"\\" in source:
        source = _PSQL_META_LINE.sub(blank, source)
    return _SQL_UNKNOWN_STATEMENT.sub(_blank_statement, source)


def _blank_statement(match: re.Match[bytes]) -> bytes:
    return _blank_markup(match.group(0))


# Makefiles: outside a rule, a tab-indented line (an assignment inside `ifeq ... endif`, as
# redis writes them) is still make syntax, but the grammar reads it as a recipe line; and
# `NAME?=value` with no space reads as the name `NAME?`. Outside rules the leading tabs
# become spaces, and the `?`, `+` or `!` of an unspaced operator a space.
_MAKE_DIRECTIVE = re.compile(rb"[ \t]*(?:ifeq|ifneq|ifdef|ifndef|else|endif)\b")
_MAKE_ASSIGNMENT = re.compile(
    rb"[ \t]*(?:export[ \t]+|override[ \t]+)?[^\s:#=]+[ \t]*(?:[:?+!]|::)?="
)
_MAKE_RULE = re.compile(rb"[^\t#=][^=#]*?(?<![:])::?(?![:=])")
_MAKE_UNSPACED = re.compile(rb"^([ \t]*[A-Za-z_][\w.-]*)([?+!])=", re.M)


def _make_line(line: bytes, in_rule: bool) -> tuple[bytes, bool]:
    """The line as the grammar should read it, and whether a rule's recipe goes on."""
    if not line.strip() or line.lstrip().startswith(b"#") or _MAKE_DIRECTIVE.match(line):
        if in_rule or not line.startswith(b"\t"):
            return line, in_rule
    elif line.startswith(b"\t"):
        if in_rule:
            return line, True
    else:
        return line, _MAKE_ASSIGNMENT.match(line) is None and _MAKE_RULE.match(line) is not None
    stripped = line.lstrip(b"\t")
    return b" " * (len(line) - len(stripped)) + stripped, False


def _make_prepass(source: bytes) -> bytes:
    lines, in_rule, continued = [], False, False
    for raw in source.split(b"\n"):
        line = raw
        if not continued:  # a continuation line belongs to the line before it
            line, in_rule = _make_line(raw, in_rule)
        continued = raw.rstrip(b"\r").endswith(b"\\")
        lines.append(line)
    return _MAKE_UNSPACED.sub(rb"\1 =", b"\n".join(lines))


# Haskell: the grammar reads a CPP conditional's first branch and skips the `#else` one
# (aeson's KeyMap.hs defines its whole API twice, over HashMap and over Map, and lost the
# second). The directive lines are blanked, so every branch is read, as ctags does.
_HASKELL_CPP_CONDITIONAL = re.compile(rb"^#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b.*$", re.M)


# An escaped character literal (`'\n'`, `'\''`, `'\x41'`) throws the grammar's scanner off
# at the next name with a prime: pandoc's Markdown reader, `notFollowedBy (char '\n')`
# then `spnl' :: ...`, was one error for 60 lines. Each reads `'x'` (blanks after it).
_HASKELL_ESCAPED_CHAR = re.compile(rb"(?<![\w'])'\\[^\n]{1,8}?'")


def _plain_char(match: re.Match[bytes]) -> bytes:
    return b"'x'" + b" " * (len(match.group(0)) - 3)


def _haskell_prepass(source: bytes) -> bytes:
    if b"#" in source:
        source = _HASKELL_CPP_CONDITIONAL.sub(blank, source)
    if b"'\\" in source:
        source = _HASKELL_ESCAPED_CHAR.sub(_plain_char, source)
    return source


PREPASS: dict[str, Callable[[bytes], bytes]] = {
    "rust": rust_prepass,
    "teal": teal_to_lua,
    "swift": swift_prepass,
    "haskell": _haskell_prepass,
    "make": _make_prepass,
    "sql": _sql_prepass,
    "vue": _script_prepass,
    "svelte": _script_prepass,
    "typescript": _ts_prepass,
    "tsx": _ts_prepass,
    "c": c_prepass,
    "cpp": c_prepass,
    "objc": _objc_prepass,
    "cuda": c_prepass,
    "zig": zig_prepass,
    "kotlin": kotlin_heads,
    "scala": scala_prepass,
}
