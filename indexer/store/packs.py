"""Packs: the files that hold stored file records back to back, named by their content.

A pack is written once and never changed; a manifest places each file's record in
one by offset and length (:class:`~symfuse.indexer.store.manifest.FileMeta`).
"""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path

from symfuse.indexer.store import rows
from symfuse.indexer.store.atomic import atomic_write
from symfuse.indexer.store.manifest import FileMeta


def write_pack(objects: Path, chunks: list[bytes], digests: list[bytes]) -> str:
    """Write records (as chunks) to a pack named by their digests (rows.record_parts);
    its name. Hashing the digests, not the records' many megabytes, keeps a writer
    thread from taking the interpreter lock thousands of times."""
    pack = "pack-" + hashlib.blake2b(b"".join(digests), digest_size=16).hexdigest()
    path = objects / f"{pack}.msgpack"
    if not path.exists():
        atomic_write(path, chunks)
    return pack


class NewPack:
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
            name = write_pack(objects, self.chunks, self.digests)
            for meta in self.metas:
                meta.pack = name


class EarlyPack:
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
            self.pack = write_pack(objects, chunks, digests)
        except BaseException as exc:  # handed to the thread that saves
            self._error = exc

    def finish(self) -> None:
        self._thread.join()
        if self._error is not None:
            raise self._error
