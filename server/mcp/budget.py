"""The token budget of MCP answers: render, measure, trim to fit, say how to get the rest.

Tokens are estimated as characters / 4, which is close enough for code-ish
JSON and TOON with the tokenizers agents use. An answer is a JSON-shaped dict
with one list of rows (``items``, ``usages``, ``matches``, ...). When the
rendered answer is over the budget, rows are dropped from the end (the least
relevant ones, since every list is ranked or ordered) and a one-line ``hint``
says so. ``truncated: true`` means the answer does not show every match (cut
by the budget or by ``limit``); ``next_offset`` is where the next page starts.
When a few long rows would fill the budget alone, their long strings
(signatures, docs, snippets) are clipped and marked instead.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

import toon_format

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
    shape: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> Fitted:
    """Trim ``data[rows_key]`` (a ranked list) until the rendering fits ``max_tokens``.

    ``offset`` is where these rows start in the full result and ``total`` how
    many rows the full result has, so that ``next_offset`` points at the first
    row not shown, whether it was cut here or by the caller's ``limit``.
    ``shape`` turns the flat answer into the one sent (grouping rows by file
    or by tier, say); trimming works on the flat rows either way.
    """
    shaper = shape or _same
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


def _same(data: dict[str, Any]) -> dict[str, Any]:
    return data


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
