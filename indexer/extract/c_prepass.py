"""The C and C++ pre-pass: macros and forms the bundled grammars cannot read, rewritten
byte for byte before the parse (see :mod:`.prepass`). What it blanks that names a macro
or a type stays a reference (:func:`~.macro_words.blanked_words`)."""

from __future__ import annotations

import re

from symfuse.indexer.extract.c_list_directives import list_directives, split_statements
from symfuse.indexer.extract.rewrites import blank_second, by_line, spaces

# C and C++: attribute-like macros (`BOOST_CONTAINER_FORCEINLINE T& f() BOOST_NOEXCEPT {`,
# `ZSTDLIB_API size_t g(void)`) break the declaration around them; blanked when they sit
# before a declaration (an identifier follows) or after a parameter list (`)` or `const`
# precedes), never on a preprocessor line. Found by their suffix, then widened to the word.
_C_ATTRIBUTE_MACRO = re.compile(
    rb"_(?:FORCEINLINE|INLINE|NOINLINE|NOEXCEPT\w*|NOTHROW|CONSTEXPR\w*|DECL|C?API|EXPORT|EXTERN"
    rb"|EXPLICIT|IMPORT"
    rb"|NO_UNIQUE_ADDRESS|MAYBE_UNUSED|UNUSED|INLINE_VARIABLE"
    rb"|NORETURN|NODISCARD|DEPRECATED|MAY_ALIAS|SYMBOL_VISIBLE|VISIBLE|HIDDEN|OVERRIDE|FINAL"
    rb"|ATTRIBUTE_\w+)\b"
)
_C_MACRO_ARGS = re.compile(rb"[ \t]*\((?:[^()\n]|\([^()\n]*\))*\)")
_C_MACRO_WORD = re.compile(rb"[A-Z][A-Z0-9_]*")
_C_PREVIOUS_WORD = re.compile(rb"(\w+)\s*\Z")
_C_AFTER_PARAMETERS = frozenset({b"const", b"override", b"final", b"noexcept", b"volatile"})
# words before which a name in capitals is a type, not a parameter's attribute
_C_TYPE_WORDS = frozenset(b"struct union enum class typename const volatile sizeof".split())
_C_MACRO_CHARS = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_BLANKS = frozenset(b" \t\r\n")


# A macro alone on its line between declarations (`FMT_BEGIN_NAMESPACE`, `G_BEGIN_DECLS`,
# `FMT_PRAGMA_GCC(push_options)`): the grammar reads it as the start of an expression and
# the declaration after it breaks. Not when the next line continues it or closes a list
# (the last enumerator of an enum), nor a call whose block follows (`TEST(A, b)` `{`).
_C_MACRO_LINE = re.compile(
    rb"^[ \t]*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+"
    rb"(\((?:[^()\n]|\((?:[^()\n]|\([^()\n]*\))*\))*\))?[ \t]*(?://[^\n]*)?$",
    re.M,
)
_C_CONTINUES = re.compile(rb"\s*(?:[}),;=:.+\-|&?<>*]|/(?![/*]))")
_C_BLOCK_FOLLOWS = re.compile(rb"\s*\{")
_C_CLOSES = re.compile(rb"\s*\}")
_C_ENDS_DECLARATION = re.compile(rb"(?:[;{}]|\*/|^[ \t]*#[^\n]*|^)[ \t]*(?://[^\n]*)?\s*\Z", re.M)
# A macro as a template's last parameter (`template <typename T, FMT_ENABLE_IF(x)>`: an
# enable_if in disguise): blanked with its comma, the template reads `<typename T>`.
_C_TEMPLATE_MACRO = re.compile(
    rb",\s*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\)\s*(?=>)"
)


# The head of the body a brace opens: a struct's, union's or class's holds fields, so a
# macro alone on its last line (`struct uv_stream_s {` `UV_HANDLE_FIELDS` `UV_STREAM_FIELDS`
# `};`) is a macro of fields, not an enum's last enumerator; left, the body breaks and
# libuv's uv.h parsed as one error, its structs nested in one another.
_C_RECORD_HEAD = re.compile(rb"\b(?:struct|union|class)\b[^;{}()=]*\Z")
_C_BRACES = re.compile(rb"[{}]")


