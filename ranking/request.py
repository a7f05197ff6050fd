"""The search request: every field of the query contract, validated once.

Front ends build a :class:`SearchRequest` with :meth:`SearchRequest.from_mapping`
(a JSON-shaped dict, as MCP arguments or CLI options arrive) and get either a
valid, frozen request or :class:`InvalidRequest` naming the offending field.
The ranking code trusts a request it is handed.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, TypeVar

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.model import Kind

MAX_QUERY_LENGTH = 1000
MAX_LIMIT = 1000
MAX_OFFSET = 100_000
MAX_EDIT_DISTANCE = 10


class SearchMode(StrEnum):
    """Retrieval strategy; ``auto`` picks ``get`` for a path or symbol id, else ``single``."""

    AUTO = "auto"
    SINGLE = "single"
    TIERED = "tiered"
    DRILL = "drill"
    FLAT = "flat"
    GET = "get"


class SemanticMode(StrEnum):
    """Whether the similarity channel runs: ``only`` ranks by it alone."""

    AUTO = "auto"
    ON = "on"
    OFF = "off"
    ONLY = "only"


class DetailLevel(StrEnum):
    MINIMAL = "minimal"
    DEFAULT = "default"
    FULL = "full"


class ResponseFormat(StrEnum):
    """How a front end should encode the answer (the ranking core does not render)."""

    JSON = "json"
    TOON = "toon"


class Channel(StrEnum):
    """The independent rankers whose rankings fusion merges."""

    LEXICAL = "lexical"
    STRUCTURAL = "structural"
    SIMILARITY = "similarity"
    IDENTITY = "identity"
    FUZZY = "fuzzy"


@dataclass(frozen=True, slots=True)
class FusionWeights:
    """Per-channel weights of weighted reciprocal rank fusion; normalized over channels that ran.

    - lexical 0.4: BM25 over name, fqn, signature, doc and path is the broadest
      evidence that a symbol is about the query's words.
    - structural 0.25: PageRank only reorders what other channels found; central
      definitions are what people look for more often.
    - similarity 0.2: embeddings answer paraphrases, but are noisy for names.
    - identity 0.15: name-match tiers are precise; the exact-name guard, not this
      weight, is what puts an exact name first.
    - fuzzy 0.4: runs only when asked or when nothing matched the name as typed;
      then it is the main evidence, as strong as lexical.
    """

    lexical: float = 0.4
    structural: float = 0.25
    similarity: float = 0.2
    identity: float = 0.15
    fuzzy: float = 0.4

    @classmethod
    def sentence(cls) -> FusionWeights:
        """The defaults for a query written as an English sentence (three or more words).

        Names and centrality say little about a description of behaviour; the
        similarity channel (TF-IDF + word vectors over names, docs and bodies)
        and BM25 carry it. Measured on held-out Django docstrings
        (tests/bench/quality_bench.py, nl): hit@10 0.243 with these against 0.237
        with the identifier defaults, MRR@10 0.104 against 0.084.
        """
        return cls(lexical=0.2, structural=0.05, similarity=0.7, identity=0.05, fuzzy=0.4)

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


E = TypeVar("E", bound=StrEnum)


@dataclass(frozen=True, slots=True)
class SearchRequest:
    """One symbol search (the contract of DESIGN.md, fields after reference 004)."""

    query: str
    kind: tuple[Kind, ...] = ()
    language: tuple[str, ...] = ()
    file_pattern: tuple[str, ...] = ()
    implements: str | None = None
    extends: str | None = None
    decorator: str | None = None
    exclude_path: tuple[str, ...] = ()
    fuzzy: bool | None = None  # None: automatic (when nothing matched the name as typed)
    fuzzy_threshold: float = 0.3
    max_edit_distance: int = 3
    semantic: SemanticMode = SemanticMode.AUTO
    semantic_weight: float = 0.5
    fusion: bool = True
    fusion_weights: FusionWeights = field(default_factory=FusionWeights)
    fusion_debug: bool = False
    limit: int = 20
    offset: int = 0
    mode: SearchMode = SearchMode.AUTO
    drill_from: str | None = None
    detail_level: DetailLevel = DetailLevel.DEFAULT
    output_format: ResponseFormat = ResponseFormat.JSON

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any]) -> SearchRequest:
        """Validate JSON-shaped input; ``None`` values mean "the default"."""
        if not isinstance(raw, Mapping):
            raise InvalidRequest("request", "must be an object")
        known = set(cls.field_names())
        for key in raw:
            if key not in known:
                raise InvalidRequest(str(key), "unknown field")
        values = {k: v for k, v in raw.items() if v is not None}
        mode = _enum(SearchMode, values.get("mode", "auto"), "mode")
        query = values.get("query", "")
        if not isinstance(query, str):
            raise InvalidRequest("query", "must be a string")
        query = query.strip()
        if len(query) > MAX_QUERY_LENGTH:
            raise InvalidRequest("query", f"longer than {MAX_QUERY_LENGTH} characters")
        drill_from = _optional_text(values.get("drill_from"), "drill_from")
        if mode is SearchMode.DRILL and drill_from is None:
            raise InvalidRequest("drill_from", "is required when mode is drill")
        if not query and mode is not SearchMode.DRILL:
            raise InvalidRequest("query", "must not be empty")
        kinds = tuple(_enum(Kind, k, "kind") for k in _text_list(values.get("kind"), "kind"))
        fuzzy = values.get("fuzzy")
        if fuzzy is not None and not isinstance(fuzzy, bool):
            raise InvalidRequest("fuzzy", "must be true or false")
        return cls(
            query=query,
            kind=kinds,
            language=_languages(values.get("language")),
            file_pattern=_text_list(values.get("file_pattern"), "file_pattern"),
            implements=_optional_text(values.get("implements"), "implements"),
            extends=_optional_text(values.get("extends"), "extends"),
            decorator=_optional_text(values.get("decorator"), "decorator", strip="@"),
            exclude_path=_text_list(values.get("exclude_path"), "exclude_path"),
            fuzzy=fuzzy,
            fuzzy_threshold=_number(
                values.get("fuzzy_threshold", 0.3), "fuzzy_threshold", low=0.0, high=1.0
            ),
            max_edit_distance=_integer(
                values.get("max_edit_distance", 3), "max_edit_distance", 0, MAX_EDIT_DISTANCE
            ),
            semantic=_enum(SemanticMode, values.get("semantic", "auto"), "semantic"),
            semantic_weight=_number(
                values.get("semantic_weight", 0.5), "semantic_weight", low=0.0, high=1.0
            ),
            fusion=_boolean(values.get("fusion", True), "fusion"),
            fusion_weights=FusionWeights.from_mapping(values.get("fusion_weights")),
            fusion_debug=_boolean(values.get("fusion_debug", False), "fusion_debug"),
            limit=_integer(values.get("limit", 20), "limit", 1, MAX_LIMIT),
            offset=_integer(values.get("offset", 0), "offset", 0, MAX_OFFSET),
            mode=mode,
            drill_from=drill_from,
            detail_level=_enum(DetailLevel, values.get("detail_level", "default"), "detail_level"),
            output_format=_enum(
                ResponseFormat, values.get("output_format", "json"), "output_format"
            ),
        )


def _enum(kind: type[E], value: Any, name: str) -> E:
    if isinstance(value, kind):
        return value
    if isinstance(value, str):
        try:
            return kind(value.strip().lower())
        except ValueError:
            pass
    choices = ", ".join(m.value for m in kind)
    raise InvalidRequest(name, f"{value!r} is not one of: {choices}")


def _boolean(value: Any, name: str) -> bool:
    if not isinstance(value, bool):
        raise InvalidRequest(name, "must be true or false")
    return value


def _number(value: Any, name: str, *, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InvalidRequest(name, "must be a number")
    number = float(value)
    if math.isnan(number) or not low <= number <= high:
        raise InvalidRequest(name, f"must be between {low:g} and {high:g}")
    return number


def _integer(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise InvalidRequest(name, "must be an integer")
    if not low <= value <= high:
        raise InvalidRequest(name, f"must be between {low} and {high}")
    return int(value)


def _optional_text(value: Any, name: str, strip: str = "") -> str | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidRequest(name, "must be a string")
    text = value.strip().lstrip(strip).strip()
    return text or None


def _languages(value: Any) -> tuple[str, ...]:
    """Language names, checked: a misspelt one would filter everything out in silence."""
    from symfuse.indexer.languages import supported

    names = tuple(x.lower() for x in _text_list(value, "language"))
    known = supported()
    for name in names:
        if name not in known:
            raise InvalidRequest(
                "language", f"unknown language {name!r}; one of {', '.join(sorted(known))}"
            )
    return names


def _text_list(value: Any, name: str) -> tuple[str, ...]:
    """A string, a comma-separated string or a list of such strings (a repeated CLI
    option) -> a tuple of non-empty strings."""
    if value is None:
        return ()
    items: list[Any]
    if isinstance(value, str):
        items = value.split(",")
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise InvalidRequest(name, "must be a string or a list of strings")
    out: list[str] = []
    for raw in items:
        item = raw.value if isinstance(raw, StrEnum) else raw
        if not isinstance(item, str):
            raise InvalidRequest(name, "must be a string or a list of strings")
        out.extend(part.strip() for part in item.split(",") if part.strip())
    return tuple(out)
