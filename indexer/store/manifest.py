"""The manifest of a stored index: roots, per-file stamps and record places, counts.

Stored as one msgpack map; each file is a fixed-order list (see :func:`encode`).
Any change to these shapes needs a bump of :data:`symfuse.indexer.store.objects.FORMAT`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from symfuse.indexer.errors import IndexCorrupt
from symfuse.indexer.model import FileStamp


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


def decode(raw: dict[str, Any]) -> Manifest:
    """The manifest a stored map describes; IndexCorrupt when it has another shape."""
    try:
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


def encode(manifest: Manifest, schema: list[Any]) -> dict[str, Any]:
    """The map stored for ``manifest`` (what :func:`decode` reads back)."""
    return {
        "schema": schema,
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
