"""A repository's whole tree as of a commit, indexed: what ``search`` and ``symbols`` read
with ``at_commit``.

The commit's tree comes out of the git object store (``git archive``: nothing is
checked out in the repository) into the index directory, under
``at/<alias>/<commit>/<alias>`` so that the snapshot's root carries the
repository's alias, and is indexed there like any workspace, with its own index
beside it. A commit is immutable, so a snapshot made once is kept (the newest
:data:`KEEP` per repository on disk) and the last few stay loaded.
"""

from __future__ import annotations

import io
import shutil
import subprocess
import tarfile
import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import InvalidRequest, SymfuseError
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.history.at_commit import resolve_commit
from symfuse.ranking.search.repositories import selected

KEEP = 8  # snapshots kept on disk per repository
LOADED = 2  # snapshots kept in memory
ARCHIVE_TIMEOUT = 600.0  # seconds git archive may take


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The index of one repository's tree as of ``commit``, and where it lives."""

    alias: str
    commit: str
    index: Index
    directory: Path  # its index directory (ranking structures go there too)


_loaded: OrderedDict[tuple[str, str], Snapshot] = OrderedDict()
_lock = threading.Lock()


def repository_for(index: Index, include: tuple[str, ...], exclude: tuple[str, ...]) -> str:
    """The one repository an ``at_commit`` request is about: the only root, or the one the
    repository filters select."""
    chosen = [a for a in index.roots if selected(a, include, exclude)]
    if len(index.roots) == 1 and chosen:
        return chosen[0]
    if len(chosen) != 1:
        raise InvalidRequest(
            "at_commit",
            "applies to one repository: name it with `repository` "
            f"(repositories: {', '.join(index.roots)})",
        )
    return chosen[0]


def snapshot(index: Index, alias: str, ref: str, cache: Path) -> Snapshot:
    """The tree of repository ``alias`` as of ``ref`` (a hash, a tag, ``HEAD~5``), indexed."""
    root = Path(index.roots[alias])
    commit = resolve_commit(root, ref)
    key = (alias, commit)
    with _lock:
        found = _loaded.get(key)
        if found is not None:
            _loaded.move_to_end(key)
            return found
        home = cache / "at" / alias / commit
        tree = home / alias
        if not (home / "complete").exists():
            _extract(root, commit, tree)
            (home / "complete").write_text(commit)
            _forget_old(cache / "at" / alias)
        config = IndexConfig(roots=(tree,), index_dir=home / "index", progress=False)
        built, _report = update_index(config)
        made = Snapshot(alias, commit, built, config.store.directory)
        _loaded[key] = made
        while len(_loaded) > LOADED:
            _loaded.popitem(last=False)
        return made


def _extract(root: Path, commit: str, tree: Path) -> None:
    """The commit's files into ``tree`` (anything left by an interrupted run is replaced)."""
    if tree.exists():
        shutil.rmtree(tree)
    tree.mkdir(parents=True)
    try:
        archive = subprocess.run(
            ["git", "-C", str(root), "archive", "--format=tar", commit],
            capture_output=True,
            check=True,
            timeout=ARCHIVE_TIMEOUT,
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise SymfuseError(f"at_commit: git archive {commit[:12]} in {root} failed: {exc}") from exc
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(tree, filter="data")


def _forget_old(folder: Path) -> None:
    """Keep the newest :data:`KEEP` snapshots of a repository on disk."""
    made = sorted(
        (p for p in folder.iterdir() if (p / "complete").exists()),
        key=lambda p: (p / "complete").stat().st_mtime,
    )
    for old in made[:-KEEP]:
        shutil.rmtree(old, ignore_errors=True)
