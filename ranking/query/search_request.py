"""The search request: every field of the query contract, validated once.

Front ends build a :class:`SearchRequest` with :meth:`SearchRequest.from_mapping`
(a JSON-shaped dict, as MCP arguments or CLI options arrive) and get either a
valid, frozen request or :class:`InvalidRequest` naming the offending field.
The ranking code trusts a request it is handed. The model is also what the
command-line options and the MCP tool schema are generated from
(:mod:`symfuse.ranking.query`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, field_validator, model_validator
from pydantic.json_schema import WithJsonSchema

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.model import Kind
from symfuse.ranking.query.fields import (
    LIST_SCHEMA,
    Flag,
    ForAgents,
    Primary,
    Request,
    TextList,
    optional_text,
    split_list,
)
from symfuse.ranking.query.vocabulary import kind_of, kind_words, language_of

MAX_QUERY_LENGTH = 60_000  # a whole bug report, a stack trace or a log excerpt is a query
MAX_LIMIT = 1000
MAX_OFFSET = 100_000
MAX_EDIT_DISTANCE = 10
MAX_SNIPPET_LINES = 200
AGENT_SNIPPET_LINES = 3
AGENT_MAX_LIMIT = 200


Repositories = Annotated[
    TextList,
    Field(description='only these repositories (root aliases), names or wildcards ("svc-*")'),
]
ExcludedRepositories = Annotated[
    TextList, Field(description="skip these repositories (names or wildcards)")
]


class SearchMode(StrEnum):
    """Retrieval strategy; ``auto`` picks ``get`` for a path or symbol id, else ``single``."""

    AUTO = "auto"
    SINGLE = "single"
    TIERED = "tiered"
    DRILL = "drill"
    FLAT = "flat"
    GET = "get"


class Aggregation(StrEnum):
    """How hits from several repositories share the limit."""

    GLOBAL = "global"
    PER_REPO = "per_repo"


class ResponseFormat(StrEnum):
    """One list of hits, or the hits grouped by repository."""

    FLAT = "flat"
    GROUPED = "grouped"


class GroupBy(StrEnum):
    """Hits as they rank, or one entry per file with its best hits inside."""

    NONE = "none"
    FILE = "file"


class SemanticMode(StrEnum):
    """Whether the similarity channel runs: ``only`` ranks by it alone (with the
    ``symfuse[semantic]`` extra's neural channel beside it for prose, once its vectors are
    ready); ``on`` also runs the neural channel for prose (``fusion.tuning.Tuning.neural_on``)."""

    AUTO = "auto"
    ON = "on"
    OFF = "off"
    ONLY = "only"


class DetailLevel(StrEnum):
    MINIMAL = "minimal"
    DEFAULT = "default"
    FULL = "full"


class IncludeTests(StrEnum):
    """Test, example and benchmark code (:mod:`symfuse.ranking.fusion.roles`) in a search:
    ``true`` ranks it (lower for prose queries), ``false`` leaves it out, ``only``
    searches it alone."""

    TRUE = "true"
    FALSE = "false"
    ONLY = "only"


def _include_tests(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value.strip().lower() if isinstance(value, str) else value


# include_tests as a field type: the enum, also given as a JSON boolean.
TestCode = Annotated[
    IncludeTests,
    BeforeValidator(_include_tests),
    WithJsonSchema({"enum": [True, False, "true", "false", "only"]}, mode="validation"),
]


class Channel(StrEnum):
    """The independent rankers whose rankings fusion merges."""

    LEXICAL = "lexical"
    STRUCTURAL = "structural"
    SIMILARITY = "similarity"
    IDENTITY = "identity"
    FUZZY = "fuzzy"
    NEURAL = "neural"


@dataclass(frozen=True, slots=True)
class FusionWeights:
    """Per-channel weights of weighted reciprocal rank fusion; normalized over channels that ran.

    - lexical 0.4: BM25 over name, fqn, signature, doc and path is the broadest
      evidence that a symbol is about the query's words.
    - structural 0.25: PageRank only reorders what other channels found; central
      definitions are what people look for more often.
    - similarity 0.2: embeddings answer paraphrases, but are noisy for names; a bare
      identifier's plan leaves the channel out (``symfuse.ranking.search.plans``).
    - identity 0.15: name-match tiers are precise; the exact-name guard, not this
      weight, is what puts an exact name first.
    - fuzzy 0.4: runs only when asked or when nothing matched the name as typed;
      then it is the main evidence, as strong as lexical.
    - neural 0: sentence vectors of the ``symfuse[semantic]`` extra
      (:mod:`symfuse.ranking.channels.neural`), for prose only; they lowered the mined NL set
      at every weight, so a search asks for them (``semantic: on``, see
      ``symfuse.ranking.fusion.tuning.Tuning.neural_on``); without the extra they never run.
    """

    lexical: float = 0.4
    structural: float = 0.25
    similarity: float = 0.2
    identity: float = 0.15
    fuzzy: float = 0.4
    neural: float = 0.0

    @classmethod
    def sentence(cls) -> FusionWeights:
        """The defaults for prose (sentence and mixed shapes, :mod:`symfuse.ranking.search.plans`).

        Names and centrality say little about a description of behaviour: BM25F
        over heads and bodies carries it, the similarity channel (TF-IDF + word
        vectors) adds paraphrases. Chosen with tests/bench/nl_bench.py on four mined
        repositories, checked on the other four and on the docstring sets: the mined
        commit subjects are the larger set and the closer to what people type, so
        lexical leads; similarity keeps a share because without it the docstring sets
        fall most. With coordination and filler words in prose BM25F
        (:data:`lexical.BODY_AWARE`) the lexical channel carries more, and centrality only
        adds noise. A still heavier lexical weight does a little better on the tuning
        repositories but lowers the Django docstring set; these weights do not.
        """
        return cls(lexical=0.8, structural=0.0, similarity=0.1, identity=0.05, fuzzy=0.4)

    def of(self, channel: Channel) -> float:
        value: float = getattr(self, channel.value)
        return value

    def to_dict(self) -> dict[str, float]:
        return {c.value: self.of(c) for c in Channel}

    @classmethod
    def from_mapping(cls, raw: Any, field_name: str = "fusion_weights") -> FusionWeights:
        if raw is None:
            return cls()
        if isinstance(raw, FusionWeights):
            return raw
        if not isinstance(raw, Mapping):
            raise InvalidRequest(field_name, "must be an object of channel -> weight")
        known = {c.value for c in Channel}
        values: dict[str, float] = {}
        for key, value in raw.items():
            if key not in known:
                raise InvalidRequest(
                    f"{field_name}.{key}", f"unknown channel; expected one of {sorted(known)}"
                )
            values[key] = _number(value, f"{field_name}.{key}", low=0.0, high=1000.0)
        weights = cls(**values)
        if sum(weights.of(c) for c in Channel) <= 0:
            raise InvalidRequest(field_name, "at least one weight must be positive")
        return weights


def _kinds(value: Any) -> tuple[Kind, ...]:
    """Kinds by value or alias (:mod:`symfuse.ranking.query.vocabulary`)."""
    out: list[Kind] = []
    for name in split_list(value):
        kind = kind_of(name)
        if kind is None:
            raise ValueError(f"{name!r} is not one of: {kind_words()}")
        out.append(kind)
    return tuple(out)


def _languages(value: Any) -> tuple[str, ...]:
    """Language names, aliases or file extensions, checked: a misspelt one would filter
    everything out in silence."""
    from symfuse.indexer.files.languages import supported

    names: list[str] = []
    for word in split_list(value):
        name = language_of(word)
        if name is None:
            known = ", ".join(sorted(supported()))
            raise ValueError(
                f"unknown language {word!r}; one of {known}, an alias such as py, js, ts,"
                " rb, cs, cpp, or a file extension"
            )
        names.append(name)
    return tuple(names)


KindList = Annotated[
    tuple[Kind, ...],
    BeforeValidator(_kinds),
    WithJsonSchema(LIST_SCHEMA, mode="validation"),
    Field(
        description='only these kinds ("class", "method" (constructors too), ...) or'
        ' aliases ("func", "cls", "ctor", ...)'
    ),
]
"""A kind filter, as every request with one takes it."""
LanguageList = Annotated[
    tuple[str, ...],
    BeforeValidator(_languages),
    WithJsonSchema(LIST_SCHEMA, mode="validation"),
    Field(
        description='only these languages ("python", "go", ...), aliases ("py", "ts")'
        ' or file extensions (".rs")'
    ),
]
"""A language filter, checked against the supported languages."""


def _extensions(value: Any) -> tuple[str, ...]:
    """File extensions, lower-cased with their dot (``py``, ``.PY`` -> ``.py``)."""
    out: list[str] = []
    for word in split_list(value):
        bare = word.lower().lstrip(".*")
        if not bare or "/" in bare:
            raise ValueError(f"{word!r} is not a file extension; give one like .py or md")
        out.append("." + bare)
    return tuple(out)


def _decorator(value: Any) -> Any:
    if isinstance(value, str):
        return value.strip().lstrip("@").strip() or None
    return value


class SearchRequest(Request):
    """One symbol search (the contract of DESIGN.md, fields after reference 004)."""

    query: Annotated[
        str,
        Primary(),
        Field(
            max_length=MAX_QUERY_LENGTH,
            description='a name ("checkout"), part of one, a typo, a camel-hump ("gUBI"), '
            'words ("compute order total"), a path, "who calls X", or a whole bug report',
        ),
    ]
    kind: KindList = ()
    language: LanguageList = ()
    file_pattern: Annotated[TextList, Field(description="only files matching these globs")] = ()
    implements: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(max_length=500, description="only types implementing this interface"),
    ] = None
    extends: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(max_length=500, description="only types extending this base"),
    ] = None
    decorator: Annotated[
        str | None,
        BeforeValidator(_decorator),
        Field(max_length=500, description='only symbols with this decorator ("dataclass")'),
    ] = None
    exclude_path: Annotated[TextList, Field(description="skip files matching these globs")] = ()
    exclude_language: Annotated[
        tuple[str, ...],
        BeforeValidator(_languages),
        WithJsonSchema(LIST_SCHEMA, mode="validation"),
        Field(description="skip these languages (names, aliases or file extensions)"),
    ] = ()
    file_extensions: Annotated[
        tuple[str, ...],
        BeforeValidator(_extensions),
        WithJsonSchema(LIST_SCHEMA, mode="validation"),
        Field(description='only files with these extensions (".py", "md", ...)'),
    ] = ()
    min_score: Annotated[
        float,
        Field(
            ge=0.0,
            le=1.0,
            description="leave out items whose score (as answers show it, 0..1) is lower;"
            " total counts only the rest",
        ),
    ] = 0.0
    fuzzy: Annotated[
        Flag | None,
        Field(description="typo-tolerant matching; default: only when nothing else matched"),
    ] = None
    fuzzy_threshold: Annotated[
        float, Field(ge=0.0, le=1.0, description="least trigram similarity of a fuzzy hit")
    ] = 0.3
    max_edit_distance: Annotated[
        int,
        Field(ge=0, le=MAX_EDIT_DISTANCE, description="most edits (Levenshtein) of a fuzzy hit"),
    ] = 3
    semantic: Annotated[
        SemanticMode,
        Field(
            description="similarity channel: auto, on (adds the semantic extra's neural "
            "channel to prose queries), off, or only it"
        ),
    ] = SemanticMode.AUTO
    semantic_weight: Annotated[
        float, Field(ge=0.0, le=1.0, description="weight of the similarity channel")
    ] = 0.5
    fusion: Annotated[Flag, Field(description="fuse every channel's ranking")] = True
    fusion_weights: Annotated[
        FusionWeights,
        BeforeValidator(FusionWeights.from_mapping),
        WithJsonSchema(
            {"type": "object", "additionalProperties": {"type": "number"}}, mode="validation"
        ),
        Field(
            description="channel -> weight (normalized), e.g. lexical=0.4, structural=0.25, "
            "similarity=0.2, identity=0.15"
        ),
    ] = FusionWeights()
    fusion_debug: Annotated[
        Flag, Field(description="add each channel's rank and contribution to every item")
    ] = False
    limit: Annotated[
        int,
        Field(ge=1, le=MAX_LIMIT, description="most items to return"),
        ForAgents("more items than this never fit an agent's token budget", cap=AGENT_MAX_LIMIT),
    ] = 20
    offset: Annotated[int, Field(ge=0, le=MAX_OFFSET, description="skip this many items")] = 0
    mode: Annotated[
        SearchMode,
        Field(
            description="auto, single (top results), tiered (high/medium/low), drill (inside "
            "drill_from), flat (cheapest), get (exact path or symbol_id)"
        ),
    ] = SearchMode.AUTO
    drill_from: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(max_length=4096, description="drill mode: the file or symbol_id to search in"),
    ] = None
    detail_level: Annotated[
        DetailLevel,
        Field(description="fields per item: minimal, default, or full (with the source)"),
    ] = DetailLevel.DEFAULT
    include_tests: Annotated[
        TestCode,
        Field(
            description="test, example and benchmark code: true (ranked lower for prose "
            "queries unless they ask for tests), false (left out) or only"
        ),
    ] = IncludeTests.TRUE
    snippet_lines: Annotated[
        int,
        Field(
            ge=0,
            le=MAX_SNIPPET_LINES,
            description="lines of each hit's code after its signature (0: none; "
            "detail_level minimal has none)",
        ),
        ForAgents(
            "an agent picks among hits by their first lines; without them each hit "
            "costs one more call",
            default=AGENT_SNIPPET_LINES,
        ),
    ] = 0

    repository: Repositories = ()
    exclude_repository: ExcludedRepositories = ()
    aggregation_mode: Annotated[
        Aggregation,
        Field(
            description="global: the best hits across repositories; per_repo: the limit "
            "spread evenly over them (10 over 3 gives 4+3+3)"
        ),
    ] = Aggregation.GLOBAL
    response_format: Annotated[
        ResponseFormat,
        Field(description="flat: one list; grouped: results_by_repo {alias: {count, items}}"),
    ] = ResponseFormat.FLAT
    group_by: Annotated[
        GroupBy,
        Field(description="file: one entry per file, its best hits inside (limit counts files)"),
    ] = GroupBy.NONE

    at_commit: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(
            max_length=200,
            description='the definitions as of this commit ("HEAD~5", a tag, a hash), read '
            "from git objects; one repository (name it with repository when there are several)",
        ),
    ] = None

    include_removed: Annotated[
        Flag,
        Field(
            description="also definitions some commit deleted that no longer exist, named "
            "like the query, after the others, each with is_removed and removed_in "
            "(needs the history index: --history)"
        ),
    ] = False

    @field_validator("query", mode="before")
    @classmethod
    def _query(cls, value: Any) -> Any:
        return value.strip() if isinstance(value, str) else value

    @field_validator(
        "semantic",
        "mode",
        "detail_level",
        "aggregation_mode",
        "response_format",
        "group_by",
        mode="before",
    )
    @classmethod
    def _lower(cls, value: Any) -> Any:
        return value.strip().lower() if isinstance(value, str) else value

    @model_validator(mode="after")
    def _consistent(self) -> SearchRequest:
        if self.mode is SearchMode.DRILL and self.drill_from is None:
            raise InvalidRequest("drill_from", "is required when mode is drill")
        if not self.query and self.mode is not SearchMode.DRILL:
            raise InvalidRequest("query", "must not be empty")
        return self


def _number(value: Any, name: str, *, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidRequest(name, "must be a number")
    number = float(value)
    if math.isnan(number) or not low <= number <= high:
        raise InvalidRequest(name, f"must be between {low:g} and {high:g}")
    return number
