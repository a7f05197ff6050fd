"""The identity channel: how the query matches a symbol's name, as ordered tiers.

Tiers, best first (a symbol gets its best tier):

0. exact name (case-sensitive);
1. case-insensitive exact, also ignoring separators (``get user by id`` ->
   ``get_user_by_id``, ``getUserById``);
2. fqn suffix (``Model.save`` -> ``django.db.models.base.Model.save``);
3. prefix of the name (not for two or three letters typed as humps, ``AC``:
   AsyncClient before aclose, see :func:`short_humps`);
4. sub-token segment: the query's sub-tokens are a run of the name's
   (``user_by`` -> ``getUserById``);
5. camel-hump / initials: each hump of the query starts one of consecutive
   sub-tokens (``gUBI``, ``gubi``, ``getUsBI`` -> ``getUserById``);
6. substring of the name (or of its separator-free form).

Within a tier, names closer in length to the query come first, then central
ones (PageRank). Exact and prefix tiers are binary searches in sorted name
arrays; substring, segment, fqn-suffix and camel-hump tiers are one regex scan
each over all names joined into one string, in C, with a Python loop only over
the matches. The scans of name forms read each distinct name once
(:class:`DistinctNames`): a workspace has far fewer distinct names than symbols.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from itertools import chain, pairwise
from operator import ne
from typing import TypeVar

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Symbol
from symfuse.ranking.channels.names.hump_filter import InitialPairs, LetterMasks
from symfuse.ranking.channels.names.humps import (
    camel_hump_pattern,
    hump_count,
    hump_letters,
    hump_word,
    short_humps,
)
from symfuse.ranking.channels.names.scans import Joined, SortedNames
from symfuse.ranking.channels.tokens import WORD, split_identifier
from symfuse.ranking.channels.topk import Ranking

_T = TypeVar("_T", bound=np.generic)
# DistinctNames.spread sets the symbols of the names that differ while they are at most
# one in this many names; more, and a gather over every symbol is as quick.
SPREAD = 8


class MatchTier(IntEnum):
    EXACT = 0
    CASE_INSENSITIVE = 1
    FQN_SUFFIX = 2
    PREFIX = 3
    SEGMENT = 4
    CAMEL_HUMP = 5
    SUBSTRING = 6
    NONE = 7


@dataclass(frozen=True, slots=True)
class NameForms:
    """The name forms of some symbols, as plain lists (built per file, then joined)."""

    names: list[str]
    lower: list[str]
    wholes: list[str]  # lower-case, separators dropped: "getuserbyid"
    spaced: list[str]  # " get user by id "
    fqn: list[str]  # "." + fqn lower-cased, "::" and "#" as "."

    @classmethod
    def of(cls, symbols: Sequence[Symbol]) -> NameForms:
        names = [s.name for s in symbols]
        parts = [split_identifier(n) for n in names]
        return cls(
            names=names,
            lower=[n.lower() for n in names],
            wholes=["".join(p) for p in parts],
            spaced=[" " + " ".join(p) + " " for p in parts],
            fqn=[_dotted("." + s.fqn.lower()) for s in symbols],
        )

    @classmethod
    def with_split(
        cls, symbols: Sequence[Symbol], wholes: list[str], spaced: list[str]
    ) -> NameForms:
        """The forms of ``symbols`` whose names were split before (:meth:`of` made
        ``wholes`` and ``spaced``)."""
        names = [s.name for s in symbols]
        return cls(
            names=names,
            lower=[n.lower() for n in names],
            wholes=wholes,
            spaced=spaced,
            fqn=[_dotted("." + s.fqn.lower()) for s in symbols],
        )

    @classmethod
    def join(cls, forms: Sequence[NameForms]) -> NameForms:
        return cls(
            names=list(chain.from_iterable(f.names for f in forms)),
            lower=list(chain.from_iterable(f.lower for f in forms)),
            wholes=list(chain.from_iterable(f.wholes for f in forms)),
            spaced=list(chain.from_iterable(f.spaced for f in forms)),
            fqn=list(chain.from_iterable(f.fqn for f in forms)),
        )


class _Pairs:
    """The initial pairs of :class:`DistinctNames`, once built (a holder: the names are
    frozen, the pairs come later)."""

    __slots__ = ("value",)

    def __init__(self) -> None:
        self.value: InitialPairs | None = None


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class DistinctNames:
    """Each distinct name once, in name order, with the symbols that bear it.

    A name's lower-case, separator-free and spaced forms depend on the name alone, so
    a scan over them needs each distinct name once; its hits are then widened to the
    symbols (``__init__``, which names hundreds of methods in a large workspace, is
    scanned once).
    """

    lower_text: Joined
    wholes_text: Joined
    spaced_text: Joined  # " get user by id " per name
    starts: npt.NDArray[np.int64]  # name i is borne by positions[starts[i]:starts[i + 1]]
    positions: npt.NDArray[np.int64]  # every symbol, ordered by name
    name_of: npt.NDArray[np.int32]  # per symbol, its distinct name
    letters: LetterMasks  # which names a camel hump could match
    token_count: npt.NDArray[np.int32]  # sub-tokens per name
    # a server's: which names a letter-by-letter reading can match across sub-tokens
    # (:meth:`NameTable.index_suffixes`)
    pairs: _Pairs = field(default_factory=_Pairs, compare=False, repr=False)

    @classmethod
    def of(cls, forms: NameForms, names: SortedNames) -> DistinctNames:
        values = names.values
        # a name starts where it differs from the one before it (C-level comparisons)
        differs = np.fromiter(map(ne, values[1:], values[:-1]), dtype=np.bool_)
        firsts = np.flatnonzero(np.concatenate(([True], differs)))[: len(values)]
        starts = np.append(firsts, len(values)).astype(np.int64)
        bearers = names.positions[firsts].tolist()
        name_of = np.empty(len(values), dtype=np.int32)
        name_of[names.positions] = np.repeat(
            np.arange(len(firsts), dtype=np.int32), np.diff(starts)
        )
        spaced = Joined.of([forms.spaced[p] for p in bearers])
        codes = np.frombuffer(spaced.text.encode("utf-32-le"), dtype=np.uint32)
        return cls(
            lower_text=Joined.of([forms.lower[p] for p in bearers]),
            wholes_text=Joined.of([forms.wholes[p] for p in bearers]),
            spaced_text=spaced,
            starts=starts,
            positions=names.positions,
            name_of=name_of,
            letters=LetterMasks.of(codes, spaced.starts),
            token_count=np.add.reduceat(codes == ord(" "), spaced.starts, dtype=np.int32) - 1
            if len(firsts)
            else np.zeros(0, dtype=np.int32),
        )

    def camel_humps(self, query: str) -> npt.NDArray[np.int64]:
        """The names matching the camel-hump reading of ``query`` (:func:`camel_hump_pattern`),
        scanning only the names that hold its letters and start sub-tokens with its
        humps' first letters (:class:`~symfuse.ranking.channels.names.hump_filter.LetterMasks`)."""
        pattern = camel_hump_pattern(query)
        if pattern is None:
            return np.zeros(0, dtype=np.int64)
        letters = hump_letters(query)
        among = None if letters is None else self.letters.candidates(*letters)
        word = hump_word(query)
        pairs = self.pairs.value
        if among is not None and word is not None and pairs is not None:
            return self._letter_by_letter(word, pattern, among, pairs)
        if among is None:
            return self.spaced_text.search(pattern)
        return self.spaced_text.search_among(pattern, among)

    def _letter_by_letter(
        self, word: str, pattern: re.Pattern[str], among: npt.NDArray[np.int64], pairs: InitialPairs
    ) -> npt.NDArray[np.int64]:
        """A one-word reading with the suffix array and initial pairs built: the names with
        a sub-token starting with the whole word, by binary search, and the regex over
        the names that could match across sub-tokens (an initial pair from the first
        letter to a later one) and do not already."""
        whole = self.spaced_text.contains(" " + word)
        keep = np.zeros(len(self), dtype=np.bool_)  # marks, not isin / intersect1d: no sorts
        keep[pairs.holding(word[0], word[1:])] = True
        keep[whole] = False
        across = among[keep[among]]
        return np.concatenate((whole, self.spaced_text.search_among(pattern, across)))

    def __len__(self) -> int:
        return int(self.starts.shape[0]) - 1

    def symbols(self, distinct: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        """The symbols bearing the names ``distinct`` (each name's in name order)."""
        low = self.starts[distinct]
        counts = self.starts[distinct + 1] - low
        ends = np.cumsum(counts)
        offsets = np.repeat(low - ends + counts, counts) + np.arange(
            int(ends[-1]) if len(ends) else 0
        )
        return self.positions[offsets]

    def widened(self, values: npt.NDArray[_T]) -> npt.NDArray[_T]:
        """Per symbol, the value of its name (``values`` holds one per distinct name)."""
        return values[self.name_of]

    def spread(self, values: npt.NDArray[_T], rest: int) -> npt.NDArray[_T]:
        """:meth:`widened` of ``values`` that are ``rest`` for most names: the others'
        symbols set alone (a gather through the int32 ``name_of`` converts every index
        first, a tenth of a millisecond a query in a large workspace)."""
        named = np.flatnonzero(values != rest)
        if named.shape[0] * SPREAD > len(self):
            return self.widened(values)
        low = self.starts[named]
        out = np.full(self.positions.shape[0], rest, dtype=values.dtype)
        out[self.symbols(named)] = np.repeat(values[named], self.starts[named + 1] - low)
        return out

    def per_symbol(self, joined: Joined) -> list[str]:
        """The strings of ``joined`` (one per distinct name), one per symbol."""
        forms = joined.text.split("\n")
        ids = self.widened(np.arange(len(self), dtype=np.int64))
        return [forms[i] for i in ids.tolist()]


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class NameTable:
    """Precomputed name forms, aligned with ``Index.symbols``."""

    names: SortedNames  # as written
    lower: SortedNames
    wholes: SortedNames  # lower-case, separators dropped: "getuserbyid"
    distinct: DistinctNames  # the scanned forms, once per distinct name
    fqn_text: Joined  # "." + fqn lower-cased, "::" and "#" as "."
    name_length: npt.NDArray[np.int32]
    wholes_list: list[str]
    token_count: npt.NDArray[np.int32]  # sub-tokens per name

    @classmethod
    def build(cls, symbols: Sequence[Symbol]) -> NameTable:
        return cls.of(NameForms.of(symbols))

    @classmethod
    def of(
        cls,
        forms: NameForms,
        orders: Sequence[npt.NDArray[np.int64]] | None = None,
        *,
        built: tuple[DistinctNames, Joined] | None = None,
    ) -> NameTable:
        """``orders``: the sort orders of names, lower and wholes, when known; ``built``:
        the distinct names and the fqn text as a ranking file kept them (``forms.spaced``
        and ``forms.fqn`` are then not read)."""
        names = forms.names
        by_name, by_lower, by_whole = orders if orders is not None else (None, None, None)
        as_written = SortedNames.of(names, by_name)
        distinct, fqn_text = built or (DistinctNames.of(forms, as_written), Joined.of(forms.fqn))
        return cls(
            names=as_written,
            lower=SortedNames.of(forms.lower, by_lower),
            wholes=SortedNames.of(forms.wholes, by_whole),
            distinct=distinct,
            fqn_text=fqn_text,
            name_length=np.fromiter(map(len, names), dtype=np.int32, count=len(names)),
            wholes_list=forms.wholes,
            token_count=distinct.widened(distinct.token_count),
        )

    def __len__(self) -> int:
        return int(self.name_length.shape[0])

    def index_suffixes(self, previous: NameTable | None = None) -> bool:
        """Suffix arrays for the name texts every query looks substrings up in, and the
        initial pairs (a server's warming thread, which can spare the time and memory; a
        one-shot search scans with ``str.find``). The fqn text is left: only
        dotted queries read it. Whether anything was built (False: built before).

        ``previous``: the table indexed before (the last generation's): a text equal to
        its counterpart there takes its array as it is, as after an edit inside a body,
        which changes no name."""
        distinct = self.distinct
        if distinct.pairs.value is not None:
            return False
        before = previous.distinct if previous is not None else None
        for mine, theirs in _counterparts(distinct, before):
            if theirs is not None and theirs.suffixes.ready and theirs.text == mine.text:
                mine.suffixes.adopt(theirs.suffixes)
            else:
                mine.index_suffixes()
        spaced = distinct.spaced_text
        if (
            before is not None
            and before.pairs.value is not None
            and before.spaced_text.text == spaced.text
        ):
            distinct.pairs.value = before.pairs.value  # last: marks it built
            return True
        codes = np.frombuffer(spaced.text.encode("utf-32-le"), dtype=np.uint32)
        distinct.pairs.value = InitialPairs.of(codes, spaced.starts)  # last: marks it built
        return True


def _counterparts(
    distinct: DistinctNames, before: DistinctNames | None
) -> list[tuple[Joined, Joined | None]]:
    """The texts :meth:`NameTable.index_suffixes` indexes, each with the one of ``before``:
    the separator-free and spaced forms, and the lower-case one, which a query with
    separators (``test_c``, ``get-user``) is looked up in as well."""
    mine = (distinct.wholes_text, distinct.spaced_text, distinct.lower_text)
    if before is None:
        return [(m, None) for m in mine]
    theirs = (before.wholes_text, before.spaced_text, before.lower_text)
    return list(zip(mine, theirs, strict=True))


def _dotted(text: str) -> str:
    return text.replace("::", ".").replace("#", ".").replace("/", ".")


def tiers(table: NameTable, query: str) -> npt.NDArray[np.int8]:
    """The best match tier of every symbol for ``query`` (``MatchTier.NONE`` if none)."""
    q = " ".join(query.split())
    ql = q.lower()
    if not q or not len(table):
        return np.full(len(table), MatchTier.NONE, dtype=np.int8)
    sub = [t for w in WORD.findall(q) for t in split_identifier(w)]
    whole = "".join(sub)

    distinct = table.distinct
    by_name = np.full(len(distinct), MatchTier.NONE, dtype=np.int8)

    def mark_names(found: npt.NDArray[np.int64], level: MatchTier) -> None:
        if found.shape[0]:
            np.minimum.at(by_name, found, np.int8(level))

    if whole:  # one letter too: an editor lists every name with it (the quick table does)
        mark_names(distinct.wholes_text.contains(whole), MatchTier.SUBSTRING)
    if ql != whole:  # else the separator-free scan above found the same names
        mark_names(distinct.lower_text.contains(ql), MatchTier.SUBSTRING)
    mark_names(distinct.camel_humps(q), MatchTier.CAMEL_HUMP)
    if sub:
        mark_names(distinct.spaced_text.contains(" " + " ".join(sub) + " "), MatchTier.SEGMENT)
    tier = distinct.spread(by_name, MatchTier.NONE)

    def mark(positions: npt.NDArray[np.int64], level: MatchTier) -> None:
        if positions.shape[0]:
            np.minimum.at(tier, positions, np.int8(level))

    if not short_humps(q):
        # "AC" means AsyncClient: for two or three letters typed as humps, a name that
        # merely starts with them (aclose, ACCEPT) stays in the substring tier, below
        # the camel-hump matches (a whole sub-token, IOError for "IO", is a segment).
        mark(table.lower.prefixed(ql), MatchTier.PREFIX)
        if whole and len(sub) > 1:
            mark(table.wholes.prefixed(whole), MatchTier.PREFIX)
    dotted = _dotted(ql).strip(".")
    if "." in dotted:
        mark(table.fqn_text.contains("." + dotted + "\n"), MatchTier.FQN_SUFFIX)
    mark(table.lower.equal(ql), MatchTier.CASE_INSENSITIVE)
    if whole:
        mark(table.wholes.equal(whole), MatchTier.CASE_INSENSITIVE)
    mark(table.names.equal(q), MatchTier.EXACT)
    return tier


def name_distance(
    table: NameTable, query: str, found: npt.NDArray[np.int64], tier: npt.NDArray[np.int8]
) -> npt.NDArray[np.int64]:
    """How far each name of ``found`` is from the query: the difference in length, or for
    a camel-hump match in sub-tokens (the identity channel's order after the tier)."""
    distance = np.abs(table.name_length[found] - len(query.strip())).astype(np.int64)
    hump = tier[found] == MatchTier.CAMEL_HUMP
    if hump.any():
        # An abbreviation reads best as one letter group per sub-token: "gsf" ->
        # get_serializer_formats before get_source_field_names; "glin" ->
        # GetLanguageInfoNode before get_language_info.
        distance[hump] = np.abs(table.token_count[found[hump]] - hump_count(query))
    return distance


def rank(
    table: NameTable,
    query: str,
    pagerank: npt.NDArray[np.float64],
    mask: npt.NDArray[np.bool_] | None,
    limit: int,
) -> tuple[Ranking, npt.NDArray[np.int8]]:
    """Matching symbols by tier, then closeness of length, then PageRank; and all tiers.

    The ranking's scores are ``(NONE - tier) / NONE``: 1.0 for an exact name.
    """
    tier = tiers(table, query)
    hit = tier < MatchTier.NONE
    if mask is not None:
        hit &= mask
    found = np.flatnonzero(hit)
    if not found.shape[0]:
        return Ranking.empty(), tier
    distance = name_distance(table, query, found, tier)
    order = np.lexsort((found, -pagerank[found], distance, tier[found]))[:limit]
    chosen = found[order].astype(np.int64)
    scores = (MatchTier.NONE - tier[chosen]).astype(np.float64) / float(MatchTier.NONE)
    return Ranking(chosen, scores, found.astype(np.int64)), tier


def rank_words(
    table: NameTable,
    words: Sequence[str],
    pagerank: npt.NDArray[np.float64],
    mask: npt.NDArray[np.bool_] | None,
    limit: int,
) -> Ranking:
    """Names that a prose query spells out: a name equal (ignoring case and separators)
    to two consecutive words joined (``hide input`` -> ``hide_input``, ``lazy file`` ->
    ``LazyFile``) or to one word (``prompt``).

    Pairs rank first, then single words by how few names they match (a rare word
    names one thing), then PageRank. Scores: 1.0 for a pair, 0.5 for a word.
    Only equality lookups in the sorted name tables: cheap for any number of words.
    """
    groups: list[tuple[float, npt.NDArray[np.int64]]] = []
    lowered = [w.lower() for w in words]
    for first, second in pairwise(lowered):
        found = table.wholes.equal(first + second)
        if found.shape[0]:
            groups.append((1.0, found))
    singles = [np.union1d(table.lower.equal(w), table.wholes.equal(w)) for w in lowered]
    for found in sorted(singles, key=len):
        if found.shape[0]:
            groups.append((0.5, found.astype(np.int64)))
    seen = np.zeros(len(table), dtype=np.bool_)
    chosen: list[npt.NDArray[np.int64]] = []
    scores: list[npt.NDArray[np.float64]] = []
    for score, group in groups:
        fresh = group[~seen[group]]
        if mask is not None:
            fresh = fresh[mask[fresh]]
        if not fresh.shape[0]:
            continue
        fresh = fresh[np.argsort(-pagerank[fresh], kind="stable")]
        seen[fresh] = True
        chosen.append(fresh)
        scores.append(np.full(fresh.shape[0], score))
    if not chosen:
        return Ranking.empty()
    every = np.concatenate(chosen)
    return Ranking(every[:limit], np.concatenate(scores)[:limit], every)


# hump_count is read by ranking.fusion.guards from here
__all__ = ["MatchTier", "NameForms", "NameTable", "hump_count", "name_distance", "rank", "tiers"]
