"""``search_text``: literal, regex or fuzzy search over the files as they are on disk: the
indexed code and the text files beside it (:mod:`symfuse.ranking.text.files`).

One hit per matching line (the first match on it), in file then line order.
Regular expressions never hang: see :mod:`symfuse.ranking.text.regex_scan` for the
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
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import extract

from symfuse.indexer.errors import InvalidRequest, SymfuseError
from symfuse.indexer.index import Index
from symfuse.ranking.query.records import Record
from symfuse.ranking.search.repositories import repository_of
from symfuse.ranking.text import paths, regex_scan
from symfuse.ranking.text.files import searched_files

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
    mode = "fuzzy" if edit_distance else "regex" if regex else "literal"
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
            page, total = _paged(scan, offset, keep)
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


def _paged(scan: Found, offset: int, keep: int) -> tuple[list[Matched], int]:
    """The matches from the ``offset``-th up to the ``keep``-th, and how many there are."""
    total = 0
    page: list[Matched] = []
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


# --- scanners: each yields (file, line, start, end, distance) ------------------------

Matched = tuple[str, int, int, int, int | None]
Found = Iterator[Matched]


def _in_process(
    index: Index, files: list[str], regex: re.Pattern[str], deadline: float, *, whole_file: bool
) -> Found:
    every = regex_scan.check_every()
    for key in files:
        if time.perf_counter() > deadline:
            raise _Expired
        source = paths.read_source(index, key)
        if whole_file:
            yield from _literal_file(key, source, regex)
            continue
        for n, (line, start, end) in enumerate(regex_scan.scan_lines(regex, source.lines)):
            if n % every == 0 and time.perf_counter() > deadline:
                raise _Expired
            yield key, line, start, end, None


def _literal_file(key: str, source: paths.Source, regex: re.Pattern[str]) -> Found:
    """A literal (escaped) pattern over the whole file at once: linear and fast."""
    lowered = source.ascii_lower()
    if lowered is not None and regex.flags & re.IGNORECASE and regex.pattern.isascii():
        if _unescape(regex.pattern).lower() not in lowered:
            return
    elif regex.search(source.text) is None:
        return
    for number, base, matches in _matches_by_line(source, regex):
        first = matches[0]
        yield key, number, first.start() - base, first.end() - base, None


def _unescape(escaped: str) -> str:
    """The literal text of a ``re.escape``-d pattern."""
    return re.sub(r"\\(.)", r"\1", escaped, flags=re.DOTALL)


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
    """Fuzzy matching by words, within ``distance`` edits.

    Every word of the pattern must have a close word on a matching line (edits
    within one word stay within the budget), so the close words of each
    pattern word, found once over the union of the files' vocabularies, pick
    the files and lines to look at. A one-word pattern scores the word; a
    longer one every window of as many words on the line.
    """
    fold: Any = None if case_sensitive else str.casefold
    words = _WORD.findall(pattern)
    if not words:
        raise InvalidRequest("pattern", "fuzzy matching needs at least one word")
    needles = sorted({w if case_sensitive else w.casefold() for w in words})
    phrase = " ".join(w if case_sensitive else w.casefold() for w in words)
    sources: list[tuple[str, paths.Source]] = []
    vocabulary: set[str] = set()
    for key in files:
        if time.perf_counter() > deadline:
            raise _Expired
        source = paths.read_source(index, key)
        sources.append((key, source))
        vocabulary.update(source.words())
    close = {n: _close_words(vocabulary, n, fold, distance) for n in needles}
    for key, source in sources:
        if time.perf_counter() > deadline:
            raise _Expired
        present = [{w: d for w, d in close[n].items() if w in source.words()} for n in needles]
        if not all(present):
            continue
        rarest = min(present, key=len)
        alternatives = "|".join(re.escape(w) for w in sorted(rarest, key=len, reverse=True))
        finder = re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)")
        for number, base, matches in _matches_by_line(source, finder):
            if len(words) == 1:
                best = min(matches, key=lambda m: rarest[m.group()])
                score = rarest[best.group()]
                yield key, number, best.start() - base, best.end() - base, score
                continue
            window = _best_window(source.lines[number - 1], phrase, len(words), fold, distance)
            if window is not None:
                yield key, number, window[1], window[2], window[0]


def _close_words(vocabulary: set[str], needle: str, fold: Any, distance: int) -> dict[str, int]:
    """Words (as written) within ``distance`` edits of ``needle`` -> their distance."""
    return {
        word: int(score)
        for word, score, _ in extract(
            needle,
            vocabulary,
            scorer=Levenshtein.distance,
            processor=fold,
            score_cutoff=distance,
            limit=None,
        )
    }


def _matches_by_line(
    source: paths.Source, regex: re.Pattern[str]
) -> Iterator[tuple[int, int, list[re.Match[str]]]]:
    """(1-based line, offset of the line, the matches on it) for lines that match."""
    lines = source.lines
    text = "\n".join(lines)  # one break per line, so offsets map back to `lines`
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    current: list[re.Match[str]] = []
    number = 0
    for match in regex.finditer(text):
        at = bisect.bisect_right(starts, match.start())
        if at != number and current:
            yield number, starts[number - 1], current
            current = []
        number = at
        current.append(match)
    if current:
        yield number, starts[number - 1], current


def _best_window(
    line: str, phrase: str, width: int, fold: Any, distance: int
) -> tuple[int, int, int] | None:
    found = list(_WORD.finditer(line))
    best: tuple[int, int, int] | None = None
    for i in range(len(found) - width + 1):
        window = found[i : i + width]
        text = " ".join(m.group() for m in window)
        score = Levenshtein.distance(phrase, fold(text) if fold else text, score_cutoff=distance)
        if score <= distance and (best is None or score < best[0]):
            best = (score, window[0].start(), window[-1].end())
    return best


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
