"""``search_text``: literal, regex or fuzzy search over the indexed files as they are on disk.

One hit per matching line (the first match on it), in file then line order.
Regular expressions never hang: see :mod:`symfuse.ranking.regex_scan` for the
guard, the killable worker and the per-line cap. Fuzzy matching compares the
words of a line (or windows of as many words as the pattern has) with the
pattern by Levenshtein distance (rapidfuzz), within ``edit_distance``.
"""

from __future__ import annotations

import bisect
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import extract
from symfuse.indexer import languages
from symfuse.indexer.errors import InvalidRequest, SymfuseError
from symfuse.indexer.index import Index
from symfuse.ranking import paths, regex_scan

MAX_PATTERN = 1000
MAX_LIMIT = 1000
MAX_SNIPPET_LINES = 50
MAX_EDIT_DISTANCE = 3
DEFAULT_TIMEOUT = 2.0
MAX_TIMEOUT = 30.0
MAX_LINE_CHARS = 300  # a longer line is cut in `text` and snippets
_WORD = re.compile(r"\w+")


class SearchTimeout(SymfuseError):
    """A text search ran past its time budget."""


class _Expired(Exception):
    """Raised inside a scanner when the deadline passes."""


@dataclass(frozen=True, slots=True)
class TextHit:
    """A matching line. Columns are 1-based code points; ``end_column`` is exclusive."""

    file: str
    line: int
    column: int
    end_column: int
    text: str
    snippet: str
    distance: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "end_column": self.end_column,
            "text": self.text,
            "snippet": self.snippet,
            "distance": self.distance,
        }


@dataclass(frozen=True, slots=True)
class TextSearchResult:
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "pattern": self.pattern,
            "mode": self.mode,
            "hits": [h.to_dict() for h in self.hits],
            "total": self.total,
            "offset": self.offset,
            "limit": self.limit,
            "truncated": self.truncated,
            "files_searched": self.files_searched,
            "elapsed_ms": self.elapsed_ms,
        }


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
) -> TextSearchResult:
    """Search the current contents of the indexed files.

    ``file_pattern`` and ``exclude_path`` are globs (comma-separated or a list;
    ``*`` stays within a path segment, ``**`` spans them, a pattern without ``/``
    also matches file names). Raises InvalidRequest for bad arguments (naming
    the field) and SearchTimeout when the scan outlives ``timeout`` seconds.
    """
    started = time.perf_counter()
    _validate(pattern, regex, edit_distance, snippet_lines, limit, offset, timeout)
    compiled, risk = _compile(pattern, regex, case_sensitive, edit_distance)
    files = _select_files(index, file_pattern, language, exclude_path)
    deadline = started + timeout
    keep = offset + limit
    mode = "fuzzy" if edit_distance else "regex" if regex else "literal"
    total = 0
    page: list[tuple[str, int, int, int, int | None]] = []
    try:
        if risk is regex_scan.Risk.RISKY:
            found, total = _in_worker(index, files, compiled, keep, timeout)
            page = found[offset:keep]
        else:
            scan = (
                _fuzzy(index, files, pattern, case_sensitive, edit_distance, deadline)
                if edit_distance
                else _in_process(index, files, compiled, deadline, whole_file=not regex)
            )
            for hit in scan:
                if offset <= total < keep:
                    page.append(hit)
                total += 1
    except _Expired:
        raise _timeout(timeout, pattern) from None
    hits = tuple(_hit(index, *h, snippet_lines) for h in page)
    return TextSearchResult(
        pattern=pattern,
        mode=mode,
        hits=hits,
        total=total,
        offset=offset,
        limit=limit,
        truncated=offset + len(hits) < total,
        files_searched=len(files),
        elapsed_ms=round((time.perf_counter() - started) * 1000, 2),
    )


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


def _select_files(
    index: Index,
    file_pattern: str | list[str] | None,
    language: str | None,
    exclude_path: str | list[str] | None,
) -> list[str]:
    if language is not None and language not in languages.supported():
        known = ", ".join(sorted(languages.supported()))
        raise InvalidRequest("language", f"unknown language {language!r}; one of {known}")
    wanted = paths.split_globs(file_pattern)
    unwanted = paths.split_globs(exclude_path)
    return [
        key
        for key in sorted(index.files)
        if (language is None or index.files[key].language == language)
        and (not wanted or paths.any_match(key, wanted))
        and not (unwanted and paths.any_match(key, unwanted))
    ]


def _timeout(timeout: float, pattern: str) -> SearchTimeout:
    return SearchTimeout(
        f"pattern: searching for {pattern!r} took longer than the {timeout:g} s budget; "
        "make the pattern more specific, narrow file_pattern, or raise timeout"
    )


# --- scanners: each yields (file, line, start, end, distance) ------------------------

