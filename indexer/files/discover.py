"""Which files of a workspace get indexed.

Walks a root honouring nested ``.gitignore`` files (pathspec's git semantics,
negation included), skips VCS, vendored and build folders, files over the size
limit and files we have no language for, and survives loops, permission errors and
files that vanish. A symlink is never followed: one leading outside the root is left
out, and what one inside the root leads to is indexed once, under its real path.
"""

from __future__ import annotations

import logging
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from symfuse.indexer.files import headers as header_language
from symfuse.indexer.files import languages
from symfuse.indexer.model import Skipped

if TYPE_CHECKING:  # imported once a tree has a .gitignore or globs are given (slow)
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
    skipped: list[Skipped] = field(default_factory=list)


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
    admit = _Admission(config, result)
    for rel_path, language, entry_stat, abs_path in _Walk(
        os.path.realpath(root), config, result
    ).folder(""):
        found = admit(rel_path, abs_path, language, entry_stat)
        if found is not None:
            yield found


TEXT_FILES = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "restructuredtext",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".json": "json",
    ".txt": "text",
}
"""Documentation, configuration and plain text: what a text search reads beside the code."""


def text_kind(name: str) -> str | None:
    """What :data:`TEXT_FILES` calls a file, by its extension; None for any other file."""
    dot = name.rfind(".")
    return TEXT_FILES.get(name[dot:].lower()) if dot > 0 else None


def discover_text(root: Path, config: DiscoveryConfig) -> list[Candidate]:
    """The text files (:data:`TEXT_FILES`) under ``root``, indexed or not, found as
    :func:`discover` finds code: the same ignore files, skipped folders, links, globs
    and size limit."""
    result = Discovery()
    admit = _Admission(config, result)
    walk = _Walk(os.path.realpath(root), config, result, text_kind)
    found = (admit(rel, path, kind, st) for rel, kind, st, path in walk.folder(""))
    return [candidate for candidate in found if candidate is not None]


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
        unnameable = _unnameable(rel_path)
        if unnameable is not None:
            result.skipped.append(Skipped(rel_path, unnameable))
            continue
        if not _visible(real_root, parts, config, specs):
            continue
        abs_path = os.path.join(real_root, rel_path)
        spec = languages.detect(parts[-1])
        if spec is None and not languages.may_be_script(rel_path):
            continue
        try:
            target = os.path.realpath(abs_path)
            entry_stat = os.stat(abs_path)
        except OSError:
            continue
        if target != abs_path or not stat.S_ISREG(entry_stat.st_mode):
            continue  # outside the root, or through a link: indexed under its real path
        name = spec.name if spec is not None else _script(abs_path, config)
        if name is None or not header_language.admitted(name, config.languages):
            continue
        found = admit(rel_path, abs_path, name, entry_stat)
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
            self.result.skipped.append(Skipped(rel_path, reason))
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
            _skipped(parts[depth - 1], parts[: depth - 1], config.skip_dirs)
            or ignores.ignored(rel_dir, is_dir=True)
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
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
_CONTROLLED = "name holds a line break or control character (no `file:line` answer could name it)"


def _unnameable(name: str) -> str | None:
    """Why a file or folder name cannot be indexed, if it cannot: a line break would split
    every list of paths (the ranking file's, `file:line` lines, ripgrep's output)."""
    if _CONTROL.search(name):
        return _CONTROLLED
    if not name.isascii() and _undecodable(name):
        return _UNDECODABLE
    return None


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

    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:  # pathspec's pattern error
        pass
    # As git does, a line that is no pattern (a lone "!") is skipped, not the whole file.
    kept = []
    for number, line in enumerate(lines, 1):
        try:
            pathspec.GitIgnoreSpec.from_lines([line])
        except ValueError as exc:
            log.warning("%s/.gitignore line %d skipped: %s", abs_dir, number, exc)
            continue
        kept.append(line)
    return pathspec.GitIgnoreSpec.from_lines(kept)


_Found = tuple[str, str, os.stat_result, str]  # rel path, language, stat, absolute path


