"""Which files of a workspace get indexed.

Walks a root honouring nested ``.gitignore`` files (pathspec's git semantics,
negation included), skips VCS, vendored and build folders, files over the size
limit and files we have no language for, follows symlinks only while they stay
inside the root, and survives loops, permission errors and files that vanish.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from symfuse.indexer import languages

if TYPE_CHECKING:  # imported once a tree has a .gitignore or globs are given (15 ms)
    import pathspec

log = logging.getLogger(__name__)

DEFAULT_MAX_FILE_SIZE = 1_000_000
SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        "node_modules",
        "bower_components",
        "__pycache__",
        ".venv",
        "venv",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".eggs",
        "site-packages",
        ".idea",
        ".gradle",
        ".next",
        ".nuxt",
        ".cache",
        "build",
        "dist",
        "target",
        "vendor",
        "third_party",
        "coverage",
    }
)


@dataclass(frozen=True, slots=True)
class DiscoveryConfig:
    """What to index. Globs use gitignore syntax, relative to the root."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    languages: frozenset[str] | None = None
    skip_dirs: frozenset[str] = SKIPPED_DIRS


@dataclass(frozen=True, slots=True)
class Candidate:
    """A file to index: ``path`` is relative to its root, POSIX style."""

    path: str
    abs_path: str
    language: str
    size: int
    mtime_ns: int


@dataclass(slots=True)
class Discovery:
    candidates: list[Candidate] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)


class _Ignores:
    """The stack of .gitignore specs that apply to the directory being walked."""

    def __init__(self) -> None:
        self._specs: list[tuple[str, pathspec.GitIgnoreSpec]] = []

    def push(self, rel_dir: str, abs_dir: str) -> bool:
        spec = _read_gitignore(abs_dir)
        if spec is not None:
            self.add(rel_dir, spec)
        return spec is not None

    def add(self, rel_dir: str, spec: pathspec.GitIgnoreSpec) -> None:
        self._specs.append((rel_dir, spec))

    def pop(self) -> None:
        self._specs.pop()

    def ignored(self, rel_path: str, is_dir: bool) -> bool:
        verdict = False
        for base, spec in self._specs:
            if base and not rel_path.startswith(base + "/"):
                continue
            local = rel_path[len(base) + 1 :] if base else rel_path
            result = spec.check_file(local + "/" if is_dir else local)
            if result.include is not None:
                verdict = bool(result.include)
        return verdict


def _matcher(globs: tuple[str, ...]) -> pathspec.GitIgnoreSpec | None:
    if not globs:
        return None
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(globs)


def discover(root: Path, config: DiscoveryConfig) -> Discovery:
    """Every indexable file under ``root``, plus the reasons others were skipped."""
    result = Discovery()
    result.candidates.extend(discover_iter(root, config, result))
    result.candidates.sort(key=lambda c: c.path)
    return result


def discover_iter(root: Path, config: DiscoveryConfig, result: Discovery) -> Iterator[Candidate]:
    """The indexable files under ``root`` as the walk finds them (folder by folder, names
    sorted); the reasons others were skipped go to ``result.skipped``."""
    real_root = os.path.realpath(root)
    admit = _Admission(config, result)
    visited: set[str] = set()
    for rel_path, language, entry_stat, abs_path in _walk(
        real_root, "", _Ignores(), visited, config, result
    ):
        found = admit(rel_path, abs_path, language, entry_stat)
        if found is not None:
            yield found


def discover_paths(root: Path, rel_paths: Iterable[str], config: DiscoveryConfig) -> Discovery:
    """Which of these files (relative to ``root``) :func:`discover` would yield, without a walk.

    Each file's folders are checked from the root down as the walk would (skipped
    and ignored folders, every ``.gitignore`` on the way, links leading outside);
    a file that does not exist is simply not a candidate.
    """
    result = Discovery()
    real_root = os.path.realpath(root)
    admit = _Admission(config, result)
    specs: dict[str, pathspec.GitIgnoreSpec | None] = {}
    for rel_path in sorted(set(rel_paths)):
        parts = rel_path.split("/")
        if not rel_path or any(p in ("", ".", "..") for p in parts):
            continue
        if not rel_path.isascii() and _undecodable(rel_path):
            result.skipped.append((rel_path, _UNDECODABLE))
            continue
        if not _visible(real_root, parts, config, specs):
            continue
        spec = languages.detect(parts[-1])
        if spec is None or (config.languages is not None and spec.name not in config.languages):
            continue
        abs_path = os.path.join(real_root, rel_path)
        try:
            target = os.path.realpath(abs_path)
            entry_stat = os.stat(abs_path)
        except OSError:
            continue
        if not target.startswith(real_root + os.sep) or not stat.S_ISREG(entry_stat.st_mode):
            continue
        found = admit(rel_path, abs_path, spec.name, entry_stat)
        if found is not None:
            result.candidates.append(found)
    return result