Found = Iterator[tuple[str, int, int, int, int | None]]


def _in_process(
    index: Index, files: list[str], regex: re.Pattern[str], deadline: float, *, whole_file: bool
) -> Found:
    every = regex_scan.check_every()
    for key in files:
        if time.perf_counter() > deadline:
            raise _Expired
        lines = paths.read_lines(index, key)
        if whole_file:
            yield from _literal_file(key, lines, regex)
            continue
        for n, (line, start, end) in enumerate(regex_scan.scan_lines(regex, lines)):
            if n % every == 0 and time.perf_counter() > deadline:
                raise _Expired
            yield key, line, start, end, None


def _literal_file(key: str, lines: list[str], regex: re.Pattern[str]) -> Found:
    """A literal (escaped) pattern over the whole file at once: linear and fast."""
    text = "\n".join(lines)
    starts: list[int] = []
    last_line = 0
    for match in regex.finditer(text):
        if not starts:
            starts = [0]
            for text_line in lines:
                starts.append(starts[-1] + len(text_line) + 1)
        number = bisect.bisect_right(starts, match.start())
        if number == last_line:
            continue
        last_line = number
        base = starts[number - 1]
        yield key, number, match.start() - base, match.end() - base, None


def _in_worker(
    index: Index, files: list[str], regex: re.Pattern[str], keep: int, timeout: float
) -> tuple[list[tuple[str, int, int, int, int | None]], int]:
    """The first ``keep`` hits and the total, from a child killed when the budget ends."""
    reals: list[str] = []
    keys: list[str] = []
    for key in files:
        real = paths.real_path(index, key)
        if real is not None:
            reals.append(real)
            keys.append(key)
    request = {"pattern": regex.pattern, "flags": regex.flags, "paths": reals, "keep": keep}
    script = regex_scan.__file__
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-S", script],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env={"PATH": os.environ.get("PATH", "")},
        )
    except subprocess.TimeoutExpired:
        raise _Expired from None
    if done.returncode != 0:
        raise SymfuseError(f"pattern: the regex worker failed: {done.stderr.strip()[-300:]}")
    answer = json.loads(done.stdout)
    hits: list[tuple[str, int, int, int, int | None]] = [
        (keys[at], int(line), int(start), int(end), None) for at, line, start, end in answer["hits"]
    ]
    return hits, int(answer["total"])


def _fuzzy(
    index: Index,
    files: list[str],
    pattern: str,
    case_sensitive: bool,
    distance: int,
    deadline: float,
) -> Found:
    fold = (lambda s: s) if case_sensitive else str.casefold
    words = _WORD.findall(pattern)
    if not words:
        raise InvalidRequest("pattern", "fuzzy matching needs at least one word")
    needle = fold(" ".join(words))
    for key in files:
        if time.perf_counter() > deadline:
            raise _Expired
        lines = paths.read_lines(index, key)
        if len(words) == 1:
            yield from _fuzzy_words(key, lines, needle, fold, distance)
        else:
            yield from _fuzzy_windows(key, lines, needle, len(words), fold, distance)


def _fuzzy_words(key: str, lines: list[str], needle: str, fold: Any, distance: int) -> Found:
    vocabulary = {fold(w) for line in lines for w in _WORD.findall(line)}
    close = {
        word: int(score)
        for word, score, _ in extract(
            needle,
            [w for w in vocabulary if abs(len(w) - len(needle)) <= distance],
            scorer=Levenshtein.distance,
            score_cutoff=distance,
            limit=None,
        )
    }
    if not close:
        return
    for number, line in enumerate(lines, 1):
        best: tuple[int, int, int] | None = None
        for match in _WORD.finditer(line):
            score = close.get(fold(match.group()))
            if score is not None and (best is None or score < best[0]):
                best = (score, match.start(), match.end())
        if best is not None:
            yield key, number, best[1], best[2], best[0]


def _fuzzy_windows(
    key: str, lines: list[str], needle: str, width: int, fold: Any, distance: int
) -> Found:
    for number, line in enumerate(lines, 1):
        found = list(_WORD.finditer(line))
        best: tuple[int, int, int] | None = None
        for i in range(len(found) - width + 1):
            window = found[i : i + width]
            text = fold(" ".join(m.group() for m in window))
            score = Levenshtein.distance(needle, text, score_cutoff=distance)
            if score <= distance and (best is None or score < best[0]):
                best = (score, window[0].start(), window[-1].end())
        if best is not None:
            yield key, number, best[1], best[2], best[0]


# --- hits ---------------------------------------------------------------------------------


def _cut(text: str) -> str:
    return text if len(text) <= MAX_LINE_CHARS else text[: MAX_LINE_CHARS - 1] + "…"


def snippet(lines: list[str], line: int, context: int) -> str:
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
    )
