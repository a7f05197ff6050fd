"""C and C++ conditionals inside a list or a statement, read as their first build.

The bundled grammars take ``#if`` / ``#else`` / ``#endif`` where a declaration or a
statement may stand, and nowhere else. nlohmann/json's ``basic_json`` writes them inside
a template's parameter list (``detail::negation<...>,`` / ``#if defined(JSON_HAS_CPP_17)``
/ ``detail::negation<std::is_same<ValueType, std::string_view>>,`` / ``#endif``): the
class ended there, at line 1,900 of 5,258, and its methods after it were indexed as
free functions named after a stray ``get_binary``.

A directive whose code line before it ends a list's element or opens one (``,``, ``(``,
``<``, ``&&``, ``||``, a string literal the next one continues), inside parentheses or
angle brackets (not an enum's or an initializer's braces: the grammar reads those), is
blanked, and so are the ``#elif`` / ``#else`` branches of such a conditional (the first
branch is the build read: both would repeat an element).

A conditional whose first branch ends with a statement's head, not the statement (jq's
strptime: ``#ifdef _WIN32`` / ``if (localtime_s(tm, &sse))`` / ``#else`` / ``if
(localtime_r(&sse, tm) == NULL)`` / ``#endif`` / ``bp = NULL;``; its main.c: ``int
umain(...) {`` / ``#else`` / ``int main(...) {`` / ``#endif``) is read with one head, the
``#else`` branch's (the build most platforms compile: ``main``), the first branch's
whole statements before it kept (main.c's ``wmain``): both heads would be two for one
body (jq's util.c was one error from that line to its end, main.c for 460 lines). Every
byte keeps its position (see :mod:`.prepass`). Conditionals between whole declarations
and statements stay as written: the grammar reads those.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from symfuse.indexer.extract.rewrites import spaces

_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b")
_LIST_OPEN = (b",", b"(", b"<", b"&&", b"||", b'"')  # (`"` a string concatenated on)
_LINE_COMMENT = re.compile(rb"//[^\n]*$")
# a scan first: an #if right after a line that ends a list's element (most files have none)
_IN_LIST = re.compile(rb"(?:,|\(|<|&&|\|\||\")[ \t]*(?://[^\n]*)?\n(?:[ \t]*\n)*[ \t]*#[ \t]*if")


# `#if` / lines / `#else` / a few lines / `#endif`, no directive inside (jq's main.c
# defines `wmain` in its first branch before the `umain` head)
_LINES = rb"(?:(?![ \t]*#)[^\n]*\n)"
_TWO_BRANCHES = re.compile(
    rb"^([ \t]*#[ \t]*if(?:n?def)?\b[^\n]*\n)(" + _LINES + rb"{1,60}?)"
    rb"([ \t]*#[ \t]*else\b[^\n]*\n)(" + _LINES + rb"{1,6}?)([ \t]*#[ \t]*endif\b[^\n]*)",
    re.M,
)
_BLOCK_COMMENT = re.compile(rb"/\*.*?\*/", re.S)
_ENDS_STATEMENT = (b";", b"}")


def split_statements(source: bytes) -> bytes:
    """``source`` with each two-branch conditional that splits a statement (its first
    branch ends with neither ``;`` nor ``}``) read with one head: the ``#else``
    branch's, the first branch's whole statements kept before it."""
    if b"#" not in source or b"else" not in source:
        return source
    return _TWO_BRANCHES.sub(_one_head, source)


def _one_head(match: re.Match[bytes]) -> bytes:
    opening, first, other, second, closing = match.group(1, 2, 3, 4, 5)
    lines = first.split(b"\n")[:-1]  # (the branch ends with its newline)
    whole = 0  # the first branch's lines up to its last whole statement
    for n, line in enumerate(lines, start=1):
        code = _LINE_COMMENT.sub(b"", _BLOCK_COMMENT.sub(b"", line)).rstrip()
        if code.endswith(_ENDS_STATEMENT):
            whole = n
    tail = b"".join(line + b"\n" for line in lines[whole:])
    if not tail.strip():  # the first branch ends with a whole statement: the grammar's
        return match.group(0)
    kept = b"".join(line + b"\n" for line in lines[:whole])
    return b"".join(
        (
            spaces(opening),
            kept,
            spaces(tail + other),
            second,
            spaces(closing),
        )
    )


@dataclass
class _Conditional:
    in_list: bool  # its directives sit inside a list: blanked
    skipping: bool = False  # inside an #elif / #else branch of such a conditional


def list_directives(source: bytes) -> bytes:
    """``source`` with the conditionals inside lists read as their first branch."""
    if b"#" not in source or _IN_LIST.search(source) is None:
        return source
    lines = source.split(b"\n")
    out: bytearray | None = None
    stack: list[_Conditional] = []
    last_code = b""  # the last code line kept, its line comment cut
    offset = 0
    for line in lines:
        opened = (
            line.lstrip()[:1] == b"#"
            and last_code.endswith(_LIST_OPEN)
            and _innermost(source, offset) in b"(<"
        )
        blanked = _blanked(line, stack, last_code if opened else b"")
        if blanked:
            if out is None:
                out = bytearray(source)
            out[offset : offset + len(line)] = b" " * len(line)
        elif line.strip() and not _DIRECTIVE.match(line):
            last_code = _LINE_COMMENT.sub(b"", line).rstrip()
        offset += len(line) + 1
    return bytes(out) if out is not None else source


_BRACKETS = re.compile(rb"->|[()<>{}\[\]]")
_CLOSERS = {b")": b"(", b">": b"<", b"}": b"{", b"]": b"["}
_LOOK_BACK = 4000  # bytes before a directive searched for the bracket it stands in


def _innermost(source: bytes, at: int) -> bytes:
    """The bracket left open before ``at`` nearest to it (``b"{"`` when none is found)."""
    closed: dict[bytes, int] = {}
    for bracket in reversed(_BRACKETS.findall(source, max(0, at - _LOOK_BACK), at)):
        if bracket == b"->":
            continue
        if bracket in _CLOSERS:
            closed[_CLOSERS[bracket]] = closed.get(_CLOSERS[bracket], 0) + 1
        elif closed.get(bracket):
            closed[bracket] -= 1
        else:
            return bytes(bracket)
    return b"{"


def _blanked(line: bytes, stack: list[_Conditional], last_code: bytes) -> bool:
    """Whether ``line`` is blanked, ``stack`` (the open conditionals) updated."""
    skipping = any(c.skipping for c in stack)
    directive = _DIRECTIVE.match(line)
    if directive is None:
        return skipping
    word = directive.group(1)
    if word.startswith(b"if"):  # (one continued on the next line is left as written)
        continued = line.rstrip().endswith(b"\\")
        in_list = not skipping and not continued and last_code.endswith(_LIST_OPEN)
        stack.append(_Conditional(in_list))
        return skipping or in_list
    if not stack:
        return False
    top = stack[-1]
    if word == b"endif":
        stack.pop()
        return skipping or top.in_list
    if top.in_list:  # an #elif / #else of a conditional inside a list: not this build
        top.skipping = True
    return skipping or top.in_list