class _Admission:
    """The checks a found file passes last: include/exclude globs and the size limit."""

    def __init__(self, config: DiscoveryConfig, result: Discovery) -> None:
        self.include = _matcher(config.include)
        self.exclude = _matcher(config.exclude)
        self.max_size = config.max_file_size
        self.result = result

    def __call__(
        self, rel_path: str, abs_path: str, language: str, entry_stat: os.stat_result
    ) -> Candidate | None:
        if self.exclude is not None and self.exclude.match_file(rel_path):
            return None
        if self.include is not None and not self.include.match_file(rel_path):
            return None
        if entry_stat.st_size > self.max_size:
            reason = f"larger than {self.max_size} bytes ({entry_stat.st_size})"
            log.info("skipping %s: %s", rel_path, reason)
            self.result.skipped.append((rel_path, reason))
            return None
        return Candidate(rel_path, abs_path, language, entry_stat.st_size, entry_stat.st_mtime_ns)


def _visible(
    real_root: str,
    parts: list[str],
    config: DiscoveryConfig,
    specs: dict[str, pathspec.GitIgnoreSpec | None],
) -> bool:
    """Whether the walk would reach and keep the file ``parts``: no skipped or ignored
    folder on the way, and not ignored itself (``specs`` caches each folder's .gitignore)."""
    ignores = _Ignores()
    for depth in range(len(parts)):
        rel_dir = "/".join(parts[:depth])
        if depth and (
            parts[depth - 1] in config.skip_dirs or ignores.ignored(rel_dir, is_dir=True)
        ):
            return False
        if rel_dir not in specs:
            specs[rel_dir] = _read_gitignore(
                os.path.join(real_root, rel_dir) if rel_dir else real_root
            )
        spec = specs[rel_dir]
        if spec is not None:
            ignores.add(rel_dir, spec)
    return not ignores.ignored("/".join(parts), is_dir=False)


_UNDECODABLE = "name is not valid UTF-8 (no editor, URI or JSON answer could name it)"


def _undecodable(name: str) -> bool:
    """Whether a name read from the file system holds bytes that are not UTF-8 (Python
    keeps them as lone surrogates, which nothing downstream can encode)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _read_gitignore(abs_dir: str) -> pathspec.GitIgnoreSpec | None:
    try:
        with open(os.path.join(abs_dir, ".gitignore"), encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    import pathspec

    return pathspec.GitIgnoreSpec.from_lines(lines)


def _walk(
    real_root: str,
    rel_dir: str,
    ignores: _Ignores,
    visited: set[str],
    config: DiscoveryConfig,
    result: Discovery,
    real_dir: str | None = None,
) -> Iterator[tuple[str, str, os.stat_result, str]]:
    """Files we have a language for, with their stat; only those are stat'ed.

    ``real_dir`` is the folder's resolved path: ``visited`` holds those of every
    folder walked, so a link back up (a loop) or to a folder walked already is
    skipped without a stat per folder (a folder reached without a link resolves to
    its parent's path plus its name). A ``.gitignore`` is opened only where the
    listing has one: Django's sdist has 3240 folders and no ignore file.
    """
    abs_dir = os.path.join(real_root, rel_dir) if rel_dir else real_root
    real_dir = real_dir or abs_dir
    if real_dir in visited:
        result.skipped.append((rel_dir, "symlink loop or directory seen twice"))
        return
    visited.add(real_dir)
    try:
        with os.scandir(abs_dir) as scan:
            entries = sorted(scan, key=lambda e: e.name)
    except OSError as exc:
        result.skipped.append((rel_dir or ".", f"cannot read directory: {exc.strerror}"))
        return
    pushed = any(e.name == ".gitignore" for e in entries) and ignores.push(rel_dir, abs_dir)
    wanted = config.languages
    try:
        for entry in entries:
            rel_path = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
            if not entry.name.isascii() and _undecodable(entry.name):
                result.skipped.append((rel_path, _UNDECODABLE))
                continue
            target: str | None = None
            try:
                if entry.is_symlink():
                    target = os.path.realpath(entry.path)
                    if target != real_root and not target.startswith(real_root + os.sep):
                        result.skipped.append((rel_path, "symlink leads outside the workspace"))
                        continue
                is_dir = entry.is_dir()  # the directory entry's type: no stat for most entries
            except OSError:
                result.skipped.append((rel_path, "vanished or unreadable while walking"))
                continue
            if is_dir:
                if entry.name in config.skip_dirs or ignores.ignored(rel_path, is_dir=True):
                    continue
                real = target or f"{real_dir}/{entry.name}"
                yield from _walk(real_root, rel_path, ignores, visited, config, result, real)
                continue
            spec = languages.detect(entry.name)
            if spec is None or (wanted is not None and spec.name not in wanted):
                continue
            if ignores.ignored(rel_path, is_dir=False):
                continue
            try:
                entry_stat = entry.stat()
            except OSError:
                result.skipped.append((rel_path, "vanished or unreadable while walking"))
                continue
            if stat.S_ISREG(entry_stat.st_mode):
                yield rel_path, spec.name, entry_stat, entry.path
    finally:
        if pushed:
            ignores.pop()
