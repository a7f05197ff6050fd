"""Code in a search answer: a few lines of each hit, or its whole source.

An agent choosing among twenty hits needs to see what each one does; without
the code every candidate costs one more call. ``snippet_lines`` gives the first
lines after a definition's signature (blank lines skipped, the common indent
removed); ``detail_level: full`` gives the definition's source up to
:data:`SOURCE_LINES`. Lines are read as the file is now (through
:func:`symfuse.ranking.text.paths.lines_on_demand`, confined to the workspace, which
keeps only the files' line offsets between searches); a file that vanished gives
no snippet rather than an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.query.responses import SearchResponse
from symfuse.ranking.query.search_request import DetailLevel, SearchRequest
from symfuse.ranking.text import paths

SOURCE_LINES = 120  # detail_level full: a definition's source up to this many lines


def snippet(index: Index, symbol: Symbol, count: int, *, skip_doc: bool = False) -> str | None:
    """Up to ``count`` non-blank lines of ``symbol`` after its signature, dedented;
    ``skip_doc``: after its docstring too (where the doc is shown beside the code)."""
    if count <= 0:
        return None
    lines = paths.lines_on_demand(index, symbol.file)
    if not lines:
        return None
    last = min(symbol.end_line, len(lines))
    first = _body_start(lines, symbol.name_line, last)
    if skip_doc:
        first = _after_docstring(lines, first, last)
    chosen: list[str] = []
    for number in range(first, last + 1):
        text = lines[number - 1]
        if text.strip():
            chosen.append(text.rstrip())
            if len(chosen) == count:
                break
    if not chosen and first > last:  # a one-line definition: the line itself
        chosen = [lines[symbol.line - 1].rstrip()] if 0 < symbol.line <= len(lines) else []
    return dedented(chosen) if chosen else None


def dedented(lines: list[str]) -> str:
    """``textwrap.dedent("\n".join(lines))``, without its regex scans, which try a match
    at every character: a minified file's one line (jQuery's is 90,000 characters) took
    them milliseconds per hit. The same steps, on the lines split at newlines as the
    regexes see them: lines of blanks and tabs alone become empty, the margin is the
    longest run of blanks and tabs every other line starts with, and it is cut off."""
    pieces = "\n".join(lines).split("\n")
    pieces = ["" if piece and not piece.strip(" \t") else piece for piece in pieces]
    margin: str | None = None
    for piece in pieces:
        if not piece:
            continue
        indent = piece[: len(piece) - len(piece.lstrip(" \t"))]
        if margin is None or margin.startswith(indent):
            margin = indent
        elif not indent.startswith(margin):
            same = 0  # neither starts the other: they differ within both
            while margin[same] == indent[same]:
                same += 1
            margin = margin[:same]
    if margin:
        pieces = [piece.removeprefix(margin) for piece in pieces]
    return "\n".join(pieces)


_OPENERS = (":", "{", "=>", "do", "then", "=")
_SIGNATURE_LINES = 12  # a declaration longer than this is not looked through


def _body_start(lines: Sequence[str], line: int, last: int) -> int:
    """The line after the declaration that starts at ``line``: the first line ending in a
    block opener (``:``, ``{``, ``=>``, ...), or the next line when none is near."""
    for number in range(line, min(last, line + _SIGNATURE_LINES) + 1):
        code = lines[number - 1].split("#", 1)[0].split("//", 1)[0].rstrip()
        if code.endswith(_OPENERS):
            return number + 1
    return line + 1


def _after_docstring(lines: Sequence[str], first: int, last: int) -> int:
    """The line after a Python docstring that opens the body at ``first`` (else ``first``)."""
    number = first
    while number <= last and not lines[number - 1].strip():
        number += 1
    if number > last:
        return first
    text = lines[number - 1].strip().lstrip("rRbBuU")
    quote = text[:3]
    if quote not in ('"""', "'''"):
        return first
    if text.count(quote) >= 2 and len(text) > 3:  # opened and closed on one line
        return number + 1
    for end in range(number + 1, last + 1):
        if quote in lines[end - 1]:
            return end + 1
    return first


def source(index: Index, symbol: Symbol, cap: int = SOURCE_LINES) -> str | None:
    """The definition's lines (at most ``cap``, then a line saying how many were left out)."""
    lines = paths.lines_on_demand(index, symbol.file)
    if not lines or symbol.line > len(lines):
        return None
    last = min(symbol.end_line, len(lines))
    body = lines[symbol.line - 1 : last]
    left = len(body) - cap
    text = "\n".join(line.rstrip() for line in body[:cap])
    return f"{text}\n… ({left} more lines)" if left > 0 else text


def code_wanted(request: SearchRequest) -> bool:
    """Whether the answer to ``request`` shows code (snippets, or sources at full)."""
    if request.detail_level is DetailLevel.MINIMAL:
        return False
    return request.detail_level is DetailLevel.FULL or request.snippet_lines > 0


def code_of(index: Index, symbol: Symbol, request: SearchRequest) -> tuple[str | None, str | None]:
    """``symbol``'s snippet and (at ``detail_level`` full) source, as ``request`` asks."""
    full = request.detail_level is DetailLevel.FULL
    return snippet(index, symbol, request.snippet_lines), source(index, symbol) if full else None


def with_code(index: Index, response: SearchResponse, request: SearchRequest) -> SearchResponse:
    """``response`` with each item's snippet (``snippet_lines``) and, at ``detail_level``
    full, its source."""
    if request.detail_level is DetailLevel.MINIMAL:
        return replace(response, snippet_lines=0)  # minimal: the fewest tokens, no code
    if not code_wanted(request):
        return response
    coded = [code_of(index, item.symbol, request) for item in response.items]
    items = tuple(
        replace(item, snippet=text, source=whole)
        for item, (text, whole) in zip(response.items, coded, strict=True)
    )
    return replace(response, items=items)
