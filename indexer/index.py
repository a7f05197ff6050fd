"""The in-memory index: files with their symbols and references, plus the graph.

Everything global (the flat symbol list, lookups by id and name, the edge
arrays, PageRank) is derived from the per-file entries and the per-file edge
lists, cached, and dropped whenever a file changes. ``generation`` grows with
every change so that layers above can key their own caches on it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar, cast

if TYPE_CHECKING:  # numpy is imported where arrays are built: CLI start-up stays light
    import numpy as np
    import numpy.typing as npt

from symfuse.indexer.link.edges import EdgeArrays, EdgeNumbering, EdgeRow, StoredGraph
from symfuse.indexer.model import EdgeKind, FileStamp, Kind, Reference, RefKind, Symbol
from symfuse.indexer.store import rows


@dataclass(slots=True)
class FileEntry:
    """One indexed file. ``path`` is the index key (see :meth:`Index.key`)."""

    path: str
    root: str
    rel: str
    language: str
    stamp: FileStamp
    symbols: list[Symbol]
    refs_blob: bytes
    ref_names: frozenset[str]
    links_blob: bytes  # rows.pack_references: what linking reads instead of every reference
    problems: list[str] = field(default_factory=list)
    record: rows.RecordParts | None = None  # the stored form, as a parser sent it
    _references: list[Reference] | None = None
    _lookups: FileLookups | None = None

    def references(self) -> list[Reference]:
        if self._references is None:
            self._references = rows.unpack_references(self.refs_blob, self.path, self.symbols)
        return self._references

    def imports(self) -> list[Reference]:
        """This file's import references, in source order. Unless every reference is
        decoded already, only these are made, and not kept: a question about imports
        (file dependencies) reads every file's, and needs neither the rest nor to hold them."""
        if self._references is not None:
            return [r for r in self._references if r.kind is RefKind.IMPORT]
        return rows.unpack_imports(self.refs_blob, self.path, self.symbols)

    def definitions(self) -> list[Symbol]:
        """This file's definitions: its symbols without the file's own unit."""
        return [s for s in self.symbols if s.kind not in Kind.UNITS]

    @property
    def definition_count(self) -> int:
        """How many definitions the file has (its units, when it has them, come last)."""
        count = len(self.symbols)
        while count and self.symbols[count - 1].kind in Kind.UNITS:
            count -= 1
        return count

    def link_groups(self) -> list[rows.LinkGroup]:
        return rows.unpack_links(self.links_blob)

    def lookups(self) -> FileLookups:
        """This file's symbols by id, by top-level name and by (parent, name); made once."""
        if self._lookups is None:
            by_id: dict[str, Symbol] = {}
            top: dict[str, Symbol] = {}
            scoped: dict[tuple[str, str], Symbol] = {}
            repeated: dict[tuple[str, str], list[Symbol]] = {}
            for s in reversed(self.symbols):  # the first of several namesakes wins
                by_id[s.symbol_id] = s
                if s.parent is None:
                    later, top[s.name] = top.get(s.name), s
                else:
                    later, scoped[(s.parent, s.name)] = scoped.get((s.parent, s.name)), s
                if later is not None:  # a namesake after it in its scope: in file order
                    repeated.setdefault((s.parent or "", s.name), [later]).insert(0, s)
            nested = {name for _, name in scoped}
            self._lookups = FileLookups(by_id, top, scoped, nested, repeated)
        return self._lookups


class FileLookups(NamedTuple):
    by_id: dict[str, Symbol]
    top: dict[str, Symbol]
    scoped: dict[tuple[str, str], Symbol]
    nested_names: set[str]  # names defined inside some definition of the file
    # (parent id or "", name) -> the definitions of a name defined more than once in one
    # scope, in order (overloads; Python's `if ...: def f()` / `else: def f()`)
    repeated: dict[tuple[str, str], list[Symbol]]


_T = TypeVar("_T")


