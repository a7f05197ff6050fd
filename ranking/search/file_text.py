"""Questions about how code works: the files whose text answers them, and answers that
reach several files.

An agent asking "how does the searcher hand matching lines over to the printer" wants
the two or three files that do it; the definitions a sentence matches best are often
spread over other files (a printer's ``matched`` and ``context`` methods), while the
files asked about hold many pieces that each match a little. So prose (a sentence or
keywords) also asks the text: every definition's own lines and each file's top-level
code (the body rows of the lexical index, which partition a file) are scored alone by
plain BM25, and the best :data:`ROWS` of them vote for their files, each by its
reciprocal rank; a file with several pieces high in that list ranks high.

A question (:func:`is_question`: how, where, what, which or why, "when" asking, or a
question mark) is answered by the votes, also when a word of it is written as code but
names no definition of the index ("how does the client choose between the Java 11
HttpClient and HttpURLConnection", "how is JSON Schema export structured": classes of the
JDK, a standard's name; one that names a definition asks for it, as fusion puts it). In
the head of the answer, an item's place and its file's rank are summed as reciprocal
ranks (:data:`WEIGHT` for the file's, offsets :data:`K`; a file voted among the first
:data:`REACH` joins the head with its first item when fusion left it out), and after
that its items past the first of their file make way (each weighs :data:`SPREAD` per
item of its file before it), so that ten results reach several files.

A sentence that describes one behaviour ("give the money of a transaction back", a
commit's subject) asks for a definition: applied to every sentence, the votes and the
spread lost definitions such answers had (mined commit subjects MRR@10 0.358 -> 0.351,
Django's docstring set hit@10 0.460 -> 0.423 with the spread). Its votes only settle the
first place (:func:`led`): when the first item's file is not among the first
:data:`LEAD_FILES` the text votes for, and one of the next items is in the file voted
first, that item leads (ripgrep's "stop reading a file once a NUL byte suggests it is
binary data": the printers' ``binary_data`` methods before ``LineBuffer.fill``).

Only product code votes (tests, examples, benchmarks and vendored copies do not),
unless the query asks for such code; a query that asks for documents ("install
section") is answered as fusion puts it. Shards score their own rows with the corpus's
statistics and send their best :data:`ROWS`; the coordinator merges them by score, then
file and place, which is the order one combined index gives (:func:`merged`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Symbol
from symfuse.ranking.channels.lexical import QueryTerms
from symfuse.ranking.channels.tokens import QUALIFIED_SEPARATORS, WORD
from symfuse.ranking.fusion.roles import asks_for_documents
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.query.responses import Change
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.ranking.search.plans import Shape, code_tokens, demotes_side_code

ROWS = 100  # pieces of text that vote for their files
HEAD = 30  # first items of the answer placed by their files' ranks, then spread
WEIGHT = 0.6  # a file's rank against an item's place, both as reciprocal ranks
K = 10  # the offset of both ranks
SPREAD = 0.25  # an item's weight per item of its file before it, past the first
REACH = 5  # a question's files voted this high join its head when fusion left them out
LEAD_FILES = 5  # a sentence's first item stays first while its file is voted this high
LEAD_ITEMS = 5  # the first items of a sentence's answer that may take the lead
PROSE = frozenset({Shape.KEYWORDS, Shape.SENTENCE, Shape.MIXED})
_ASKING = r"(?:is|are|was|were|do|does|did|can|could|should|will|would|must|may|might|has|have)"
QUESTION = re.compile(
    r"\s*(?:(?:how|where|what|which|why)\b"  # how does ..., which files ...
    rf"|when\s+{_ASKING}\b"  # when should a response not be compressed
    r"|when\b[^,?]*,\s*(?:how|where|what|which|why)\b"  # when two rocks ..., which one ...
    r"|.*\?\s*$)",  # anything asked with a question mark
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class TextRows:
    """The pieces of text that match a query best, best first: each one's file (as the
    answer's symbols name it) and score."""

    files: tuple[str, ...]
    scores: npt.NDArray[np.float64]
    named: bool = False  # the query names a definition of the index: the text does not vote

    def under(self, alias: str) -> TextRows:
        """These rows with their files behind ``alias/`` (a shard's, keyed)."""
        return TextRows(tuple(f"{alias}/{f}" for f in self.files), self.scores, self.named)


