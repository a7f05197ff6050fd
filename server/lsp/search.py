"""``workspace/symbol`` queries: the filter syntax, and the call into ranking.

A query is a name to look for plus optional filters, in any order::

    kind:class Order          only classes (k: for short; several: kind:class,function)
    lang:python render        only Python symbols (l: for short; lang:py or lang:.py too)
    file:shop/** total        only files matching the glob (f: or in: for short)
    #Order                    a leading # is ignored (VS Code's "go to symbol" prefix)

Kind and language words are those of :mod:`symfuse.ranking.query.vocabulary`, as in the CLI
and MCP (``kind:ctor``, ``kind:method`` with constructors, ``lang:ts``). Unknown ``word:``
prefixes are searched as text. A question about the call graph
("who calls save", "callers of Order.save", "what does checkout call") is
answered by :func:`call_graph`: the query layer's ``search`` routes it and the
answer lists the calling (or called) definitions; the filters narrow which
symbols the question names. Any other query is ranked by
:func:`symfuse.ranking.search.picker.editor_search`: the fused search with the editor
profile (exact names, prefixes, camel humps and fuzzy matches of the name
first, because the user is typing a name), or the quick name ranking while the
fused search's structures are not built yet.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from symfuse.indexer.errors import InvalidRequest, SymfuseError
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.api import CallGraphAnswer, Prepared, call_query, editor_request, editor_search
from symfuse.ranking.query import operations
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.ranking.query.vocabulary import kind_of, language_of

log = logging.getLogger(__name__)

_KIND_KEYS = ("kind:", "k:")
_LANG_KEYS = ("lang:", "language:", "l:")
_FILE_KEYS = ("file:", "f:", "in:")


@dataclass(frozen=True, slots=True)
class SymbolQuery:
    text: str
    kinds: tuple[Kind, ...] = ()
    languages: tuple[str, ...] = ()
    files: tuple[str, ...] = ()

    @property
    def filtered(self) -> bool:
        return bool(self.kinds or self.languages or self.files)

    def request(self, limit: int) -> SearchRequest:
        """The fused search request of this query (the editor profile)."""
        return editor_request(
            self.text,
            limit=limit,
            kinds=self.kinds,
            languages=self.languages,
            file_pattern=self.files,
        )


def parse_query(raw: str) -> SymbolQuery:
    """Split filters off the name being typed."""
    words: list[str] = []
    kinds: list[Kind] = []
    langs: list[str] = []
    files: list[str] = []
    for token in raw.strip().lstrip("#").split():
        low = token.lower()
        head = next((k for k in _KIND_KEYS if low.startswith(k)), None)
        if head is not None and low != head:
            found = [kind_of(w) for w in token[len(head) :].split(",")]
            if found and all(k is not None for k in found):
                kinds.extend(k for k in found if k is not None)
                continue
        head = next((k for k in _LANG_KEYS if low.startswith(k)), None)
        if head is not None and low != head:
            words_of = [w for w in token[len(head) :].split(",") if w]
            named = [language_of(w) for w in words_of]
            langs.extend(
                n if n is not None else w.lower() for n, w in zip(named, words_of, strict=True)
            )
            continue
        head = next((k for k in _FILE_KEYS if low.startswith(k)), None)
        if head is not None and low != head:
            files.append(token[len(head) :])
            continue
        words.append(token)
    return SymbolQuery(" ".join(words), tuple(kinds), tuple(langs), tuple(files))


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
    directory: Path | None,
) -> list[Symbol] | None:
    """The callers (or callees) a call-graph question asks for, best edge first; None for
    any other query, or when the question names no symbol.

    ``prepared`` are the structures of ``index``; without them (a cold start, or
    just after an edit) the search builds them first, as an explicit question is
    worth the wait.
    """
    if call_query(query.text) is None:
        return None
    try:
        request = query.request(limit)
        answer = operations.search(index, request, directory=directory, prepared=prepared)
    except SymfuseError as exc:
        log.info("workspace/symbol %r: %s", query.text, exc)
        return None
    if not isinstance(answer, CallGraphAnswer):
        return None
    return [item.symbol for item in answer.items]
