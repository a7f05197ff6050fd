"""How a query reads as camel humps: its humps (``gUBI`` -> g U B I), the regex over
spaced names that matches that reading, and what a name needs to match it (the identity
channel's camel-hump tier, :mod:`symfuse.ranking.channels.identity`).
"""

from __future__ import annotations

import re

from symfuse.ranking.channels.tokens import WORD

MAX_HUMPS = 16

_HUMP = re.compile(r"[A-Z$]?[a-z$]*|[0-9]+|[A-Z]")


def humps(query: str) -> list[str]:
    """The humps a query is typed as: ``gUBI`` -> g U B I; ``get_user`` -> get user;
    ``gOO404`` -> g O O 404 (digits are a sub-token of their own, as names are split).

    One lower-case word stays whole: it is read letter by letter (``goo404``).
    """
    words = [w for word in WORD.findall(query) for w in word.replace("_", " ").split()]
    if len(words) == 1 and not any(c.isupper() for c in words[0]):
        return words
    return [h for word in words for h in _HUMP.findall(word) if h]


def hump_count(query: str) -> int:
    """How many sub-tokens an abbreviation names: its humps, or its letters when it is
    one lower-case word (initials)."""
    parts = humps(query)
    if len(parts) == 1 and parts[0].islower():
        return len(parts[0])
    return len(parts)


def camel_hump_pattern(query: str) -> re.Pattern[str] | None:
    """A regex over spaced names matching the camel-hump reading of ``query``.

    An all-lower-case single word (``gubi``) may split anywhere: each letter
    either continues the current sub-token or starts the next one.
    """
    parts = humps(query)
    if not parts or len(parts) > MAX_HUMPS:
        return None
    if len(parts) == 1:
        word = hump_word(query)
        if word is None:
            return None
        body = "(?:[^ \\n]* )?".join(re.escape(c) for c in word)
        return re.compile(" " + body)
    body = "[^ \\n]* ".join(re.escape(h.lower()) for h in parts)
    return re.compile(" " + body)


def hump_letters(query: str) -> tuple[str, str] | None:
    """What a name needs to match :func:`camel_hump_pattern`'s reading of ``query``: every
    letter of it, and sub-tokens starting with the first letter of each hump (of the
    word, when it is read letter by letter)."""
    word = hump_word(query)
    if word is not None:
        return word, word[0]
    parts = [h.lower() for h in humps(query)]
    if len(parts) < 2 or len(parts) > MAX_HUMPS:
        return None
    return "".join(parts), "".join(h[0] for h in parts)


def hump_word(query: str) -> str | None:
    """The word :func:`camel_hump_pattern` reads letter by letter, when it does so."""
    parts = humps(query)
    if len(parts) != 1:
        return None
    word = parts[0].lower()
    return word if 2 <= len(word) <= MAX_HUMPS else None


SHORT_HUMPS = 3  # letters up to which typed humps outrank a prefix ignoring case


def short_humps(query: str) -> bool:
    """Whether ``query`` is a short abbreviation typed as humps: two or three letters
    (or digits) in two or more humps, so with a capital after the first letter or all
    capitals (``AC``, ``ACl``, ``sP``, ``ZO``; not ``Ab`` or ``ab``)."""
    return 2 <= len(query) <= SHORT_HUMPS and query.isalnum() and len(humps(query)) >= 2
