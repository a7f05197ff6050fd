"""A query's answer on a cold start, before the ranking structures exist.

Building the ranking structures of a large workspace the first time is most of
a cold start, longer than the index itself (tests/bench/large_bench.py). A query
shaped like an identifier needs none of them: the names-only ranking
(:mod:`symfuse.ranking.channels.names.names_only`: the identity tiers, then names a few
edits away, PageRank breaking ties) finds what the fused ranking finds: on the golden
name sets their figures are nearly the same.

So a server (MCP or LSP) that has no structures yet for a large index answers an
identifier query with nothing but the filters the quick ranking has (kind,
language, file globs) from names at once, marked ``names_only``, and builds the
structures meanwhile (the index service both servers share). A smaller index has its
structures within a second or so: an identifier is answered from names before them when
the index holds :data:`NAMESAKES_FIRST` symbols or more, with its namesakes in the order
the fused ranking most often gives them (:func:`likely_first`), and on a tiny index only
when names leave no choice of the first item (:func:`no_choice`: one definition carries
the name), where the fused ranking puts the same definition first. A sentence or a few
keywords is answered the same way from the words of names and paths
(:mod:`symfuse.ranking.channels.names.name_words`), also marked ``names_only``: a
first-rate answer needs the word tables, but a first question should not wait seconds
for them. A call-graph question ("who calls X") needs no structures at all, whatever
the index's size: it is answered from the graph, in full (:func:`early_answer`).
Anything else (a dotted or path query, the filters and options only the fused search
has) waits for them. The CLI always waits: one command, one ranking, whatever ran
before it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.names.name_words import word_ranked
from symfuse.ranking.channels.names.names_only import QuickHit, quick_ranked
from symfuse.ranking.fusion.roles import Role, asks_for_side_code, role_of
from symfuse.ranking.graph.call_questions import CallGraphAnswer
from symfuse.ranking.query.parse import ParsedQuery, parse
from symfuse.ranking.query.responses import SearchItem, SearchResponse
from symfuse.ranking.query.search_request import Channel, SearchMode, SearchRequest, SemanticMode
from symfuse.ranking.search.pipeline import response_base, tier_of
from symfuse.ranking.search.plans import Shape
from symfuse.ranking.search.snippets import with_code

# The fields a names-only answer honours; every other field must keep its default.
_HONOURED = {"query", "kind", "language", "file_pattern", "limit", "offset", "mode", "semantic"}
_HONOURED |= {"detail_level", "snippet_lines"}
_MODES = (SearchMode.AUTO, SearchMode.SINGLE, SearchMode.TIERED)
_SEMANTIC = (SemanticMode.AUTO, SemanticMode.OFF)
_WORDS = (Shape.KEYWORDS, Shape.SENTENCE, Shape.MIXED)  # answered from names' words
_DECLARING = frozenset({Kind.INTERFACE, Kind.TRAIT})  # their members declare, others implement
# Symbols from which a cold start answers a name that has namesakes from names alone too, in
# the fused ranking's likeliest order (:func:`likely_first`), rather than wait for the
# structures, whose build grows with the index; the first item is the fused ranking's for
# most names (tests/bench/README.md, "Session 29: names with namesakes answered first").
NAMESAKES_FIRST = 1_000


def _defaults() -> dict[str, Any]:
    return SearchRequest.model_construct(query="").model_dump(exclude=_HONOURED)


_DEFAULTS = _defaults()


def answerable(request: SearchRequest, parsed: ParsedQuery | None = None) -> bool:
    """Whether names alone answer ``request`` (see the module doc); ``parsed`` is the query
    door's reading of it, when the caller has one."""
    parsed = parsed if parsed is not None else parse(request)
    return (
        request.mode in _MODES
        and request.semantic in _SEMANTIC
        and parsed.call is None
        and (parsed.shape is Shape.IDENTIFIER or parsed.shape in _WORDS)
        and request.model_dump(exclude=_HONOURED) == _DEFAULTS
    )


def early_answer(
    index: Index, request: SearchRequest, parsed: ParsedQuery, *, large: bool, pool: int = 0
) -> SearchResponse | CallGraphAnswer | None:
    """A cold start's answer to ``request`` without the ranking structures: a call
    question's from the graph, on a ``large`` index a name's or a sentence's from names
    (:func:`names_answer`), on one of :data:`NAMESAKES_FIRST` symbols or more a name's, on a
    smaller one a name's that names leave no choice of (:func:`no_choice`); None when the
    query must wait for the structures. ``pool``: how many names' matches the namesakes
    are ordered among (:func:`names_answer`)."""
    from symfuse.ranking.query.operations import call_answer

    if parsed.call is not None:
        return call_answer(index, request, parsed.call)
    if large:
        return names_answer(index, request, parsed, pool=pool)
    if parsed.shape is not Shape.IDENTIFIER:
        return None
    if len(index.symbols) >= NAMESAKES_FIRST:
        return names_answer(index, request, parsed, pool=pool)
    return None if request.offset else names_answer(index, request, parsed, sole=True)


