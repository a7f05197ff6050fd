"""``search_text``: literal, regex or fuzzy search over the files as they are on disk: the
indexed code and the text files beside it (:mod:`symfuse.ranking.text.files`).

One hit per matching line (the first match on it), in file then line order, code files
before documentation and configuration (:func:`~symfuse.ranking.text.files.searched_files`).
With ripgrep installed (:mod:`symfuse.ranking.text.ripgrep`) it counts the matching lines of
every file, and only the files the page falls in are read here; without it, or for a
pattern in a dialect it does not take, every file is scanned here
(:mod:`symfuse.ranking.text.scanners`). Regular expressions never hang: see
:mod:`symfuse.ranking.text.regex_scan` for the guard, the killable worker and the per-line
cap.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from symfuse.indexer.errors import InvalidRequest, SymfuseError
from symfuse.indexer.index import Index
from symfuse.ranking.query.records import Record
from symfuse.ranking.search.repositories import repository_of
from symfuse.ranking.text import paths, regex_scan, ripgrep, scanners
from symfuse.ranking.text.files import searched_files

MAX_PATTERN = 1000
MAX_LIMIT = 1000
MAX_SNIPPET_LINES = 50
MAX_EDIT_DISTANCE = 3
DEFAULT_TIMEOUT = 2.0
MAX_TIMEOUT = 30.0
MAX_LINE_CHARS = 300  # a longer line is cut in `text` and snippets


class SearchTimeout(SymfuseError):
    """A text search ran past its time budget."""


@dataclass(frozen=True, slots=True)
class TextHit(Record):
    """A matching line. Columns are 1-based code points; ``end_column`` is exclusive."""

    file: str
    line: int
    column: int
    end_column: int
    text: str
    snippet: str
    distance: int | None = None
    repository: str = ""  # the alias of the file's root


@dataclass(frozen=True, slots=True)
class TextSearchResult(Record):
    """A page of hits; ``total`` counts every matching line, ``truncated`` says more exist."""

    pattern: str
    mode: str
    hits: tuple[TextHit, ...]
    total: int
    offset: int
    limit: int
    truncated: bool
    files_searched: int
    elapsed_ms: float


def search_text(
    index: Index,
    pattern: str,
    *,
    regex: bool = False,
    case_sensitive: bool = False,
    edit_distance: int = 0,
    file_pattern: str | list[str] | None = None,
    language: str | None = None,
    exclude_path: str | list[str] | None = None,
    snippet_lines: int = 2,
    limit: int = 20,
    offset: int = 0,
    timeout: float = DEFAULT_TIMEOUT,
    code_only: bool = False,
) -> TextSearchResult:
    """Search the current contents of the indexed files and of the text files beside them
    (documentation, configuration: :mod:`symfuse.ranking.text.files`; not with ``code_only``).

    ``file_pattern`` and ``exclude_path`` are globs (comma-separated or a list;
    ``*`` stays within a path segment, ``**`` spans them, a pattern without ``/``
    also matches file names). Raises InvalidRequest for bad arguments (naming
    the field) and SearchTimeout when the scan outlives ``timeout`` seconds.
    """
    started = time.perf_counter()
    _validate(pattern, regex, edit_distance, snippet_lines, limit, offset, timeout)
    compiled, risk = _compile(pattern, regex, case_sensitive, edit_distance)
    files = searched_files(index, file_pattern, language, exclude_path, code_only=code_only)
    deadline = started + timeout
    keep = offset + limit
    try:
        if edit_distance:
            scan = scanners.fuzzy(index, files, pattern, case_sensitive, edit_distance, deadline)
            page, total = _paged(scan, offset, keep)
        else:
            page, total = _matched(index, files, compiled, risk, regex, (offset, keep), deadline)
    except scanners.Expired:
        raise _timeout(timeout, pattern) from None
    hits = tuple(_hit(index, *h, snippet_lines) for h in page)
    return TextSearchResult(
        pattern=pattern,
        mode="fuzzy" if edit_distance else "regex" if regex else "literal",
        hits=hits,
        total=total,
        offset=offset,
        limit=limit,
        truncated=offset + len(hits) < total,
        files_searched=len(files),
        elapsed_ms=round((time.perf_counter() - started) * 1000, 2),
    )


def _matched(
    index: Index,
    files: list[str],
    compiled: re.Pattern[str],
    risk: regex_scan.Risk,
    regex: bool,
    window: tuple[int, int],
    deadline: float,
) -> tuple[list[scanners.Matched], int]:
    """The page ``window`` (offset, keep) of a literal or regex search, and the total:
    ripgrep's counts and the files the page falls in, or every file read here."""
    offset, keep = window
    counted = _rg_counts(index, files, compiled, regex, deadline)
    if counted is not None:
        return _counted_page(index, counted, compiled, risk, window, deadline, literal=not regex)
    if risk is regex_scan.Risk.RISKY:
        left = max(deadline - time.perf_counter(), 0.001)
        found, total = scanners.in_worker(index, files, compiled, keep, left)
        return found[offset:keep], total
    scan = scanners.in_process(index, files, compiled, deadline, whole_file=not regex)
    return _paged(scan, offset, keep)


