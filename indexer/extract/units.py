"""Searchable units that are not definitions: the file itself and its regions.

Every code file gets one **file unit**, a :class:`Symbol` of kind ``file`` spanning the
whole file, so that the answer to "where is X configured" or "how is Y wired" can be a
module, its top-level code or a file of re-exports, and so that a file without any
definition (a Rust file of macro invocations, a route table) is still found. It is
named by the file's base name (``_client.py``: no identifier is spelled so, so no
reference ever resolves to it) and qualified by its path; its signature lists the
file's top-level names, its doc is the file's leading comment or docstring. The
ranking layer reads the code outside every definition as its body.

A **region** is a run of code outside every definition (top-level statements, macro
invocations, route tables, configuration blocks; in Elixir, Ruby or C++ also a module's or
namespace's body outside its members), cut into pieces of at most :data:`REGION_LINES`
lines: the place in a file that answers "where are the routes registered" when no
definition does. It is named by its lines (``12-40``, qualified ``app.js:12-40``), its signature its
first line of code, its doc the comment it opens with; its body is its lines. Only
product code and examples have regions (:data:`_REGIONED`). A region encloses the
file-level references in its lines (:func:`enclose`): the calls of a route table or a main
block have a caller, and the graph's edges a source (PageRank leaves units out).

Documents (Markdown, YAML, TOML) get none: their headings and keys are their units.
Units are appended after the definitions (the regions, then the file unit, last), so
reference rows keep their positions.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from symfuse.indexer.files.roles import Role, role_of
from symfuse.indexer.model import Kind, RefKind, Symbol
from symfuse.indexer.store.rows import REF_KIND_CODE, RefRow

NO_FILE_UNIT = frozenset({"markdown", "yaml", "toml"})
SIGNATURE_NAMES = 12  # top-level names listed in a file unit's signature
DOC_CHARS = 1_000
REGION_LINES = 40  # a region's most lines: a longer run is cut, at a blank line where one is near
REGION_CODE = 3  # the fewest lines of code a region holds: a lone call is its file unit's
MOST_REGIONS = 24  # a file's most regions: the rest of a long script is found through its unit
REGION_SIGNATURE = 120  # a region's signature: its first line of code, cut
_OPEN = frozenset({Kind.MODULE, Kind.NAMESPACE, Kind.PACKAGE})  # kinds whose body is open code
# Files with regions: tests (a spec file of `it` blocks is all open code), benchmarks and
# vendored copies have their file units alone, or their regions would crowd prose answers.
_REGIONED = frozenset({Role.PRODUCT, Role.EXAMPLE})


def file_unit(path: str, root: str, language: str, text: str, symbols: list[Symbol]) -> Symbol:
    """The file unit of ``path`` (its ``text`` decoded, its definitions ``symbols``)."""
    lines = text.splitlines() or [""]
    name = path.rpartition("/")[2]
    top = [s.name for s in symbols if s.parent is None and s.kind not in Kind.DOCUMENTS]
    listed = list(dict.fromkeys(top))
    signature = ", ".join(listed[:SIGNATURE_NAMES])
    if len(listed) > SIGNATURE_NAMES:
        signature += f", ... ({len(listed)} names)"
    end_line = len(lines)
    return Symbol(
        f"{path}::{name}#file",
        name,
        Kind.FILE,
        path,
        signature,
        language,
        path,
        root,
        1,
        1,
        end_line,
        len(lines[-1]) + 1,
        1,
        1,
        1,
        1,
        doc=leading_doc(text),
    )


_PYTHON_DOC = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\n)*[ \t]*[rRuU]?(\"\"\"|''')(.*?)\1", re.S)
_BLOCK = re.compile(r"\A\s*/\*+(.*?)\*/", re.S)
_DIRECTIVE = r"\s*(?:include|define|pragma|import|if|ifn?def|endif|else|elif|undef)\b"
# a line comment in any language's spelling; `#[attr]`, `#!` and C directives are code
_LINE_COMMENT = re.compile(rf"^\s*(?://[/!]?|#+(?![\[!]|{_DIRECTIVE})|--+|;+|%+)(.*)$")
_LICENSE = re.compile(r"copyright|licen[cs]e|SPDX-|all rights reserved", re.I)


def leading_doc(text: str) -> str:
    """The comment or docstring a file opens with (after a shebang), unless it is a
    licence header: what the file says it is for."""
    head = text[:20_000]
    if head.startswith("#!"):
        head = head.partition("\n")[2]
    found = _PYTHON_DOC.match(head)
    if found is not None:
        doc = found.group(2)
    elif (block := _BLOCK.match(head)) is not None:
        doc = "\n".join(line.strip().lstrip("*").strip() for line in block.group(1).splitlines())
    else:
        taken: list[str] = []
        for line in head.splitlines():
            if not line.strip():
                if taken:
                    break
                continue
            comment = _LINE_COMMENT.match(line)
            if comment is None:
                break
            taken.append(comment.group(1).strip())
        doc = "\n".join(taken)
    doc = doc.strip()
    if not doc or _LICENSE.search(doc[:400]):
        return ""
    return doc[:DOC_CHARS]


# lines that are not code, nor the lines their open brackets carry on to: imports, attributes,
# decorators, signatures of what the index does not hold (a typing overload's stub)
_CARRIED = re.compile(
    r"\s*(?:#!?\[|@|\{-#"  # attributes, decorators, Haskell pragmas
    r"|export\s+(?:type\s+)?(?:\*|\{)|export\s+default\s+[\w.]+;?\s*$"  # re-exports
    r"|(?:(?:async\s+)?def|fn|func|function"  # signatures the index does not hold
    r"|(module)|import|from\s+\S+\s+import|#\s*(?:include|import)|(?:pub(?:\([^)]*\))?\s+)?use"
    r"|using|package|alias|require(?:_relative)?|extern\s+crate|open|library)\b)"
)
_DECLARING_LANGUAGES = frozenset({"c", "cpp", "cuda", "objc"})
# `static void f(dict *d);`, `client *createClient(`, `void (*hook)(int);`, `struct node;`
_DECLARATION = re.compile(
    r"\s*(?:(?:struct|union|enum|class)\s+\w+\s*;"
    r"|(?:[A-Za-z_]\w*[\s*&]+)+\(?\**\s*[A-Za-z_][\w:]*\s*\)?\s*\()"
)
_PREPROCESSOR = re.compile(r"\s*#\s*(?:if|ifn?def|elif|define|undef|pragma|error|warning)\b")
_BLOCK_OPEN = re.compile(r"\s*(/\*|\{-|--\[\[)")  # a line that opens a block comment
_BLOCK_ENDS = {"/*": "*/", "{-": "-}", "--[[": "]]"}
_WHERE = re.compile(r"\bwhere\b")
_BLOCK_LINE = re.compile(r"\s*(?:/\*|\*)")  # a block comment's line
# blank lines, block comments' lines, preprocessor conditions, lone closing brackets or `end`s,
# JavaScript's "use strict"
_NOT_CODE = re.compile(
    r"""\s*(?:$|/\*|\*|#!/|['"]use strict['"];?\s*$"""
    r"|#\s*(?:if|ifn?def|elif|else|endif|pragma|undef|(?:end)?region)\b"
    r"|(?:[\])};,]+|end|fi|done|esac)\s*[;,)\]]*\s*$)"
)
# a string of lines opening a line: `@doc """`, `@moduledoc ~S"""`, a Python docstring
_HEREDOC = re.compile(r"\s*(?:@\w+\s+(?:~\w)?)?[rRbBuU]?(\"{3}|'{3})")
_MARKS = ("@", "#")  # a decorator's or an attribute's first character (`@app.route`, `#[test]`)
_CLOSING = (")", "]")  # a multi-line decorator's last line
_DECLARING = re.compile(r"\s*(?:[a-z]+\s+)*")  # what a line holds before a definition it opens
_CODE, _OPEN_LINE, _INSIDE = 1, 2, 0  # what a line is to regions (see _line_states)


