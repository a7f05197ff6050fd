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
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind, Kind, Symbol
from symfuse.ranking.fusion.roles import Role, role_of
from symfuse.ranking.query.search_request import IncludeTests, SearchRequest
from symfuse.ranking.query.vocabulary import matched_kinds

_KINDS = list(Kind)
_KIND_CODE = {k: i for i, k in enumerate(_KINDS)}
_DOCUMENT_CODES = np.asarray(sorted(_KIND_CODE[k] for k in Kind.DOCUMENTS), dtype=np.int8)
UNIT_CODES = np.asarray(sorted(_KIND_CODE[k] for k in Kind.UNITS), dtype=np.int8)
_REGION_CODE = _KIND_CODE[Kind.REGION]
_FILE_CODE = _KIND_CODE[Kind.FILE]
# a folder's module, named as the folder is (Rust, Python, JavaScript / TypeScript, Lua)
ENTRY_STEMS = frozenset({"mod", "__init__", "index", "init"})
_ARGUMENTS = re.compile(r"[(\[<].*$", re.S)
# The attributes and annotations that make a definition a test wherever it lives (name_keys'
# last part): Rust's #[test] / #[tokio::test] in a product file's `mod tests`, JUnit's
# @Test, @ParameterizedTest, xUnit's [Fact], NUnit's [Test], MSTest's [TestMethod] ...
TEST_MARKS = (
    "test", "parameterizedtest", "repeatedtest", "testfactory", "testtemplate",
    "fact", "theory", "testmethod", "testcase", "rstest", "test_case", "bench",
)  # fmt: skip


def name_keys(name: str) -> set[str]:
    """Lookup keys of a base or decorator name: itself and its last part, lower-cased."""
    bare = _ARGUMENTS.sub("", name.strip().lstrip("@")).strip().lower()
    if not bare:
        return set()
    last = re.split(r"\.|::|\\", bare)[-1]
    return {bare, last}


def linked_implementers(index: Index, name: str) -> npt.NDArray[np.bool_]:
    """Symbols with an ``IMPLEMENTS`` edge to a type called ``name`` (matched as the
    ``implements`` filter matches names): Go's implicit interfaces, which no symbol
    writes down, are known to the graph alone."""
    edges = index.edges
    hit = np.zeros(len(index.symbols), dtype=np.bool_)
    chosen = np.flatnonzero(edges.kind == int(EdgeKind.IMPLEMENTS))
    if not chosen.shape[0]:
        return hit
    keys = name_keys(name)
    bare = _ARGUMENTS.sub("", name.strip().lstrip("@")).strip().lower()
    wanted = {bare} if "." in bare or "::" in bare else keys
    symbols = index.symbols
    for at in chosen.tolist():
        target = symbols[int(edges.dst[at])]
        if not wanted.isdisjoint({target.name.lower(), target.fqn.lower()}):
            hit[int(edges.src[at])] = True
    return hit


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


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class FilterCodes:
    """The filter data of some symbols (one file's, usually), joined by :meth:`FilterTable.of`."""

    kind: npt.NDArray[np.int8]
    languages: list[str]  # distinct, with local codes
    language: npt.NDArray[np.int16]
    files: list[str]
    file: npt.NDArray[np.int32]
    extends: dict[str, list[int]]
    implements: dict[str, list[int]]
    decorators: dict[str, list[int]]

    @classmethod
    def of(cls, symbols: Sequence[Symbol]) -> FilterCodes:
        n = len(symbols)
        languages: dict[str, int] = {}
        files: dict[str, int] = {}
        language = [languages.setdefault(s.language, len(languages)) for s in symbols]
        file = [files.setdefault(s.file, len(files)) for s in symbols]
        return cls(
            kind=np.fromiter((_KIND_CODE[s.kind] for s in symbols), dtype=np.int8, count=n),
            languages=list(languages),
            language=np.asarray(language, dtype=np.int16),
            files=list(files),
            file=np.asarray(file, dtype=np.int32),
            extends=_table((i, s.extends) for i, s in enumerate(symbols)),
            implements=_table((i, s.implements or s.extends) for i, s in enumerate(symbols)),
            decorators=_table((i, s.decorators) for i, s in enumerate(symbols)),
        )


def _table(pairs: Iterable[tuple[int, tuple[str, ...]]]) -> dict[str, list[int]]:
    table: dict[str, list[int]] = {}
    for position, names in pairs:
        for name in names:
            for key in name_keys(name):
                found = table.setdefault(key, [])
                if not found or found[-1] != position:
                    found.append(position)
    return table


