"""Request filters as boolean masks over ``Index.symbols``.

Kinds, languages and files are small integer codes per symbol; globs are
matched once per file, not per symbol. ``extends``, ``implements`` and
``decorator`` look names up in inverted tables keyed by the lower-cased name
and by its last dotted part with any arguments or type parameters dropped, so
``Model`` finds ``class Post(models.Model)`` and ``cache`` finds
``@functools.cache``. ``implements`` also accepts a base class of a symbol that
records no separate ``implements`` list (Python, Ruby, JavaScript, ...).
"""

from __future__ import annotations

import fnmatch
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.request import SearchRequest

_KINDS = list(Kind)
_KIND_CODE = {k: i for i, k in enumerate(_KINDS)}
_ARGUMENTS = re.compile(r"[(\[<].*$", re.S)


def name_keys(name: str) -> set[str]:
    """Lookup keys of a base or decorator name: itself and its last part, lower-cased."""
    bare = _ARGUMENTS.sub("", name.strip().lstrip("@")).strip().lower()
    if not bare:
        return set()
    last = re.split(r"\.|::|\\", bare)[-1]
    return {bare, last}


def _inverted(pairs: Iterable[tuple[int, tuple[str, ...]]]) -> dict[str, npt.NDArray[np.int64]]:
    table: defaultdict[str, set[int]] = defaultdict(set)
    for position, names in pairs:
        for name in names:
            for key in name_keys(name):
                table[key].add(position)
    return {k: np.asarray(sorted(v), dtype=np.int64) for k, v in table.items()}


def glob_match(path: str, pattern: str) -> bool:
    """``fnmatch`` on the whole path; a pattern without ``/`` also matches the file name,
    and a plain directory prefix matches everything under it."""
    pattern = pattern.strip()
    if pattern.startswith("./"):
        pattern = pattern[2:]
    if fnmatch.fnmatchcase(path, pattern):
        return True
    if "/" not in pattern and fnmatch.fnmatchcase(path.rsplit("/", 1)[-1], pattern):
        return True
    prefix = pattern.rstrip("/")
    return not any(ch in prefix for ch in "*?[") and path.startswith(prefix + "/")


@dataclass(frozen=True, slots=True)
class FilterTable:
    kind: npt.NDArray[np.int8]
    language: npt.NDArray[np.int16]
    languages: list[str]
    file: npt.NDArray[np.int32]
    files: list[str]
    extends: dict[str, npt.NDArray[np.int64]]
    implements: dict[str, npt.NDArray[np.int64]]
    decorators: dict[str, npt.NDArray[np.int64]]

    @classmethod
    def build(cls, symbols: list[Symbol]) -> FilterTable:
        languages = sorted({s.language for s in symbols})
        language_code = {name: i for i, name in enumerate(languages)}
        files: list[str] = []
        file_code: dict[str, int] = {}
        for s in symbols:
            if s.file not in file_code:
                file_code[s.file] = len(files)
                files.append(s.file)
        n = len(symbols)
        return cls(
            kind=np.fromiter((_KIND_CODE[s.kind] for s in symbols), dtype=np.int8, count=n),
            language=np.fromiter(
                (language_code[s.language] for s in symbols), dtype=np.int16, count=n
            ),
            languages=languages,
            file=np.fromiter((file_code[s.file] for s in symbols), dtype=np.int32, count=n),
            files=files,
            extends=_inverted((i, s.extends) for i, s in enumerate(symbols)),
            implements=_inverted((i, s.implements or s.extends) for i, s in enumerate(symbols)),
            decorators=_inverted((i, s.decorators) for i, s in enumerate(symbols)),
        )

    def file_mask(self, patterns: Iterable[str]) -> npt.NDArray[np.bool_]:
        """Symbols whose file matches any of ``patterns``."""
        pats = list(patterns)
        chosen = np.fromiter(
            (any(glob_match(f, p) for p in pats) for f in self.files),
            dtype=np.bool_,
            count=len(self.files),
        )
        return chosen[self.file] if self.file.shape[0] else np.zeros(0, dtype=np.bool_)

    def _names(self, table: dict[str, npt.NDArray[np.int64]], name: str) -> npt.NDArray[np.bool_]:
        hit = np.zeros(self.kind.shape[0], dtype=np.bool_)
        keys = name_keys(name)
        bare = _ARGUMENTS.sub("", name.strip().lstrip("@")).strip().lower()
        # A qualified filter ("models.Model") must match the qualified name; a bare one, either.
        for key in [bare] if "." in bare or "::" in bare else keys:
            positions = table.get(key)
            if positions is not None:
                hit[positions] = True
        return hit

    def mask(self, request: SearchRequest) -> npt.NDArray[np.bool_] | None:
        """Symbols that pass every filter of ``request``; None when it has none."""
        n = self.kind.shape[0]
        mask: npt.NDArray[np.bool_] | None = None

        def both(other: npt.NDArray[np.bool_]) -> None:
            nonlocal mask
            mask = other if mask is None else mask & other

        if request.kind:
            codes = np.asarray([_KIND_CODE[k] for k in request.kind], dtype=np.int8)
            both(np.isin(self.kind, codes))
        if request.language:
            wanted = [i for i, name in enumerate(self.languages) if name in request.language]
            both(np.isin(self.language, np.asarray(wanted, dtype=np.int16)))
        if request.file_pattern:
            both(self.file_mask(request.file_pattern))
        if request.exclude_path:
            both(~self.file_mask(request.exclude_path))
        if request.extends:
            both(self._names(self.extends, request.extends))
        if request.implements:
            both(self._names(self.implements, request.implements))
        if request.decorator:
            both(self._names(self.decorators, request.decorator))
        if mask is not None and mask.shape[0] != n:
            mask = np.zeros(n, dtype=np.bool_)
        return mask