def regions(path: str, root: str, language: str, text: str, symbols: list[Symbol]) -> list[Symbol]:
    """The regions of ``path`` (its ``text`` decoded, its definitions ``symbols``): runs of
    open lines (outside every definition but a module or namespace), cut at
    :data:`REGION_LINES`, each with at least :data:`REGION_CODE` lines of code (not an
    import, a comment or a definition's first line); at most :data:`MOST_REGIONS`; none
    when one region would be all there is of the file."""
    if role_of(path) not in _REGIONED:
        return []
    lines = text.split("\n")
    states = _line_states(text, lines, symbols, language in _DECLARING_LANGUAGES)
    found: list[Symbol] = []
    for start, end in _runs(states):
        for a, b in _pieces(lines, states, start, end):
            if states.count(_CODE, a, b) >= REGION_CODE:
                found.append(_region(path, root, language, lines, states, a, b))
                if len(found) == MOST_REGIONS:
                    return found
    if len(found) == 1 and states.find(_INSIDE) < 0:
        return []  # the file is its one region: its unit says it
    return found


def _line_states(text: str, lines: list[str], symbols: list[Symbol], declaring: bool) -> bytearray:
    """Each line's state (0-based): ``_INSIDE`` a definition, else a line of ``_CODE`` or
    another ``_OPEN_LINE`` (blank, a comment, an import, a closing bracket, a line a
    definition opens, the module's docstring; with ``declaring``, a C-like declaration
    such as a prototype: what a header lists, the index holds where it is defined)."""
    states = bytearray([_OPEN_LINE]) * len(lines)
    spans = [s for s in symbols if s.end_line > s.line and s.kind not in Kind.UNITS]
    for s in sorted(spans, key=lambda s: s.line - s.end_line):  # the innermost last
        if s.kind not in Kind.DOCUMENTS:
            state = _OPEN_LINE if s.kind in _OPEN else _INSIDE
            states[s.line - 1 : s.end_line] = bytes([state]) * (s.end_line - s.line + 1)
    closed = _closed(text, lines, symbols, states)
    depth = 0  # brackets an import, attribute or signature left open (its lines go on)
    exports = False  # in a Haskell module's export list, up to its `where`
    comment = ""  # the end of the block comment the line is in (`*/`, `-}`, `]]`)
    directive = False  # the line goes on a preprocessor directive that a `\` continued
    for i, line in enumerate(lines):
        if states[i] == _INSIDE:
            continue  # a definition's lines: nothing in them opens or closes open code
        if directive or _PREPROCESSOR.match(line):
            directive = line.rstrip().endswith("\\")
        elif comment:
            comment = "" if comment in line else comment
        elif (opened := _BLOCK_OPEN.match(line)) is not None:
            end = _BLOCK_ENDS[opened.group(1)]
            comment = "" if end in line[opened.end() :] else end
        elif depth > 0:
            depth += _balance(line)
        elif exports:
            exports = _WHERE.search(line) is None
        elif states[i] == _OPEN_LINE and (carried := _CARRIED.match(line)) is not None:
            depth = _balance(line)
            exports = carried.group(1) == "module" and _WHERE.search(line) is None
        elif states[i] == _OPEN_LINE and declaring and _DECLARATION.match(line):
            depth = _balance(line)
        elif states[i] == _OPEN_LINE and i not in closed and _is_code(line):
            states[i] = _CODE
        if declaring and not comment and line.rfind("/*") > line.rfind("*/"):
            comment = "*/"  # a comment after the code goes on below it (C's `int n; /* ...`)
    return states


