"""The persisted index: a manifest plus immutable, content-addressed objects.

Layout of an index directory::

    manifest.msgpack           schema, roots, per-file stamps and record locations, counts
    objects/pack-<key>.msgpack file records (symbol rows + packed references), back to back
    objects/graph-<key>.msgpack edges and PageRank
    lock                       held by the one process that may write

An update appends nothing: it writes the records of changed files into one new
pack (so a cold build costs one fsync, not one per file), then the graph, then
the manifest. Each is written to a temporary name, fsynced and renamed into
place, and the manifest is renamed last, so a reader sees either the old index
or the new one, whatever moment a writer is killed at. Packs nothing refers to
are deleted; when too many packs accumulate, everything is rewritten into one.
Anything unreadable, truncated or of another schema raises
:class:`IndexCorrupt`; callers rebuild.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgpack

from symfuse.indexer.errors import IndexCorrupt
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.link.edges import StoredGraph
from symfuse.indexer.store import manifest as manifest_format
from symfuse.indexer.store import rows
from symfuse.indexer.store.atomic import atomic_write, fsync_dir
from symfuse.indexer.store.manifest import FileMeta, Manifest
from symfuse.indexer.store.packs import EarlyPack, NewPack

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from filelock import FileLock

log = logging.getLogger(__name__)

FORMAT = 6  # bump with any change to the layout (here, in manifest.py or in packs.py)
MAX_PACKS = 8
SCHEMA = (FORMAT, rows.SCHEMA)
MANIFEST = "manifest.msgpack"


def default_index_dir(roots: list[Path]) -> Path:
    """The user cache directory for this set of roots."""
    joined = "\0".join(sorted(str(r.resolve()) for r in roots))
    digest = hashlib.blake2b(joined.encode(), digest_size=8).hexdigest()
    name = "-".join(r.resolve().name or "root" for r in roots)[:40]
    import platformdirs  # here: a command given its index directory never asks

    return Path(platformdirs.user_cache_dir("symfuse")) / f"{name}-{digest}"


class Store:
    """Reads and writes one index directory."""

    def __init__(self, directory: Path, share: bool = True) -> None:
        self.directory = directory
        self.share = share  # whether a load shares equal strings (see load)
        self.objects = directory / "objects"
        self._early: EarlyPack | None = None

    def write_records_early(self, index: Index) -> None:
        """Start writing the parsed records of ``index`` while the caller goes on
        (a cold build links and ranks meanwhile, off its serial tail); :meth:`save`
        takes the pack for every file whose record is still the one written."""
        self.objects.mkdir(parents=True, exist_ok=True)
        records = [
            (key, self.object_key(entry), entry.record)
            for key, entry in index.files.items()
            if entry.record is not None
        ]
        self._early = EarlyPack(self.objects, records)

    def lock(self, timeout: float = 600.0) -> FileLock:
        from filelock import FileLock  # here: a query on an unchanged index takes no lock

        self.directory.mkdir(parents=True, exist_ok=True)
        return FileLock(str(self.directory / "lock"), timeout=timeout)

    # --- reading ------------------------------------------------------------------

    def _read(self, path: Path) -> bytes:
        try:
            return path.read_bytes()
        except FileNotFoundError as exc:
            raise IndexCorrupt(f"missing {path.name}") from exc
        except OSError as exc:
            raise IndexCorrupt(f"cannot read {path}: {exc.strerror}") from exc

    def _unpack(self, path: Path) -> Any:
        data = self._read(path)
        try:
            return msgpack.unpackb(data, raw=False, strict_map_key=False)
        except (ValueError, msgpack.ExtraData, msgpack.FormatError, msgpack.StackError) as exc:
            raise IndexCorrupt(f"{path.name} is truncated or corrupt ({exc})") from exc

    def read_manifest(self) -> Manifest | None:
        """The manifest, None when there is no index yet; IndexCorrupt when unusable."""
        path = self.directory / MANIFEST
        if not path.exists():
            return None
        raw = self._unpack(path)
        if not isinstance(raw, dict) or tuple(raw.get("schema", ())) != SCHEMA:
            found = raw.get("schema") if isinstance(raw, dict) else None
            raise IndexCorrupt(f"index format {found} is not the current {list(SCHEMA)}")
        return manifest_format.decode(raw)

    def load(self, manifest: Manifest) -> Index:
        """The full index a manifest describes (the cyclic collector paused meanwhile)."""
        with collector_paused():
            return self._load(manifest)

    def _load(self, manifest: Manifest) -> Index:
        index = Index(manifest.roots)
        packs: dict[str, bytes] = {}
        # one object per distinct string the load decodes (a server's), else a copy each
        shared: dict[Any, Any] | None = {} if self.share else None
        for key, meta in manifest.files.items():
            data = packs.get(meta.pack)
            if data is None:
                data = packs[meta.pack] = self._read(self.objects / f"{meta.pack}.msgpack")
            index.files[key] = self._load_file(key, meta, data, shared)
        graph = self._unpack(self.objects / f"{manifest.graph_key}.msgpack")
        import numpy as np  # here, not at import: `symfuse index` with nothing new needs none

        try:
            stored = StoredGraph(
                _graph_ids(index, graph["ids_digest"]),
                _ints(graph["src"]),
                _ints(graph["dst"]),
                np.frombuffer(graph["kind"], dtype=np.int8),
                _ints(graph["milli"]),
                list(zip(graph["files"], graph["counts"], strict=True)),
                np.frombuffer(graph["pagerank"], dtype=np.float64),
            )
            index.restore_graph(stored)
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise IndexCorrupt(f"graph object has an unexpected shape ({exc!r})") from exc
        index.generation = manifest.generation
        index.updated_at = manifest.updated_at
        index.options = manifest.options
        index.linked = True
        index.graph_dirty = False
        return index

    def read_record(self, meta: FileMeta) -> bytes:
        """One file's stored record, read from its pack without the rest."""
        path = self.objects / f"{meta.pack}.msgpack"
        try:
            with open(path, "rb") as handle:
                handle.seek(meta.offset)
                record = handle.read(meta.length)
        except OSError as exc:
            raise IndexCorrupt(f"cannot read {path.name}: {exc.strerror}") from exc
        if len(record) != meta.length:
            raise IndexCorrupt(f"{meta.pack} is truncated")
        return record

    def save_records(
        self,
        manifest: Manifest,
        changed: dict[str, tuple[FileMeta, rows.RecordParts | None]],
        counts: dict[str, Any],
    ) -> Manifest | None:
        """A new manifest in which only these files' records changed (the graph, the
        ranks and every other record stay): their records in one new pack (None: the
        record stands, only the stamp moved). None when packs are too many for that:
        a full save repacks them."""
        packs = {m.pack for m in manifest.files.values()}
        if len(packs) >= MAX_PACKS - 1:
            return None
        self.objects.mkdir(parents=True, exist_ok=True)
        files = dict(manifest.files)
        pack = NewPack()
        for key, (meta, record) in changed.items():
            if record is not None:
                pack.add(meta, rows.record_chunks(record), record[4])
            files[key] = meta
        pack.write(self.objects)
        fsync_dir(self.objects)
        saved = Manifest(
            roots=manifest.roots,
            files=files,
            graph_key=manifest.graph_key,
            counts=counts,
            updated_at=time.time(),
            generation=manifest.generation + 1,
            options=manifest.options,
        )
        self.write_manifest(saved)
        self._drop_unused(saved)
        return saved

    def _drop_unused(self, manifest: Manifest) -> None:
        keep = {m.pack for m in manifest.files.values()} | {manifest.graph_key}
        for path in self.objects.glob("*.msgpack"):
            if path.stem not in keep:
                path.unlink(missing_ok=True)
        for path in self.objects.glob(".*.tmp"):
            path.unlink(missing_ok=True)  # left by a writer that was killed

    def _load_file(
        self, key: str, meta: FileMeta, pack: bytes, shared: dict[Any, Any] | None
    ) -> FileEntry:
        if meta.offset + meta.length > len(pack):
            raise IndexCorrupt(f"{meta.pack} is truncated (record of {key} past its end)")
        try:
            symbol_rows, refs_blob, ref_names, links_blob = rows.unpack_record(
                pack[meta.offset : meta.offset + meta.length]
            )
            symbols = rows.symbols_from_rows(symbol_rows, key, meta.root, meta.language, shared)
        except (KeyError, IndexError, TypeError, ValueError, msgpack.ExtraData) as exc:
            raise IndexCorrupt(f"record of {key} is corrupt ({exc!r})") from exc
        return FileEntry(
            path=key,
            root=meta.root,
            rel=meta.rel,
            language=meta.language,
            stamp=meta.stamp,
            symbols=symbols,
            refs_blob=refs_blob,
            ref_names=frozenset(
                ref_names if shared is None else map(shared.setdefault, ref_names, ref_names)
            ),
            links_blob=links_blob,
            problems=meta.problems,
        )

    # --- writing ------------------------------------------------------------------

    @staticmethod
    def object_key(entry: FileEntry) -> str:
        return Store.object_key_of(entry.path, entry.root, entry.stamp.digest)

    @staticmethod
    def object_key_of(key: str, root: str, digest: str) -> str:
        seed = f"{key}\0{root}\0{digest}\0{SCHEMA}"
        return hashlib.blake2b(seed.encode(), digest_size=16).hexdigest()

    def save(
        self,
        index: Index,
        counts: dict[str, Any],
        options: dict[str, Any],
        previous: Manifest | None = None,
    ) -> Manifest:
        """Write new records in one pack, then the graph, then the manifest; drop the unused."""
        self.objects.mkdir(parents=True, exist_ok=True)
        early, self._early = self._early, None
        if early is not None:
            early.finish()
        files = self._write_records(index, previous, early)
        if index.graph_dirty or previous is None or not self._numbers(index, previous):
            graph_key = self._write_graph(index)
        else:
            graph_key = previous.graph_key  # edges and ranks unchanged: keep the stored graph
        fsync_dir(self.objects)
        manifest = Manifest(
            roots=index.roots,
            files=files,
            graph_key=graph_key,
            counts=counts,
            updated_at=time.time(),
            generation=index.generation,
            options=options,
        )
        self.write_manifest(manifest)
        index.graph_dirty = False
        self._drop_unused(manifest)
        return manifest

    def _write_records(
        self, index: Index, previous: Manifest | None, early: EarlyPack | None
    ) -> dict[str, FileMeta]:
        """Every file's meta, its record placed where it is stored already (a pack of the
        previous manifest, or the one written early) or in one new pack written here."""
        known = {m.object_key: m for m in previous.files.values()} if previous else {}
        repack = len({m.pack for m in known.values()}) >= MAX_PACKS
        pack = NewPack()
        files: dict[str, FileMeta] = {}
        for key, entry in index.files.items():
            object_key = self.object_key(entry)
            meta = FileMeta(
                entry.root, entry.rel, entry.language, entry.stamp, object_key, entry.problems
            )
            old = known.get(object_key)
            record, entry.record = entry.record, None  # the entry need not hold it once stored
            placed = early.placed.get(key) if early is not None else None
            # a record parsed in this run is written even when the file's bytes are the
            # stored ones: the extractor may have changed (its version was bumped)
            if old is not None and not repack and record is None:
                meta.pack, meta.offset, meta.length = old.pack, old.offset, old.length
            elif early is not None and placed is not None and placed[0] == object_key:
                meta.pack, meta.offset, meta.length = early.pack, placed[1], placed[2]
            elif record is not None:
                pack.add(meta, rows.record_chunks(record), record[4])
            else:
                whole = _whole_record(entry)
                pack.add(meta, [whole], rows.record_digest(whole))
            files[key] = meta
        pack.write(self.objects)
        return files

    def _numbers(self, index: Index, previous: Manifest) -> bool:
        """Whether the stored graph numbers the index's symbols as they are now. Definitions
        that moved without a new name or edge leave the graph clean (not relinked) but
        its positions stale: it is then written again, else the next load would find it
        stored for other symbols and rebuild the index."""
        try:
            graph = self._unpack(self.objects / f"{previous.graph_key}.msgpack")
        except IndexCorrupt:
            return False
        return isinstance(graph, dict) and graph.get("ids_digest") == ids_digest(index)

    def _write_graph(self, index: Index) -> str:
        """Edges as arrays of positions in the index's symbol ids (bytes, not one msgpack
        item per number). The ids are the symbols' own, in order: only their digest is
        stored (a second copy would be more than half of the graph)."""
        import numpy as np

        edges = index.edges
        pagerank = np.asarray(index.pagerank, dtype=np.float64)
        data = _pack(
            {
                "ids_digest": ids_digest(index),
                "files": [key for key, _ in edges.files],
                "counts": [count for _, count in edges.files],
                "src": _small(edges.src),
                "dst": _small(edges.dst),
                "kind": edges.kind.tobytes(),
                "milli": _small(edges.milli),
                "pagerank": pagerank.tobytes(),
            }
        )
        graph_key = "graph-" + hashlib.blake2b(data, digest_size=16).hexdigest()
        path = self.objects / f"{graph_key}.msgpack"
        if not path.exists():
            atomic_write(path, data)
        return graph_key

    def write_manifest(self, manifest: Manifest) -> None:
        atomic_write(
            self.directory / MANIFEST, _pack(manifest_format.encode(manifest, list(SCHEMA)))
        )
        fsync_dir(self.directory)

    def clear(self) -> None:
        """Remove the stored index (used before a rebuild of a corrupt one)."""
        (self.directory / MANIFEST).unlink(missing_ok=True)
        if self.objects.exists():
            for path in self.objects.iterdir():
                path.unlink(missing_ok=True)


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]


