"""Query shapes and the channel plan of each.

A query's shape says which evidence can answer it:

- identifier (``getUserById``, ``get_user``): names; the exact-name guard holds; no
  similarity channel (its paraphrases only reorder the names found);
- dotted (``models.CharField``, ``Foo::bar``): a qualified name, as an import writes it;
- path (``a/b.py``, ``b.py:12``, a symbol id): an exact lookup (``mode: auto`` picks get);
- call graph ("who calls X"): the call graph answers, not a ranking;
- keywords (``reciprocal rank fusion``): a few words; BM25 leads;
- sentence ("prompt the user for a password and hide the input"): behaviour
  described in prose; BM25 over heads and bodies and the similarity channel lead,
  names only see the sentence's identifier-like words, and test, example and
  benchmark code is demoted unless the query asks for it;
- mixed (``parse header in Request``): prose around code tokens; the names
  channels see the code tokens alone;
- text (:data:`TEXT_WORDS` words or more: a bug report, a stack trace, a log excerpt, a
  commit message): BM25F over bodies weighs each word by its rarity, with no share of
  the words required (a long text's words are mostly not in any one definition) and
  without the learned re-ranking, which was trained on short queries.

:data:`PLANS` is the one table of what each shape runs and why; the search code
reads it and nothing else decides per shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.lexical import BODY_AWARE, HEAD_FIRST, Bm25f
from symfuse.ranking.channels.tokens import is_identifier_shaped, is_sentence
from symfuse.ranking.fusion.roles import asks_for_documents, asks_for_side_code
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.fusion.tuning import TUNING
from symfuse.ranking.query.intent import call_query, is_path_shaped
from symfuse.ranking.query.responses import Change
from symfuse.ranking.query.search_request import (
    FusionWeights,
    IncludeTests,
    SearchRequest,
    SemanticMode,
)
from symfuse.ranking.search.filters import SymbolRoles

# What a sentence describes: docstrings are written for callables and types, not for
# variables, fields or constants. Sentence queries rank these in the lexical, similarity
# and neural channels (names still match any kind through identity), which lifts the
# docstring queries. Modules, traits and objects are the documented units of Elixir,
# Ruby, Haskell, Scala and Kotlin (Phoenix.Token's moduledoc, cats' `trait Parallel`).
DESCRIBED_KINDS = (
    Kind.FUNCTION,
    Kind.METHOD,
    Kind.CONSTRUCTOR,
    Kind.CLASS,
    Kind.INTERFACE,
    Kind.STRUCT,
    Kind.ENUM,
    Kind.MODULE,
    Kind.TRAIT,
    Kind.OBJECT,
    Kind.FILE,
    Kind.REGION,
)
# Kinds a language's sentences do not describe: Rust's modules (`mod tests {...}`),
# traits and impl blocks hold their members' text and crowded out the functions a
# sentence is about (ripgrep's mined commit subjects, MRR@10 0.251 -> 0.151 with impl blocks).
UNDESCRIBED = {"rust": (Kind.MODULE, Kind.TRAIT, Kind.OBJECT)}


def described(symbol: Symbol) -> bool:
    """Whether a sentence describes ``symbol``'s kind in its language (a definition, not a
    file's unit): :data:`DESCRIBED_KINDS` less :data:`UNDESCRIBED`."""
    return (
        symbol.kind in DESCRIBED_KINDS
        and symbol.kind not in Kind.UNITS
        and symbol.kind not in UNDESCRIBED.get(symbol.language, ())
    )


class Shape(StrEnum):
    IDENTIFIER = "identifier"
    DOTTED = "dotted"
    PATH = "path"
    CALL_GRAPH = "call_graph"
    KEYWORDS = "keywords"
    SENTENCE = "sentence"
    MIXED = "mixed"
    TEXT = "text"


@dataclass(frozen=True, slots=True)
class Plan:
    """What a shape runs: default weights, and the three switches prose needs."""

    weights: FusionWeights
    bm25f: Bm25f = HEAD_FIRST  # how BM25F weighs bodies against heads
    described: bool = False  # text channels look among callables and types only
    regions: bool = False  # text channels rank regions too (words, not names, ask for code)
    word_names: bool = False  # identity sees the identifier-like words, one at a time
    demote_side_code: bool = True  # tests, examples, benchmarks rank lower (exact names lead)
    # the learned re-ranking of the first answers (ranking.rerank): trained on prose and
    # keyword queries alike (commit subjects of a few words take the keywords plan)
    reranked: bool = False
    reason: str = ""


