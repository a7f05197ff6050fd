"""A query the code writes as it stands: the definitions whose string holds it come first.

An agent pastes what a program printed: an error message ("Cannot send a request, as the
client has been closed."), a log line, a warning. Its words rank many definitions; the
one that raises it writes them together, in a string literal. When a query of
:data:`MIN_WORDS` words or more is written on one line of a definition among the lexical
channel's first :data:`HEAD` (whitespace and case aside, outer quotes and a final period
left out), inside a string literal, those definitions lead, the innermost first (product
code only: a test that asserts the message stays where it ranks). A line
that opens with a quote or a comment marker (a docstring, a comment) does not count: a doc
describes what code does, a literal is what it says (a phrase of one Django function's
docstring, found in the docs of its class's other methods, led them and lowered the
docstring set). Not in a sharded index's fused answer (its parts read no lines for it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Symbol
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.query.responses import Change
from symfuse.ranking.search.filters import SymbolRoles

MIN_WORDS = 4  # words a query has at least to be read as a message
HEAD = 5  # lexical candidates whose lines are read
QUOTES = "\"'`"
OPENERS = QUOTES + "#/*-;"  # a line opening with these is a doc or a comment
WRITTEN = "the code writes the query as it stands"


def written(query: str) -> str | None:
    """``query`` as a message to find (spaces collapsed, lower case, outer quotes and a
    final period or colon dropped), or None when it is shorter than :data:`MIN_WORDS`."""
    text = " ".join(query.split()).strip(QUOTES).rstrip(".:").lower()
    return text if len(text.split()) >= MIN_WORDS else None


def verbatim(
    symbols: Sequence[Symbol],
    candidates: npt.NDArray[np.int64],
    query: str,
    lines_of: Callable[[str], Sequence[str]],
) -> tuple[int, ...]:
    """The positions of ``candidates`` (the first :data:`HEAD` are read) whose lines hold
    ``query`` in a string literal (:func:`written`), the shortest definitions first."""
    text = written(query)
    if text is None:
        return ()
    found: list[tuple[int, int]] = []
    files: dict[str, Sequence[str]] = {}  # each file read once
    for position in candidates[:HEAD].tolist():
        symbol = symbols[position]
        if symbol.file not in files:
            files[symbol.file] = lines_of(symbol.file)
        lines = files[symbol.file][symbol.line - 1 : symbol.end_line]
        if text not in " ".join(" ".join(lines).split()).lower():  # most hold it nowhere
            continue
        if any(_in_literal(text, line) for line in lines):
            found.append((symbol.end_line - symbol.line, position))
    return tuple(position for _, position in sorted(found))


def _in_literal(text: str, line: str) -> bool:
    """Whether ``text`` (written) is on ``line`` after a quote, and the line opens with
    neither a quote nor a comment marker."""
    flat = " ".join(line.split()).lower()
    at = flat.find(text)
    if at <= 0 or flat[0] in OPENERS:
        return False
    return any(quote in flat[:at] for quote in QUOTES)


def verbatim_first(fused: Fused, found: tuple[int, ...], roles: SymbolRoles) -> Fused:
    """``fused`` with the items at ``found`` (positions, in that order) first, each
    taking the score of the place it takes; test, example and benchmark code (which
    asserts the message a product definition raises) stays where it is."""
    if not found:
        return fused
    place = {int(p): i for i, p in enumerate(fused.positions.tolist())}
    side = roles.side_code(np.asarray(found, dtype=np.int64)).tolist()
    first = [place[p] for p, test in zip(found, side, strict=True) if p in place and not test]
    if not first:
        return fused
    taken = set(first)
    order = np.asarray(first + [i for i in range(len(fused)) if i not in taken], np.int64)
    return fused.adjusted(order, fused.scores.copy(), Change.OTHER, WRITTEN)
