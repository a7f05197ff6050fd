"""Parsed files -> the in-memory index: entries replaced, the graph relinked where the
change reaches, PageRank recomputed when an edge moved."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from symfuse.indexer.config import UpdateReport
from symfuse.indexer.extract.parsing import ParseResult, entry_of
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import FileProblem, Kind, Skipped, Symbol

# The linker and numpy are imported where they are first used: `symfuse index` with
# nothing new to parse needs neither.


@dataclass(slots=True)
class _Touched:
    """What a patch changed: the files whose edges must be recomputed, and the names
    whose definitions (or import bindings) moved, which other files may link to."""

    files: set[str] = field(default_factory=set)
    names: set[str] = field(default_factory=set)


def patch(
    index: Index,
    results: Iterable[ParseResult],
    removed: Sequence[str],
    report: UpdateReport | None = None,
    reextracted: frozenset[str] | set[str] = frozenset(),
    *,
    link: bool = True,
    shallow: bool = False,
) -> None:
    """Put parsed files into ``index``, drop removed ones, relink what they affect, rerank.

    A file whose content hash did not change keeps its entry (only the stamp moves),
    unless its language is in ``reextracted`` (its query or the extractor changed).
    An index that was never linked (a fresh or partial one) is linked in full.

    ``shallow``: the results hold definitions alone (an editor buffer parsed without
    its references, for its names to be searchable at once); the entries they replace
    are kept aside (:attr:`Index.shallow`) until the full parse of the same text comes,
    and the links wait for it (:attr:`Index.links_pending`).

    ``link=False`` stops after the entries: the new symbols are there (to search by
    name), and what must be relinked is noted on the index (:attr:`Index.links_pending`)
    for :func:`link_pending`, or for the next patch that links, to do. Relinking and
    ranking a large workspace costs hundreds of milliseconds that an editor's
    ``workspace/symbol`` after a keystroke need not wait for.
    """
    report = report if report is not None else UpdateReport()
    touched = _Touched(set(removed) | index.unlinked_files, set(index.unlinked_names))
    for key in removed:
        _drop(index, key, touched)
        index.edges_by_file.pop(key, None)
    for result in results:
        if isinstance(result, Skipped):
            report.skipped.append(result)
            if _drop(index, result.path, touched):
                touched.files.add(result.path)
        else:
            _put(index, entry_of(result), touched, report, reextracted, shallow)
    index.changed()
    if not link:
        index.unlinked_files, index.unlinked_names = touched.files, touched.names
        return
    _link(index, touched)


def link_pending(index: Index) -> bool:
    """Relink and rerank what patches with ``link=False`` left; whether there was any."""
    if not index.links_pending:
        return False
    index.changed()
    _link(index, _Touched(index.unlinked_files, index.unlinked_names))
    return True


def _link(index: Index, touched: _Touched) -> None:
    index.unlinked_files, index.unlinked_names = set(), set()
    if index.linked and not touched.files:
        return  # nothing new in a linked index: edges, ranks and their age stand
    if _relink(index, touched):
        _rank(index)
        index.graph_dirty = True
    index.updated_at = time.time()


def _drop(index: Index, key: str, touched: _Touched) -> bool:
    """Remove a file's entry; whether it had one."""
    from symfuse.indexer.link.bindings import changed_bindings

    old = index.files.pop(key, None)
    if old is None:
        return False
    touched.names.update(s.name for s in old.symbols)
    before = index.shallow.pop(key) if key in index.shallow else old
    _rebound(index, touched.names, changed_bindings(before, None))
    return True


def _put(
    index: Index,
    entry: FileEntry,
    touched: _Touched,
    report: UpdateReport,
    reextracted: frozenset[str] | set[str],
    shallow: bool = False,
) -> None:
    """Add or replace a file's entry (only its stamp, when its content is the same)."""
    from symfuse.indexer.link.bindings import changed_bindings
    from symfuse.indexer.link.graph import changed_names

    key = entry.path
    old = index.files.get(key)
    same = old is not None and old.stamp.digest == entry.stamp.digest
    same = same and old is not None and old.language == entry.language  # a .h decided anew
    deepened = key in index.shallow and not shallow  # the same text, references and all
    if old is not None and same and entry.language not in reextracted and not deepened:
        old.stamp = entry.stamp  # touched but not changed
        report.unchanged += 1
        return
    report.parsed += 1
    report.problems.extend(FileProblem(key, problem) for problem in entry.problems)
    # The imports a shallow entry stands for are those of the entry it replaced.
    before = index.shallow.pop(key) if deepened else old
    if shallow:
        index.shallow[key] = index.shallow.get(key, old)
    if index.linked:  # an unlinked index is linked in full below: no names needed
        old_symbols: list[Symbol] = old.symbols if old is not None else []
        touched.names.update(changed_names(old_symbols, entry.symbols))
        if not shallow:
            _rebound(index, touched.names, changed_bindings(before, entry))
    index.files[key] = entry
    touched.files.add(entry.path)


def _relink(index: Index, touched: _Touched) -> bool:
    """Recompute the edges the change may move; whether PageRank must be recomputed."""
    from symfuse.indexer.link import graph

    if not index.linked:
        graph.relink(index, list(index.files))
        index.linked = True
        return True
    affected = graph.affected_files(index, touched.names, touched.files)
    before = {key: sorted(index.edges_by_file.get(key, ())) for key in affected}
    others = graph.relink(index, affected)
    after = {key: sorted(index.edges_by_file.get(key, ())) for key in affected}
    # Same symbols, same edges (an edit inside a body): PageRank cannot change.
    return bool(touched.names) or before != after or bool(others)


def _rebound(index: Index, names: set[str], rebound: set[str] | None) -> None:
    """Add the names a file's imports bind differently; None (its ``*`` imports changed,
    so any name may resolve differently): link the whole index again."""
    if rebound is None:
        index.linked = False
    else:
        names.update(rebound)


def _rank(index: Index) -> None:
    import numpy as np

    from symfuse.indexer.link.pagerank import pagerank  # numpy only when ranking

    edges = index.edges
    n = len(index.symbols)
    start = index.previous_ranks()  # a warm start from the ranks before this change
    if start is not None:
        start = np.where(start > 0, start, 1.0 / max(1, n))
    # File units are not in the graph (nothing refers to them): rank 0, and no share of
    # the rank they would take as nodes without edges.
    unit = np.fromiter((s.kind in Kind.UNITS for s in index.symbols), np.bool_, n)
    if not unit.any():
        index.set_ranks(pagerank(n, edges.src, edges.dst, edges.weight, start=start))
        return
    keep = np.flatnonzero(~unit)
    number = np.full(n, -1, dtype=np.int64)
    number[keep] = np.arange(keep.shape[0])
    src, dst = number[edges.src], number[edges.dst]
    inside = (src >= 0) & (dst >= 0)
    weight = edges.weight[inside]
    warm = None if start is None else start[keep]
    ranks = np.zeros(n, dtype=np.float64)
    ranks[keep] = pagerank(keep.shape[0], src[inside], dst[inside], weight, start=warm)
    index.set_ranks(ranks)
