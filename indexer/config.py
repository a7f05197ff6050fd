"""What an update is asked to do and what it reports, and what stored indexes are keyed on.

``IndexConfig`` says where a workspace is, where its index lives and which files
count; ``IndexConfig.options()`` is what, when changed, makes stored extractions
unusable or the file set different. ``UpdateReport`` is what one update did.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from symfuse.indexer.files import languages
from symfuse.indexer.files.discover import DEFAULT_MAX_FILE_SIZE, DiscoveryConfig
from symfuse.indexer.files.layouts import python_layouts
from symfuse.indexer.model import FileProblem, Skipped
from symfuse.indexer.store import rows
from symfuse.indexer.store.objects import Store, default_index_dir
from symfuse.indexer.versions import EXTRACTOR_VERSION, LINKER_VERSION


@dataclass(frozen=True, slots=True)
class IndexConfig:
    """Where the workspace is, where its index lives, and what to index."""

    roots: tuple[Path, ...]
    index_dir: Path | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    languages: frozenset[str] | None = None
    jobs: int | None = None
    progress: bool = True
    names: tuple[str | None, ...] = ()  # the roots' aliases where given (None: the folder's)
    # Kept in memory by a server: a load shares equal strings (less memory, a slower
    # load); a one-shot command, which exits after one answer, skips that, and so does a
    # server's first load, which its first answer waits on (LiveIndex._initial).
    resident: bool = True

    @property
    def aliases(self) -> dict[str, str]:
        """alias -> absolute root path (:func:`root_aliases`)."""
        return root_aliases(self.roots, self.names)

    @property
    def store(self) -> Store:
        return Store(self.index_dir or default_index_dir(list(self.roots)), share=self.resident)

    def discovery(self) -> DiscoveryConfig:
        return DiscoveryConfig(
            include=self.include,
            exclude=self.exclude,
            max_file_size=self.max_file_size,
            languages=self.languages,
        )

    def options(self) -> dict[str, Any]:
        """What, when changed, makes stored extractions unusable or the file set different."""
        return {
            "extractor": extractor_fingerprint(),
            "linker": linker_fingerprint(),
            "include": list(self.include),
            "exclude": list(self.exclude),
            "max_file_size": self.max_file_size,
            "languages": sorted(self.languages) if self.languages is not None else None,
            # where each root's Python modules start: a changed layout renames them all
            "python_layouts": {
                alias: layout.describe()
                for alias, layout in python_layouts(self.aliases).items()
                if layout.folders
            },
        }


@dataclass(slots=True)
class UpdateReport:
    """What one update did; ``counts`` are the index totals after it."""

    files: int = 0
    parsed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    problems: list[FileProblem] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    rebuilt_because: str | None = None
    records_only: bool = False  # the change moved no definition or link: graph untouched


def same_file_set(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether two option sets select the same files (the extractor may differ)."""
    return all(old.get(k) == new.get(k) for k in new if k not in ("extractor", "linker"))


def linker_fingerprint() -> str:
    """Changes with :data:`~symfuse.indexer.versions.LINKER_VERSION`; stored edges are
    then relinked. (Indexes from before the versions hashed graph.py's source: any
    such value differs from this one, so they are relinked too.)"""
    return f"linker-v{LINKER_VERSION}"


def extractor_fingerprint() -> dict[str, str]:
    """Per language, a digest of the extractor's version, the row schema and the
    language's query text: files of a language whose digest changed are re-parsed,
    the others are kept."""
    engine = hashlib.blake2b(digest_size=8)
    engine.update(f"extractor-v{EXTRACTOR_VERSION}\0rows-v{rows.SCHEMA}\0".encode())
    prints: dict[str, str] = {}
    for name in sorted(languages.supported()):
        digest = engine.copy()
        digest.update(languages.query_source(name).encode())
        prints[name] = digest.hexdigest()
    return prints


def root_aliases(roots: Iterable[Path], names: Sequence[str | None] = ()) -> dict[str, str]:
    """alias -> absolute path; an alias is the name given for the root (``names``, in
    order) or else its directory's name, made unique with a suffix."""
    aliases: dict[str, str] = {}
    for at, root in enumerate(roots):
        real = str(Path(root).resolve())
        given = names[at] if at < len(names) else None
        base = given or Path(real).name or "root"
        alias, n = base, 1
        while alias in aliases and aliases[alias] != real:
            n += 1
            alias = f"{base}~{n}"
        aliases[alias] = real
    return aliases


def file_key(alias: str, rel: str, aliases: Mapping[str, str]) -> str:
    """A file's index key: its path under its root, behind the root's alias when there
    are several roots (as :meth:`Index.key`)."""
    return f"{alias}/{rel}" if len(aliases) > 1 else rel


_ALIAS = re.compile(r"^([A-Za-z0-9_][A-Za-z0-9_.-]*)=(.+)$")


def split_alias(root: str) -> tuple[str | None, str]:
    """``alias=PATH`` -> (alias, PATH); a plain path (even one with a ``=`` in it, when it
    exists) -> (None, path)."""
    found = _ALIAS.match(root)
    if found is None or Path(root).exists():
        return None, root
    return found.group(1), found.group(2)
