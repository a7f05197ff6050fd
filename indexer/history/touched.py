"""Which definitions a diff touched: the same tree-sitter extraction on both sides.

The parent's and the child's blob of a file are extracted as the index extracts a
file (:func:`symfuse.indexer.extract.tags.extract`); definitions are paired by qualified
name and kind (and their order among namesakes). One only in the child was added,
one only in the parent deleted; one on both sides was modified when a changed line
of the hunks falls in its span on either side (a removed line in its old span, an
added line in its new span). The diff kept for a definition is its own lines.
"""

from __future__ import annotations

import bisect
import zlib
from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Tree

from symfuse.indexer.extract import conditionals
from symfuse.indexer.extract.prepass import PREPASS
from symfuse.indexer.extract.tags import extract_tree
from symfuse.indexer.files import headers as header_language
from symfuse.indexer.files import languages
from symfuse.indexer.files.source import as_utf8, declared_encoding, strip_bom
from symfuse.indexer.history.gitlog import Hunk
from symfuse.indexer.history.records import Change, TouchedDef
from symfuse.indexer.model import Kind

MAX_DIFF_LINES = 200  # of one definition's diff; the rest is cut with a note

Key = tuple[str, str, int]  # qualified name, kind, n-th of that name and kind in the file


@dataclass(frozen=True, slots=True)
class DefSpan:
    """A definition of one side: its name, kind, lines and a digest of its text."""

    qualified: str
    name: str
    kind: str
    line: int
    end_line: int
    digest: int


def qualified_name(symbol_id: str) -> str:
    """The path-independent name in a symbol id: ``Order.total`` of
    ``shop/models.py::Order.total#method``."""
    return symbol_id.split("::", 1)[-1].rsplit("#", 1)[0]


def language_of(path: str, source: bytes) -> str | None:
    spec = languages.detect(path)
    if spec is None:
        return None
    if spec.name == header_language.C and header_language.is_ambiguous(path):
        return header_language.decide(source)
    return spec.name


@dataclass(frozen=True, slots=True)
class Parsed:
    """One version of a file, parsed: the tree the next version is parsed from.
    ``as_written``: the tree is of ``source`` itself, not of a rewrite of it (only such
    a tree may be edited into the next version's)."""

    language: str
    source: bytes
    tree: Tree
    as_written: bool = True


def parse(
    path: str, source: bytes, base: Parsed | None = None, hunks: Sequence[Hunk] = ()
) -> Parsed | None:
    """``source`` parsed; from ``base`` (the previous version, which ``hunks`` turn into
    this one) incrementally when they allow it. None: not a language we read."""
    language = language_of(path, source)
    if language is None:
        return None
    parser = languages.parser(language)
    prepass = PREPASS.get(language)
    encoded = declared_encoding(source) is not None  # a PEP 263 cookie, a wide BOM
    text = strip_bom(as_utf8(source) if encoded else source)
    rewritten = prepass(text) if prepass else text
    as_written = text is source and rewritten == text  # what is parsed is the blob itself
    if as_written and hunks and base is not None and _editable(base, language):
        tree = base.tree.copy()
        if _edit(tree, base.source, source, hunks):
            tree = parser.parse(source, tree)
            if not conditionals.recoverable(language, source, tree):
                return Parsed(language, source, tree)
    tree, whole = conditionals.parse_build(parser, language, rewritten)
    return Parsed(language, text, tree, as_written and whole)


def _editable(base: Parsed, language: str) -> bool:
    """Whether ``base``'s tree may be edited into the next version's, in ``language``."""
    return base.as_written and base.language == language


def _line_starts(source: bytes) -> list[int]:
    starts = [0]
    at = source.find(b"\n")
    while at >= 0:
        starts.append(at + 1)
        at = source.find(b"\n", at + 1)
    return starts


def _edit(tree: Tree, old: bytes, new: bytes, hunks: Sequence[Hunk]) -> bool:
    """Tell ``tree`` (of ``old``) the line edits ``hunks`` make; False when they do not
    turn ``old`` into ``new`` (then the caller parses from scratch)."""
    old_starts, new_starts = _line_starts(old), _line_starts(new)

    def offset(starts: list[int], line: int, size: int) -> int:
        return starts[line - 1] if 0 < line <= len(starts) else size

    removed = added = 0
    for hunk in hunks:
        old_line = hunk.old_start if hunk.old_count else hunk.old_start + 1
        new_line = hunk.new_start if hunk.new_count else hunk.new_start + 1
        start = offset(new_starts, new_line, len(new))
        old_size = offset(old_starts, old_line + hunk.old_count, len(old)) - offset(
            old_starts, old_line, len(old)
        )
        new_size = offset(new_starts, new_line + hunk.new_count, len(new)) - start
        tree.edit(
            start_byte=start,
            old_end_byte=start + old_size,
            new_end_byte=start + new_size,
            start_point=(new_line - 1, 0),
            old_end_point=(new_line - 1 + hunk.old_count, 0),
            new_end_point=(new_line - 1 + hunk.new_count, 0),
        )
        removed += old_size
        added += new_size
    return len(old) - removed + added == len(new)


