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

import hashlib
import logging
import os
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

import msgpack
import platformdirs
from filelock import FileLock

from symfuse.indexer import rows
from symfuse.indexer.errors import IndexCorrupt
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import FileStamp

log = logging.getLogger(__name__)

FORMAT = 5  # bump with any change to the layout below
MAX_PACKS = 8
WRITE_BUFFER = 4 << 20
SCHEMA = (FORMAT, rows.SCHEMA)
MANIFEST = "manifest.msgpack"


def default_index_dir(roots: list[Path]) -> Path:
    """The user cache directory for this set of roots."""
    joined = "\0".join(sorted(str(r.resolve()) for r in roots))
    digest = hashlib.blake2b(joined.encode(), digest_size=8).hexdigest()
    name = "-".join(r.resolve().name or "root" for r in roots)[:40]
    return Path(platformdirs.user_cache_dir("symfuse")) / f"{name}-{digest}"


def atomic_write(path: Path, data: bytes | list[bytes] | Callable[[BinaryIO], object]) -> None:
    """Write ``data`` (these chunks, in order; or what this function writes to the file
    it is given) to ``path`` so that readers never see a partial file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        # a large buffer: many small chunks, few system calls (each lets other threads in)
        with os.fdopen(fd, "wb", buffering=WRITE_BUFFER) as f:
            if callable(data):
                data(f)
            else:
                f.writelines([data] if isinstance(data, bytes) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass(slots=True)
class FileMeta:
    root: str
    rel: str
    language: str
    stamp: FileStamp
    object_key: str
    problems: list[str]
    pack: str = ""
    offset: int = 0
    length: int = 0


@dataclass(slots=True)
class Manifest:
    roots: dict[str, str]
    files: dict[str, FileMeta]
    graph_key: str
    counts: dict[str, Any]
    updated_at: float
    generation: int
    options: dict[str, Any] = field(default_factory=dict)


def _write_pack(objects: Path, chunks: list[bytes], digests: list[bytes]) -> str:
    """Write records (as chunks) to a pack named by their digests (rows.record_parts);
    its name. Hashing the digests, not the 28 MB of Django's records, keeps a writer
    thread from taking the interpreter lock thousands of times."""
    pack = "pack-" + hashlib.blake2b(b"".join(digests), digest_size=16).hexdigest()
    path = objects / f"{pack}.msgpack"
    if not path.exists():
        atomic_write(path, chunks)
    return pack


class _NewPack:
    """Records placed one after another in a pack to be written; their metas get their
    offsets as they are added and the pack's name once it is written."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.digests: list[bytes] = []
        self.metas: list[FileMeta] = []
        self.size = 0

    def add(self, meta: FileMeta, pieces: list[bytes], digest: bytes) -> None:
        meta.offset, meta.length = self.size, sum(len(piece) for piece in pieces)
        self.size += meta.length
        self.chunks.extend(pieces)
        self.digests.append(digest)
        self.metas.append(meta)

    def write(self, objects: Path) -> None:
        if self.chunks:
            name = _write_pack(objects, self.chunks, self.digests)
            for meta in self.metas:
                meta.pack = name


class _EarlyPack:
    """Records of a cold build written to a pack in a thread while the graph is linked."""

    def __init__(self, objects: Path, records: list[tuple[str, str, rows.RecordParts]]) -> None:
        self.placed: dict[str, tuple[str, int, int]] = {}  # key -> (object key, offset, length)
        chunks: list[bytes] = []
        digests: list[bytes] = []
        offset = 0
        for key, object_key, parts in records:
            pieces = rows.record_chunks(parts)
            length = sum(len(piece) for piece in pieces)
            self.placed[key] = (object_key, offset, length)
            chunks.extend(pieces)
            digests.append(parts[4])
            offset += length
        self.pack = ""
        self._error: BaseException | None = None
        self._thread = threading.Thread(
            target=self._write,
            args=(objects, chunks, digests),
            name="symfuse-pack-writer",
            daemon=True,
        )
        self._thread.start()

    def _write(self, objects: Path, chunks: list[bytes], digests: list[bytes]) -> None:
        try:
            self.pack = _write_pack(objects, chunks, digests)
        except BaseException as exc:  # handed to the thread that saves
            self._error = exc

    def finish(self) -> None:
        self._thread.join()
        if self._error is not None:
            raise self._error