def _rg_counts(
    index: Index, files: list[str], compiled: re.Pattern[str], regex: bool, deadline: float
) -> list[tuple[str, int]] | None:
    """(key, matching lines) of the files that match, in search order, as ripgrep counts
    them (:mod:`.ripgrep`); None without ripgrep or for a pattern it does not take."""
    rg = ripgrep.binary()
    # ripgrep reads UTF-8 (and UTF-16 with a BOM); a file that declares another encoding
    # (latin-1, cp1252) is read here as declared. An ASCII pattern matches the same bytes
    # either way; another is searched here.
    if rg is None or not files or not compiled.pattern.isascii():
        return None
    where = [paths.key_path(index, key) for key in files]
    pattern = scanners.unescape(compiled.pattern) if not regex else compiled.pattern
    try:
        counts = ripgrep.line_counts(
            rg,
            where,
            pattern,
            regex=regex,
            case_sensitive=not compiled.flags & re.IGNORECASE,
            timeout=max(deadline - time.perf_counter(), 0.001),
        )
    except ripgrep.Refused:
        return None
    except ripgrep.Expired:
        raise scanners.Expired from None
    # Only files that stay inside the workspace (a symlink may lead out) are counted.
    return [
        (files[at], count)
        for at, count in sorted(counts.items())
        if paths.real_path(index, files[at]) is not None
    ]


def _counted_page(
    index: Index,
    counted: list[tuple[str, int]],
    compiled: re.Pattern[str],
    risk: regex_scan.Risk,
    window: tuple[int, int],
    deadline: float,
    *,
    literal: bool,
) -> tuple[list[scanners.Matched], int]:
    """The page ``window`` (offset, keep) of hits, reading only the files it falls in:
    the counts place every other file's hits without reading it."""
    offset, keep = window
    needed: list[tuple[str, int]] = []  # (key, hits before it)
    before = 0
    for key, count in counted:
        if before + count > offset and before < keep:
            needed.append((key, before))
        before += count
    keys = [key for key, _ in needed]
    found: list[scanners.Matched] = []
    if keys and risk is regex_scan.Risk.RISKY:
        left = max(deadline - time.perf_counter(), 0.001)
        found, _ = scanners.in_worker(index, keys, compiled, sum(c for _, c in counted), left)
    elif keys:
        found = list(scanners.in_process(index, keys, compiled, deadline, whole_file=literal))
    by_file: dict[str, list[scanners.Matched]] = {}
    for hit in found:
        by_file.setdefault(hit[0], []).append(hit)
    page = [
        hit
        for key, at in needed
        for n, hit in enumerate(by_file.get(key, []), at)
        if offset <= n < keep
    ]
    return page, before


def _paged(scan: scanners.Found, offset: int, keep: int) -> tuple[list[scanners.Matched], int]:
    """The matches from the ``offset``-th up to the ``keep``-th, and how many there are."""
    total = 0
    page: list[scanners.Matched] = []
    for hit in scan:
        if offset <= total < keep:
            page.append(hit)
        total += 1
    return page, total


