"""``workspace/symbol`` queries: the call into ranking.

The query door reads the text once (:func:`symfuse.ranking.query.parse.parse_symbol_query`:
the name being typed, its ``kind:`` / ``lang:`` / ``file:`` filters, and whether it is a
call-graph question). A question about the call graph ("who calls save", "callers of
Order.save", "what does checkout call") is answered by :func:`call_graph` from the graph,
with nothing ranked; the filters narrow which symbols the question names. Any other
query is ranked by :func:`symfuse.ranking.search.picker.editor_search`: the fused search
with the editor profile (exact names, prefixes, camel humps and fuzzy matches of the
name first, because the user is typing a name), or the quick name ranking while the
fused search's structures are not built yet.
"""

from __future__ import annotations

import logging

from symfuse.indexer.errors import InvalidRequest, SymfuseError
from symfuse.indexer.index import Index
from symfuse.indexer.model import Symbol
from symfuse.ranking.api import Prepared, editor_search
from symfuse.ranking.query import operations
from symfuse.ranking.query.parse import SymbolQuery

log = logging.getLogger(__name__)


def search(
    index: Index,
    query: SymbolQuery,
    limit: int,
    prepared: Prepared | None,
    previous: tuple[Index, Prepared] | None = None,
) -> list[Symbol]:
    """Best first, at most ``limit``; an empty name with filters lists what they select.

    ``prepared`` are the ranking structures of ``index``, or None while they are
    being built; ``previous`` an earlier index with its structures, when there is
    one (see :func:`symfuse.ranking.search.picker.editor_search`).
    """
    try:
        return editor_search(
            index,
            query.text,
            limit=limit,
            prepared=prepared,
            kinds=query.kinds,
            languages=query.languages,
            file_pattern=query.files,
            previous=previous,
        )
    except InvalidRequest as exc:
        log.info("workspace/symbol %r: %s", query.text, exc)
        return []


def call_graph(
    index: Index,
    query: SymbolQuery,
    limit: int,
    prepared: Prepared | None,
) -> list[Symbol] | None:
    """The callers (or callees) a call-graph question asks for, best edge first; None for
    any other query, or when the question names no symbol.

    ``prepared`` are the structures of ``index``, whose filter table it reads; without
    them (a cold start, or just after an edit) the quick filter table does: a call
    question needs no ranking structures.
    """
    if query.call is None:
        return None
    try:
        request = query.request(limit)
        answer = operations.call_answer(index, request, query.call, prepared=prepared)
    except SymfuseError as exc:
        log.info("workspace/symbol %r: %s", query.text, exc)
        return None
    return None if answer is None else [item.symbol for item in answer.items]
