"""Presenting an answer: trim its flat page to the token budget, then group it, once.

Ranking answers every operation with one flat, ordered page of rows (``items``,
``usages``, ``rows``, ...). This module is the one path from that page to what a front
end sends: :func:`fit` drops rows from the end (the least relevant, since every page is
ranked or ordered) until the rendering fits the budget, clipping long strings when a
few long rows would fill it alone, and a one-line ``hint`` says so; then the page is
grouped the way the request asked (:class:`Grouping`: by tier, repository or file, or
types by direction). The CLI groups through :func:`group` with no budget.

Tokens are estimated as characters / 4, which is close enough for code-ish JSON and
TOON with the tokenizers agents use. ``truncated: true`` means the answer does not
show every match (cut by the budget or by ``limit``); ``next_offset`` is where the
next page starts.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from symfuse.ranking.api import SearchResponse

DEFAULT_MAX_TOKENS = 2000
MIN_MAX_TOKENS = 200
MAX_MAX_TOKENS = 50_000
CHARS_PER_TOKEN = 4
CLIP_MARK = "…"


class Format(StrEnum):
    JSON = "json"
    TOON = "toon"


def render(data: Any, fmt: Format) -> str:
    """The answer as the text an agent reads: compact JSON or TOON (lossless, same data)."""
    if fmt is Format.TOON:
        import toon_format  # here: a CLI search that prints JSON or text never loads it

        return str(toon_format.encode(data))
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def estimate_tokens(text: str) -> int:
    return -(-len(text) // CHARS_PER_TOKEN)


@dataclass(frozen=True, slots=True)
class Fitted:
    """A rendered answer that fits its budget, and the data it renders."""

    data: dict[str, Any]
    text: str
    tokens: int
    kept: int


def fit(
    data: dict[str, Any],
    rows_key: str,
    fmt: Format,
    max_tokens: int,
    *,
    offset: int = 0,
    total: int | None = None,
    grouping: Grouping | None = None,
) -> Fitted:
    """Trim ``data[rows_key]`` (a ranked list) until the rendering fits ``max_tokens``.

    ``offset`` is where these rows start in the full result and ``total`` how
    many rows the full result has, so that ``next_offset`` points at the first
    row not shown, whether it was cut here or by the caller's ``limit``.
    ``grouping`` groups the rows that fit (by tier, by file, ...); trimming works on the
    flat rows and measures the grouped rendering.
    """

    def shaper(data: dict[str, Any]) -> dict[str, Any]:
        return data if grouping is None else group(data, rows_key, grouping)

    rows: list[Any] = list(data.get(rows_key) or [])
    total = total if total is not None else offset + len(rows)
    more = offset + len(rows) < total
    base = dict(data)
    base["truncated"] = bool(more or base.get("truncated"))
    if more:
        base["next_offset"] = offset + len(rows)
    shaped = shaper(base)
    text = render(shaped, fmt)
    if estimate_tokens(text) <= max_tokens:
        return Fitted(shaped, text, estimate_tokens(text), len(rows))

    original = rows
    best = _largest_fit(base, rows_key, original, False, fmt, max_tokens, offset, more, shaper)
    if best.kept < min(len(original), 3):
        # A few long rows ate the budget: clip their long strings and try again.
        share = max(80, (max_tokens * CHARS_PER_TOKEN) // (2 * min(len(original), 12)))
        clipped = [clip_strings(row, share) for row in original]
        if clipped != original:
            second = _largest_fit(
                base, rows_key, clipped, True, fmt, max_tokens, offset, more, shaper
            )
            if second.kept > best.kept:
                best = second
    return best


def _largest_fit(
    base: dict[str, Any],
    rows_key: str,
    rows: list[Any],
    clipped: bool,
    fmt: Format,
    max_tokens: int,
    offset: int,
    more: bool,
    shaper: Callable[[dict[str, Any]], dict[str, Any]],
) -> Fitted:
    def attempt(n: int) -> Fitted:
        trial = dict(base)
        trial[rows_key] = rows[:n]
        dropped = n < len(rows)
        trial["truncated"] = dropped or clipped or more
        if dropped or more:
            trial["next_offset"] = offset + n
        if dropped:
            trial["hint"] = (
                f"trimmed to fit max_tokens={max_tokens}: {n} of {len(rows)} rows shown; "
                f"call again with offset={offset + n} for the rest, or raise max_tokens"
            )
        elif clipped:
            trial["hint"] = (
                f"long text fields were clipped (marked {CLIP_MARK}) to fit "
                f"max_tokens={max_tokens}; raise max_tokens to see them whole"
            )
        shaped = shaper(trial)
        text = render(shaped, fmt)
        return Fitted(shaped, text, estimate_tokens(text), n)

    lo, hi = 0, len(rows)
    best = attempt(0)
    while lo < hi:  # binary search for the largest n whose rendering fits
        mid = (lo + hi + 1) // 2
        candidate = attempt(mid)
        if candidate.tokens <= max_tokens:
            lo, best = mid, candidate
        else:
            hi = mid - 1
    return best


def clip_strings(value: Any, limit: int) -> Any:
    """``value`` with every string longer than ``limit`` characters cut and marked."""
    if isinstance(value, str):
        return value if len(value) <= limit else value[: limit - 1] + CLIP_MARK
    if isinstance(value, dict):
        return {k: clip_strings(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [clip_strings(v, limit) for v in value]
    return value


def clip_lines(lines: list[str], max_chars: int) -> tuple[list[str], bool]:
    """The longest prefix of ``lines`` within ``max_chars`` (newlines counted); cut?"""
    used = 0
    for i, line in enumerate(lines):
        used += len(line) + 1
        if used > max_chars:
            return lines[:i], True
    return lines, False


class Grouping(StrEnum):
    """How a page is grouped once it fits: each value names the shape a front end sends."""

    TIERS = "tiers"  # ranked rows by their "tier": {"tiers": {"high": [...], ...}}
    REPOSITORIES = "repositories"  # by "repository": {"results_by_repo": {alias: {count, items}}}
    USAGES_BY_FILE = "usages_by_file"  # {"files": [{file, count, usages}]}, rows without file
    IMPACT_BY_FILE = "impact_by_file"  # {"files": [{file, test, items}]}
    TYPES_BY_DIRECTION = "types_by_direction"  # {"supertypes": [...], "subtypes": [...]}
    HITS_BY_FILE = "hits_by_file"  # {"files": [{file, items}]}, group_by file
    BY_REASON = "by_reason"  # {"groups": [{confidence, reason, items}]}: dead code


TIERS = ("high", "medium", "low")
_WHY = ("confidence", "reason")


def group(data: dict[str, Any], rows_key: str, grouping: Grouping) -> dict[str, Any]:
    """``data`` with its flat rows (``data[rows_key]``) grouped as ``grouping`` says, the
    groups standing where the rows stood; rows keep their order within each group."""
    rows: list[dict[str, Any]] = list(data.get(rows_key) or [])
    groups: dict[str, Any]
    if grouping is Grouping.TIERS:
        groups = {"tiers": {t: _without(_where(rows, "tier", t), "tier") for t in TIERS}}
    elif grouping is Grouping.REPOSITORIES:
        by_repo: dict[str, dict[str, Any]] = {}
        for row in rows:
            entry = by_repo.setdefault(str(row.get("repository")), {"count": 0, "items": []})
            entry["count"] += 1
            entry["items"].append({k: v for k, v in row.items() if k != "repository"})
        groups = {"results_by_repo": by_repo}
    elif grouping is Grouping.USAGES_BY_FILE:
        groups = {
            "files": [
                {"file": file, "count": len(found), "usages": _without(found, "file")}
                for file, found in _by_field(rows, "file").items()
            ]
        }
    elif grouping is Grouping.HITS_BY_FILE:
        by_file = _by_field(({"file": _file_of(row), **row} for row in rows), "file")
        groups = {
            "files": [
                {"file": file, "items": _without(found, "file")} for file, found in by_file.items()
            ]
        }
    elif grouping is Grouping.IMPACT_BY_FILE:
        groups = {
            "files": [
                {"file": file, "test": found[0]["test"], "items": _without(found, "file", "test")}
                for file, found in _by_field(rows, "file").items()
            ]
        }
    elif grouping is Grouping.BY_REASON:
        keyed = ({"why": (row["confidence"], row["reason"]), **row} for row in rows)
        groups = {
            "groups": [
                {"confidence": c, "reason": r, "items": _without(found, "why", *_WHY)}
                for (c, r), found in _by_field(keyed, "why").items()
            ]
        }
    else:
        groups = {
            f"{direction}s": _without(_where(rows, "direction", direction), "direction")
            for direction in ("supertype", "subtype")
        }
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key == rows_key:
            out.update(groups)
        else:
            out[key] = value
    if rows_key not in data:
        out.update(groups)
    return out


def _by_field(rows: Iterable[dict[str, Any]], key: str) -> dict[Any, list[dict[str, Any]]]:
    found: dict[Any, list[dict[str, Any]]] = {}
    for row in rows:
        found.setdefault(row[key], []).append(row)
    return found


def _file_of(row: dict[str, Any]) -> Any:
    """A row's file, or the path its symbol id starts with (``path::Name#kind``)."""
    return row.get("file") or str(row.get("symbol_id", "")).partition("::")[0]


