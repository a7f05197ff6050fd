"""Names a sentence writes: the types, macros and code names that a prose query is about.

A capitalised word with a kind noun beside it (``the Value data type``), a lower-case name
just before one (C's ``zrangespec struct``), a generic type written whole
(``IPipelineBehavior<TRequest, TResponse>``), a macro as Rust invokes it
(``the json! literal macro``), a sentence's first word written as a code name
(``INotification marker interface ...``), a capitalised first word before an article
whose type's doc shares the sentence's words (``Task an owned handle to a spawned task``)
and what a request about code names (:func:`asked_definitions`: the routines and types a
question writes as code, ``what does build_request do``, ``how is Session used``; the
routines a short request writes, ``bug in parse_args when ...``; a method by its name and
its type's, ``the read method of Protected``) each name a definition: those definitions
lead the identity channel, and the exact-name guard puts them first. A longer statement
names only its first word: a docstring names what its function uses.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.identity import MatchTier
from symfuse.ranking.channels.translation import content_words
from symfuse.ranking.fusion.roles import asks_for_side_code
from symfuse.ranking.prepared.build import Prepared
from symfuse.ranking.search.channel_run import ChannelRun, names_lead
from symfuse.ranking.search.plans import MACRO_CALL, code_tokens

# A capitalised word, humps allowed, that is not part of a hyphenated word (`Retry-After`),
# a generic's parameter list or a dotted name, and the kind nouns that say a sentence
# speaks of it as a type: "the Value data type", "the Parser type", "class Buffer".
_CAPITALISED = re.compile(r"(?<![-\w<,.])[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)*(?![-\w>])")
_KIND_NOUNS = frozenset(
    [
        "type",
        "types",
        "class",
        "classes",
        "struct",
        "structs",
        "interface",
        "interfaces",
        "enum",
        "enums",
        "trait",
        "traits",
        "protocol",
        "protocols",
        "record",
        "records",
        "datatype",
    ]
)
_TYPE_KINDS = frozenset(
    {Kind.CLASS, Kind.STRUCT, Kind.INTERFACE, Kind.ENUM, Kind.TRAIT, Kind.TYPE, Kind.UNION}
)


# A generic type written with its arguments, and nothing else: `IPipelineBehavior<TRequest,
# TResponse>` asks for the type (a member after it, `Impl<T>.Handle`, asks for the member).
_GENERIC_TYPE = re.compile(r"\s*([A-Z][\w$]*)<(?:[^<>]|<(?:[^<>]|<[^<>]*>)*>)*>\s*")


def named_types(query: str) -> list[str]:
    """The capitalised words past the first of ``query`` that a kind noun follows within
    two words or just precedes (``the Value data type``: ``Value``), a lower-case name a
    kind noun just follows (C's ``zrangespec struct``), or the generic type the whole
    query writes (``IPipelineBehavior<TRequest, TResponse>``)."""
    generic = _GENERIC_TYPE.fullmatch(query)
    if generic is not None:
        return [generic.group(1)]
    words = query.split()
    out = []
    for i, raw in enumerate(words):
        word = raw.strip(".,;:!?\"'`()")
        before_kind = i + 1 < len(words) and words[i + 1].strip(".,;:!?").lower() in _KIND_NOUNS
        if before_kind and _LOWER_NAME.fullmatch(word) and word not in _NOT_NAMES:
            out.append(word)  # C's `zrangespec struct`, `client struct`
            continue
        if not _CAPITALISED.fullmatch(word):
            continue
        if i == 0:  # a first word is capitalised anyway: a kind noun just after names it
            if before_kind:  # ("Router interface", "Options class that ...")
                out.append(word)
            continue
        near = [w.strip(".,;:!?").lower() for w in (words[i - 1 : i] + words[i + 1 : i + 3])]
        if any(w in _KIND_NOUNS for w in near):
            out.append(word)
    return out


# a lower-case name just before a kind noun ("the zrangespec struct"), and the words that
# stand there as words ("a data type", "the return type")
_LOWER_NAME = re.compile(r"[a-z_][a-z0-9_]*")
_NOT_NAMES = frozenset(
    {"a", "an", "the", "this", "that", "its", "their", "each", "every", "any", "some"}
    | {"data", "return", "value", "base", "sum", "union", "generic", "abstract", "inner"}
    | {"outer", "new", "old", "other", "same", "custom", "nested", "python", "rust", "go"}
)


_MACRO_KINDS = frozenset({Kind.MACRO})


def invoked_macros(query: str) -> list[str]:
    """The macros a sentence names as Rust invokes them (``how does the json! literal macro
    expand``: ``json``), a word other than the last."""
    return [w.strip("`").removesuffix("!") for w in query.split()[:-1] if MACRO_CALL.fullmatch(w)]


_NAMED_KINDS = _TYPE_KINDS | {Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR, Kind.MODULE}
# a name no sentence writes by chance: humps (`INotification`, `redisSSLOptions`,
# `TypeAdapterFactory`) or an underscore between letters (`parse_header`)
_WRITTEN_NAME = re.compile(
    r"\$?(?:[A-Za-z][a-z0-9]+[A-Z][A-Za-z0-9]*|[A-Z]{2,}[a-z][A-Za-z0-9]*"
    r"|[A-Za-z][a-z0-9]*(?:_[A-Za-z0-9]+)+)"
)


def written_names(query: str) -> list[str]:
    """A sentence's first word when it is written as a code name (`INotification marker
    interface ...`): the sentence is about it. (Any such word, wherever it stands, lowered
    the Django docstring set: a docstring names the things its function returns or takes.)"""
    words = query.split()
    if len(words) < 2 or words[0].endswith(":"):  # `RemovedInDjango60Warning: when ...`
        return []  # a label before what the sentence says, not its subject
    first = words[0].strip(".,;!?\"'`()")
    return [first] if _WRITTEN_NAME.fullmatch(first) else []


# A question or a request about code: the definitions it names are what it asks about.
_ASKING = re.compile(
    r"(?:how|what|where|why|which|when|who|does|do|is|are|can|explain|describe|show|locate"
    r"|summari[sz]e)\b",
    re.IGNORECASE,
)
# the verbs a question's subject follows: "how is Session used", "what does Router do"
_AUX = frozenset({"is", "are", "was", "does", "do", "did", "can", "should", "would", "will"})
SHORT_FROM, SHORT = 3, 10  # words of a request naming a routine without asking
MAX_ASKED = 3  # definitions (distinct qualified names) a name a question writes may mean
ASKED_KINDS = Kind.CALLABLES | _TYPE_KINDS  # what a name written as code may name
NEAR = 3  # words between a member's name and its scope's
_TITLE_OR_HUMPS = re.compile(r"[A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*")  # a scope: `Session`
_MEMBER = re.compile(r"[A-Za-z_$][\w$]*")


def asked_names(query: str) -> list[tuple[str, frozenset[Kind]]]:
    """The names a request about code writes, each with the kinds it may name.

    In a question or request, a routine or a type written with humps, an underscore or
    `quoted` ("what does build_request do", "how does `iter_bytes` handle errors") and a
    type as a capitalised word the question's verb just precedes ("how is Session used";
    not "how is JSON Schema export built", "... turned into a Value tree"). In a query of
    :data:`SHORT_FROM` to :data:`SHORT` words ("definition of build_request", "bug in
    parse_args when the list is empty"), a routine written as code. Qualified names are left to
    :mod:`.qualified`; a query asking for tests names what it wants tested. Left out: a
    longer statement, which names what a function uses ("Like decorator_from_middleware,
    but return ..."), and a short one's types ("Return a copy of the current QuerySet")."""
    text = query.strip()
    asking = _request(text)
    if asking is None:
        return []
    words = [w.strip(".,;:!?\"'`()").lower() for w in text.split()]
    subjects = {w for w, before in zip(text.split()[1:], words, strict=False) if before in _AUX}
    out: list[tuple[str, frozenset[Kind]]] = []
    for word in code_tokens(text):
        if "." in word or "::" in word:
            continue
        if _WRITTEN_NAME.fullmatch(word.lstrip("_")) or f"`{word}`" in text:
            out.append((word, ASKED_KINDS if asking else frozenset(Kind.CALLABLES)))
        elif asking and _TITLE.fullmatch(word) and word in subjects:
            out.append((word, _TYPE_KINDS))
    return out


def _request(text: str) -> bool | None:
    """True for a question or request, False for a short query of :data:`SHORT_FROM` to
    :data:`SHORT` words, None for anything else (a longer statement; a query asking for
    tests; two words, which are a scope and its member: `Deserializer from_str`)."""
    if asks_for_side_code(text):
        return None
    if _ASKING.match(text) is not None or text.endswith("?"):
        return True
    return False if SHORT_FROM <= len(text.split()) <= SHORT else None


def asked_members(
    prepared: Prepared, query: str, mask: npt.NDArray[np.bool_] | None, symbols: Sequence[Symbol]
) -> list[int]:
    """The routines a request names by a word and, within :data:`NEAR` words, a capitalised
    word for their scope: "the read method of Protected", "Protected's read method",
    "read in Protected", "how does Protected read work"."""
    text = query.strip()
    if _request(text) is None:
        return []
    words = [w.strip('.,;:!?"`()').removesuffix("'s") for w in text.split()]
    found: list[int] = []
    for i, scope in enumerate(words):
        if not _TITLE_OR_HUMPS.fullmatch(scope):
            continue
        for word in words[max(0, i - NEAR) : i] + words[i + 1 : i + 1 + NEAR]:
            if len(word) < 3 or word.lower() in _NOT_NAMES or not _MEMBER.fullmatch(word):
                continue
            found += [
                p
                for p in prepared.names.names.equal(word).tolist()
                if symbols[p].kind in Kind.CALLABLES
                and symbols[p].container.rpartition(".")[2] == scope
                and (mask is None or mask[p])
            ]
    return found


def asked_definitions(
    prepared: Prepared, query: str, mask: npt.NDArray[np.bool_] | None, symbols: Sequence[Symbol]
) -> list[int]:
    """The members :func:`asked_members` finds and the definitions :func:`asked_names`
    names, product code first, when a name means at most :data:`MAX_ASKED` of them
    (overloads of one qualified name count once); a type whose member is asked for is
    left out (the question is about the member)."""
    members = asked_members(prepared, query, mask, symbols)
    scopes = {symbols[p].container.rpartition(".")[2] for p in members}
    found: list[int] = []
    for word, kinds in asked_names(query):
        hit = [
            p
            for p in prepared.names.names.equal(word).tolist()
            if symbols[p].kind in kinds and (mask is None or mask[p])
        ]
        if not hit:
            continue
        side = prepared.filters.side_code(np.asarray(hit, dtype=np.int64))
        product = [p for p, test in zip(hit, side.tolist(), strict=True) if not test] or hit
        if len({symbols[p].fqn for p in product}) <= MAX_ASKED:
            found += [p for p in product if symbols[p].name not in scopes]
    return found + members


# A name then what it is, as a type's doc opens ("Task an owned handle ...", "Builder a
# builder to configure an HTTP connection"): a capitalised word before an article.
_TITLE = re.compile(r"[A-Z][a-z0-9]+")
_ARTICLES = frozenset({"a", "an", "the"})


def titled_types(
    prepared: Prepared, query: str, mask: npt.NDArray[np.bool_] | None, symbols: Sequence[Symbol]
) -> list[int]:
    """The types a sentence's capitalised first word names when an article follows it and
    the type's doc holds another of the sentence's words: "Extract the lhs index from the
    transform" is an instruction, and Django's ``Extract`` (no such doc) stays out."""
    words = query.split()
    if len(words) < 3 or not _TITLE.fullmatch(words[0]) or words[1].lower() not in _ARTICLES:
        return []
    said = set(content_words(" ".join(words[1:]))) - {words[0].lower()}
    return [
        p
        for p in prepared.names.names.equal(words[0]).tolist()
        if symbols[p].kind in _TYPE_KINDS
        and (mask is None or mask[p])
        and not said.isdisjoint(content_words(symbols[p].doc or ""))
    ]


def with_named_types(
    prepared: Prepared,
    run: ChannelRun,
    query: str,
    mask: npt.NDArray[np.bool_] | None,
    symbols: Sequence[Symbol],
) -> ChannelRun:
    """The types a prose query names (:func:`named_types`: ``the Value data type for JSON
    values``, ``the zrangespec struct``), the macros it invokes (``the json! literal
    macro``), the definition its first word names (:func:`written_names`,
    :func:`titled_types`) and the routines and types a question names
    (:func:`asked_definitions`):
    those join the identity channel first and the exact-name
    guard puts them first (``spelled``), as a name would be. Without it the learned
    re-ranking, trained on questions about code that changed (mostly functions), sank the
    type the sentence names; and a sentence ranks no macro by its words (not among the
    kinds it describes)."""
    wanted = [(w, _TYPE_KINDS) for w in named_types(query)]
    wanted += [(w, _MACRO_KINDS) for w in invoked_macros(query)]
    wanted += [(w, _NAMED_KINDS) for w in written_names(query)]
    titled = titled_types(prepared, query, mask, symbols)
    titled += asked_definitions(prepared, query, mask, symbols)
    if not wanted and not titled:
        return run
    exact = np.asarray(
        [
            p
            for word, kinds in wanted
            for p in prepared.names.names.equal(word).tolist()
            if symbols[p].kind in kinds and (mask is None or mask[p])
        ]
        + titled,
        dtype=np.int64,
    )
    exact = np.unique(exact)
    if not len(exact):
        return run
    known = exact[np.argsort(-prepared.pagerank[exact], kind="stable")]
    return names_lead(prepared, run, known, MatchTier.EXACT, spelled=True)