def _in_record(source: bytes, at: int) -> bool:
    """Whether the brace that opens the body around ``at`` opens a struct, union or class."""
    depth = 0
    for brace in reversed(list(_C_BRACES.finditer(source, max(0, at - 20_000), at))):
        if brace.group() == b"}":
            depth += 1
        elif depth:
            depth -= 1
        else:
            head = source[max(0, brace.start() - 200) : brace.start()]
            return _C_RECORD_HEAD.search(head) is not None
    return False


def _c_macro_lines(source: bytes) -> bytes:
    out: bytearray | None = None
    for match in _C_MACRO_LINE.finditer(source):
        called = match.group(1) is not None  # a call ends a class body too: `...)` `};`
        closes = _C_CLOSES.match(source, match.end()) is not None
        if _C_CONTINUES.match(source, match.end()) and not (
            closes and (called or _in_record(source, match.start()))
        ):
            continue
        if called and _C_BLOCK_FOLLOWS.match(source, match.end()):
            continue
        if not _C_ENDS_DECLARATION.search(source, max(0, match.start() - 200), match.start()):
            continue
        if out is None:
            out = bytearray(source)
        out[match.start() : match.end()] = b" " * (match.end() - match.start())
    return bytes(out) if out is not None else source


# Exception macros as statements (`SPDLOG_TRY {` ... `} SPDLOG_LOGGER_CATCH(loc)`, `FMT_TRY`,
# `FMT_CATCH(...) {}`): the grammar reads `SPDLOG_TRY {` as a type and the block's
# `for` as a call, and the namespace around ends there. Blanked, the blocks are blocks.
# A `_TRY` taking arguments is a statement of its own (`FASTFLOAT_TRY(v.push(x))`): kept.
_C_TRY_CATCH = re.compile(
    rb"(?:^|(?<=[{};]))[ \t]*[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*"
    rb"(?:_TRY(?=\s*\{)|_CATCH[A-Z0-9_]*\b(?:[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?)",
    re.M,
)


# Clang's thread-safety annotations (`void Lock() EXCLUSIVE_LOCK_FUNCTION();`, `int n_
# GUARDED_BY(mu_);`, `class SCOPED_LOCKABLE MutexLock`, abseil's `ABSL_GUARDED_BY`):
# never an expression, so blanked wherever they stand (not on a preprocessor line).
_C_THREAD_ANNOTATION = re.compile(
    rb"(?:[A-Z][A-Z0-9]*_)*(?:PT_GUARDED_BY|GUARDED_BY|(?:EXCLUSIVE_|SHARED_)?LOCKS_REQUIRED"
    rb"|LOCKS_EXCLUDED|(?:EXCLUSIVE_|SHARED_|UN)?(?:TRY)?LOCK_FUNCTION|LOCK_RETURNED"
    rb"|ACQUIRED_(?:AFTER|BEFORE)|ASSERT_(?:EXCLUSIVE|SHARED)_LOCK|NO_THREAD_SAFETY_ANALYSIS"
    rb"|SCOPED_LOCKABLE|LOCKABLE)\b(?:[ \t]*\((?:[^()\n]|\([^()\n]*\))*\))?"
)


_THREAD_WORDS = re.compile(rb"GUARDED_BY|LOCKS_|LOCK_|_LOCK\b|LOCKABLE|ACQUIRED_|THREAD_SAFETY")
_TRY_WORDS = re.compile(rb"_TRY\s*\{|_CATCH")


def _c_thread_annotations(source: bytes) -> bytes:
    out: bytearray | None = None
    done = -1
    for hit in _THREAD_WORDS.finditer(source):  # a literal scan, then the word around it
        start = hit.start()
        while start > 0 and source[start - 1] in _C_MACRO_CHARS:
            start -= 1
        if start <= done or (start and (source[start - 1 : start].isalnum())):
            continue
        match = _C_THREAD_ANNOTATION.match(source, start)
        if match is None or match.end() < hit.end():
            continue
        done = match.end()
        line_start = source.rfind(b"\n", 0, match.start()) + 1
        if source[line_start : match.start()].lstrip().startswith(b"#"):
            continue  # `#define GUARDED_BY(x) ...`
        if out is None:
            out = bytearray(source)
        out[match.start() : match.end()] = _blank_keep_lines(match)
    return bytes(out) if out is not None else source


