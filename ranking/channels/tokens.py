"""A code-aware tokenizer shared by the lexical, similarity and identity channels.

Identifiers are split into sub-tokens on ``_``, ``-``, ``.``, case changes
(``getHTTPResponse`` -> ``get http response``) and letter/digit boundaries
(``utf8Decode`` -> ``utf 8 decode``); the whole identifier is also kept, lower-cased
and without separators (``getuserbyid``), so that a query typed either way
meets it. Prose (docstrings, natural-language queries) goes through the same
splitter, word by word. Tokens get a light stem (Harman's "S" stemmer plus
``-ing``/``-ed`` and a final ``e`` folded (:func:`stem`), never anything
heavier: identifiers must stay recognisable.
"""

from __future__ import annotations

import re

WORD = re.compile(r"[\w$]+")
_SUBTOKEN = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
# a name may end in `!` or `?` (Ruby's `merge!`, Elixir's `execute!`, a Rust macro's `json!`)
# The separators of a qualified name, any language's: `.`, `::`, `->`, `\`, and a `#` after
# a word (`Thor#options`; `Ky.#retry`'s `#` opens JavaScript's private name `#retry`).
QUALIFIED_SEPARATORS = re.compile(r"::|->|[.\\]|(?<=\w)#")
# (a part may open with `#`: JavaScript's private names, `#retry`, `Ky.#retry`)
_IDENTIFIER = re.compile(r"^\\?#?[^\W\d]?[\w$]+(?:(?:\.|::|#|\\|->)#?[\w$]+)*[!?]?$")

