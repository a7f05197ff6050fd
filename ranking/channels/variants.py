"""Words of a question that the code spells with another ending.

The stemmer (:func:`~symfuse.ranking.channels.tokens.stem`) is light on purpose: a name
must stay recognisable. So a question's "tokenized" (``tokeniz``) does not meet the
code's ``Tokens`` (``token``), nor its "decoder" a ``Decoding`` module (``decod``). Prose
queries (:attr:`~symfuse.ranking.channels.lexical.Bm25f.variants`) count the vocabulary's
words that are a query word with one of the usual derivational endings added or taken
away (:data:`ENDINGS`: ``-er``, ``-ize``, ``-ion``, ``-al``, ...) as that word at a lower
weight, the way synonyms count. The shorter of the two has at least :data:`MIN_STEM`
letters, or four with ``-er`` / ``-or`` (``pars`` / ``parser``, ``writ`` / ``writer``),
so that ``form`` and ``format`` stay apart; a word that goes on with another word
(``tokenstream``, ``recorda``) is not an ending.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping
from threading import Lock

MIN_STEM = 5
SHORT_ENDINGS = frozenset({"er", "or"})
# endings as the stemmer leaves them (a final "e" folded: "-ize" is "iz", "-able" "abl")
ENDINGS = SHORT_ENDINGS | frozenset(
    [
        "iz",
        "is",
        "ion",
        "al",
        "at",
        "ic",
        "ly",
        "y",
        "ity",
        "ment",
        "ation",
        "iv",
        "abl",
        "ibl",
        "ist",
        "ism",
        "ent",
        "enc",
        "anc",
        "ness",
        "ur",
    ]
)
_LONGEST = max(map(len, ENDINGS))


def variants(term: str, term_ids: Mapping[str, int]) -> list[str]:
    """The words of ``term_ids`` that are ``term`` with an ending of :data:`ENDINGS` added
    or taken away (see the module doc): the shorter ones first."""
    if len(term) < MIN_STEM - 1 or not term.isalpha():
        return []
    shorter = [
        term[:k]
        for k in range(max(MIN_STEM - 1, len(term) - _LONGEST), len(term))
        if _ending(term[:k], term) and term[:k] in term_ids
    ]
    words = _sorted(term_ids)
    longer: list[str] = []
    at = bisect_left(words, term)
    while at < len(words) and words[at].startswith(term):
        if _ending(term, words[at]):
            longer.append(words[at])
        at += 1
    return shorter + sorted(longer, key=lambda w: (len(w), w))


def _ending(short: str, long: str) -> bool:
    """Whether ``long`` is ``short`` and one ending of :data:`ENDINGS`."""
    ending = long[len(short) :]
    if ending in SHORT_ENDINGS:
        return len(short) >= MIN_STEM - 1
    return len(short) >= MIN_STEM and ending in ENDINGS


_CACHE: dict[int, tuple[Mapping[str, int], list[str]]] = {}  # id -> (the mapping, its words)
_CACHE_SIZE = 8
_LOCK = Lock()


def _sorted(term_ids: Mapping[str, int]) -> list[str]:
    """The words of ``term_ids`` sorted, kept for the few vocabularies a process serves
    (the mapping is held with them, so its id is not reused while cached)."""
    key = id(term_ids)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None and hit[0] is term_ids:
            return hit[1]
    words = sorted(term_ids)
    with _LOCK:
        if len(_CACHE) >= _CACHE_SIZE:
            _CACHE.pop(next(iter(_CACHE)))
        _CACHE[key] = (term_ids, words)
    return words
