"""Workspace confinement, path globs and the source lines of indexed files.

Every path a caller gives (a CLI option, an MCP argument, an LSP URI) goes
through :func:`resolve_file` or :func:`confine`: it is read against the
workspace roots, symlinks are followed, and anything that lands outside every
root raises :class:`OutsideWorkspace` naming the argument and the fix. Files
are read only through :func:`read_lines`, which reads only confined paths.
"""

from __future__ import annotations

import functools
import os
import re
import threading
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlparse

from symfuse.indexer.errors import InvalidRequest, NotFound, OutsideWorkspace
from symfuse.indexer.files.source import read_source_text
from symfuse.indexer.index import Index
from symfuse.ranking.text.disk_lines import DiskLines, offsets_cache
from symfuse.ranking.text.file_cache import FileCache
from symfuse.ranking.text.source_lines import Lines

MAX_PATH_CHARS = 4096


@dataclass(frozen=True, slots=True)
class Confined:
    """A path inside a workspace root: its root alias, root-relative POSIX path and real path."""

    root: str
    rel: str
    real: str


def _real_roots(index: Index) -> tuple[tuple[str, str], ...]:
    return _resolve_roots(tuple(index.roots.items()))


@functools.lru_cache(maxsize=64)
def _resolve_roots(roots: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
    return tuple((alias, os.path.realpath(path)) for alias, path in roots)


def _inside(real: str, root_real: str) -> bool:
    return real == root_real or real.startswith(root_real.rstrip(os.sep) + os.sep)


def _outside(argument: str, given: str, index: Index) -> OutsideWorkspace:
    roots = ", ".join(index.roots.values()) or "(none)"
    return OutsideWorkspace(
        f"{argument}: {given!r} is outside the workspace; give a path relative to a "
        f"workspace root or an absolute path inside one (roots: {roots})"
    )


def _strip_uri(path: str) -> str:
    if path.startswith("file://"):
        return unquote(urlparse(path).path)
    return path


def confine(index: Index, path: str, *, argument: str = "path") -> Confined:
    """Where ``path`` lands inside the workspace, symlinks followed; else OutsideWorkspace.

    Relative paths are tried against each root in turn (and as ``alias/rel`` in a
    multi-root workspace); absolute paths and ``file://`` URIs must lie under a root.
    """
    if not isinstance(path, str) or not path.strip():
        raise InvalidRequest(argument, "give a non-empty path")
    if len(path) > MAX_PATH_CHARS or "\0" in path:
        raise InvalidRequest(argument, "not a usable path")
    given = _strip_uri(path.strip())
    roots = _real_roots(index)
    if os.path.isabs(given):
        candidates = [given]
    else:
        candidates = [os.path.join(real, given) for _, real in roots]
        head, _, rest = given.partition("/")
        if head in index.roots and rest:
            candidates.insert(0, os.path.join(index.roots[head], rest))
    found: Confined | None = None
    for candidate in candidates:
        real = os.path.realpath(candidate)
        for alias, root_real in roots:
            if not _inside(real, root_real):
                continue
            rel = Path(os.path.relpath(real, root_real)).as_posix()
            hit = Confined(alias, "" if rel == "." else rel, real)
            if os.path.exists(real):
                return hit
            found = found or hit
    if found is not None:
        return found
    raise _outside(argument, path, index)


def resolve_file(index: Index, path: str, *, argument: str = "path") -> str:
    """The index key of an indexed file named by ``path`` (confined first), else NotFound."""
    if path in index.files:
        # A known key is confined by construction, unless a symlink now leads out.
        confine(index, index.abs_path(path), argument=argument)
        return path
    place = confine(index, path, argument=argument)
    key = index.key(place.root, place.rel)
    if key in index.files:
        return key
    # A file indexed under a symlinked name inside the workspace: match its lexical form.
    lexical = os.path.normpath(_strip_uri(path.strip())).replace(os.sep, "/")
    for alias, real in index.roots.items():
        prefix = real.rstrip("/") + "/"
        rel = lexical[len(prefix) :] if lexical.startswith(prefix) else lexical
        if index.key(alias, rel) in index.files:
            return index.key(alias, rel)
    if os.path.isdir(place.real):
        raise a_directory(argument, path, place.real)
    raise NotFound(
        f"{argument}: {path!r} is not an indexed file (missing, ignored or not a supported "
        "language); run `symfuse index` after creating it"
    )


MAX_LISTED = 20  # entries a directory's error names


def a_directory(argument: str, given: str, real: str) -> InvalidRequest:
    """The error for a directory given where a file is wanted, naming what is in it (an
    agent's next call is then one of them, not a listing of its own)."""
    try:
        entries = sorted(
            f"{e.name}/" if e.is_dir() else e.name
            for e in os.scandir(real)
            if not e.name.startswith(".")
        )
    except OSError:
        entries = []
    shown = ", ".join(entries[:MAX_LISTED])
    more = f" and {len(entries) - MAX_LISTED} more" if len(entries) > MAX_LISTED else ""
    inside = f": it holds {shown}{more}" if entries else ""
    return InvalidRequest(argument, f"{given!r} is a directory; give a file{inside}")


# --- globs ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """A gitignore-flavoured glob: ``*`` and ``?`` stay within a segment, ``**`` spans them."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif c == "*":
            out.append("[^/]*")
            i += 1
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            end = pattern.find("]", i + 2)
            if end == -1:
                out.append(re.escape(c))
                i += 1
            else:
                body = pattern[i + 1 : end].replace("\\", "\\\\")
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append(f"[{body}]")
                i = end + 1
        else:
            out.append(re.escape(c))
            i += 1
    return re.compile("".join(out) + r"\Z")


def split_globs(value: str | list[str] | tuple[str, ...] | None) -> tuple[str, ...]:
    """Comma-separated globs (or a list of them) as a tuple, blanks dropped."""
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else [x for v in value for x in v.split(",")]
    return tuple(x.strip().lstrip("/") for x in items if x.strip())


def glob_match(path: str, pattern: str) -> bool:
    """Whether a workspace path matches a glob; a pattern without ``/`` also tries the name."""
    regex = _glob_regex(pattern.removeprefix("./"))
    if regex.match(path):
        return True
    if "/" not in pattern.rstrip("/"):
        if regex.match(PurePosixPath(path).name):
            return True
        # `tests` or `tests/` selects everything under a directory so named.
        name = pattern.rstrip("/")
        return f"/{name}/" in f"/{path}" and "*" not in name and "?" not in name
    return pattern.endswith("/") and path.startswith(pattern.removeprefix("./"))


def any_match(path: str, patterns: tuple[str, ...]) -> bool:
    return any(glob_match(path, p) for p in patterns)


# --- source lines --------------------------------------------------------------------


_WORDS = re.compile(r"\w+")


class Source:
    """A file's decoded text, its lines (``splitlines``) and, on demand, its words."""

    __slots__ = ("_lines", "_lower", "_words", "text")

    def __init__(self, text: str, lines: Sequence[str] | None = None) -> None:
        self.text = text
        self._lines = lines
        self._words: frozenset[str] | None = None
        self._lower: str | None = None

    @property
    def lines(self) -> Sequence[str]:
        """The lines, split when first asked for (a search skips most files unsplit)."""
        if self._lines is None:
            self._lines = Lines(self.text)  # offsets, not a line each
        return self._lines

    def ascii_lower(self) -> str | None:
        """The text lower-cased when it is ASCII (so offsets and case rules are plain)."""
        if self._lower is None and self.text.isascii():
            self._lower = self.text.lower()
        return self._lower

    def words(self) -> frozenset[str]:
        """The distinct ``\\w+`` words of the file, as written."""
        if self._words is None:
            self._words = frozenset(_WORDS.findall(self.text))
        return self._words


_EMPTY = Source("", ())


def _read_source(real: str, _st: os.stat_result) -> Source | None:
    text = read_source_text(real)
    return None if text is None else Source(text)


# Recently read files, by real path, while their size and mtime stay; bounded by
# characters held, so a text search over a mid-sized repository reads each file once and
# later searches only stat them.
_SOURCES: FileCache[Source] = FileCache(_read_source, lambda s: len(s.text), 48_000_000)
_OFFSETS = offsets_cache()
# Real paths of indexed files, per index generation (symlinks are re-checked after a change).
_REAL: weakref.WeakKeyDictionary[Index, tuple[int, dict[str, str | None]]] = (
    weakref.WeakKeyDictionary()
)
_REAL_LOCK = threading.Lock()


def real_path(index: Index, key: str) -> str | None:
    """The real path of a file key, or None when it leads outside the roots."""
    with _REAL_LOCK:
        cached = _REAL.get(index)
        if cached is None or cached[0] != index.generation:
            cached = _REAL[index] = (index.generation, {})
        table = cached[1]
        if key in table:
            return table[key]
    real = _real_inside(index, key_path(index, key), table)
    with _REAL_LOCK:
        table[key] = real
    return real


def _real_inside(index: Index, path: str, table: dict[str, str | None]) -> str | None:
    """``confine(path).real`` for an absolute path, or None outside the roots; a file that
    is not a symlink takes its folder's real path, found once per folder (``table`` keeps
    it under the folder's path and a NUL: no key has one)."""
    folder, name = os.path.split(path)
    if not name or os.path.islink(path):
        try:
            return confine(index, path, argument="file").real
        except OutsideWorkspace:
            return None
    mark = folder + "\0"
    real_folder = table.get(mark)
    if real_folder is None:
        real_folder = table[mark] = os.path.realpath(folder)
    real = os.path.join(real_folder, name)
    return real if any(_inside(real, root) for _, root in _real_roots(index)) else None


def key_path(index: Index, key: str) -> str:
    """The path a file key names, indexed or not (a text file beside the code, say)."""
    if key in index.files:
        return index.abs_path(key)
    if len(index.roots) == 1:
        return f"{next(iter(index.roots.values()))}/{key}"
    alias, _, rel = key.partition("/")
    return f"{index.roots[alias]}/{rel}" if alias in index.roots else key


def read_source(index: Index, key: str) -> Source:
    """The current text of an indexed file (empty when it vanished or leads outside)."""
    real = real_path(index, key)
    if real is None:
        return _EMPTY
    return _SOURCES.get(real) or _EMPTY


def read_lines(index: Index, key: str) -> Sequence[str]:
    """The current lines of an indexed file (empty when it vanished or leads outside)."""
    return read_source(index, key).lines


def lines_on_demand(index: Index, key: str) -> Sequence[str]:
    """The current lines of an indexed file, for a few of them (a search hit's snippet):
    read from disk when asked for, so that only their offsets stay in memory
    (:mod:`symfuse.ranking.text.disk_lines`); the cached text when it is already held."""
    real = real_path(index, key)
    if real is None:
        return ()
    try:
        st = os.stat(real)
    except OSError:
        return ()
    held = _SOURCES.held(real, st)
    if held is not None:
        return held.lines
    offsets = _OFFSETS.get(real, st)
    return DiskLines(real, offsets) if offsets is not None else read_lines(index, key)


def line_text(lines: Sequence[str], line: int) -> str:
    """Line ``line`` (1-based) of ``lines``, or "" past the end."""
    return lines[line - 1] if 0 < line <= len(lines) else ""
