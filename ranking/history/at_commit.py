"""A definition as of a commit, or one removed since, read from git objects.

``get`` with ``at_commit`` (a hash, a tag, ``HEAD~5``) reads the definition's file
as it was in that commit (``git cat-file``, nothing checked out) and extracts it as
the index extracts a file; ``include_removed`` finds a definition that no longer
exists in the history index (the newest commit that deleted it) and reads it from
that commit's parent. Either way the answer says which commit it was read from,
and ``is_removed`` when the definition is not in the index now.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from symfuse.indexer.errors import NotFound
from symfuse.indexer.extract.tags import extract
from symfuse.indexer.history import gitlog
from symfuse.indexer.history.records import Change
from symfuse.indexer.history.touched import language_of, qualified_name
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.history.search import Histories, repository_name
from symfuse.ranking.search.details import SourceWindow, SymbolDetail


@dataclass(frozen=True, slots=True)
class Wanted:
    """A definition named by its file (relative to its root), qualified name and kind."""

    alias: str
    path: str
    qualified: str
    kind: str | None

    @classmethod
    def of_id(cls, index: Index, symbol_id: str) -> Wanted:
        """``path::Qualified.name#kind`` (the ``~n`` of a repeated id dropped)."""
        key, _, rest = symbol_id.partition("::")
        qualified, _, kind = rest.rpartition("#")
        alias, path = split_key(index, key)
        return cls(alias, path, qualified, kind.split("~", 1)[0] or None)


def split_key(index: Index, key: str) -> tuple[str, str]:
    """A file key as (root alias, path in that root)."""
    if len(index.roots) > 1:
        alias, _, rel = key.partition("/")
        if alias in index.roots:
            return alias, rel
    return next(iter(index.roots)), key


def root_path(index: Index, alias: str) -> Path:
    return Path(index.roots[alias])


def resolve_commit(root: Path, ref: str) -> str:
    found = gitlog.resolve(root, ref)
    if found is None:
        raise NotFound(f"at_commit: no commit {ref!r} in {root} (a hash, a tag, or HEAD~5)")
    return found


def removed(histories: Histories, index: Index, name: str, path: str | None) -> Wanted | None:
    """The definition called ``name`` (qualified or not) that the newest commit deleting
    one so called deleted, as it was named there, with that commit; None if none did."""
    for i in range(len(histories.commits) - 1, -1, -1):
        commit = histories.commits[i]
        for change in commit.files:
            if path is not None and path not in (change.path, change.old_path):
                continue
            for d in change.definitions:
                if d.change is Change.DELETED and name in (d.qualified, d.name):
                    alias = _alias_of(index, histories.repository[i])
                    return Wanted(alias, change.old_path, d.qualified, d.kind)
    return None


def deleting_commit(histories: Histories, index: Index, wanted: Wanted) -> str | None:
    """The newest commit that deleted ``wanted``."""
    repository = repository_name(wanted.alias, index.roots[wanted.alias])
    for i in range(len(histories.commits) - 1, -1, -1):
        if histories.repository[i] != repository:
            continue
        commit = histories.commits[i]
        for change in commit.files:
            if wanted.path != change.old_path:
                continue
            if any(
                d.change is Change.DELETED and d.qualified == wanted.qualified
                for d in change.definitions
            ):
                return commit.hash
    return None


def _alias_of(index: Index, repository: str) -> str:
    return next(
        (a for a, p in index.roots.items() if repository_name(a, p) == repository),
        next(iter(index.roots)),
    )