class SymbolRoles(Protocol):
    """What fusion's later steps ask of the ranked symbols: a :class:`FilterTable`, or
    the flags a shard sent with its candidates (:mod:`symfuse.ranking.shards.fusion`)."""

    def documents(self, positions: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]: ...

    def side_code(
        self, positions: npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.bool_]: ...

    def units(self) -> npt.NDArray[np.bool_]: ...


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class FilterTable:
    kind: npt.NDArray[np.int8]
    language: npt.NDArray[np.int16]
    languages: list[str]
    file: npt.NDArray[np.int32]
    files: list[str]
    extends: dict[str, npt.NDArray[np.int64]]
    implements: dict[str, npt.NDArray[np.int64]]
    decorators: dict[str, npt.NDArray[np.int64]]
    # Per file: test, example or benchmark code (symfuse.ranking.fusion.roles), from its path.
    side_files: npt.NDArray[np.bool_] = field(init=False, repr=False, compare=False)
    # Per symbol: a test a product file holds (Rust's `#[test]` functions in `mod tests`).
    marked_tests: npt.NDArray[np.bool_] | None = field(init=False, repr=False, compare=False)
    unit_rows: npt.NDArray[np.bool_] = field(init=False, repr=False, compare=False)
    no_regions: npt.NDArray[np.bool_] | None = field(init=False, repr=False, compare=False)
    # file_stems(), made on first use (a name query's; racing threads make the same table)
    stems: dict[str, list[int]] | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        side = [role_of(f) is not Role.PRODUCT for f in self.files]
        object.__setattr__(self, "side_files", np.asarray(side, dtype=np.bool_))
        marked = [self.decorators[key] for key in TEST_MARKS if key in self.decorators]
        tests = None
        if marked:
            tests = np.zeros(self.kind.shape[0], dtype=np.bool_)
            tests[np.concatenate(marked)] = True
        object.__setattr__(self, "marked_tests", tests)
        object.__setattr__(self, "unit_rows", np.isin(self.kind, UNIT_CODES))
        out = self.kind != _REGION_CODE
        object.__setattr__(self, "no_regions", None if out.all() else out)
        object.__setattr__(self, "stems", None)

    def units(self) -> npt.NDArray[np.bool_]:
        """Whether each symbol is a unit (a file's own or a region, not a definition)."""
        return self.unit_rows

    def file_stems(self) -> dict[str, list[int]]:
        """The positions of the code files' units by stem (the file name to its first
        dot), a folder's entry file (:data:`ENTRY_STEMS`) by its folder's name as well."""
        if self.stems is None:
            table: dict[str, list[int]] = {}
            for position in np.flatnonzero(self.kind == _FILE_CODE).tolist():
                *folders, name = self.files[int(self.file[position])].rsplit("/", 2)
                stem = name.split(".", 1)[0]
                table.setdefault(stem, []).append(position)
                if folders and stem in ENTRY_STEMS:
                    table.setdefault(folders[-1], []).append(position)
            object.__setattr__(self, "stems", table)
        assert self.stems is not None
        return self.stems

    def regions_out(self) -> npt.NDArray[np.bool_] | None:
        """Every symbol but regions (None: there is none)."""
        return self.no_regions

    def documents(self, positions: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        """Whether each symbol of ``positions`` is a document's: a heading or a key."""
        return np.isin(self.kind[positions], _DOCUMENT_CODES)

    def side_code(self, positions: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.bool_]:
        """Whether each symbol (of ``positions``, or every one) is test, example or
        benchmark code: its file's role, or a test's mark on it."""
        codes = self.file if positions is None else self.file[positions]
        if not codes.shape[0]:
            return np.zeros(0, dtype=np.bool_)
        side = self.side_files[codes]
        if self.marked_tests is None:
            return side
        return side | (self.marked_tests if positions is None else self.marked_tests[positions])

    @classmethod
    def build(cls, symbols: list[Symbol]) -> FilterTable:
        return cls.of([FilterCodes.of(symbols)])

    @classmethod
    def of(cls, parts: Sequence[FilterCodes]) -> FilterTable:
        """The codes of consecutive runs of symbols, joined (positions shifted per run)."""
        languages = sorted({name for p in parts for name in p.languages})
        language_code = {name: i for i, name in enumerate(languages)}
        files: list[str] = []
        file_code: dict[str, int] = {}
        kinds, language, file = [], [], []
        tables: tuple[dict[str, list[npt.NDArray[np.int64]]], ...] = ({}, {}, {})
        offset = 0
        for p in parts:
            local = np.asarray([language_code[x] for x in p.languages], dtype=np.int16)
            language.append(local[p.language] if p.language.shape[0] else p.language)
            codes = np.asarray(
                [file_code.setdefault(f, len(file_code)) for f in p.files], dtype=np.int32
            )
            file.append(codes[p.file] if p.file.shape[0] else p.file)
            kinds.append(p.kind)
            for merged, table in zip(tables, (p.extends, p.implements, p.decorators), strict=True):
                for key, positions in table.items():
                    merged.setdefault(key, []).append(np.asarray(positions, np.int64) + offset)
            offset += int(p.kind.shape[0])
        files = list(file_code)

        def joined(
            table: dict[str, list[npt.NDArray[np.int64]]],
        ) -> dict[str, npt.NDArray[np.int64]]:
            return {k: np.concatenate(v) for k, v in table.items()}

        def cat(arrays: list[npt.NDArray[Any]], dtype: type) -> npt.NDArray[Any]:
            return np.concatenate(arrays).astype(dtype) if arrays else np.zeros(0, dtype=dtype)

        return cls(
            kind=cat(kinds, np.int8),
            language=cat(language, np.int16),
            languages=languages,
            file=cat(file, np.int32),
            files=files,
            extends=joined(tables[0]),
            implements=joined(tables[1]),
            decorators=joined(tables[2]),
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

    def extension_mask(self, extensions: Iterable[str]) -> npt.NDArray[np.bool_]:
        """Symbols whose file name ends with any of ``extensions`` (case ignored)."""
        ends = tuple(extensions)
        chosen = np.fromiter(
            (f.lower().endswith(ends) for f in self.files), dtype=np.bool_, count=len(self.files)
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

    def kind_mask(self, kinds: Iterable[Kind]) -> npt.NDArray[np.bool_]:
        """Symbols of exactly these kinds (a request's filter adds the kinds each covers)."""
        codes = np.asarray(sorted(_KIND_CODE[k] for k in kinds), dtype=np.int8)
        return np.isin(self.kind, codes)

    def language_kinds(self, language: str, kinds: Iterable[Kind]) -> npt.NDArray[np.bool_] | None:
        """Symbols of exactly these kinds in files of ``language`` (None: no such file)."""
        if language not in self.languages:
            return None
        written_in: npt.NDArray[np.bool_] = self.language == self.languages.index(language)
        return self.kind_mask(kinds) & written_in

    def mask(
        self, request: SearchRequest, implementers: npt.NDArray[np.bool_] | None = None
    ) -> npt.NDArray[np.bool_] | None:
        """Symbols that pass every filter of ``request``; None when it has none.

        ``implementers``: symbols the graph says implement ``request.implements``
        (:func:`linked_implementers`), which pass that filter too.
        """
        n = self.kind.shape[0]
        mask: npt.NDArray[np.bool_] | None = None

        def both(other: npt.NDArray[np.bool_]) -> None:
            nonlocal mask
            mask = other if mask is None else mask & other

        if request.kind:
            both(self.kind_mask(matched_kinds(request.kind)))  # `method`: constructors too
        if request.language:
            wanted = [i for i, name in enumerate(self.languages) if name in request.language]
            both(np.isin(self.language, np.asarray(wanted, dtype=np.int16)))
        if request.file_pattern:
            both(self.file_mask(request.file_pattern))
        if request.exclude_path:
            both(~self.file_mask(request.exclude_path))
        if request.exclude_language:
            unwanted = [
                i for i, name in enumerate(self.languages) if name in request.exclude_language
            ]
            both(~np.isin(self.language, np.asarray(unwanted, dtype=np.int16)))
        if request.file_extensions:
            both(self.extension_mask(request.file_extensions))
        if request.extends:
            both(self._names(self.extends, request.extends))
        if request.implements:
            named = self._names(self.implements, request.implements)
            both(named if implementers is None else named | implementers)
        if request.decorator:
            both(self._names(self.decorators, request.decorator))
        if request.include_tests is IncludeTests.FALSE:
            both(~self.side_code())
        elif request.include_tests is IncludeTests.ONLY:
            both(self.side_code())
        if mask is not None and mask.shape[0] != n:
            mask = np.zeros(n, dtype=np.bool_)
        return mask