def _whole_record(entry: FileEntry) -> bytes:
    """A loaded file's record as stored (one that came from a parser is kept in parts)."""
    return rows.pack_record(
        rows.symbol_rows(entry.symbols),
        entry.refs_blob,
        sorted(entry.ref_names),
        entry.links_blob,
    )


def _small(values: npt.NDArray[np.int32]) -> list[Any]:
    """Non-negative integers as ``[dtype, bytes]``: uint16 when they fit, else int32.
    Edge ends fit while the index has fewer than 65,536 symbols, and weights (thousandths,
    at most 1000) always do: half the bytes each."""
    fits = not values.shape[0] or (int(values.min()) >= 0 and int(values.max()) < 1 << 16)
    dtype = "<u2" if fits else "<i4"
    return [dtype, values.astype(dtype).tobytes()]


def _ints(stored: list[Any]) -> npt.NDArray[np.int32]:
    """What :func:`_small` wrote, as int32 (ValueError when it is not that)."""
    import numpy as np

    dtype, data = stored
    if dtype not in ("<u2", "<i4"):
        raise ValueError(f"integers stored as {dtype!r}")
    return np.frombuffer(data, dtype=dtype).astype(np.int32)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector meanwhile (a load, an update).

    Both allocate hundreds of thousands to millions of small acyclic objects (symbols,
    references, edges, rows), each allocation burst setting off full collections that walk
    the growing heap and find nothing. Memory is still freed by reference counting;
    cycles wait for the next collection. The collector is left as it was found."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _ids_digest(ids: list[str]) -> bytes:
    return hashlib.blake2b("\n".join(ids).encode(), digest_size=16).digest()


_IDS_DIGEST = "ids_digest"  # the digest of the symbol ids, among an index's derived views


def ids_digest(index: Index) -> bytes:
    """A digest of ``index``'s symbol ids in order: the one the load checked the stored
    graph with while the index is unchanged, else made now (once per change)."""
    return index.derived(_IDS_DIGEST, lambda: _ids_digest(index.symbol_ids))


def _graph_ids(index: Index, digest: bytes) -> list[str]:
    """The ids the stored graph's positions number: the loaded symbols', when they are the
    ones it was written with (else the index is rebuilt: the records and the graph of a
    manifest are written together, so this is a damaged directory)."""
    ids = index.symbol_ids
    if ids_digest(index) != digest:
        raise IndexCorrupt("the graph was stored for other symbols")
    return ids