# Prose: BM25F over bodies and similarity lead; names see code tokens only; tests lower.
_PROSE = Plan(
    TUNING.prose,
    bm25f=BODY_AWARE,
    described=True,
    regions=True,
    word_names=True,
    demote_side_code=True,
    reranked=True,
)

PLANS: dict[Shape, Plan] = {
    Shape.IDENTIFIER: Plan(TUNING.identifier, reason="names: identity tiers and the guard"),
    Shape.DOTTED: Plan(TUNING.names, reason="a qualified name: identity on the fqn suffix"),
    Shape.PATH: Plan(TUNING.names, reason="auto mode answers a path with get"),
    Shape.CALL_GRAPH: Plan(TUNING.names, reason="the call graph answers the target"),
    Shape.KEYWORDS: Plan(
        TUNING.names,
        regions=True,
        reranked=True,
        reason="a few words: BM25 leads, names still count",
    ),
    Shape.SENTENCE: replace(_PROSE, reason="prose: BM25F over head and body, and similarity lead"),
    Shape.MIXED: replace(
        _PROSE,
        regions=False,  # a name asked for is a definition (`struct redisAsyncContext`)
        reason="prose around code tokens: names see the code tokens alone",
    ),
    Shape.TEXT: replace(
        _PROSE,
        bm25f=replace(BODY_AWARE, coordination=0.0, synonyms=0.0, variants=0.0),  # many words
        reranked=False,
        reason="a long text: BM25F by rarity over heads and bodies, names see its code tokens",
    ),
}
# A query this long is a text, not a question: on whole commit messages (tests/bench/
# nl_long.py, 23 to 783 words) without coordination and re-ranking, MRR@10 0.472 -> 0.578
# against 0.540 for body BM25. Docstring queries reach 33 words, commit subjects 20.
TEXT_WORDS = 40


def plan_weights(plan: Plan, semantic: SemanticMode) -> FusionWeights:
    """The fusion weights of ``plan``; ``semantic: on`` adds the neural channel to prose at
    :attr:`Tuning.neural_on`; ``only`` ranks prose by the similarity channel and the neural
    one (when its vectors are ready) at the same weight."""
    if not plan.described or plan.weights.neural != 0:
        return plan.weights
    if semantic is SemanticMode.ON:
        return replace(plan.weights, neural=TUNING.neural_on)
    if semantic is SemanticMode.ONLY:
        return replace(plan.weights, neural=plan.weights.similarity)
    return plan.weights


_WORD = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*")
_CODE_TOKEN = re.compile(
    r"""^(
        [\w$]*_[\w$]*                     # snake_case, _private, __dunder__
      | [a-z][a-z0-9]*[A-Z][\w$]*          # camelCase
      | [A-Z][a-z0-9]+[A-Z][\w$]*          # PascalCase with two humps
      | [A-Z]{2,}[a-z][\w$]*              # an acronym's humps: IPipelineBehavior, HTTPServer
      | [\w$]+(\.|::)[\w$.:]+              # dotted or qualified
      | [\w$]+\(\)                         # call()
    )$""",
    re.X,
)


def classify(query: str) -> Shape:
    """The shape of ``query`` (see the module docstring)."""
    q = query.strip()
    if call_query(q) is not None:
        return Shape.CALL_GRAPH
    if is_path_shaped(q):
        return Shape.PATH
    if is_identifier_shaped(q):
        return Shape.DOTTED if re.search(r"\.|::|#|\\|->", q) else Shape.IDENTIFIER
    if len(q.split()) >= TEXT_WORDS:
        return Shape.TEXT
    if code_tokens(q):
        return Shape.MIXED
    return Shape.SENTENCE if is_sentence(q) else Shape.KEYWORDS


def _pieces(query: str) -> list[str]:
    """The words of ``query``, a type's parameters and a call's arguments split off as
    words of their own: ``IPipelineBehavior<TRequest, TResponse>`` is three names,
    ``JsonWriter.value(double)`` a call of ``JsonWriter.value()`` and ``double``."""
    return [w for w in _GENERIC.split(_CALL.sub(r"\1() ", query)) if w]


# a Rust macro's name as it is invoked (`json!`, `vec!`), inside a sentence, not ending it
MACRO_CALL = re.compile(r"`?[a-z_][a-z0-9_]*!`?")
_CALL = re.compile(r"(\w)\((?!\))")  # "value(double)": a call with arguments
_GENERIC = re.compile(r"[\s<>,;]+")