# `if FMT_CONSTEXPR20 (cond)`: an `if constexpr` for the compilers that have it
_C_IF_MACRO = re.compile(rb"if([ \t]+[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?=[ \t]*\()")


def _if_macro(match: re.Match[bytes]) -> bytes:
    before = match.string[match.start() - 1 : match.start()]
    if before.isalnum() or before == b"_":
        return match.group(0)  # `elif`, `endif`, `xif`: a word of its own
    return b"if" + b" " * len(match.group(1))


# Catch2's and doctest's test blocks, named by strings: `TEST_CASE("a", "[tag]") {` reads
# as a function whose parameters have no types (its locals became the file's variables),
# and `SECTION("b") {` in its body as a call missing its `;`. A test case's arguments
# are blanked (a function `TEST_CASE()`, as googletest's `TEST(A, b)` reads); a section
# becomes `if (1)` (a block). The strings are no references either way.
_C_TEST_BLOCK = re.compile(
    rb"([ \t]*)(\w*(?:TEST_CASE|SCENARIO)\w*|SECTION|DYNAMIC_SECTION|SUBCASE|GIVEN|WHEN|THEN"
    rb"|AND_GIVEN|AND_WHEN|AND_THEN)([ \t]*)\(((?:[^()\"\n]|\"(?:\\.|[^\"\\\n])*\")*)\)"
    rb"(?=[ \t]*\{)"
)
_TEST_CORE = re.compile(rb"TEST_CASE|SCENARIO|SECTION|SUBCASE|GIVEN|WHEN|THEN")


def _test_block(match: re.Match[bytes]) -> bytes:
    indent, name, space, arguments = match.group(1, 2, 3, 4)
    if b'"' not in arguments:
        return match.group(0)
    if b"TEST_CASE" in name or b"SCENARIO" in name:
        return b"%s%s%s(%s)" % (indent, name, space, b" " * len(arguments))
    gap = b" " * (len(name) - 2 + len(space))
    return b"%sif%s(1%s)" % (indent, gap, b" " * (len(arguments) - 1))


# A header's `#ifdef __cplusplus` / `extern "C" {` / `#endif` ... `#ifdef __cplusplus` /
# `}` / `#endif`: the grammar takes both branches, so the brace opened in the first closes
# past the second's `#endif`, and every C header was a syntax-error problem. Both the
# opening line and the closing brace are blanked: the declarations are the file's.
_CPLUSPLUS = rb"#[ \t]*(?:ifdef[ \t]+__cplusplus|if[ \t]+defined[ \t]*\(?[ \t]*__cplusplus\b[^\n]*)"
_C_LINKAGE = re.compile(
    rb"^([ \t]*" + _CPLUSPLUS + rb"[ \t]*\n)([ \t]*(?:extern[ \t]+\"C\"[ \t]*\{|\})[^\n]*)", re.M
)


# ... and a brace-less `extern "C"` alone in such a block, before the declaration it
# links (jq's util.c: `#ifdef __cplusplus` / `extern "C"` / `#endif` / `void *alloca
# (size_t);`), which made the rest of the file, 1,200 lines, one error.
_C_LINKAGE_LINE = re.compile(
    rb"^([ \t]*"
    + _CPLUSPLUS
    + rb"[ \t]*\n)([ \t]*extern[ \t]+\"C\"[ \t]*)(?=\n[ \t]*#[ \t]*endif)",
    re.M,
)


def _c_linkage(source: bytes) -> bytes:
    """The `extern "C" {` lines and closing braces of `#ifdef __cplusplus` blocks
    blanked, when they pair up (one brace left alone would be a syntax error of ours),
    and a brace-less `extern "C"` line alone in one."""
    source = _C_LINKAGE_LINE.sub(blank_second, source)
    found = list(_C_LINKAGE.finditer(source))
    opened = sum(1 for m in found if m.group(2).lstrip().startswith(b"extern"))
    if not found or 2 * opened != len(found):
        return source
    out = bytearray(source)
    for match in found:
        out[match.start(2) : match.end(2)] = b" " * (match.end(2) - match.start(2))
    return bytes(out)


