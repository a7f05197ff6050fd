"""Which symbols a navigation query is about, and the resolver that links names to them.

A query names its subject by ``symbol_id`` (from a search result or an
outline) or by name, optionally within a file; the errors say which argument
was wrong and where ids come from. The resolver is built once per index
generation and shared by usages, positions and the call graph.
"""

from __future__ import annotations

import threading
import weakref

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.index import Index
from symfuse.indexer.link.resolve import Resolver
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.text import paths

DECLARATION = "definition"  # the usage kind (and definition ``via``) of a target's own definition


# --- a resolver per index generation ------------------------------------------------------

_RESOLVERS: weakref.WeakKeyDictionary[Index, tuple[int, Resolver]] = weakref.WeakKeyDictionary()
_RESOLVERS_LOCK = threading.Lock()


def resolver_for(index: Index) -> Resolver:
    """A Resolver for the index as it is now, reused until the index changes."""
    with _RESOLVERS_LOCK:
        cached = _RESOLVERS.get(index)
        if cached is not None and cached[0] == index.generation:
            return cached[1]
    resolver = Resolver(index)
    with _RESOLVERS_LOCK:
        _RESOLVERS[index] = (index.generation, resolver)
    return resolver


def warm(index: Index) -> None:
    """Pay the first-query costs now: the resolver's tables and every file's references
    (a server calls this in the background after loading, so that no query waits)."""
    resolver_for(index)
    for entry in list(index.files.values()):
        entry.references()


def require_symbol(index: Index, symbol_id: str, *, argument: str = "symbol_id") -> Symbol:
    if not isinstance(symbol_id, str) or not symbol_id:
        raise InvalidRequest(argument, "give a symbol_id")
    symbol = index.get(symbol_id)
    if symbol is None:
        raise NotFound(
            f"{argument}: unknown symbol {symbol_id!r}; ids come from search results, "
            "or from get_symbol with a path (the file's outline)"
        )
    return symbol


def resolve_one(
    index: Index,
    symbol_id: str | None,
    name: str | None,
    file: str | None = None,
    *,
    prefer: frozenset[Kind] = frozenset(),
) -> Symbol:
    """The one symbol a graph query is about, by id or by name (optionally in ``file``);
    an error listing the candidates when a name is ambiguous. Of several namesakes, the
    one of a ``prefer`` kind is taken when it is the only such (a type hierarchy asked
    for ``Render``: the type, not the methods called so)."""
    if symbol_id is not None and name is not None:
        raise InvalidRequest("name", "give either symbol_id or name, not both")
    if symbol_id is not None:
        return require_symbol(index, symbol_id)
    if name is None:
        raise InvalidRequest(
            "symbol_id", "give a symbol_id (from search), or a name (optionally with file)"
        )
    found = find_targets(index, name, file)
    preferred = [s for s in found if s.kind in prefer]
    if preferred and len(found) > 1:
        found = preferred
    if len(found) == 1:
        return found[0]
    shown = ", ".join(s.symbol_id for s in found[:8])
    more = f" and {len(found) - 8} more" if len(found) > 8 else ""
    raise InvalidRequest(
        "name",
        f"{name!r} names {len(found)} definitions ({shown}{more}); "
        "pass one of them as symbol_id, or add file",
    )


def find_targets(index: Index, name: str, file: str | None = None) -> list[Symbol]:
    """Definitions named ``name`` (or whose qualified name ends with it), optionally in ``file``."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidRequest("name", "give a name")
    name = name.strip()
    symbols = index.symbols
    found = [symbols[i] for i in index.by_name.get(name, ())]
    if not found and "." in name:
        last = name.rsplit(".", 1)[1]
        found = [
            symbols[i]
            for i in index.by_name.get(last, ())
            if symbols[i].fqn == name or symbols[i].fqn.endswith("." + name)
        ]
    if file is not None:
        key = paths.resolve_file(index, file, argument="file")
        found = [s for s in found if s.file == key]
        if not found:
            raise NotFound(f"name: no definition named {name!r} in {key}")
    if not found:
        raise NotFound(f"name: no definition named {name!r}; try search or search_text")
    return found
