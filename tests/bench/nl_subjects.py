"""Commit subject -> natural-language query, for nl_mine.py.

A subject is rejected when it names a commit no sentence about behaviour describes
(``REJECT``); otherwise :func:`clean_subject` removes what a person searching would
not know or would not type as prose: conventional prefixes, issue and pull-request
numbers, code spans and identifier-like tokens. :func:`content_words` counts what is
left (stop words aside); nl_mine.py keeps queries with at least ``MIN_WORDS``.
"""

from __future__ import annotations

import re

MIN_WORDS = 3  # content words a query keeps

# Subjects of commits that change no behaviour a sentence could describe.
REJECT = re.compile(
    r"^revert|\brevert(s|ed)?\b|^merge\b|^(release|prepare|bump|version|start version)\b"
    r"|^v?\d+(\.\d+)+\b|\bbump(s|ed)?\b|\brelease[sd]?\b|\bdependabot\b|\bdeps\b|\bchangelog\b"
    r"|^(ci|build|style|release)\b[(:!/]|\btypos?\b|\bspelling\b|\bmisspel|\bgrammar\b"
    r"|\breformat|\bformatting\b|\bfmt\b|\brustfmt\b|\bgofmt\b|\bprettier\b|\bblack\b|\bisort\b"
    r"|\blint(s|er|ers|ing)?\b|\beslint\b|\bclippy\b|\bflake8\b|\bpylint\b|\bmypy\b|\bruff\b"
    r"|\bdependenc(y|ies)\b|\bcompiler warnings?\b|\bfix(es|ed)? (some |a |the )?warnings?\b"
    r"|\bwhitespace\b|\bcosmetic|\bindentation\b|\bcode style\b|\bcodespell\b|\bpre-commit\b",
    re.IGNORECASE,
)
# `fix:`, `feat(scope)!:`, `cmd/rg:`, `jq.test:`, `[maven-release-plugin]` at the start.
_PREFIX = re.compile(r"^\s*(\[[^\]]*\]|[\w./-]+\([^)]*\)!?:|[\w./-]+!?:(?=\s))\s*")
_ISSUE = re.compile(
    r"\(?\b(?:fix(?:es|ed)?|close[sd]?|resolve[sd]?|refs?|see)\s+#\d+\)?"
    r"|\(\s*(?:#|gh-|GH-)\d+\s*\)|(?:#|\bgh-|\bGH-)\d+",
    re.IGNORECASE,
)
_CODE_SPAN = re.compile(r"`[^`]*`|(?<!\w)'[^'\s]+'(?!\w)|\"[^\"\s]+\"")
_CAMEL = re.compile(r"[a-z][A-Z]|[A-Z]{2,}[a-z]")
_PLURAL_ACRONYM = re.compile(r"^[A-Z]{2,}s$")
_CODE_CHARS = re.compile(r"[\d_#$@=<>*|\\&%+~^{}\[\]/]|::|->|\(\)|\w\.\w")
_EDGE = ".,;:!?()[]{}\"'"
_STOPWORD_TEXT = """
a an the of to in on for from by with and or is are be been was were it its this that
these those as at into if then else when which what how does do not no any all some each
via per so than
"""
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


def rejected(subject: str) -> bool:
    """Whether a subject names a revert, merge, release, chore or typo/format/lint commit."""
    return bool(REJECT.search(subject))


def is_identifier(token: str) -> bool:
    """Whether a whitespace-separated token of a subject reads as code rather than a word."""
    if token.startswith("-") or _CODE_CHARS.search(token):
        return True
    word = token.strip(_EDGE)
    return bool(_CAMEL.search(word)) and not _PLURAL_ACRONYM.match(word)


def clean_subject(subject: str) -> str:
    """The subject without prefixes, issue numbers, code spans and identifiers."""
    text = subject.strip()
    while True:
        shorter = _PREFIX.sub("", text, count=1)
        if shorter == text:
            break
        text = shorter
    text = _ISSUE.sub(" ", text)
    text = _CODE_SPAN.sub(" ", text)
    words = [t for t in text.split() if not is_identifier(t)]
    words = [w for w in words if w.strip(_EDGE + "-")]
    text = " ".join(words).strip(" ,;:-")
    text = re.sub(r"\(\s*\)|\s+(?=[,.;:])", "", text)
    if text.count("(") != text.count(")"):  # a parenthesis whose other half was code
        text = text.replace("(", "").replace(")", "")
    return text.rstrip(" ,;:.")


def content_words(query: str) -> list[str]:
    words = (w.strip(_EDGE).lower() for w in query.split())
    return [w for w in words if len(w) > 1 and w not in _STOPWORDS]