# `va_arg(ap, char*)`: a macro taking a type; its type is blanked (`va_arg(ap        )`).
_C_VA_ARG = re.compile(rb"(\bva_arg\([^,()]+)(,[^()]*)(?=\))")
# An access specifier written as a macro (`JSON_PRIVATE_UNLESS_TESTED:` in nlohmann's
# `basic_json`, Qt's `Q_SIGNALS:` and `public Q_SLOTS:`): the grammar took the colon for a
# bit field's and closed the class at the next nested `};`. Written as the keyword it
# names (`private:`), or blanked after a keyword written before it.
_C_ACCESS_MACRO = re.compile(
    rb"([ \t]*(?:(?:public|protected|private)[ \t]+)?)"
    rb"([A-Z][A-Z0-9_]*(PRIVATE|PUBLIC|PROTECTED|SIGNALS|SLOTS)[A-Z0-9_]*)(?=[ \t]*:(?!:))"
)
_ACCESS_CORE = re.compile(rb"PRIVATE|PUBLIC|PROTECTED|SIGNALS|SLOTS")
_ACCESS_WORDS = {b"PRIVATE": b"private", b"PROTECTED": b"protected"}


def _access_macro(match: re.Match[bytes]) -> bytes:
    before, name, word = match.group(1, 2, 3)
    written = b"" if before.strip() else _ACCESS_WORDS.get(word, b"public")
    return before + written + b" " * (len(name) - len(written))


# A conditional around one word inside a declaration (`template <...>` / `#if
# defined(JSON_HAS_CPP_14)` / `constexpr` / `#endif` / `auto get() const`): the grammar
# ends the declaration at the directive. The directive lines are blanked, the word kept.
_C_WORD_BRANCH = re.compile(
    rb"([ \t]*#[ \t]*if[^\n]*)\n[ \t]*[A-Za-z_]\w*[ \t]*\n([ \t]*#[ \t]*endif[^\n]*)"
)
_C_IF_DIRECTIVE = re.compile(rb"#[ \t]*if")


def _word_branch(match: re.Match[bytes]) -> bytes:
    opening, closing = match.group(1, 2)
    middle = match.group(0)[len(opening) : len(match.group(0)) - len(closing)]
    return b" " * len(opening) + middle + b" " * len(closing)


# Two forms of fmt's `base.h` the grammar cannot read: a cast written as a call of a
# keyword type (`unsigned(size)`, `long(x)`: the keyword is blanked, a parenthesized
# expression stays) and an anonymous enum with a base type (`enum : unsigned {`: the
# base is blanked).
# one literal-first pattern a keyword (an alternation would be tried at every byte)
_C_KEYWORD_CASTS = {
    word: re.compile(word + rb"(?=\((?![ \t]*\)))")  # not `short()`
    for word in (b"unsigned", b"signed", b"long", b"short")
}
_C_ENUM_BASE = re.compile(rb"enum([ \t]*:[ \t]*[A-Za-z_][\w:]*(?:[ \t]+[A-Za-z_]\w*)*)(?=[ \t]*\{)")


def _keyword_cast(match: re.Match[bytes]) -> bytes:
    before = match.string[match.start() - 1 : match.start()]
    return match.group(0) if before.isalnum() or before == b"_" else b" " * len(match.group(0))


def _enum_base(match: re.Match[bytes]) -> bytes:
    before = match.string[match.start() - 1 : match.start()]
    if before.isalnum() or before == b"_":
        return match.group(0)
    return b"enum" + b" " * len(match.group(1))


# A macro as an array's initializer (`static const char *names[] LEVEL_NAMES;`).
_C_INITIALIZER_MACRO = re.compile(rb"(\])([ \t]+[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?=[ \t]*;)")
# An empty braced default argument (`const handlers &h = {})`), which the grammar cannot
# read in a parameter list: `= 0 ` keeps the parameter and its columns.
_C_EMPTY_DEFAULT = re.compile(rb"=([ \t]*)\{\}(?=[ \t]*[,)])")