# What a query that names a definition of the index gets: no rows, and no votes.
NAMED = TextRows((), np.zeros(0), named=True)


def text_rows(
    prepared: Prepared,
    symbols: Sequence[Symbol],
    request: SearchRequest,
    query: str,
    shape: Shape,
    mask: npt.NDArray[np.bool_] | None,
) -> TextRows | None:
    """The best :data:`ROWS` pieces of text for prose and for a question with words
    written as code (None for other queries; no rows, ``named``, when such a word names a
    definition): of the symbols ``mask`` leaves, regions aside (a file unit holds their
    lines), side code aside unless the query asks for it."""
    if shape not in PROSE or asks_for_documents(query):
        return None  # (prose asking for a section of a page is answered as fusion puts it)
    if shape is Shape.MIXED:
        if not is_question(query):
            return None
        if _names_a_definition(prepared, query):
            return NAMED
    found, scores = prepared.lexical.body_scores(QueryTerms.parse(query))
    filters = prepared.filters
    keep = np.ones(found.shape[0], dtype=np.bool_)
    regions_out = filters.regions_out()
    if regions_out is not None:
        keep &= regions_out[found]
    if demotes_side_code(request, query, shape):
        keep &= ~filters.side_code(found)
    if mask is not None:
        keep &= mask[found]
    found, scores = found[keep], scores[keep]
    if found.shape[0] > ROWS:  # the best ROWS and every row tied with the last of them
        cut = np.partition(scores, found.shape[0] - ROWS)[found.shape[0] - ROWS]
        found, scores = found[scores >= cut], scores[scores >= cut]
    files = [symbols[p].file for p in found.tolist()]
    return _best(list(zip(scores.tolist(), files, found.tolist(), strict=True)))


def _names_a_definition(prepared: Prepared, query: str) -> bool:
    """Whether a word ``query`` writes as code is the name of a definition (whole, or its
    last part: ``Router``, ``Ecto.Query``)."""
    for token in code_tokens(query):
        last = QUALIFIED_SEPARATORS.split(token)[-1]
        if any(len(prepared.names.names.equal(n)) for n in {token, last} if n):
            return True
    return False


def merged(parts: Sequence[TextRows | None]) -> TextRows | None:
    """The parts' rows (shards in the combined index's order) as one list; named when
    any shard defines a name the query writes (as one combined index would be)."""
    if any(p is not None and p.named for p in parts):
        return NAMED
    rows = [(float(s), f, n) for p in parts if p is not None for n, (f, s) in enumerate(
        zip(p.files, p.scores.tolist(), strict=True)
    )]  # fmt: skip
    return _best(rows) if any(p is not None for p in parts) else None


def _best(rows: list[tuple[float, str, int]]) -> TextRows:
    """The first :data:`ROWS` of (score, file, place) by score, then file, then place."""
    rows.sort(key=lambda r: (-r[0], r[1], r[2]))
    best = rows[:ROWS]
    return TextRows(tuple(f for _, f, _ in best), np.asarray([s for s, _, _ in best]))


def file_ranks(text: TextRows) -> dict[str, int]:
    """Each voted file's rank (1 first): the sum of its rows' reciprocal ranks."""
    votes: dict[str, float] = {}
    for place, file in enumerate(text.files, start=1):
        votes[file] = votes.get(file, 0.0) + 1.0 / place
    order = sorted(votes, key=lambda f: -votes[f])  # stable: a tie goes by first row
    return {f: rank for rank, f in enumerate(order, start=1)}


def is_question(query: str) -> bool:
    """Whether ``query`` asks how code works (:data:`QUESTION`) rather than describing
    what a definition does ("when following a redirect, strip the header")."""
    return QUESTION.match(query) is not None