def names_answer(
    index: Index,
    request: SearchRequest,
    parsed: ParsedQuery | None = None,
    *,
    sole: bool = False,
    pool: int = 0,
) -> SearchResponse | None:
    """The quick ranking's answer to ``request``; None when it is not :func:`answerable`,
    or, with ``sole``, when names leave a choice of its first item (:func:`no_choice`).
    ``pool``: order the namesakes among that many matches, not only the page's (an index
    without PageRank, the files parsed so far, has its many exact matches in no order)."""
    if not answerable(request, parsed):
        return None
    parsed = parsed if parsed is not None else parse(request)
    mode = SearchMode.SINGLE if request.mode is SearchMode.AUTO else request.mode
    ranked = quick_ranked if parsed.shape is Shape.IDENTIFIER else word_ranked
    asked = request.offset + request.limit
    hits, total = ranked(
        index,
        request.query,
        limit=asked + 1 if sole else max(asked, pool),  # one more: does a namesake follow?
        kinds=request.kind,
        languages=request.language,
        file_pattern=request.file_pattern,
    )
    if sole:
        chosen = no_choice(hits, asked + 1)
        if chosen is None:
            return None
        hits = chosen
    elif parsed.shape is Shape.IDENTIFIER and not asks_for_side_code(request.query):
        hits = likely_first(hits, index)
    hits = hits[:asked]
    top = hits[0].score if hits else 0.0
    tiered = mode is SearchMode.TIERED
    items = tuple(
        SearchItem(
            hit.symbol,
            hit.score,
            tier_of(hit.score, top, hit.tier is MatchTier.EXACT) if tiered else None,
        )
        for hit in hits[request.offset :]
    )
    channels = _channels(hits, parsed.shape)
    base = response_base(request, mode, None, parsed.shape)
    answer = replace(base, items=items, total=total, channels=channels, names_only=True)
    return with_code(index, answer, request)


def no_choice(hits: list[QuickHit], asked: int) -> list[QuickHit] | None:
    """``hits`` (``asked`` were asked for) with the one definition of the name first, when
    names leave no choice of it: one exact match in code, every other exact match a
    document's heading or key (which it goes before, as in the fused ranking) or a part of
    it (a constructor, a C typedef of its struct: in its file, on its lines); None when
    namesakes elsewhere leave a choice, which the fused ranking makes."""
    exact = [hit for hit in hits if hit.tier is MatchTier.EXACT]
    if not exact or len(exact) == asked:
        return None  # no exact match, or perhaps more of them than were asked for
    code = [hit for hit in exact if not _aside(hit.symbol)]
    if not code or not all(_within(other.symbol, code[0].symbol) for other in code[1:]):
        return None
    return [code[0], *(hit for hit in hits if hit is not code[0])]


def likely_first(hits: list[QuickHit], index: Index) -> list[QuickHit]:
    """``hits`` with their exact matches in the order the fused ranking most often gives
    namesakes: those in product code before those in tests, examples and benchmarks (tokio's
    ``Runtime``: the runtime's struct, not a test's), then, within each, types before the
    rest and functions before methods (urfave/cli's type ``FloatArgs`` before a method of
    the name, logrus's package function ``AddHook`` before ``Logger.AddHook``), and a
    member of an interface or trait after the members that implement it (okio's
    ``Buffer.readHexadecimalUnsignedLong`` before ``BufferedSource``'s); otherwise in their
    order (tests/bench/README.md, "Session 29: names with namesakes answered first")."""
    if not hits or hits[0].tier is not MatchTier.EXACT:
        return hits
    exact = [hit for hit in hits if hit.tier is MatchTier.EXACT]
    if len(exact) < 2:
        return hits  # no namesakes: nothing to order (nor parents to look up)
    rest = [hit for hit in hits if hit.tier is not MatchTier.EXACT]
    return [*sorted(exact, key=lambda hit: _likely_place(hit.symbol, index)), *rest]


def _likely_place(symbol: Symbol, index: Index) -> tuple[bool, int, bool]:
    """Where the fused ranking most often puts an exact match among its namesakes (a stable
    sort keeps the quick ranking's order within a place)."""
    side = role_of(symbol.file) is not Role.PRODUCT
    kind = symbol.kind
    parent = index.get(symbol.parent) if symbol.parent else None
    declared = parent is not None and parent.kind in _DECLARING
    return side, 0 if kind in Kind.TYPES else 1 if kind is Kind.FUNCTION else 2, declared


def _aside(symbol: Symbol) -> bool:
    return symbol.kind in Kind.DOCUMENTS or symbol.kind in Kind.UNITS


def _within(other: Symbol, first: Symbol) -> bool:
    same_file = other.file == first.file
    return same_file and other.line <= first.end_line and first.line <= other.end_line


def _channels(hits: list[QuickHit], shape: Shape) -> tuple[Channel, ...]:
    if shape is not Shape.IDENTIFIER:
        return (Channel.STRUCTURAL, Channel.LEXICAL)  # words of names and paths
    fuzzy = any(hit.distance for hit in hits)
    return (Channel.STRUCTURAL, Channel.IDENTITY, *((Channel.FUZZY,) if fuzzy else ()))
