"""The scanners of a text search: each yields ``(file, line, start, end, distance)`` per
matching line, the first match on it, in file then line order.

Literal patterns are looked for in the whole file at once; regular expressions one line
at a time after a cheap test of the literal every match contains
(:func:`~symfuse.ranking.text.regex_scan.required_literal`), risky ones in a killable
worker (:mod:`symfuse.ranking.text.regex_scan`); fuzzy matching compares words by
Levenshtein distance (rapidfuzz). Each raises :class:`Expired` past its deadline.
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
from typing import Any

from rapidfuzz.distance import Levenshtein
from rapidfuzz.process import extract

from symfuse.indexer.errors import InvalidRequest, SymfuseError
from symfuse.indexer.index import Index
from symfuse.ranking.text import paths, regex_scan

_WORD = re.compile(r"\w+")


class Expired(Exception):
    """Raised inside a scanner when the deadline passes."""


Matched = tuple[str, int, int, int, int | None]
Found = Iterator[Matched]


def in_process(
    index: Index, files: list[str], regex: re.Pattern[str], deadline: float, *, whole_file: bool
) -> Found:
    every = regex_scan.check_every()
    needle = "" if whole_file else regex_scan.required_literal(_parsed(regex))
    ignore_case = bool(regex.flags & re.IGNORECASE)
    for key in files:
        if time.perf_counter() > deadline:
            raise Expired
        source = paths.read_source(index, key)
        if whole_file:
            yield from _literal_file(key, source, regex)
            continue
        if not _may_match(source, needle, ignore_case):
            continue
        for n, (line, start, end) in enumerate(regex_scan.scan_lines(regex, source.lines)):
            if n % every == 0 and time.perf_counter() > deadline:
                raise Expired
            yield key, line, start, end, None


def _parsed(regex: re.Pattern[str]) -> Any:
    return regex_scan.parse(regex.pattern, regex.flags & ~re.UNICODE)


def _may_match(source: paths.Source, needle: str, ignore_case: bool) -> bool:
    """Whether ``source`` may match a regex every match of which contains ``needle``."""
    if not needle:
        return True
    lowered = source.ascii_lower() if ignore_case and needle.isascii() else None
    if lowered is not None:
        return needle.lower() in lowered
    return regex_scan.may_match(source.text, needle, ignore_case)


def _literal_file(key: str, source: paths.Source, regex: re.Pattern[str]) -> Found:
    """A literal (escaped) pattern over the whole file at once: linear and fast."""
    lowered = source.ascii_lower()
    if lowered is not None and regex.flags & re.IGNORECASE and regex.pattern.isascii():
        if unescape(regex.pattern).lower() not in lowered:
            return
    elif regex.search(source.text) is None:
        return
    for number, base, matches in _matches_by_line(source, regex):
        first = matches[0]
        yield key, number, first.start() - base, first.end() - base, None


def unescape(escaped: str) -> str:
    """The literal text of a ``re.escape``-d pattern."""
    return re.sub(r"\\(.)", r"\1", escaped, flags=re.DOTALL)


def in_worker(
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
        raise Expired from None
    if done.returncode != 0:
        raise SymfuseError(f"pattern: the regex worker failed: {done.stderr.strip()[-300:]}")
    answer = json.loads(done.stdout)
    hits: list[tuple[str, int, int, int, int | None]] = [
        (keys[at], int(line), int(start), int(end), None) for at, line, start, end in answer["hits"]
    ]
    return hits, int(answer["total"])


def fuzzy(
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
            raise Expired
        source = paths.read_source(index, key)
        sources.append((key, source))
        vocabulary.update(source.words())
    close = {n: _close_words(vocabulary, n, fold, distance) for n in needles}
    for key, source in sources:
        if time.perf_counter() > deadline:
            raise Expired
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
