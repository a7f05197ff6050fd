"""The requests of the analysis operations: dead code and impact."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field, model_validator

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.query.fields import (
    ForAgents,
    Primary,
    Request,
    TextList,
    optional_text,
)
from symfuse.ranking.query.requests import (
    _TOKENS,
    DEFAULT_MIN_CONFIDENCE,
    MAX_DEPTH,
    MAX_ROWS,
    FileHint,
    Offset,
)
from symfuse.ranking.query.search_request import (
    IncludeTests,
    KindList,
    LanguageList,
    TestCode,
)


class DeadCodeRequest(Request):
    """Definitions nothing in the workspace refers to, each with a confidence and why."""

    file_pattern: Annotated[TextList, Field(description="only definitions in files matching")] = ()
    kind: KindList = ()
    language: LanguageList = ()
    min_confidence: Annotated[
        float,
        Field(
            ge=0.0,
            le=1.0,
            description="leave out what is less sure to be dead (below 0.5: decorated, "
            "overriding a library method, named elsewhere in the text)",
        ),
    ] = 0.5
    include_tests: Annotated[
        TestCode,
        Field(
            description="definitions in test, example and benchmark code: false (left out; "
            "their references still count), true, or only"
        ),
    ] = IncludeTests.FALSE
    limit: Annotated[
        int,
        Field(ge=1, le=MAX_ROWS, description="most definitions to return"),
        ForAgents(_TOKENS, cap=1000, default=50),
    ] = 100
    offset: Offset = 0


class ImpactRequest(Request):
    """What a change to a symbol, a file or a diff reaches, and the tests that exercise it."""

    target: Annotated[
        str | None,
        Primary(),
        BeforeValidator(optional_text),
        Field(
            max_length=4096,
            description="a symbol id, a name, or a workspace file (all its definitions)",
        ),
    ] = None
    diff: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(
            max_length=2_000_000,
            description="unified diff text (`git diff` output): the definitions whose lines "
            "it changes (on the command line: a file, or - for stdin)",
        ),
    ] = None
    file: FileHint = None
    depth: Annotated[
        int, Field(ge=1, le=MAX_DEPTH, description="hops to follow from the changed symbols")
    ] = 2
    limit: Annotated[
        int,
        Field(ge=1, le=MAX_ROWS, description="most impacted symbols and files to return"),
        ForAgents(_TOKENS, cap=1000, default=100),
    ] = 300
    offset: Offset = 0
    min_confidence: Annotated[
        float,
        Field(
            ge=0.0,
            le=1.0,
            description="follow links at least this sure; the definitions linked only by "
            "a guess below it are counted as unresolved (0 follows them too)",
        ),
    ] = DEFAULT_MIN_CONFIDENCE

    @model_validator(mode="after")
    def _one_target(self) -> Any:
        if self.target is not None and self.diff is not None:
            raise InvalidRequest("diff", "give either a target or a diff, not both")
        if self.target is None and self.diff is None:
            raise InvalidRequest(
                "target", "give a target (symbol id, name or file), or a diff (unified)"
            )
        return self