def definitions(path: str, parsed: Parsed) -> list[DefSpan]:
    """The code definitions of one parsed version (documents' headings and keys left out)."""
    try:
        symbols = extract_tree(
            path, "", parsed.language, parsed.source, parsed.tree, definitions_only=True
        ).symbols
    except (RecursionError, MemoryError, ValueError):
        return []
    lines = parsed.source.split(b"\n")
    spans: list[DefSpan] = []
    for s in symbols:
        if s.kind in Kind.DOCUMENTS:
            continue
        qualified = qualified_name(s.symbol_id)
        text = b"\n".join(lines[s.line - 1 : s.end_line])
        spans.append(DefSpan(qualified, s.name, s.kind.value, s.line, s.end_line, zlib.crc32(text)))
    return spans


def keyed(spans: Sequence[DefSpan]) -> dict[Key, DefSpan]:
    seen: dict[tuple[str, str], int] = {}
    out: dict[Key, DefSpan] = {}
    for span in spans:
        n = seen.get((span.qualified, span.kind), 0)
        seen[(span.qualified, span.kind)] = n + 1
        out[(span.qualified, span.kind, n)] = span
    return out


@dataclass(frozen=True, slots=True)
class _Changed:
    """The changed line numbers of a file's hunks, sorted, on each side."""

    removed: list[int]
    added: list[int]

    @classmethod
    def of(cls, hunks: Sequence[Hunk]) -> _Changed:
        removed: list[int] = []
        added: list[int] = []
        for hunk in hunks:
            removed.extend(range(hunk.old_start, hunk.old_start + hunk.old_count))
            added.extend(range(hunk.new_start, hunk.new_start + hunk.new_count))
        return cls(sorted(removed), sorted(added))


def _any_in(numbers: list[int], first: int, last: int) -> bool:
    at = bisect.bisect_left(numbers, first)
    return at < len(numbers) and numbers[at] <= last


def touched(
    old: Sequence[DefSpan],
    new: Sequence[DefSpan],
    hunks: Sequence[Hunk],
    *,
    compare_text: bool = False,
) -> list[TouchedDef]:
    """The definitions added, deleted or modified between ``old`` and ``new``, in the
    order of the new side (deleted ones after). ``compare_text``: the hunks were not
    kept (a diff over its cap), so a definition on both sides is modified when its
    text differs."""
    before, after = keyed(old), keyed(new)
    changed = _Changed.of(hunks)
    out: list[TouchedDef] = []
    for key, span in after.items():
        was = before.get(key)
        if was is None:
            out.append(_touched(span, Change.ADDED, hunks, None, span))
        elif _modified(was, span, changed, compare_text):
            out.append(_touched(span, Change.MODIFIED, hunks, was, span))
    for key, span in before.items():
        if key not in after:
            out.append(_touched(span, Change.DELETED, hunks, span, None))
    return out


def _modified(was: DefSpan, now: DefSpan, changed: _Changed, compare_text: bool) -> bool:
    if compare_text:
        return was.digest != now.digest
    return _any_in(changed.removed, was.line, was.end_line) or _any_in(
        changed.added, now.line, now.end_line
    )


def _touched(
    span: DefSpan,
    change: Change,
    hunks: Sequence[Hunk],
    old: DefSpan | None,
    new: DefSpan | None,
) -> TouchedDef:
    diff = own_lines(hunks, old, new)
    return TouchedDef(span.qualified, span.name, span.kind, change, span.line, span.end_line, diff)


def own_lines(hunks: Sequence[Hunk], old: DefSpan | None, new: DefSpan | None) -> str:
    """The hunks' lines inside the definition (removed lines in its old span, added lines
    in its new span), each hunk's under its header; cut at :data:`MAX_DIFF_LINES`."""
    out: list[str] = []
    kept = 0
    for hunk in hunks:
        mine: list[str] = []
        old_line, new_line = hunk.old_start, hunk.new_start
        for text in hunk.lines:
            if text.startswith("-"):
                if old is not None and old.line <= old_line <= old.end_line:
                    mine.append(text)
                old_line += 1
            else:
                if new is not None and new.line <= new_line <= new.end_line:
                    mine.append(text)
                new_line += 1
        if not mine:
            continue
        out.append(hunk.header())
        room = MAX_DIFF_LINES - kept
        out.extend(mine[:room])
        kept += len(mine)
        if kept >= MAX_DIFF_LINES:
            out.append(f"... ({kept - MAX_DIFF_LINES}+ more changed lines)")
            break
    return "\n".join(out)
