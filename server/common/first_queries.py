"""One query of each shape, answered on the warming thread before any client asks; and the
parse queries a first edit needs, compiled ahead (:func:`compile_queries`).

The ranking structures are not all a query reads: the first query of a shape also builds
what only it needs, each once per index (the name table of the index, the linker's module
maps and resolver for a call question, the reference views for usages, the code of the
modules that answer that shape). A client's first such query would pay for them; after the
first structures of a server's index, the warming thread asks one of each instead
(:func:`answer_one_of_each`), so that every shape answers at its usual speed from the start.

The questions are about the index's most central definition (:func:`central`): a name, its
camel humps (an abbreviation), a sentence as prose and as a commit subject, its source, and
its file's dependencies (the import graph of the workspace: each file's imports, resolved;
small, as it keeps neither the references nor the tables of names a call question reads).
Their answers are dropped; none reaches the query cache, the metrics or a client. Call
questions and usages are not asked ahead: their tables (the names' table and what the
resolver caches, the reference views) are the largest a query builds and stay resident,
+55 MB of 235 on SQLAlchemy, while their first answer there takes 0.17 s and 0.66 s, no
cliff; a server whose clients never ask for them should not hold them. Each waits while a
client's query runs (:meth:`~symfuse.server.common.service.IndexService.give_way`): a first
answer does not share the interpreter with work done for later ones.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from symfuse.indexer.errors import SymfuseError
from symfuse.indexer.files import languages
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind

if TYPE_CHECKING:
    from symfuse.server.common.service import IndexService

log = logging.getLogger(__name__)

_HUMPS = re.compile(r"[A-Z]|(?<![A-Za-z])[a-z]")
_CODE_KINDS = frozenset(
    {
        Kind.CLASS,
        Kind.FUNCTION,
        Kind.METHOD,
        Kind.CONSTRUCTOR,
        Kind.INTERFACE,
        Kind.STRUCT,
        Kind.TRAIT,
    }
)
_LOOKED_AT = 1000  # central definitions looked at for one of code


def questions(name: str) -> list[str]:
    """The search queries of each shape about definition ``name``."""
    humps = "".join(_HUMPS.findall(name))
    asked = [
        name,
        f"how does {name} work",  # prose
        f"Fix {name} when the value is missing",  # a commit subject
    ]
    if 2 <= len(humps) < len(name):
        asked.insert(1, humps)  # an abbreviation: QuerySet -> QS
    return asked


def central(index: Index) -> int | None:
    """The position of the index's most central definition of code, the highest PageRank
    (None: no definitions). A typical definition would be cheaper to ask about, but its questions
    need less (a definition nothing uses or calls reads no other file, resolves no import):
    the most central one's answers go through every table its shapes build."""
    ranks = index.pagerank
    if not ranks.shape[0]:
        return None
    symbols = index.symbols
    for position in ranks.argsort()[::-1][:_LOOKED_AT].tolist():
        if symbols[position].kind in _CODE_KINDS:  # not a heading or a configuration key
            return int(position)
    return int(ranks.argmax())


def answer_one_of_each(service: IndexService, stop: Callable[[], bool]) -> bool:
    """Ask one query of each shape about the current index's most central definition (none
    when it has no definitions); return early, False, once ``stop()`` holds (True when
    done, or when a question failed: it would fail again, and the failure is logged)."""
    from symfuse.ranking.query import operations
    from symfuse.ranking.query.requests import DepsRequest, GetRequest
    from symfuse.ranking.query.search_request import SearchRequest

    started = time.perf_counter()
    index = service.current()
    position = central(index)
    if position is None:
        return True
    symbol = index.symbols[position]
    try:
        for query in questions(symbol.name):
            service.give_way()
            if stop():
                return False
            service.search(SearchRequest(query=query, limit=5))
        service.give_way()
        with service.reading() as current:  # its source: the files' real paths, their lines
            operations.get(current, GetRequest(target=symbol.symbol_id))
        service.give_way()
        if stop():
            return False
        with service.reading() as current:  # its file's dependencies: the import graph
            operations.deps(current, DepsRequest(target=symbol.file))
    except (SymfuseError, OSError, ValueError) as exc:  # it would fail again: done
        log.warning("answering the first queries ahead failed: %s", exc)
        return True
    log.debug("first queries answered ahead in %.3f s", time.perf_counter() - started)
    return True


def compile_queries(index: Index, done: set[str]) -> None:
    """Compile the parse queries of the index's languages not in ``done`` and run them
    once, before an edit needs them; add them to ``done``. Compiling a query and importing
    the extractor's modules would otherwise be paid by the first edit of a session, which
    then takes several times as long as the later ones."""
    from symfuse.indexer.extract.tags import extract

    found = {entry.language for entry in index.files.values()} - done
    for language in sorted(found & languages.supported().keys()):
        languages.query(language)
        extract("", "", language, b"", definitions_only=True)  # compiles definitions_query
    done.update(found)