def _empty_default(match: re.Match[bytes]) -> bytes:
    if match.string[match.start() - 1 : match.start()] in (b"=", b"!", b"<", b">"):
        return match.group(0)  # `a == {}`, `a <= {}`: no default
    return b"=%s0 " % match.group(1)


# A constraint written with `enable_if` (`typename std::enable_if < detail::conjunction <
# detail::negation<A<T>>, detail::negation<B<T>>, ... >::value, int >::type = 0 >`): past
# two qualified templates in one argument list the grammar's recovery ends the template
# and the class around it (nlohmann/json's `basic_json` ended at line 1,900 of 5,258).
# The constraint's arguments are blanked, `enable_if < >::type` stays.
_C_ENABLE_IF = re.compile(rb"\benable_if(?:_t)?[ \t]*<")
_C_ANGLES = re.compile(rb"->|>>|[<>();{}]")


def _enable_if(source: bytes) -> bytes:
    out: bytearray | None = None
    for match in _C_ENABLE_IF.finditer(source):
        end = _closing_angle(source, match.end())
        if end is None or (out is not None and out[match.end() : end].strip() == b""):
            continue  # (inside a constraint already blanked)
        if out is None:
            out = bytearray(source)
        out[match.end() : end] = spaces(source[match.end() : end])
    return bytes(out) if out is not None else source


def _closing_angle(source: bytes, start: int) -> int | None:
    """Where the `>` that closes the template arguments opened before ``start`` stands
    (a `<` or `>` in parentheses compares; `>>` closes two)."""
    depth, parens = 1, 0
    for token in _C_ANGLES.finditer(source, start):
        text = token.group()
        if text in (b";", b"{", b"}"):
            return None  # not a template's arguments (a comparison, a stray `<`)
        if text in (b"(", b")"):
            parens += 1 if text == b"(" else -1
        elif parens or text == b"->":
            continue
        elif text == b"<":
            depth += 1
        elif depth <= len(text):  # `>` at depth 1, or `>>` at depth 1 or 2
            return token.start() + depth - 1
        else:
            depth -= len(text)
    return None


def c_prepass(source: bytes) -> bytes:
    """``source`` with the C and C++ forms above rewritten, byte for byte."""
    source = _c_attribute_macros(source)
    if b"__cplusplus" in source:
        source = _c_linkage(source)
    if b"va_arg(" in source:
        source = _C_VA_ARG.sub(blank_second, source)
    source = by_line(source, _ACCESS_CORE, _C_ACCESS_MACRO, _access_macro)
    if b"#" in source:
        source = by_line(source, _C_IF_DIRECTIVE, _C_WORD_BRANCH, _word_branch)
        source = split_statements(list_directives(source))
    for word, cast in _C_KEYWORD_CASTS.items():
        if word + b"(" in source:
            source = cast.sub(_keyword_cast, source)
    if b"enum" in source:
        source = _C_ENUM_BASE.sub(_enum_base, source)
    if b"] " in source:
        source = _C_INITIALIZER_MACRO.sub(blank_second, source)
    if b"{}" in source:
        source = _C_EMPTY_DEFAULT.sub(_empty_default, source)
    source = by_line(source, _TEST_CORE, _C_TEST_BLOCK, _test_block)
    if _TRY_WORDS.search(source):
        source = _C_TRY_CATCH.sub(_blank_keep_lines, source)
    if b"if " in source:
        source = _C_IF_MACRO.sub(_if_macro, source)
    source = _c_thread_annotations(source)
    if b"_" in source:
        source = _c_macro_lines(source)
    if b"template" in source:
        source = _C_TEMPLATE_MACRO.sub(_blank_keep_lines, source)
    if b"enable_if" in source:
        source = _enable_if(source)
    return source


def _blank_keep_lines(match: re.Match[bytes]) -> bytes:
    return spaces(match.group(0))


def _c_attribute_macros(source: bytes) -> bytes:
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
            named = next_char in (b",", b")") and before < start  # `gpointer data G_GNUC_UNUSED)`
            if word is None or not (
                word.group(1) in _C_AFTER_PARAMETERS
                or (named and word.group(1)[:1].islower() and word.group(1) not in _C_TYPE_WORDS)
            ):
                continue  # nor after a parameter list or a parameter's name: a constant
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
