"""What a query builds on first need, per index: for tests that no first query builds it."""

from __future__ import annotations

from symfuse.indexer.index import Index


def lazy_tables(index: Index) -> dict[str, object]:
    """What queries build on first need, per index: the index's derived views and tables,
    the ranking state it owns, and the graph's and paths' tables kept per index."""
    from symfuse.ranking.graph import hierarchy, targets
    from symfuse.ranking.text import paths

    found: dict[str, object] = {f"view {name}": table for name, table in index._cache.items()}
    found.update({f"companion {kind.__name__}": c for kind, c in index.companions.items()})
    for name, table in (
        ("resolver", targets._RESOLVERS),
        ("subclasses", hierarchy._SUBCLASSES),
        ("real paths", paths._REAL),
    ):
        if index in table:
            found[name] = table[index]
    return found
