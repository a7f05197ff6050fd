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

_LIST_OPEN = (b",", b"(", b"<", b"&&", b"||", b'"')  # (`"` a string concatenated on)
_LINE_COMMENT = re.compile(rb"//[^\n]*$")
# a scan first, found by the `#`: an #if right after a code line that ends a list's element
# (most files have none)
_IF = re.compile(rb"#[ \t]*if")
_ELSE = re.compile(rb"#[ \t]*else\b")


def _after_code(source: bytes, directive: re.Pattern[bytes], ends: tuple[bytes, ...]) -> bool:
    """Whether a line opening with ``directive`` follows a code line (:func:`_last_code`)
    ending with one of ``ends``, or with no whole statement's end when ``ends`` is empty."""
    for found in directive.finditer(source):
        start = source.rfind(b"\n", 0, found.start()) + 1
        if source[start : found.start()].strip():
            continue  # not at the line's start
        previous = _last_code(source, start)
        if previous.endswith(ends) if ends else not previous.endswith(_ENDS_STATEMENT):
            return True
    return False


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
    if b"#" not in source or not _after_code(source, _ELSE, ()):
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
    skip_from: int = -1  # where its #elif / #else branches start, when it is in a list


_DIRECTIVE_WORD = re.compile(rb"#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b[^\n]*")


def list_directives(source: bytes) -> bytes:
    """``source`` with the conditionals inside lists read as their first branch."""
    if b"#" not in source or not _after_code(source, _IF, _LIST_OPEN):
        return source
    out = bytearray(source)
    changed = False
    stack: list[_Conditional] = []
    for line in _DIRECTIVE_WORD.finditer(source):
        if source[source.rfind(b"\n", 0, line.start()) + 1 : line.start()].strip():
            continue  # not at its line's start
        word = line.group(1)
        skipping = any(c.skip_from >= 0 for c in stack)
        if word.startswith(b"if"):  # (one continued on the next line is left as written)
            in_list = (
                not skipping
                and not line.group(0).rstrip().endswith(b"\\")
                and _last_code(out, line.start()).endswith(_LIST_OPEN)
                and _innermost(source, line.start()) in b"(<"
            )
            stack.append(_Conditional(in_list))
            blanked = skipping or in_list
        elif not stack:
            continue
        elif word == b"endif":
            top = stack.pop()
            if top.skip_from >= 0:  # the branches that are not this build
                out[top.skip_from : line.start()] = spaces(source[top.skip_from : line.start()])
                changed = True
            blanked = skipping or top.in_list
        else:
            top = stack[-1]
            if top.in_list and top.skip_from < 0:
                top.skip_from = line.end()
            blanked = skipping or top.in_list
        if blanked:
            out[line.start() : line.end()] = spaces(line.group(0))
            changed = True
    return bytes(out) if changed else source


def _last_code(text: bytes | bytearray, at: int) -> bytes:
    """The last code line of ``text`` before ``at`` (no directive or a directive's
    continued line, no blank line), its line comment cut."""
    end = at - 1
    for _ in range(200):
        if end < 0:
            return b""
        start = text.rfind(b"\n", 0, end) + 1
        line = bytes(text[start:end]).strip()
        continued = bytes(text[max(0, start - 3) : start]).rstrip(b"\r\n").endswith(b"\\")
        if line and not line.startswith(b"#") and not continued:
            return _LINE_COMMENT.sub(b"", line).rstrip()
        end = start - 1
    return b""


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