def detail_at(
    index: Index,
    wanted: Wanted,
    commit: str,
    *,
    context_lines: int,
    max_lines: int,
    shown_at: str | None = None,
) -> SymbolDetail:
    """The definition ``wanted`` as the commit ``commit`` has it."""
    root = root_path(index, wanted.alias)
    source = _blob(root, commit, wanted.path)
    symbols = _symbols(wanted, source) if source is not None else []
    symbol = next(
        (
            s
            for s in symbols
            if qualified_name(s.symbol_id) == wanted.qualified
            and (wanted.kind is None or s.kind.value == wanted.kind)
        ),
        None,
    )
    if symbol is None or source is None:
        raise NotFound(f"symbol_id: no {wanted.qualified} in {wanted.path} at commit {commit[:12]}")
    lines = source.decode("utf-8", errors="replace").split("\n")
    window = SourceWindow.of(lines, symbol, context_lines, max_lines)
    entry = index.files.get(index.key(wanted.alias, wanted.path))
    is_removed = not any(
        qualified_name(s.symbol_id) == wanted.qualified
        for s in (entry.symbols if entry is not None else ())
    )
    return window.detail(
        symbol,
        parent=next((s for s in symbols if s.symbol_id == symbol.parent), None),
        children=tuple(s for s in symbols if s.parent == symbol.symbol_id),
        callers_count=0,
        callees_count=0,
        at_commit=shown_at or commit,
        is_removed=is_removed,
    )


def _symbols(wanted: Wanted, source: bytes) -> list[Symbol]:
    language = language_of(wanted.path, source)
    if language is None:
        return []
    return extract(wanted.path, wanted.alias, language, source).symbols


def _blob(root: Path, commit: str, path: str) -> bytes | None:
    done = subprocess.run(
        ["git", "-C", str(root), "cat-file", "blob", f"{commit}:{path}"],
        capture_output=True,
        check=False,
    )
    return done.stdout if done.returncode == 0 else None


@dataclass(frozen=True, slots=True)
class Removed:
    """A definition some commit deleted and HEAD does not have."""

    symbol: Symbol  # as it was (its old file and lines)
    commit: str  # the newest commit that deleted it


def removed_matching(
    histories: Histories, index: Index, words: list[str], limit: int
) -> list[Removed]:
    """Definitions deleted by some commit, gone from the index now, whose name contains
    every one of ``words`` (lower-cased), newest deletion first, at most ``limit``."""
    present = {(s.root, s.file, s.fqn) for s in index.symbols}
    present |= {(s.root, split_key(index, s.file)[1], s.fqn) for s in index.symbols}
    found: list[Removed] = []
    seen: set[tuple[str, str, str]] = set()
    for i in range(len(histories.commits) - 1, -1, -1):
        commit = histories.commits[i]
        alias = _alias_of(index, histories.repository[i])
        for change in commit.files:
            for d in change.definitions:
                if d.change is not Change.DELETED or not all(w in d.name.lower() for w in words):
                    continue
                key = (alias, change.old_path, d.qualified)
                if key in seen or _still_there(present, alias, change.old_path, d.qualified):
                    continue
                seen.add(key)
                found.append(Removed(_symbol_of(index, alias, change.old_path, d), commit.hash))
                if len(found) >= limit:
                    return found
    return found


def _still_there(present: set[tuple[str, str, str]], alias: str, path: str, qualified: str) -> bool:
    dotted = qualified.replace("::", ".")
    module = path.rsplit(".", 1)[0].replace("/", ".")
    return any((alias, path, name) in present for name in (qualified, dotted, f"{module}.{dotted}"))


def _symbol_of(index: Index, alias: str, path: str, d: Any) -> Symbol:
    key = path if len(index.roots) == 1 else f"{alias}/{path}"
    kind = Kind(d.kind) if d.kind in Kind._value2member_map_ else Kind.FUNCTION
    return Symbol(
        symbol_id=f"{key}::{d.qualified}#{kind.value}",
        name=d.name,
        kind=kind,
        fqn=d.qualified,
        signature="",
        language=language_of(path, b"") or "",
        file=key,
        root=alias,
        line=d.line,
        col=1,
        end_line=d.end_line,
        end_col=1,
        name_line=d.line,
        name_col=1,
        name_end_line=d.line,
        name_end_col=1,
    )
