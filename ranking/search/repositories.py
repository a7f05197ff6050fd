"""Repositories: every root of a workspace is one, named by its alias.

A file's repository is the alias its key starts with (``svc-a/pkg/mod.py``), or
the only root's alias when there is one root (keys then carry no alias). The
search filters ``repository`` / ``exclude_repository`` take names or wildcards;
``aggregation_mode: per_repo`` spreads the limit evenly over the repositories
that have hits (10 over 3 gives 4+3+3, a repository with fewer hits leaving its
share to the others); ``response_format: grouped`` groups the hits by
repository. A root that cannot be read is reported in ``errors`` while the
others answer.
"""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt

T = TypeVar("T")


def repository_of(roots: Mapping[str, str], file_key: str) -> str:
    """The alias of the root ``file_key`` belongs to."""
    if len(roots) == 1:
        return next(iter(roots))
    return file_key.split("/", 1)[0]


def selected(alias: str, include: Sequence[str], exclude: Sequence[str]) -> bool:
    """Whether a repository passes ``include`` (any of them; all when empty) and no
    ``exclude`` pattern (names or shell wildcards, case-sensitive as aliases are)."""
    if include and not any(fnmatch.fnmatchcase(alias, p) for p in include):
        return False
    return not any(fnmatch.fnmatchcase(alias, p) for p in exclude)


def repository_mask(
    roots: Mapping[str, str],
    files: Sequence[str],
    file_of_symbol: npt.NDArray[np.int32],
    include: Sequence[str],
    exclude: Sequence[str],
) -> npt.NDArray[np.bool_] | None:
    """Symbols whose file is in a selected repository; None when nothing is filtered."""
    if not include and not exclude:
        return None
    chosen = {a for a in roots if selected(a, include, exclude)}
    per_file = np.fromiter(
        (repository_of(roots, f) in chosen for f in files), dtype=np.bool_, count=len(files)
    )
    return per_file[file_of_symbol] if file_of_symbol.shape[0] else np.zeros(0, dtype=np.bool_)


def spread(items: Sequence[T], limit: int, repository: Callable[[T], str]) -> list[T]:
    """At most ``limit`` of ``items`` (best first), shared evenly by repository: each
    gets ``limit // n`` and the first ``limit % n`` (in order of their best hit) one
    more; a share a repository cannot fill goes to the others. Best first overall."""
    by_repo: dict[str, list[int]] = {}
    for at, item in enumerate(items):
        by_repo.setdefault(repository(item), []).append(at)
    shares = _shares({r: len(v) for r, v in by_repo.items()}, limit)
    kept = sorted(at for r, positions in by_repo.items() for at in positions[: shares[r]])
    return [items[at] for at in kept]


def _shares(available: dict[str, int], limit: int) -> dict[str, int]:
    shares = dict.fromkeys(available, 0)
    left = limit
    open_repos = [r for r in available if available[r] > 0]
    while left > 0 and open_repos:
        each, extra = divmod(left, len(open_repos))
        for i, repo in enumerate(open_repos):
            want = each + (1 if i < extra else 0)
            take = min(want, available[repo] - shares[repo])
            shares[repo] += take
            left -= take
        open_repos = [r for r in open_repos if shares[r] < available[r]]
    return shares


def grouped(rows: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``{alias: {count, items}}`` of rows that carry ``repository`` (kept in order)."""
    groups: dict[str, dict[str, Any]] = {}
    for row in rows:
        group = groups.setdefault(str(row.get("repository")), {"count": 0, "items": []})
        group["count"] += 1
        group["items"].append({k: v for k, v in row.items() if k != "repository"})
    return groups


@dataclass(frozen=True, slots=True)
class RepositoryError:
    """A root that could not answer, and why."""

    repository: str
    path: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"repository": self.repository, "path": self.path, "reason": self.reason}


def unreadable(roots: Mapping[str, str]) -> list[RepositoryError]:
    """The roots that are gone or cannot be read now (their hits are left out)."""
    errors: list[RepositoryError] = []
    for alias, path in roots.items():
        if not os.path.isdir(path):
            errors.append(RepositoryError(alias, path, "the root directory is gone"))
        elif not os.access(path, os.R_OK | os.X_OK):
            errors.append(RepositoryError(alias, path, "the root directory cannot be read"))
    return errors


@dataclass(frozen=True, slots=True)
class Repository:
    """One root of the index, as ``list_repositories`` shows it."""

    alias: str
    path: str
    languages: dict[str, int]  # language -> files
    files: int
    symbols: int
    readable: bool
    history: bool = False  # its git history is indexed (symfuse index --history)

    def to_dict(self) -> dict[str, Any]:
        return {
            "repository": self.alias,
            "path": self.path,
            "languages": self.languages,
            "files": self.files,
            "symbols": self.symbols,
            "readable": self.readable,
            "history": self.history,
        }


def listing(
    roots: Mapping[str, str],
    files: Iterable[tuple[str, str, int]],
    include: Sequence[str] = (),
) -> list[Repository]:
    """Every selected root with its counts; ``files``: (root alias, language, symbols) of
    each indexed file."""
    languages: dict[str, dict[str, int]] = {alias: {} for alias in roots}
    symbols = dict.fromkeys(roots, 0)
    for alias, language, count in files:
        if alias in languages:
            languages[alias][language] = languages[alias].get(language, 0) + 1
            symbols[alias] += count
    gone = {e.repository for e in unreadable(roots)}
    return [
        Repository(
            alias,
            path,
            dict(sorted(languages[alias].items(), key=lambda kv: -kv[1])),
            sum(languages[alias].values()),
            symbols[alias],
            alias not in gone,
        )
        for alias, path in roots.items()
        if selected(alias, include, ())
    ]