def _balance(line: str) -> int:
    """Brackets ``line`` opens less those it closes."""
    return sum(map(line.count, "([{")) - sum(map(line.count, ")]}"))


def _closed(text: str, lines: list[str], symbols: list[Symbol], states: bytearray) -> set[int]:
    """Lines (0-based) that are not open code though they may look it: the lines that
    definitions open and the decorators or attributes above them, a module's docstring,
    attributes' heredocs (Elixir's ``@doc \"\"\"``)."""
    closed: set[int] = set()
    for s in symbols:
        at = s.line - 1
        if states[at] == _INSIDE and (at == 0 or states[at - 1] == _INSIDE):
            continue  # a member inside a definition: its lines and decorators are inside
        if _DECLARING.fullmatch(lines[at][: s.col - 1]):
            closed.add(at)
        closed.update(_decorators(lines, at))
    doc = _PYTHON_DOC.match(text)  # a dialect's page of documentation is a docstring too
    closed.update(range(text.count("\n", 0, doc.end()) + 1 if doc is not None else 0))
    at = 0
    while (found := _next_heredoc(lines, states, at)) is not None:
        at, quotes, rest = found
        end = at if quotes in rest else _closing(lines, at + 1, quotes)
        closed.update(range(at, end + 1))
        at = end + 1
    return closed


def _closing(lines: list[str], start: int, quotes: str) -> int:
    """The first line from ``start`` that holds ``quotes`` (else the last line)."""
    return next((i for i in range(start, len(lines)) if quotes in lines[i]), len(lines) - 1)


