"""The request of ``search_history`` / ``symfuse history`` (the git history index)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, model_validator
from pydantic.json_schema import WithJsonSchema

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.query.fields import (
    LIST_SCHEMA,
    ForAgents,
    Primary,
    Request,
    optional_text,
    split_list,
)
from symfuse.ranking.query.requests import (
    _TOKENS,
    Offset,
)
from symfuse.ranking.query.search_request import (
    ExcludedRepositories,
    Repositories,
)

MIN_TOKENS, MAX_TOKENS = 100, 100_000


class ChunkType(StrEnum):
    COMMIT_MESSAGE = "commit_message"
    COMMIT_DIFF = "commit_diff"


DIFF_TYPES = ("added", "modified", "deleted", "renamed", "binary")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _diff_types(value: Any) -> tuple[str, ...]:
    kinds = tuple(k.lower() for k in split_list(value))
    for kind in kinds:
        if kind not in DIFF_TYPES:
            raise ValueError(f"unknown diff type {kind!r}; one of {', '.join(DIFF_TYPES)}")
    return kinds


def _day(text: str, field: str) -> int | None:
    """Seconds since the epoch at the start of a ``YYYY-MM-DD`` day (UTC); None if empty."""
    text = text.strip()
    if not text:
        return None
    try:
        if not _DATE.match(text):
            raise ValueError(text)
        return int(datetime.strptime(text, "%Y-%m-%d").replace(tzinfo=UTC).timestamp())
    except ValueError:
        raise InvalidRequest(
            field,
            f"{text!r} is not a date; write YYYY-MM-DD..YYYY-MM-DD (either side may be left open)",
        ) from None


class HistoryRequest(Request):
    """Search the git history: commit messages and diffs, with filters."""

    query: Annotated[
        str | None,
        Primary(),
        BeforeValidator(optional_text),
        Field(
            max_length=2000,
            description="words to find in commit messages and diffs (BM25); omit to list "
            "the newest commits that pass the filters",
        ),
    ] = None
    chunk_type: Annotated[
        ChunkType | None,
        Field(description="search only commit messages or only diffs; default both"),
    ] = None
    time_range: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(
            max_length=30,
            description='commits between two days, "YYYY-MM-DD..YYYY-MM-DD" (UTC, both '
            'included; either side may be open: "2024-01-01..")',
        ),
    ] = None
    author: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(max_length=200, description="author name or email (substring, any case)"),
    ] = None
    diff_type: Annotated[
        tuple[str, ...],
        BeforeValidator(_diff_types),
        WithJsonSchema(LIST_SCHEMA, mode="validation"),
        Field(
            description=f"only commits with changes of these kinds ({', '.join(DIFF_TYPES)}; "
            "comma-separated): a file's status or a definition's change"
        ),
    ] = ()
    repository: Repositories = ()
    exclude_repository: ExcludedRepositories = ()
    limit: Annotated[
        int,
        Field(ge=1, le=1000, description="most commits to return"),
        ForAgents(_TOKENS, cap=100),
    ] = 10
    offset: Offset = 0
    max_tokens: Annotated[
        int,
        Field(
            ge=MIN_TOKENS,
            le=MAX_TOKENS,
            description="budget of the answer in tokens (about 4 characters each): the "
            "changed symbols' hunks are cut to fit",
        ),
    ] = 4000

    @property
    def since(self) -> int | None:
        return self._range()[0]

    @property
    def until(self) -> int | None:
        """The start of the day after the range's last day (the range includes it)."""
        return self._range()[1]

    def _range(self) -> tuple[int | None, int | None]:
        if not self.time_range:
            return None, None
        first, sep, last = self.time_range.partition("..")
        if not sep:
            raise InvalidRequest("time_range", "write YYYY-MM-DD..YYYY-MM-DD")
        end = _day(last, "time_range")
        return _day(first, "time_range"), None if end is None else end + 86_400

    @model_validator(mode="after")
    def _valid_range(self) -> Any:
        since, until = self._range()
        if since is not None and until is not None and since >= until:
            raise InvalidRequest("time_range", "the first day is after the last")
        return self