# --- validation and compilation -------------------------------------------------------


def _validate(
    pattern: str,
    regex: bool,
    edit_distance: int,
    snippet_lines: int,
    limit: int,
    offset: int,
    timeout: float,
) -> None:
    if not isinstance(pattern, str) or not pattern:
        raise InvalidRequest("pattern", "give a non-empty pattern")
    if len(pattern) > MAX_PATTERN:
        raise InvalidRequest("pattern", f"at most {MAX_PATTERN} characters")
    if "\n" in pattern or "\r" in pattern:
        raise InvalidRequest("pattern", "matches within one line; remove the line break")
    if not 0 <= edit_distance <= MAX_EDIT_DISTANCE:
        raise InvalidRequest("edit_distance", f"must be 0..{MAX_EDIT_DISTANCE}")
    if edit_distance and regex:
        raise InvalidRequest("edit_distance", "fuzzy matching needs regex=false")
    if edit_distance and len(pattern.strip()) <= edit_distance:
        raise InvalidRequest(
            "edit_distance", f"a pattern of {len(pattern.strip())} characters matches anything"
        )
    if not 0 <= snippet_lines <= MAX_SNIPPET_LINES:
        raise InvalidRequest("snippet_lines", f"must be 0..{MAX_SNIPPET_LINES}")
    if not 1 <= limit <= MAX_LIMIT:
        raise InvalidRequest("limit", f"must be 1..{MAX_LIMIT}")
    if offset < 0:
        raise InvalidRequest("offset", "must be 0 or more")
    if not 0 < timeout <= MAX_TIMEOUT:
        raise InvalidRequest("timeout", f"must be more than 0 and at most {MAX_TIMEOUT} seconds")


def _compile(
    pattern: str, regex: bool, case_sensitive: bool, edit_distance: int
) -> tuple[re.Pattern[str], regex_scan.Risk]:
    flags = 0 if case_sensitive else re.IGNORECASE
    if not regex or edit_distance:
        return re.compile(re.escape(pattern), flags), regex_scan.Risk.SIMPLE
    try:
        parsed = regex_scan.parse(pattern, flags)
        compiled = re.compile(pattern, flags)
    except (re.error, RecursionError, OverflowError) as exc:
        raise InvalidRequest("pattern", f"not a valid regular expression: {exc}") from None
    risk, reason = regex_scan.assess(parsed)
    if risk is regex_scan.Risk.EXPONENTIAL:
        raise InvalidRequest(
            "pattern",
            f"{reason} which can take exponential time; drop the inner quantifier, or use a "
            "possessive quantifier (a++) or an atomic group (?>...)",
        )
    return compiled, risk


def _timeout(timeout: float, pattern: str) -> SearchTimeout:
    return SearchTimeout(
        f"pattern: searching for {pattern!r} took longer than the {timeout:g} s budget; "
        "make the pattern more specific, narrow file_pattern, or raise timeout"
    )


# --- hits ---------------------------------------------------------------------------------


def _cut(text: str) -> str:
    return text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 1] + "…"


def snippet(lines: Sequence[str], line: int, context: int) -> str:
    """Lines around ``line``, grep style: ``12:`` on the hit, ``11-`` on context."""
    first = max(1, line - context)
    last = min(len(lines), line + context)
    return "\n".join(
        f"{n}{':' if n == line else '-'} {_cut(lines[n - 1])}" for n in range(first, last + 1)
    )


def _hit(
    index: Index,
    key: str,
    line: int,
    start: int,
    end: int,
    distance: int | None,
    snippet_lines: int,
) -> TextHit:
    lines = paths.read_lines(index, key)
    text = paths.line_text(lines, line)
    return TextHit(
        file=key,
        line=line,
        column=start + 1,
        end_column=end + 1,
        text=_cut(text),
        snippet=snippet(lines, line, snippet_lines) if snippet_lines else "",
        distance=distance,
        repository=repository_of(index.roots, key),
    )