def _decorators(lines: list[str], at: int) -> range:
    """The lines of the decorators or attributes right above line ``at`` (0-based): from
    the first line that opens with ``@`` or ``#[`` at the definition's indent, over lines
    with no blank between."""
    indent = len(lines[at]) - len(lines[at].lstrip())
    top = at
    above = lines[at - 1][indent : indent + 1] if at > 0 else ""
    if not above or above not in _MARKS + _CLOSING:
        return range(at, at)
    for i in range(at - 1, max(-1, at - 200), -1):
        line = lines[i]
        if not line.strip():
            break
        if line[indent : indent + 1] in _MARKS and len(line) - len(line.lstrip()) == indent:
            top = i
    return range(top, at)


def _next_heredoc(lines: list[str], states: bytearray, start: int) -> tuple[int, str, str] | None:
    """The next open line from ``start`` that opens a string of lines: its place, its
    quotes and what follows them on the line."""
    for i in range(start, len(lines)):
        line = lines[i]
        if states[i] == _INSIDE or ('"""' not in line and "'''" not in line):
            continue
        if (opened := _HEREDOC.match(line)) is not None:
            return i, opened.group(1), line[opened.end() :]
    return None


def _is_code(line: str) -> bool:
    return not (_NOT_CODE.match(line) or _LINE_COMMENT.match(line))


def _runs(states: bytearray) -> list[tuple[int, int]]:
    """The runs of lines outside definitions, ``[start, end)``, that hold code."""
    runs: list[tuple[int, int]] = []
    at, n = 0, len(states)
    while (at := states.find(_CODE, at)) >= 0:
        start = states.rfind(_INSIDE, 0, at) + 1
        end = states.find(_INSIDE, at)
        end = n if end < 0 else end
        runs.append((start, end))
        at = end
    return runs


def _pieces(lines: list[str], states: bytearray, start: int, end: int) -> list[tuple[int, int]]:
    """The regions of the run ``[start, end)``: each from its first line of code (or the
    comment just above it) to its last, cut at :data:`REGION_LINES` lines (at the last
    blank line of a piece's second half, where it has one)."""
    pieces: list[tuple[int, int]] = []
    while (first := states.find(_CODE, start, end)) >= 0:
        start = _opening(lines, states, start, first)
        last = states.rfind(_CODE, start, end)
        stop = min(last + 1, start + REGION_LINES)
        if stop <= last:
            blank = [i for i in range(start + REGION_LINES // 2, stop) if not lines[i].strip()]
            stop = blank[-1] if blank else stop
        pieces.append((start, stop))
        start = stop
    return pieces


def _opening(lines: list[str], states: bytearray, start: int, first: int) -> int:
    """Where a region whose first line of code is ``first`` opens: at the comment lines
    above it (blank lines between them and it allowed), not before ``start``."""
    opening = first
    for i in range(first - 1, start - 1, -1):
        line = lines[i]
        if states[i] != _OPEN_LINE or (line.strip() and not _is_comment(line)):
            break
        if line.strip():
            opening = i
    return opening


def _is_comment(line: str) -> bool:
    return _LINE_COMMENT.match(line) is not None or _BLOCK_LINE.match(line) is not None


def _region(
    path: str, root: str, language: str, lines: list[str], states: bytearray, a: int, b: int
) -> Symbol:
    """The region of ``lines[a:b]``."""
    first = states.find(_CODE, a, b)
    line = lines[first].strip()
    name = f"{a + 1}-{b}"  # no word of a name: a name query never matches a region
    return Symbol(
        f"{path}::{name}#region",
        name,
        Kind.REGION,
        f"{path}:{a + 1}-{b}",
        line[:REGION_SIGNATURE],
        language,
        path,
        root,
        a + 1,
        1,
        b,
        len(lines[b - 1]) + 1,
        first + 1,
        len(lines[first]) - len(lines[first].lstrip()) + 1,
        first + 1,
        len(lines[first].rstrip()) + 1,
        doc=leading_doc("\n".join(lines[a:first])),
    )


_IMPORT = REF_KIND_CODE[RefKind.IMPORT]


def enclose(rows: list[RefRow], found: list[Symbol], first: int) -> None:
    """Make the regions ``found`` (at ``first`` and on among the file's symbols) the
    enclosing definitions of the file-level references in their lines, in place: a call in
    a route table or a main block has a caller then. Imports stay at file level: they bind
    names for the whole file."""
    if not found:
        return
    starts = [s.line for s in found]
    for at, row in enumerate(rows):
        if row[4] >= 0 or row[3] == _IMPORT:
            continue
        place = bisect_right(starts, row[1]) - 1
        if place >= 0 and row[1] <= found[place].end_line:
            rows[at] = (*row[:4], first + place, *row[5:])