class Store:
    """Reads and writes one index directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.objects = directory / "objects"
        self._early: _EarlyPack | None = None

    def write_records_early(self, index: Index) -> None:
        """Start writing the parsed records of ``index`` while the caller goes on
        (a cold build links and ranks meanwhile, 0.1 s of Django's); :meth:`save`
        takes the pack for every file whose record is still the one written."""
        self.objects.mkdir(parents=True, exist_ok=True)
        records = [
            (key, self.object_key(entry), entry.record)
            for key, entry in index.files.items()
            if entry.record is not None
        ]
        self._early = _EarlyPack(self.objects, records)

    def lock(self, timeout: float = 600.0) -> FileLock:
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
        try:
            if not isinstance(raw, dict) or tuple(raw.get("schema", ())) != SCHEMA:
                found = raw.get("schema") if isinstance(raw, dict) else None
                raise IndexCorrupt(f"index format {found} is not the current {list(SCHEMA)}")
            files = {
                key: FileMeta(
                    root=m[0],
                    rel=m[1],
                    language=m[2],
                    stamp=FileStamp(m[3], m[4], m[5]),
                    object_key=m[6],
                    problems=list(m[7]),
                    pack=m[8],
                    offset=m[9],
                    length=m[10],
                )
                for key, m in raw["files"].items()
            }
            return Manifest(
                roots=dict(raw["roots"]),
                files=files,
                graph_key=raw["graph"],
                counts=dict(raw["counts"]),
                updated_at=float(raw["updated_at"]),
                generation=int(raw["generation"]),
                options=dict(raw.get("options", {})),
            )
        except (KeyError, IndexError, TypeError, ValueError) as exc:
            raise IndexCorrupt(f"manifest has an unexpected shape ({exc!r})") from exc

    def load(self, manifest: Manifest) -> Index:
        """The full index a manifest describes."""
        index = Index(manifest.roots)
        packs: dict[str, bytes] = {}
        for key, meta in manifest.files.items():
            data = packs.get(meta.pack)
            if data is None:
                data = packs[meta.pack] = self._read(self.objects / f"{meta.pack}.msgpack")
            index.files[key] = self._load_file(key, meta, data)
        graph = self._unpack(self.objects / f"{manifest.graph_key}.msgpack")
        import numpy as np  # here, not at import: `symfuse index` with nothing new needs none

        try:
            index.restore_graph(
                graph["ids"],
                np.frombuffer(graph["src"], dtype=np.int32),
                np.frombuffer(graph["dst"], dtype=np.int32),
                np.frombuffer(graph["kind"], dtype=np.int8),
                np.frombuffer(graph["milli"], dtype=np.int32),
                list(zip(graph["files"], graph["counts"], strict=True)),
                np.frombuffer(graph["pagerank"], dtype=np.float64),
            )
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
        pack = _NewPack()
        for key, (meta, record) in changed.items():
            if record is not None:
                pack.add(meta, rows.record_chunks(record), record[4])
            files[key] = meta
        pack.write(self.objects)
        _fsync_dir(self.objects)
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

    def _load_file(self, key: str, meta: FileMeta, pack: bytes) -> FileEntry:
        if meta.offset + meta.length > len(pack):
            raise IndexCorrupt(f"{meta.pack} is truncated (record of {key} past its end)")
        try:
            symbol_rows, refs_blob, ref_names, links_blob = rows.unpack_record(
                pack[meta.offset : meta.offset + meta.length]
            )
            symbols = [rows.symbol_from_row(r, key, meta.root, meta.language) for r in symbol_rows]
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
            ref_names=frozenset(ref_names),
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
        known = {m.object_key: m for m in previous.files.values()} if previous else {}
        live_packs = {m.pack for m in known.values()}
        repack = len(live_packs) >= MAX_PACKS
        pack = _NewPack()
        files: dict[str, FileMeta] = {}
        for key, entry in index.files.items():
            object_key = self.object_key(entry)
            meta = FileMeta(
                entry.root, entry.rel, entry.language, entry.stamp, object_key, entry.problems
            )
            old = known.get(object_key)
            record, entry.record = entry.record, None  # the entry need not hold it once stored
            placed = early.placed.get(key) if early is not None else None
            if old is not None and not repack:
                meta.pack, meta.offset, meta.length = old.pack, old.offset, old.length
            elif early is not None and placed is not None and placed[0] == object_key:
                meta.pack, meta.offset, meta.length = early.pack, placed[1], placed[2]
            elif record is not None:
                pack.add(meta, rows.record_chunks(record), record[4])
            else:
                whole = rows.pack_record(
                    [rows.symbol_row(s) for s in entry.symbols],
                    entry.refs_blob,
                    sorted(entry.ref_names),
                    entry.links_blob,
                )
                pack.add(meta, [whole], rows.record_digest(whole))
            files[key] = meta
        pack.write(self.objects)
        if index.graph_dirty or previous is None:
            graph_key = self._write_graph(index)
        else:
            graph_key = previous.graph_key  # edges and ranks unchanged: keep the stored graph
        _fsync_dir(self.objects)
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

    def _write_graph(self, index: Index) -> str:
        """Edges as arrays of positions in ``ids`` (bytes, not one msgpack item per number)."""
        import numpy as np

        ids = index.symbol_ids
        edges = index.edges
        pagerank = np.asarray(index.pagerank, dtype=np.float64)
        data = _pack(
            {
                "ids": ids,
                "files": [key for key, _ in edges.files],
                "counts": [count for _, count in edges.files],
                "src": edges.src.tobytes(),
                "dst": edges.dst.tobytes(),
                "kind": edges.kind.tobytes(),
                "milli": edges.milli.tobytes(),
                "pagerank": pagerank.tobytes(),
            }
        )
        graph_key = "graph-" + hashlib.blake2b(data, digest_size=16).hexdigest()
        path = self.objects / f"{graph_key}.msgpack"
        if not path.exists():
            atomic_write(path, data)
        return graph_key

    def write_manifest(self, manifest: Manifest) -> None:
        raw = {
            "schema": list(SCHEMA),
            "roots": manifest.roots,
            "files": {
                key: [
                    m.root,
                    m.rel,
                    m.language,
                    m.stamp.size,
                    m.stamp.mtime_ns,
                    m.stamp.digest,
                    m.object_key,
                    m.problems,
                    m.pack,
                    m.offset,
                    m.length,
                ]
                for key, m in manifest.files.items()
            },
            "graph": manifest.graph_key,
            "counts": manifest.counts,
            "updated_at": manifest.updated_at,
            "generation": manifest.generation,
            "options": manifest.options,
        }
        atomic_write(self.directory / MANIFEST, _pack(raw))
        _fsync_dir(self.directory)

    def clear(self) -> None:
        """Remove the stored index (used before a rebuild of a corrupt one)."""
        (self.directory / MANIFEST).unlink(missing_ok=True)
        if self.objects.exists():
            for path in self.objects.iterdir():
                path.unlink(missing_ok=True)


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # type: ignore[no-any-return]
