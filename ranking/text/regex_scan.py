"""Regular expressions that cannot hang a server: a static guard and a killable worker.

Python's ``re`` backtracks, and a match in progress cannot be interrupted. So a
pattern is sorted before it runs (see :func:`assess`):

- **exponential** (a quantified group that holds another variable quantifier,
  ``(a+)+``, or a quantified alternation whose branches can start alike,
  ``(a|ab)*``): refused with a message that says how to rewrite it;
- **risky** (two or more unbounded quantifiers, or a backreference; polynomial
  blow-ups like ``.*a.*a.*b``): run in a separate process (this file run as a
  script, standard library only) that is killed when the time budget ends;
- **simple**: run in-process, one line at a time, checking the clock.

Lines longer than ``MAX_LINE`` characters are matched on their first
``MAX_LINE`` characters only, which bounds the cost of any one line.

Run as a script, this module reads ``{"pattern", "flags", "paths", "keep"}`` as
JSON on stdin and writes ``{"total", "hits": [[path_index, line, start, end]]}``.
"""

from __future__ import annotations

import importlib
import json
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

MAX_LINE = 2000
_CHECK_EVERY = 256  # lines between clock checks
_LARGE = 16  # a repeat allowing more iterations than this counts as unbounded

_sre: Any = importlib.import_module("re._parser")
_REPEATS = (_sre.MAX_REPEAT, _sre.MIN_REPEAT)


class Risk(Enum):
    SIMPLE = "simple"
    RISKY = "risky"
    EXPONENTIAL = "exponential"


@dataclass(slots=True)
class _Counts:
    """What :func:`_walk` counts on its way through a pattern."""

    unbounded: int = 0  # quantifiers allowing more than _LARGE repeats
    backrefs: int = 0


def assess(parsed: Any) -> tuple[Risk, str]:
    """How dangerous a parsed pattern is, and why (for the error message)."""
    state = _Counts()
    reason = _walk(list(parsed), inside=False, state=state)
    if reason:
        return Risk.EXPONENTIAL, reason
    if state.unbounded >= 2 or state.backrefs:
        return Risk.RISKY, "several unbounded quantifiers or a backreference"
    return Risk.SIMPLE, ""


def parse(pattern: str, flags: int) -> Any:
    """The parsed form of a pattern (``re.error`` when it is not valid)."""
    return _sre.parse(pattern, flags)


def _walk(items: list[Any], *, inside: bool, state: _Counts) -> str:
    for op, av in items:
        if op in _REPEATS:
            low, high, body = av
            variable = high != low
            large = high == _sre.MAXREPEAT or high > _LARGE
            if inside and variable:
                return "nested quantifiers, as in (a+)+,"
            if large:
                state.unbounded += 1
                if _has_overlapping_branch(list(body)):
                    return "a repeated alternation whose branches can match alike, as in (a|ab)*,"
            reason = _walk(list(body), inside=inside or large, state=state)
            if reason:
                return reason
        elif op == _sre.SUBPATTERN:
            reason = _walk(list(av[-1]), inside=inside, state=state)
            if reason:
                return reason
        elif op == _sre.BRANCH:
            for branch in av[1]:
                reason = _walk(list(branch), inside=inside, state=state)
                if reason:
                    return reason
        elif op in (_sre.ASSERT, _sre.ASSERT_NOT):
            reason = _walk(list(av[1]), inside=inside, state=state)
            if reason:
                return reason
        elif op == _sre.GROUPREF_EXISTS:
            for part in av[1:]:
                if part is not None:
                    reason = _walk(list(part), inside=inside, state=state)
                    if reason:
                        return reason
        elif op == _sre.GROUPREF:
            state.backrefs += 1
        # POSSESSIVE_REPEAT and ATOMIC_GROUP never backtrack into themselves: safe.
    return ""


def required_literal(parsed: Any) -> str:
    """The longest run of literal characters every match contains ("" when there is none):
    a file without it cannot match, so it is skipped before any line is tried."""
    best = run = ""
    for op, av in list(parsed):
        if op == _sre.LITERAL:
            run += chr(av)
            continue
        best = max(best, run, key=len)
        run = ""
    return max(best, run, key=len)


def may_match(text: str, needle: str, ignore_case: bool) -> bool:
    """Whether ``text`` holds ``needle`` (:func:`required_literal`); True when unsure."""
    if not needle:
        return True
    if not ignore_case:
        return needle in text
    if not (needle.isascii() and text.isascii()):
        return True  # Unicode case folding: leave it to the regex
    return needle.lower() in text.lower()


def _first_literal(items: list[Any]) -> int | None:
    while items:
        op, av = items[0]
        if op == _sre.LITERAL:
            return int(av)
        if op == _sre.SUBPATTERN:
            items = list(av[-1])
            continue
        return None
    return None


def _has_overlapping_branch(body: list[Any]) -> bool:
    for op, av in body:
        if op == _sre.SUBPATTERN:
            if _has_overlapping_branch(list(av[-1])):
                return True
        elif op == _sre.BRANCH:
            firsts = [_first_literal(list(b)) for b in av[1]]
            if None in firsts or len(set(firsts)) != len(firsts):
                return True
    return False


def scan_lines(regex: re.Pattern[str], lines: Sequence[str]) -> Iterator[tuple[int, int, int]]:
    """(1-based line, start, end) of the first match on each matching line."""
    search = regex.search
    for number, line in enumerate(lines, 1):
        found = search(line if len(line) <= MAX_LINE else line[:MAX_LINE])
        if found is not None:
            yield number, found.start(), found.end()


def check_every() -> int:
    return _CHECK_EVERY


def _worker() -> int:
    request = json.load(sys.stdin)
    regex = re.compile(request["pattern"], request["flags"])
    needle = required_literal(parse(request["pattern"], request["flags"]))
    ignore_case = bool(request["flags"] & re.IGNORECASE)
    keep = int(request["keep"])
    total = 0
    hits: list[list[int]] = []
    for at, path in enumerate(request["paths"]):
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8", errors="replace")
        except OSError:
            continue
        if not may_match(text, needle, ignore_case):
            continue
        for line, start, end in scan_lines(regex, text.splitlines()):
            total += 1
            if len(hits) < keep:
                hits.append([at, line, start, end])
    json.dump({"total": total, "hits": hits}, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(_worker())
