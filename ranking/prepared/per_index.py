"""The ranking state an index owns: one object per class, made on first use.

Caches that depend on an index live on the index (``Index.companions``), not in
module globals: an index and its snapshots (one workspace in a live server)
share them, a new index (a test's, or another workspace's) starts empty, and
two indexes in one process never see each other's.
"""

from __future__ import annotations

from typing import TypeVar

from symfuse.indexer.index import Index

T = TypeVar("T")


def per_index(index: Index, kind: type[T]) -> T:
    """The ``kind`` object ``index`` owns, made with ``kind()`` when it has none yet.

    Thread-safe: ``dict.setdefault`` is atomic, so racing callers get the same object.
    """
    found = index.companions.get(kind)
    if found is None:
        found = index.companions.setdefault(kind, kind())
    if not isinstance(found, kind):
        raise TypeError(f"{kind.__name__} companion of another type: {type(found).__name__}")
    return found


def drop(index: Index, kind: type) -> None:
    """Forget the ``kind`` object of ``index`` (and of its snapshots)."""
    index.companions.pop(kind, None)