class _Walk:
    """One walk of a root: files we have a language for, with their stat; only those
    are stat'ed.

    ``visited`` holds the resolved path of every folder walked, so a link back up (a
    loop) or to a folder walked already is skipped without a stat per folder (a folder
    reached without a link resolves to its parent's path plus its name). A
    ``.gitignore`` is opened only where the listing has one: most folders of a source
    tree have none.
    """

    def __init__(
        self,
        real_root: str,
        config: DiscoveryConfig,
        result: Discovery,
        kind: Callable[[str], str | None] | None = None,
    ) -> None:
        self.real_root = real_root
        self.config = config
        self.result = result
        self.kind = kind or (lambda name: _language(name, config))
        self.ignores = _Ignores()
        self.visited: set[str] = set()

    def skip(self, rel_path: str, reason: str) -> None:
        self.result.skipped.append(Skipped(rel_path, reason))

    def folder(self, rel_dir: str, real_dir: str | None = None) -> Iterator[_Found]:
        """The files under one folder (``real_dir``: its resolved path), names sorted."""
        abs_dir = os.path.join(self.real_root, rel_dir) if rel_dir else self.real_root
        real_dir = real_dir or abs_dir
        if real_dir in self.visited:
            self.skip(rel_dir, "symlink loop or directory seen twice")
            return
        self.visited.add(real_dir)
        try:
            with os.scandir(abs_dir) as scan:
                entries = sorted(scan, key=lambda e: e.name)
        except OSError as exc:
            self.skip(rel_dir or ".", f"cannot read directory: {exc.strerror}")
            return
        has_ignores = any(e.name == ".gitignore" for e in entries)
        pushed = has_ignores and self.ignores.push(rel_dir, abs_dir)
        try:
            for entry in entries:
                yield from self._entry(entry, rel_dir, real_dir)
        finally:
            if pushed:
                self.ignores.pop()

    def _entry(self, entry: os.DirEntry[str], rel_dir: str, real_dir: str) -> Iterator[_Found]:
        rel_path = f"{rel_dir}/{entry.name}" if rel_dir else entry.name
        unnameable = _unnameable(entry.name)
        if unnameable is not None:
            self.skip(rel_path, unnameable)
            return
        target: str | None = None
        try:
            if entry.is_symlink():
                target = os.path.realpath(entry.path)
                root = self.real_root
                if target != root and not target.startswith(root + os.sep):
                    self.skip(rel_path, "symlink leads outside the workspace")
                    return
                # Inside the root: a file is indexed once, under its real path.
                self.skip(rel_path, _linked(rel_dir, os.path.relpath(target, root)))
                return
            is_dir = entry.is_dir()  # the directory entry's type: no stat for most entries
        except OSError:
            self.skip(rel_path, _VANISHED)
            return
        if is_dir:
            skipped = _skipped(entry.name, rel_dir.split("/"), self.config.skip_dirs)
            if not skipped and not self.ignores.ignored(rel_path, is_dir=True):
                yield from self.folder(rel_path, target or f"{real_dir}/{entry.name}")
            return
        found = self._file(entry, rel_path)
        if found is not None:
            yield found

    def _file(self, entry: os.DirEntry[str], rel_path: str) -> _Found | None:
        kind = self.kind(entry.name)
        if kind is None and not languages.may_be_script(rel_path):
            return None
        if self.ignores.ignored(rel_path, is_dir=False):
            return None
        try:
            entry_stat = entry.stat()
        except OSError:
            self.skip(rel_path, _VANISHED)
            return None
        if not stat.S_ISREG(entry_stat.st_mode):
            return None  # (a pipe's first line is not read: it would wait for a writer)
        kind = kind or _script(entry.path, self.config)
        if kind is None:
            return None
        return rel_path, kind, entry_stat, entry.path


SOURCE_DIRS = frozenset({"src", "lib"})  # what is below them is source, whatever its name


def _skipped(name: str, above: list[str], skip_dirs: frozenset[str]) -> bool:
    """Whether a folder called ``name`` under the folders ``above`` is left out: a skipped
    name, unless it is ``build`` inside a source folder (``src/luarocks/build/`` is code;
    a project's or a module's own ``build/`` output is not)."""
    if name not in skip_dirs:
        return False
    return not (name == "build" and any(folder in SOURCE_DIRS for folder in above))


def _linked(rel_dir: str, real: str) -> str:
    """Why a symlink inside the workspace is not followed: what it leads to is walked, or
    being walked, under its real path (``real``, relative to the root)."""
    real = "" if real == "." else real
    if rel_dir == real or rel_dir.startswith(real + "/") or not real:
        return "symlink loop or directory seen twice"
    return f"symlink to {real}, indexed under that path"


def _language(name: str, config: DiscoveryConfig) -> str | None:
    """The language a file is indexed as, by its name; None when it is not indexed."""
    spec = languages.detect(name)
    if spec is None or not header_language.admitted(spec.name, config.languages):
        return None
    return spec.name


def _script(abs_path: str, config: DiscoveryConfig) -> str | None:
    """The language an extensionless file's ``#!`` line names (``bin/luarocks``: lua),
    when it is indexed; None for any other file (or one that cannot be read)."""
    try:
        with open(abs_path, "rb") as file:
            head = file.read(languages.SHEBANG_BYTES)
    except OSError:
        return None
    spec = languages.by_shebang(head)
    if spec is None or not header_language.admitted(spec.name, config.languages):
        return None
    return spec.name


_VANISHED = "vanished or unreadable while walking"