# Words that carry no meaning in a natural-language query about code.
_STOPWORD_TEXT = """
a an the of to in on for from by with and or is are be been was were it its this that these
those as at into if then else when which who whom what how does do done can should would will
shall may might must not no any all some each given our your their there here than so such via
per i we you he she they them me my us
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def split_identifier(name: str) -> list[str]:
    """Lower-cased sub-tokens of an identifier: ``getHTTPResponse2`` -> get, http, response, 2."""
    if name.isascii():
        return [m.group(0).lower() for m in _SUBTOKEN.finditer(name)]
    return _split_unicode(name)


def _split_unicode(name: str) -> list[str]:
    """The same split for any script, character by character (``re`` has no ``\\p{Lu}``)."""
    parts: list[str] = []
    current = ""
    for ch in name:
        if not (ch.isalnum()):
            if current:
                parts.append(current)
            current = ""
            continue
        if current:
            prev = current[-1]
            boundary = prev.isdigit() != ch.isdigit() or (prev.islower() and ch.isupper())
            if boundary:
                parts.append(current)
                current = ""
        current += ch
    if current:
        parts.append(current)
    return [p.lower() for p in parts]


def stem(token: str) -> str:
    """A light suffix folder: Harman's S-stemmer (1991), then ``-ing``/``-ed`` and a final ``e``.

    ``ies -> y``, ``es -> e``, ``s -> ''`` (with Harman's exceptions); then
    ``ied -> y``, ``-ing`` and ``-ed`` are dropped when at least three letters
    (one a vowel) remain, a doubled final consonant is undoubled (``running``
    -> ``run``); last, a final ``e`` goes, so that ``cache``, ``caches``,
    ``cached`` and ``caching`` all become ``cach``. Only tokens of four
    letters or more are touched; numbers never are.
    """
    if len(token) <= 3 or not token.isalpha():
        return token
    cached = _STEMS.get(token)
    if cached is not None:
        return cached
    result = _fold(_harman(token))
    if len(_STEMS) < _MEMO_LIMIT:
        _STEMS[token] = result
    return result


# Memos of stem and word_tokens: pure functions of one word, the same for every index,
# so they may be shared by all indexes in a process; bounded by _MEMO_LIMIT entries.
_STEMS: dict[str, str] = {}
_MEMO_LIMIT = 500_000
_VOWELS = frozenset("aeiouy")


def _harman(token: str) -> str:
    if not token.endswith("s"):
        return token
    if token.endswith("ies") and not token.endswith(("eies", "aies")):
        return token[:-3] + "y"
    if token.endswith("es") and not token.endswith(("aes", "ees", "oes")):
        return token[:-1]
    if token.endswith(("us", "ss")):
        return token
    return token[:-1]


def _fold(token: str) -> str:
    if len(token) <= 3:
        return token
    if token.endswith("ied") and len(token) > 4:
        return token[:-3] + "y"
    for suffix in ("ing", "ed"):
        base = token[: -len(suffix)]
        if token.endswith(suffix) and len(base) >= 3 and _VOWELS.intersection(base):
            if len(base) >= 4 and base[-1] == base[-2] and base[-1] not in "lsz" + "aeiou":
                base = base[:-1]
            token = base
            break
    if token.endswith("e") and len(token) > 3:
        token = token[:-1]
    return token


def whole(name: str) -> str:
    """The identifier as one token: lower-cased, separators dropped (``get_user`` -> getuser)."""
    return "".join(split_identifier(name))


def identifier_tokens(name: str) -> list[str]:
    """Stemmed sub-tokens of an identifier, then the whole identifier when it has several."""
    parts = split_identifier(name)
    tokens = [stem(p) for p in parts]
    if len(parts) > 1:
        tokens.append("".join(parts))
    return tokens


def name_tokens(name: str) -> tuple[str, ...]:
    """:func:`identifier_tokens` memoized: a file's names repeat across files (``__init__``,
    ``get``, ``name``), and splitting each one anew is a noticeable part of a cold build."""
    cached = _NAMES.get(name)
    if cached is None:
        cached = tuple(identifier_tokens(name))
        if len(_NAMES) < _MEMO_LIMIT:
            _NAMES[name] = cached
    return cached


_NAMES: dict[str, tuple[str, ...]] = {}  # see _STEMS


def word_tokens(word: str) -> tuple[str, ...]:
    """:func:`identifier_tokens` of one word, those of two characters or more (memoized)."""
    cached = _WORDS.get(word)
    if cached is None:
        cached = tuple(t for t in identifier_tokens(word) if len(t) >= 2)
        if len(_WORDS) < _MEMO_LIMIT:
            _WORDS[word] = cached
    return cached


_WORDS: dict[str, tuple[str, ...]] = {}  # see _STEMS


def text_tokens(text: str, *, min_length: int = 2) -> list[str]:
    """Tokens of prose or code text, in order: each word split like an identifier."""
    if min_length == 2:
        get = _WORDS.get
        out: list[str] = []
        for word in WORD.findall(text):
            found = get(word)
            out.extend(found if found is not None else word_tokens(word))
        return out
    return [
        token
        for word in WORD.findall(text)
        for token in identifier_tokens(word)
        if len(token) >= min_length
    ]


def query_tokens(query: str) -> list[str]:
    """Tokens of a query, stop words dropped unless nothing else is left, duplicates removed."""
    tokens = text_tokens(query, min_length=1)
    content = [t for t in tokens if t not in STOPWORDS]
    return list(dict.fromkeys(content or tokens))


def is_identifier_shaped(query: str) -> bool:
    """One identifier, possibly qualified (``a.b``, ``A::b``): the exact-name guard applies."""
    return bool(_IDENTIFIER.match(query.strip()))


def is_sentence(query: str) -> bool:
    """Prose rather than names: at least two content words, and either four or more words
    or a stop word among three ("parse the query" is prose, "reciprocal rank fusion" is
    a list of keywords, better served by the lexical channel)."""
    words = query.split()
    if len(words) < 3:
        return False
    content = [w for w in words if w.strip(".,;:!?()`'\"").lower() not in STOPWORDS]
    return len(content) >= 2 and (len(words) >= 4 or len(content) < len(words))


# A technical term written out with hyphens, as code abbreviates it: "ahead-of-time" ->
# `aot`, "copy-on-write" -> `cow`, "X-Forwarded-For" -> `xff`, "end-of-file" -> `eof`;
# two parts and the word after them: "argument-dependent lookup" -> `adl`, "user-defined
# types" -> `udt`.
_HYPHENATED = re.compile(r"\b([A-Za-z]+(?:-[A-Za-z]+)+)(?:\s+([A-Za-z]+))?")


def acronyms(query: str) -> list[str]:
    """The acronyms of the hyphenated terms ``query`` writes (stemmed, as query terms)."""
    found: list[str] = []
    for match in _HYPHENATED.finditer(query):
        parts = match.group(1).lower().split("-")
        after = (match.group(2) or "").lower()
        if len(parts) >= 3:
            found.append(stem("".join(p[0] for p in parts)))
        elif after and after not in STOPWORDS:
            found.append(stem("".join(p[0] for p in parts) + after[0]))
    return found