def text_evidence(
    fused: Fused, symbols: Sequence[Symbol], text: TextRows, query: str, head: int = HEAD
) -> Fused:
    """``fused`` (prose's answer) with its text's votes: a question's first ``head`` items
    placed by their files' ranks too, then spread over files; another sentence's first
    place settled by them (:func:`led`). Each place keeps its score."""
    head = min(head, len(fused))
    if head < 2 or text.named:
        return fused
    ranks = file_ranks(text)
    if not is_question(query):
        return led(fused, symbols, ranks, query)
    if ranks:
        fused, head = reached(fused, symbols, ranks, head)
        files = [symbols[p].file for p in fused.positions[:head].tolist()]
        vote = np.asarray([WEIGHT / (K + ranks[f]) if f in ranks else 0.0 for f in files])
        key = 1.0 / (K + np.arange(1, head + 1)) + vote
        fused = _placed(fused, np.argsort(-key, kind="stable"), "its file's text matches")
    return spread(fused, symbols, head)


def reached(
    fused: Fused, symbols: Sequence[Symbol], ranks: dict[str, int], head: int
) -> tuple[Fused, int]:
    """``fused`` with the first item of each file voted among the first :data:`REACH`
    that has none in its first ``head`` moved up to join them, and the head's new
    length (the votes then place them)."""
    positions = fused.positions.tolist()
    wanted = {f for f, rank in ranks.items() if rank <= REACH}
    wanted.difference_update(symbols[p].file for p in positions[:head])
    joining: list[int] = []
    for i in range(head, len(positions)):
        if not wanted:
            break
        if symbols[positions[i]].file in wanted:
            wanted.discard(symbols[positions[i]].file)
            joining.append(i)
    if not joining:
        return fused, head
    moved = set(joining)
    rest = [i for i in range(head, len(positions)) if i not in moved]
    order = np.asarray([*range(head), *joining, *rest], dtype=np.intp)
    return _placed(fused, order, "its file's text matches"), head + len(joining)


def led(fused: Fused, symbols: Sequence[Symbol], ranks: dict[str, int], query: str) -> Fused:
    """``fused`` with the first of its next :data:`LEAD_ITEMS` items in the file voted
    first put first, when the first item's file is not among the first
    :data:`LEAD_FILES` voted and the query writes none of their names."""
    first = fused.positions[:LEAD_ITEMS].tolist()
    files = [symbols[p].file for p in first]
    if not files or ranks.get(files[0], LEAD_FILES + 1) <= LEAD_FILES:
        return fused
    written = {w for w in WORD.findall(query) if w != w.lower() or "_" in w}  # as code
    if any(symbols[p].name in written for p in first):
        return fused  # "Value represents any valid JSON": the enum Value, not the votes
    lead = next((i for i, f in enumerate(files) if ranks.get(f) == 1), None)
    if lead is None:
        return fused
    order = np.asarray([lead, *(i for i in range(len(files)) if i != lead)], dtype=np.intp)
    return _placed(fused, order, "its file's text matches the most")


def spread(fused: Fused, symbols: Sequence[Symbol], head: int) -> Fused:
    """``fused`` with each of its first ``head`` items weighed :data:`SPREAD` once per
    item of its file before it, by place (reciprocal ranks)."""
    seen: dict[str, int] = {}
    weight = np.ones(head)
    for i, p in enumerate(fused.positions[:head].tolist()):
        before = seen[symbols[p].file] = seen.get(symbols[p].file, 0) + 1
        weight[i] = SPREAD ** (before - 1)
    key = weight / np.arange(1, head + 1)
    return _placed(fused, np.argsort(-key, kind="stable"), "more of its file came before")


def _placed(fused: Fused, head_order: npt.NDArray[np.intp], why: str) -> Fused:
    """``fused`` with its head in ``head_order``, each place keeping its score."""
    head = head_order.shape[0]
    if (head_order == np.arange(head)).all():
        return fused
    order = np.concatenate([head_order, np.arange(head, len(fused))]).astype(np.int64)
    return fused.adjusted(order, fused.scores.copy(), Change.OTHER, why)
