"""A shard's manifest: which repository, at which revision, in which format, how big.

Stored as ``DIR/<alias>/shard.json`` beside the shard's index (``DIR/<alias>/index``),
written atomically after the index, so a manifest names a complete index. The
revision is the repository's git HEAD when it is a git work tree; ``files`` is a
digest of every file's path, size and mtime (uncommitted edits change it too), so
a rebuild is skipped only when both are unchanged and the formats are the same.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from symfuse.indexer.errors import IndexCorrupt
from symfuse.indexer.files.discover import DEFAULT_MAX_FILE_SIZE, DiscoveryConfig
from symfuse.indexer.store.atomic import atomic_write
from symfuse.indexer.store.objects import FORMAT
from symfuse.indexer.versions import EXTRACTOR_VERSION, LINKER_VERSION

MANIFEST = "shard.json"
INDEX = "index"
STATS = "stats.msgpack"  # a shard's corpus statistics, beside its manifest
GLOBAL_STATS = "global-stats.msgpack"  # every shard's summed, in the shard directory
PARTS = "training.npz"  # a shard's share of the models' training data, beside its manifest
GLOBAL_MODELS = "global-models.npz"  # the models learned over every shard's parts
SKIPPED_DIRS = frozenset({".git", ".hg", ".svn", "__pycache__", "node_modules", ".venv"})


def formats() -> dict[str, int]:
    """The versions a shard's index was written with: another value means a rebuild."""
    return {"format": FORMAT, "extractor": EXTRACTOR_VERSION, "linker": LINKER_VERSION}


@dataclass(frozen=True, slots=True)
class Source:
    """What a repository is now: its git revision (None outside git) and files digest."""

    revision: str | None
    files: str
    size: int  # bytes of source, to schedule the large repositories first


@dataclass(frozen=True, slots=True)
class ShardManifest:
    """One shard, as ``shard.json`` records it."""

    alias: str
    root: str
    revision: str | None
    files_digest: str
    formats: dict[str, int]
    counts: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    selection: dict[str, Any] = field(default_factory=dict)  # what was indexed (selected)

    def up_to_date(self, root: str, source: Source, chosen: DiscoveryConfig) -> bool:
        """Whether this shard already is ``root`` at ``source`` in today's formats, with
        the files ``chosen`` selects."""
        return (
            self.root == root
            and self.revision == source.revision
            and self.files_digest == source.files
            and self.formats == formats()
            and self.selection == selected(chosen)
        )

    @property
    def discovery(self) -> DiscoveryConfig:
        """The file selection this shard was built with."""
        given = self.selection
        languages = given.get("languages")
        return DiscoveryConfig(
            include=tuple(given.get("include", ())),
            exclude=tuple(given.get("exclude", ())),
            max_file_size=int(given.get("max_file_size", DEFAULT_MAX_FILE_SIZE)),
            languages=None if languages is None else frozenset(languages),
        )


def selected(chosen: DiscoveryConfig) -> dict[str, Any]:
    """``--include/--exclude/--languages/--max-file-size`` as a manifest records them."""
    languages = None if chosen.languages is None else sorted(chosen.languages)
    return {
        "include": list(chosen.include),
        "exclude": list(chosen.exclude),
        "languages": languages,
        "max_file_size": chosen.max_file_size,
    }


def shard_dir(out: Path, alias: str) -> Path:
    return out / alias


def write_manifest(directory: Path, manifest: ShardManifest) -> None:
    text = json.dumps(asdict(manifest), indent=2, sort_keys=True)
    atomic_write(directory / MANIFEST, text.encode())


def read_manifest(directory: Path) -> ShardManifest:
    """The manifest in ``directory``; FileNotFoundError when there is none, IndexCorrupt
    when it cannot be read as one."""
    raw = (directory / MANIFEST).read_bytes()
    try:
        data = json.loads(raw)
        return ShardManifest(
            alias=str(data["alias"]),
            root=str(data["root"]),
            revision=data["revision"],
            files_digest=str(data["files_digest"]),
            formats={str(k): int(v) for k, v in data["formats"].items()},
            counts=dict(data.get("counts") or {}),
            seconds=float(data.get("seconds") or 0.0),
            selection=dict(data.get("selection") or selected(DiscoveryConfig())),
        )
    except (ValueError, KeyError, TypeError, AttributeError) as exc:
        raise IndexCorrupt(f"shard manifest {directory / MANIFEST} is unreadable: {exc}") from exc


def shard_dirs(out: Path) -> list[Path]:
    """The shard folders under ``out`` (those with a manifest), by alias."""
    if not out.is_dir():
        return []
    return sorted(p for p in out.iterdir() if (p / MANIFEST).is_file())


def source_of(root: Path) -> Source:
    """The repository's revision and a digest of its files' paths, sizes and mtimes."""
    digest = hashlib.blake2b(digest_size=16)
    size = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            path = os.path.join(folder, name)
            try:
                st = os.stat(path)
            except OSError:
                continue
            size += st.st_size
            rel = os.path.relpath(path, root)
            digest.update(f"{rel}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return Source(_git_head(root), digest.hexdigest(), size)


def _git_head(root: Path) -> str | None:
    if not (root / ".git").exists():
        return None
    try:
        done = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            check=False,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout.strip() or None if done.returncode == 0 else None