def _where(rows: Iterable[dict[str, Any]], key: str, value: Any) -> list[dict[str, Any]]:
    return [row for row in rows if row.get(key) == value]


def _without(rows: Iterable[dict[str, Any]], *keys: str) -> list[dict[str, Any]]:
    return [lean(row, keys) for row in rows]


# What a row's symbol_id ("path::Qualified.name#kind") says, and its span's end: an agent's
# rows leave them out
IN_THE_ID = frozenset({"name", "kind", "fqn", "file", "end_line"})


def lean(row: dict[str, Any], dropped: Collection[str]) -> dict[str, Any]:
    """``row`` without the keys ``dropped``."""
    return {k: v for k, v in row.items() if k not in dropped}


def search_grouping(response: SearchResponse) -> Grouping | None:
    """How a search answer is grouped: by file when the request asked ``group_by: file``,
    by tier in tiered mode, by repository when it asked ``response_format: grouped``,
    else not at all."""
    from symfuse.ranking.api import SearchMode
    from symfuse.ranking.query.search_request import ResponseFormat

    if response.by_file:
        return Grouping.HITS_BY_FILE
    if response.search_mode is SearchMode.TIERED:
        return Grouping.TIERS
    if response.response_format is ResponseFormat.GROUPED:
        return Grouping.REPOSITORIES
    return None