class Index:
    """All files of a workspace (one or more roots), their symbols and the graph."""

    def __init__(self, roots: dict[str, str]) -> None:
        self.roots = roots  # alias -> absolute path
        self.files: dict[str, FileEntry] = {}
        self.edges_by_file: dict[str, Sequence[EdgeRow]] = {}
        self._ranks_by_id: dict[str, float] | None = {}
        self._ranks: tuple[list[str], npt.NDArray[np.float64]] | None = None  # ids, scores
        self._rank_by_number: npt.NDArray[np.float64] | None = None
        self.generation = 0
        self.updated_at = 0.0
        self.linked = False  # True once every file's references were resolved into edges
        # Changed by a patch that left linking for later (an editor buffer: names are
        # searchable at once, edges and ranks follow): the files and names to relink.
        self.unlinked_files: set[str] = set()
        self.unlinked_names: set[str] = set()
        # Entries holding a buffer's definitions alone (no references yet), by key, with
        # the entry each replaced (its imports are what the full parse is compared with).
        self.shallow: dict[str, FileEntry | None] = {}
        self.graph_dirty = True  # edges or ranks differ from what the store holds
        self._ref_files: dict[str, set[str]] = {}  # name -> keys of files referring to it
        self._ref_seen: dict[str, frozenset[str]] = {}  # key -> the names counted for it
        self._ref_generation = -1
        self.options: dict[str, Any] = {}  # the IndexConfig options it was built with
        self._cache: dict[str, object] = {}
        # What later stages (ranking) keep for this index, by the class that keeps it.
        # Snapshots share it (a workspace's caches outlive its generations); a new Index
        # starts with none. The indexer never reads it.
        self.companions: dict[type, object] = {}
        self._edges = EdgeNumbering()

    # --- keys and roots --------------------------------------------------------

    def key(self, root: str, rel: str) -> str:
        """The file key: the relative path, prefixed by the root alias when there are several."""
        return rel if len(self.roots) == 1 else f"{root}/{rel}"

    def abs_path(self, file: str) -> str:
        entry = self.files[file]
        return f"{self.roots[entry.root]}/{entry.rel}"

    # --- mutation ---------------------------------------------------------------

    @property
    def links_pending(self) -> bool:
        """Whether files changed since the last linking: their edges and the ranks are
        older than their symbols (see :func:`symfuse.indexer.update.apply.link_pending`)."""
        return bool(self.unlinked_files or self.shallow)

    def changed(self) -> None:
        """Drop every derived structure; call after changing files or edges."""
        self._cache.clear()
        self.generation += 1

    @property
    def pagerank_by_id(self) -> dict[str, float]:
        """symbol_id -> PageRank (a dict made on first use after :meth:`set_ranks`)."""
        if self._ranks_by_id is None:
            ids, scores = self._ranks if self._ranks is not None else ([], None)
            values = scores.tolist() if scores is not None else []
            self._ranks_by_id = dict(zip(ids, values, strict=True))
        return self._ranks_by_id

    @pagerank_by_id.setter
    def pagerank_by_id(self, ranks: dict[str, float]) -> None:
        self._ranks_by_id = ranks
        self._ranks = None
        self._rank_by_number = None
        self._cache.pop("pagerank", None)

    def pagerank_of(self, ids: Sequence[str]) -> list[float]:
        """The PageRank of each of ``ids`` as :attr:`pagerank_by_id` has it (0.0 for an id
        it lacks), without making that dict: an editor ranking a changed file's few
        symbols would pay for a dict of every symbol on each edit."""
        known = self._rank_by_number
        if known is None:
            ranks = self.pagerank_by_id
            return [ranks.get(i, 0.0) for i in ids]
        numbers, size = self._edges.numbers, len(known)
        found: list[float] = []
        for i in ids:
            number = numbers.get(i, size)
            rank = float(known[number]) if number < size else 0.0
            found.append(0.0 if math.isnan(rank) else rank)  # NaN: a number without a rank
        return found

    def restore_graph(self, graph: StoredGraph) -> None:
        """Edges and ranks as stored (ValueError when they do not fit together).

        The stored positions become the symbol numbers, so the per-file edge arrays and
        the warm start of the next PageRank come straight from the stored arrays.
        """
        import numpy as np

        self.edges_by_file.update(self._edges.restore(graph))
        self._ranks_by_id = None
        self._ranks = (graph.ids, graph.ranks)
        self._rank_by_number = np.asarray(graph.ranks, dtype=np.float64)

    def set_ranks(self, scores: npt.NDArray[np.float64]) -> None:
        """New PageRank scores, aligned with :attr:`symbols`; other derived views stay."""
        import numpy as np

        numbers = np.asarray(self._symbol_numbers(), dtype=np.int64)
        # NaN: a number without a rank (an edge end that is no symbol now)
        by_number = np.full(len(self._edges.numbers), np.nan, dtype=np.float64)
        by_number[numbers] = scores
        self._rank_by_number = by_number
        self._ranks = (self.symbol_ids, scores)
        self._ranks_by_id = None
        self._cache["pagerank"] = scores
        self.generation += 1

    def previous_ranks(self) -> npt.NDArray[np.float64] | None:
        """The last ranks of today's symbols (a warm start), 0 for new ones; None if none."""
        import numpy as np

        if self._rank_by_number is None:
            if not self._ranks_by_id:
                return None
            lookup = self._ranks_by_id
            return np.fromiter(
                (lookup.get(s.symbol_id, 0.0) for s in self.symbols),
                np.float64,
                len(self.symbols),
            )
        numbers = np.asarray(self._symbol_numbers(), dtype=np.int64)
        known = self._rank_by_number
        start = np.zeros(len(numbers), dtype=np.float64)
        inside = numbers < len(known)
        start[inside] = known[numbers[inside]]
        return np.nan_to_num(start, nan=0.0)

    def _symbol_numbers(self) -> list[int]:
        cached = self._cache.get("numbers")
        if cached is None:
            cached = self._cache["numbers"] = self._edges.number(self.symbol_ids)
        return cached  # type: ignore[return-value]

    def snapshot(self) -> Index:
        """A copy that a writer may patch while readers use this one.

        ``patch`` and ``relink`` replace file entries and edge lists rather than
        mutating them, so the copy shares those, and shares the derived views
        until its first change. The tables that are kept up to date in place
        (symbol numbers, per-file edge arrays, the name -> files table) are copied.
        """
        copy = Index(dict(self.roots))
        copy.files = dict(self.files)
        copy.edges_by_file = dict(self.edges_by_file)
        copy._ranks_by_id = self._ranks_by_id
        copy._ranks = self._ranks
        copy._rank_by_number = self._rank_by_number
        copy.generation = self.generation
        copy.updated_at = self.updated_at
        copy.linked = self.linked
        copy.unlinked_files = set(self.unlinked_files)
        copy.unlinked_names = set(self.unlinked_names)
        copy.shallow = dict(self.shallow)
        copy.graph_dirty = self.graph_dirty
        copy.options = dict(self.options)
        copy._cache = dict(self._cache)
        copy.companions = self.companions  # shared, not copied (see __init__)
        try:
            copy._edges = self._edges.copy()
            copy._ref_files = {name: set(keys) for name, keys in self._ref_files.items()}
            copy._ref_seen = dict(self._ref_seen)
        except RuntimeError:  # a reader is filling them right now: the copy starts afresh
            copy._edges, copy._ref_files, copy._ref_seen = EdgeNumbering(), {}, {}
        return copy

    # --- derived views ------------------------------------------------------------

    def derived(self, name: str, build: Callable[[], _T]) -> _T:
        """``build()``'s table, made once per change of the files (like the views below).

        For tables that layers above derive from the files (the linker's module maps):
        kept here, they go with this index and are dropped with its other views.
        """
        cached = self._cache.get(name)
        if cached is None:
            cached = self._cache[name] = build()
        return cast(_T, cached)

    @property
    def symbols(self) -> list[Symbol]:
        """Every symbol, files in key order, each file's symbols in source order."""
        cached = self._cache.get("symbols")
        if cached is None:
            cached = self._cache["symbols"] = [
                s for key in sorted(self.files) for s in self.files[key].symbols
            ]
        return cached  # type: ignore[return-value]

    @property
    def symbol_ids(self) -> list[str]:
        """The ids of :attr:`symbols`, in order."""
        cached = self._cache.get("symbol_ids")
        if cached is None:
            cached = self._cache["symbol_ids"] = [s.symbol_id for s in self.symbols]
        return cached  # type: ignore[return-value]

    @property
    def position(self) -> dict[str, int]:
        """symbol_id -> position in :attr:`symbols`."""
        cached = self._cache.get("position")
        if cached is None:
            cached = self._cache["position"] = {s.symbol_id: i for i, s in enumerate(self.symbols)}
        return cached  # type: ignore[return-value]

    @property
    def by_name(self) -> dict[str, list[int]]:
        """name -> positions of the symbols so named."""
        cached = self._cache.get("by_name")
        if cached is None:
            table: defaultdict[str, list[int]] = defaultdict(list)
            for i, s in enumerate(self.symbols):
                table[s.name].append(i)
            cached = self._cache["by_name"] = dict(table)
        return cached  # type: ignore[return-value]

    @property
    def by_fqn(self) -> dict[str, Symbol]:
        """fqn -> symbol; of several with one fqn, the first (in :attr:`symbols` order),
        code before a document's heading or key (``use DBConnection`` is the module, not
        the README's ``# DBConnection``)."""
        cached = self._cache.get("by_fqn")
        if cached is None:
            ordered = sorted(self.symbols, key=lambda s: s.kind in Kind.DOCUMENTS)
            cached = self._cache["by_fqn"] = {s.fqn: s for s in reversed(ordered)}
        return cached  # type: ignore[return-value]

    @property
    def children(self) -> dict[str, list[int]]:
        """parent symbol_id -> positions of its direct children."""
        cached = self._cache.get("children")
        if cached is None:
            table: defaultdict[str, list[int]] = defaultdict(list)
            for i, s in enumerate(self.symbols):
                if s.parent is not None:
                    table[s.parent].append(i)
            cached = self._cache["children"] = dict(table)
        return cached  # type: ignore[return-value]

    @property
    def edges(self) -> EdgeArrays:
        cached = self._cache.get("edges")
        if cached is None:
            # the symbols' numbers first: then edge ends are mostly known ids
            numbers = self._symbol_numbers()
            cached = self._cache["edges"] = self._edges.arrays(self.edges_by_file, numbers)
        return cached  # type: ignore[return-value]

    @property
    def pagerank(self) -> npt.NDArray[np.float64]:
        """PageRank of each symbol, aligned with :attr:`symbols` (computed at index time)."""
        cached = self._cache.get("pagerank")
        if cached is None and self._rank_by_number is not None:
            cached = self._cache["pagerank"] = self._ranks_by_number()
        if cached is None:
            import numpy as np

            lookup = self.pagerank_by_id
            uniform = 1.0 / max(1, len(self.symbols))
            cached = self._cache["pagerank"] = np.fromiter(
                (lookup.get(s.symbol_id, uniform) for s in self.symbols),
                dtype=np.float64,
                count=len(self.symbols),
            )
        return cached  # type: ignore[return-value]

    def _ranks_by_number(self) -> npt.NDArray[np.float64]:
        """:attr:`pagerank` read through the symbols' numbers (a symbol without a rank, new
        since the ranks were computed, gets the uniform rank, as through
        :attr:`pagerank_by_id`), without the id -> rank dict: a server keeps neither it
        nor a float object per symbol."""
        import numpy as np

        known = self._rank_by_number
        assert known is not None
        numbers = np.asarray(self._symbol_numbers(), dtype=np.int64)
        uniform = 1.0 / max(1, len(numbers))
        ranks = np.full(len(numbers), uniform, dtype=np.float64)
        inside = numbers < len(known)
        ranks[inside] = known[numbers[inside]]
        return np.nan_to_num(ranks, nan=uniform)

    # --- lookups ----------------------------------------------------------------

    def get(self, symbol_id: str) -> Symbol | None:
        at = self.position.get(symbol_id)
        return None if at is None else self.symbols[at]

    def neighbours(
        self, symbol_id: str, *, outgoing: bool, kinds: frozenset[EdgeKind] | None = None
    ) -> list[tuple[Symbol, EdgeKind, float]]:
        """Symbols this one points to (``outgoing``) or that point to it, with edge kind."""
        at = self.position.get(symbol_id)
        if at is None:
            return []
        import numpy as np

        edges = self.edges
        mine = edges.src if outgoing else edges.dst
        other = edges.dst if outgoing else edges.src
        hits = np.flatnonzero(mine == at)
        found: list[tuple[Symbol, EdgeKind, float]] = []
        for h in hits:
            kind = EdgeKind(int(edges.kind[h]))
            if kinds is None or kind in kinds:
                found.append((self.symbols[int(other[h])], kind, float(edges.weight[h])))
        return found

    def files_referencing(self, name: str) -> list[str]:
        """Keys of files that mention ``name`` in some reference.

        The name -> files table is kept up to date file by file (an entry's
        ``ref_names`` is replaced, never changed, when the file is), not rebuilt
        after every change: that rebuild was the largest cost of a one-file update.
        """
        if self._ref_generation != self.generation:
            table, seen, files = self._ref_files, self._ref_seen, self.files
            for key in [k for k in seen if k not in files]:
                for ref_name in seen.pop(key):
                    table[ref_name].discard(key)
            for key, entry in files.items():
                old = seen.get(key)
                if old is entry.ref_names:
                    continue
                if old is not None:
                    for ref_name in old - entry.ref_names:
                        table[ref_name].discard(key)
                for ref_name in entry.ref_names if old is None else entry.ref_names - old:
                    table.setdefault(ref_name, set()).add(key)
                seen[key] = entry.ref_names
            self._ref_generation = self.generation
        return sorted(self._ref_files.get(name, ()))

    def stats(self) -> dict[str, object]:
        languages: defaultdict[str, int] = defaultdict(int)
        symbols_by_language: defaultdict[str, int] = defaultdict(int)
        references = 0
        for entry in self.files.values():
            languages[entry.language] += 1
            symbols_by_language[entry.language] += entry.definition_count
            references += _count_refs(entry)
        return {
            "files": len(self.files),
            "definitions": sum(symbols_by_language.values()),
            "references": references,
            "edges": sum(len(v) for v in self.edges_by_file.values()),
            "languages": dict(sorted(languages.items())),
            "definitions_by_language": dict(sorted(symbols_by_language.items())),
        }


def _count_refs(entry: FileEntry) -> int:
    if entry._references is not None:
        return len(entry._references)
    return rows.reference_count(entry.refs_blob)  # the header alone: no row decoded