def code_tokens(query: str) -> list[str]:
    """The words of a multi-word ``query`` that are written as code: ``snake_case``,
    ``camelCase``, ``Pascal`` humps, ``dotted.names``, ``call()``, ```quoted```, or a
    capitalised word past the first (``parse header in Request``)."""
    words = _pieces(query)
    if len(words) < 2:
        return []
    found: list[str] = []
    for i, raw in enumerate(words):
        quoted = raw.startswith("`") and raw.rstrip(".,;:?!").endswith("`")
        macro = i < len(words) - 1 and MACRO_CALL.fullmatch(raw) is not None
        word = raw.strip(".,;:!?\"'`()[]{}")
        if raw.rstrip(".,;:?!").endswith("()"):
            word += "()"
        if not word or not _WORD.match(word.removesuffix("()")):
            continue
        capital = i > 0 and word[0].isupper() and not word.isupper()
        bare = word.removesuffix("()")
        if (
            quoted
            or macro
            or capital
            or _CODE_TOKEN.match(word)
            or (bare != word and _CODE_TOKEN.match(bare))
        ):
            found.append(word.removesuffix("()"))
    return list(dict.fromkeys(found))


def name_words(query: str) -> list[str]:
    """What the names channels see of a prose query: its code tokens (:func:`code_tokens`)
    that are not numbers or single letters. A sentence without any sees none: its
    words name no definition (matching each content word as a name lowered the
    fixture's docstring queries)."""
    return [w for w in code_tokens(query) if len(w) > 1 and not w.isdigit()]


def demotes_side_code(request: SearchRequest, query: str, shape: Shape) -> bool:
    """Whether test, example and benchmark code ranks lower for this query: the shape's
    plan says so, ``include_tests`` is ``true`` and the query does not ask for it."""
    return (
        PLANS[shape].demote_side_code
        and request.include_tests is IncludeTests.TRUE
        and not asks_for_side_code(query)
    )


def demoted(
    fused: Fused, filters: SymbolRoles, request: SearchRequest, query: str, shape: Shape
) -> Fused:
    """``fused`` with test, example and benchmark code ranked lower (its score times
    :attr:`Tuning.side_code_share`), when the shape's plan says so, ``include_tests`` is
    ``true`` and the query does not ask for such code itself."""
    if not len(fused) or not demotes_side_code(request, query, shape):
        return fused
    side = filters.side_code(fused.positions)
    if not side.any():
        return fused
    why = "test, example or benchmark code, after the code it exercises"
    return _scaled(fused, side, TUNING.side_code_share, why)


def _scaled(fused: Fused, which: npt.NDArray[np.bool_], share: float, why: str) -> Fused:
    """``fused`` with the scores of ``which`` times ``share``, re-sorted (stable): a
    demotion for ``why``, shown with ``fusion_debug``."""
    scores = np.where(which, fused.scores * share, fused.scores)
    order = np.argsort(-scores, kind="stable").astype(np.int64)
    return fused.adjusted(order, scores[order], Change.DEMOTION, why, which, share)


def documents_demoted(
    fused: Fused, filters: SymbolRoles, request: SearchRequest, query: str
) -> Fused:
    """``fused`` with headings and keys (:attr:`Kind.DOCUMENTS`) ranked below code (their
    score times :attr:`Tuning.document_share`), so that a README's "Install" or a YAML
    file's ``name:`` comes after the code of that name, unless :func:`_documents_asked`."""
    if not len(fused) or _documents_asked(request, query):
        return fused
    documents = filters.documents(fused.positions)
    if not documents.any():
        return fused
    return _scaled(fused, documents, TUNING.document_share, "a heading or a key, after code")


def documents_last(
    fused: Fused, filters: SymbolRoles, request: SearchRequest, query: str
) -> npt.NDArray[np.int64]:
    """A sort key (aligned with ``fused``) that puts headings and keys after code among
    items of one exact-name level, unless :func:`_documents_asked`; 0 everywhere else."""
    if not len(fused) or _documents_asked(request, query):
        return np.zeros(len(fused), dtype=np.int64)
    return filters.documents(fused.positions).astype(np.int64) << 50  # past namesake keys


def _documents_asked(request: SearchRequest, query: str) -> bool:
    """A kind filter on headings or keys, or a query asking for them
    (:func:`~symfuse.ranking.fusion.roles.asks_for_documents`)."""
    return bool(Kind.DOCUMENTS.intersection(request.kind)) or asks_for_documents(query)
