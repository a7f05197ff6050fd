"""A code-aware tokenizer shared by the lexical, similarity and identity channels.

Identifiers are split into sub-tokens on ``_``, ``-``, ``.``, case changes
(``getHTTPResponse`` -> ``get http response``) and letter/digit boundaries
(``utf8Decode`` -> ``utf 8 decode``); the whole identifier is also kept, lower-cased
and without separators (``getuserbyid``), so that a query typed either way
meets it. Prose (docstrings, natural-language queries) goes through the same
splitter, word by word. Tokens get a light plural stem (Harman's "S" stemmer),
never anything heavier: identifiers must stay recognisable.
"""

from __future__ import annotations

import re

WORD = re.compile(r"[\w$]+")
_SUBTOKEN = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_IDENTIFIER = re.compile(r"^[^\W\d]?[\w$]+(?:(?:\.|::|#)[\w$]+)*$")

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
    """Harman's S-stemmer (1991): ``ies -> y``, ``es -> e``, ``s -> ''`` with its exceptions."""
    if len(token) <= 3 or not token.endswith("s"):
        return token
    if token.endswith("ies") and not token.endswith(("eies", "aies")):
        return token[:-3] + "y"
    if token.endswith("es") and not token.endswith(("aes", "ees", "oes")):
        return token[:-1]
    if token.endswith(("us", "ss")):
        return token
    return token[:-1]


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


def text_tokens(text: str, *, min_length: int = 2) -> list[str]:
    """Tokens of prose or code text, in order: each word split like an identifier."""
    out: list[str] = []
    for word in WORD.findall(text):
        for token in identifier_tokens(word):
            if len(token) >= min_length:
                out.append(token)
    return out


def query_tokens(query: str) -> list[str]:
    """Tokens of a query, stop words dropped unless nothing else is left, duplicates removed."""
    tokens = text_tokens(query, min_length=1)
    content = [t for t in tokens if t not in STOPWORDS]
    return list(dict.fromkeys(content or tokens))


def is_identifier_shaped(query: str) -> bool:
    """One identifier, possibly qualified (``a.b``, ``A::b``): the exact-name guard applies."""
    return bool(_IDENTIFIER.match(query.strip()))
