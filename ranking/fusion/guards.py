"""The guard's order classes for an identifier-shaped query (see :func:`guard_levels`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from symfuse.ranking.channels.identity import MatchTier, NameTable, hump_count
from symfuse.ranking.channels.tokens import QUALIFIED_SEPARATORS
from symfuse.ranking.fusion.tuning import TUNING
from symfuse.ranking.query.search_request import Channel

if TYPE_CHECKING:
    from symfuse.ranking.search.channel_run import ChannelRun

# What an item the guard lifted was lifted for, by its match tier.
BOOSTS = {
    MatchTier.EXACT: "exact_name",
    MatchTier.CASE_INSENSITIVE: "exact_name",
    MatchTier.FQN_SUFFIX: "name_match",
    MatchTier.PREFIX: "name_match",
    MatchTier.SEGMENT: "name_match",
    MatchTier.CAMEL_HUMP: "name_match",
    MatchTier.SUBSTRING: "name_match",
    MatchTier.NONE: "name_match",
}
# What the guard ordered an item by, by its match tier (fusion_debug's adjustments).
_CLASSES = {
    MatchTier.EXACT: "exact name",
    MatchTier.CASE_INSENSITIVE: "exact name but for case",
    MatchTier.FQN_SUFFIX: "qualified-name suffix",
    MatchTier.PREFIX: "name prefix",
    MatchTier.SEGMENT: "name segment",
    MatchTier.CAMEL_HUMP: "camel humps",
    MatchTier.SUBSTRING: "part of the name or one edit away",
    MatchTier.NONE: "no name match",
}


def level_reasons(levels: npt.NDArray[np.int8]) -> Callable[[int], str]:
    """Why the guard placed each item, by its index in ``levels`` (see :func:`guard_levels`):
    the ``why`` of :func:`~symfuse.ranking.fusion.rrf.guard_first`."""

    def reason(i: int) -> str:
        level = int(levels[i])
        return f"exact-name guard, class {level}: {_CLASSES[MatchTier(min(level // 2, 7))]}"

    return reason


def _qualified_levels(
    level: npt.NDArray[np.int8], names: NameTable, positions: npt.NDArray[np.int64], query: str
) -> npt.NDArray[np.int8]:
    """``level`` for a qualified query (``A.b``, ``A::B``, ``A#b``): a qualified name
    ending in it ranks as an exact name when its own name is the query's last part as
    written (``JsonFactory.builder`` the method, ``Thor#options`` the method ``options``),
    else as one but for case, with a name that only spells the parts run together
    (``JsonFactoryBuilder``) or differs in case (the class ``Thor.Options``)."""
    suffix = level == MatchTier.FQN_SUFFIX
    level[suffix] = MatchTier.CASE_INSENSITIVE
    last = QUALIFIED_SEPARATORS.split(query.strip())[-1]
    if last and suffix.any():
        written = np.isin(positions, names.names.equal(last))
        level[suffix & written] = MatchTier.EXACT
    return level


def guard_levels(
    run: ChannelRun,
    names: NameTable,
    positions: npt.NDArray[np.int64],
    query: str,
    max_edit_distance: int,
    lower: list[str] | None = None,
) -> npt.NDArray[np.int8]:
    """Order classes for an identifier-shaped query: twice the identity tier of each item.

    A name match of a better tier always ranks above a worse one, so an exact
    name comes first; fusion orders the items within a class. When no name
    matched as typed and fuzzy ran on its own, names within
    :attr:`Tuning.typo_guard_distance` edits lead (levels 1..3, closest first).
    """
    level = run.tiers[positions].copy()
    farther_as_written = np.zeros(positions.shape[0], dtype=np.bool_)
    if any(sep in query for sep in (".", "::", "#")):
        level = _qualified_levels(level, names, positions, query)
    fuzzy_hits = run.rankings.get(Channel.FUZZY)
    if run.fuzzy_auto and fuzzy_hits is not None and len(fuzzy_hits):
        distance = np.full(run.tiers.shape[0], 127, dtype=np.int64)
        distance[fuzzy_hits.positions] = np.rint(
            (1.0 - fuzzy_hits.scores) * (max_edit_distance + 1)
        ).astype(np.int64)
        near = distance[positions]
        close = near <= TUNING.typo_guard_distance
        level[close] = (1 + near[close]).astype(np.int8)
        if lower is not None:
            # Equally close once separators are dropped, the name closer as written leads
            # ("_quote_anme": "_quote_name" before "quote_name"), as in the fuzzy channel.
            at = np.flatnonzero(close)
            from rapidfuzz import process  # here: only when fuzzy ran on its own
            from rapidfuzz.distance import OSA

            written = process.cdist(
                [query.strip().lower()], [lower[int(p)] for p in positions[at]], scorer=OSA.distance
            )[0]
            farther_as_written[at] = written > near[at]
    elif run.near_typo and fuzzy_hits is not None and len(fuzzy_hits):
        # One edit away ranks with the substring matches; fusion orders within.
        one = np.isin(positions, fuzzy_hits.positions)
        level[one] = np.minimum(level[one], np.int8(MatchTier.SUBSTRING))
    # Half steps: within the camel-hump tier, abbreviations that name every sub-token
    # ("gsf" -> get_serializer_formats) lead those that skip or split some.
    halves = (level * 2 + farther_as_written).astype(np.int8)
    hump = level == MatchTier.CAMEL_HUMP
    if hump.any():
        tokens = names.token_count[positions[hump]]
        halves[hump] += (tokens != hump_count(query)).astype(np.int8)
    return halves
