"""The request of every operation but search (whose model is :mod:`.search_request`).

Each field carries its default, bounds and a one-line description; the
command-line options and the MCP tool schemas are generated from them. Where
agents get a smaller cap or another default, :class:`ForAgents` says so with
its reason; where a field means nothing on a command line, :class:`ServerOnly`
(:mod:`.fields`) says why. ``target`` is the positional argument of a command
line and also open to agents: the operation looks it up in the index (a symbol
id there is an id; otherwise a name, or for ``get`` a path), so no front end
guesses.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, model_validator
from pydantic.json_schema import WithJsonSchema

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.model import RefKind
from symfuse.ranking.query.fields import (
    LIST_SCHEMA,
    Flag,
    ForAgents,
    Primary,
    Request,
    ServerOnly,
    TextList,
    optional_text,
    split_list,
)
from symfuse.ranking.query.search_request import (
    IncludeTests,
    TestCode,
)

MAX_ROWS = 10_000
MAX_OFFSET = 1_000_000
MAX_DEPTH = 10
MAX_CONTEXT_LINES = 50
MAX_SNIPPET_LINES = 50
MAX_TEXT_EDIT_DISTANCE = 3
MAX_TIMEOUT = 30.0
MAX_EVOLUTION = 1000
DEFAULT_TEXT_TIMEOUT = 2.0
USAGE_KINDS = tuple(k.value for k in RefKind)
# Usages linked less surely than this are guesses by name among several same-named
# definitions (0.5/n for n of them): counted as unresolved, listed when asked for with a
# lower min_confidence. A name with one definition (0.8) and every link made through
# scopes, imports or a declared type (1.0) stay listed.
DEFAULT_MIN_CONFIDENCE = 0.5

_TOKENS = "an agent reads every row in tokens; the answer budget trims the rest"

Target = Annotated[
    str | None,
    Primary(),
    BeforeValidator(optional_text),
    Field(
        max_length=2000,
        description="a symbol id, or a name (qualified or not); the index decides which",
    ),
]
SymbolId = Annotated[
    str | None,
    BeforeValidator(optional_text),
    Field(
        max_length=2000,
        description='a symbol_id from an earlier answer, e.g. "shop/models.py::Order.total#method"',
    ),
]
SymbolName = Annotated[
    str | None,
    BeforeValidator(optional_text),
    Field(
        max_length=500,
        description='a definition name ("total") or qualified name ("Order.total"); '
        "add file when it names several",
    ),
]
FileHint = Annotated[
    str | None,
    BeforeValidator(optional_text),
    Field(max_length=4096, description="with a name: only definitions in this file"),
]
Offset = Annotated[
    int, Field(ge=0, le=MAX_OFFSET, description="skip this many rows (paging; see next_offset)")
]
Depth = Annotated[int, Field(ge=1, le=MAX_DEPTH, description="hops (levels) to follow")]


class TargetRequest(Request):
    """A request about one symbol: ``target``, ``symbol_id``, or ``name`` (+ ``file``)."""

    target: Target = None
    symbol_id: SymbolId = None
    name: SymbolName = None
    file: FileHint = None

    @model_validator(mode="after")
    def _one_target(self) -> Any:
        given = [f for f in ("target", "symbol_id", "name") if getattr(self, f) is not None]
        if not given:
            raise InvalidRequest(
                "target",
                "give a symbol id or a name: target, symbol_id (from search), or name "
                "(optionally with file)",
            )
        if len(given) > 1:
            raise InvalidRequest(given[1], f"give either {' or '.join(given)}, not both")
        return self


def _usage_kinds(value: Any) -> tuple[str, ...]:
    kinds = tuple(k.lower() for k in split_list(value))
    for kind in kinds:
        if kind not in USAGE_KINDS:
            raise ValueError(f"unknown usage kind {kind!r}; one of {', '.join(USAGE_KINDS)}")
    return kinds


class UsagesRequest(TargetRequest):
    """Where a symbol is used: calls, references, imports, inheritance, decorators, types."""

    kinds: Annotated[
        tuple[str, ...],
        BeforeValidator(_usage_kinds),
        WithJsonSchema(LIST_SCHEMA, mode="validation"),
        Field(description=f"only these kinds of use ({', '.join(USAGE_KINDS)}); default all"),
    ] = ()
    group_by_file: Annotated[Flag, Field(description="group the usages under their file")] = False
    include_declaration: Annotated[
        Flag, Field(description="also list the definition itself (kind 'definition')")
    ] = False
    min_confidence: Annotated[
        float,
        Field(
            ge=0.0,
            le=1.0,
            description="list usages linked at least this surely; the guesses below are "
            "counted as unresolved (0 lists them too)",
        ),
    ] = DEFAULT_MIN_CONFIDENCE
    file_pattern: Annotated[TextList, Field(description="only usages in files matching these")] = ()
    exclude_path: Annotated[TextList, Field(description="skip usages in files matching these")] = ()
    include_tests: Annotated[
        TestCode,
        Field(
            description="usages in test, example and benchmark code: true (listed after "
            "the others), false (left out) or only"
        ),
    ] = IncludeTests.TRUE
    limit: Annotated[
        int,
        Field(ge=1, le=MAX_ROWS, description="most usages to return"),
        ForAgents(_TOKENS, cap=1000, default=30),
    ] = 50
    offset: Offset = 0


class TextRequest(Request):
    """Literal, regex or fuzzy search over the text of the code and the text files beside it."""

    pattern: Annotated[
        str,
        Primary(),
        Field(min_length=1, max_length=1000, description="text, or a regex with regex"),
    ]
    regex: Annotated[Flag, Field(description="pattern is a regular expression")] = False
    case_sensitive: Annotated[Flag, Field(description="match case exactly")] = False
    fuzzy: Annotated[
        Flag, Field(description="typo-tolerant word match (edit_distance 1 unless set)")
    ] = False
    edit_distance: Annotated[
        int,
        Field(ge=0, le=MAX_TEXT_EDIT_DISTANCE, description="fuzzy: most edits per word"),
    ] = 0
    file_pattern: Annotated[TextList, Field(description="only paths matching these globs")] = ()
    language: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(max_length=100, description="only files of this language"),
    ] = None
    exclude_path: Annotated[TextList, Field(description="skip paths matching these globs")] = ()
    code_only: Annotated[
        Flag,
        Field(
            description="only code: leave out documentation, configuration and plain text "
            "(Markdown, reStructuredText, YAML, TOML, JSON, .txt)"
        ),
    ] = False
    snippet_lines: Annotated[
        int,
        Field(ge=0, le=MAX_SNIPPET_LINES, description="lines of context around each hit"),
        ForAgents("each hit already carries its line; context costs tokens", default=0),
    ] = 2
    timeout: Annotated[
        float, Field(gt=0.0, le=MAX_TIMEOUT, description="time budget of the scan in seconds")
    ] = DEFAULT_TEXT_TIMEOUT
    limit: Annotated[
        int,
        Field(ge=1, le=1000, description="most hits to return"),
        ForAgents(_TOKENS, cap=500),
    ] = 20
    offset: Offset = 0

    @property
    def distance(self) -> int:
        """The edit distance asked for: ``fuzzy`` alone means 1."""
        return self.edit_distance or (1 if self.fuzzy else 0)

    @model_validator(mode="after")
    def _fuzzy_is_literal(self) -> Any:
        if self.regex and self.distance:
            raise InvalidRequest(
                "regex",
                "fuzzy matching (fuzzy / edit_distance) works on literal words; drop regex "
                "or set edit_distance to 0",
            )
        return self


class GetRequest(Request):
    """A symbol's source and context, a file's outline, or the definition at a line."""

    target: Annotated[
        str | None,
        Primary(),
        BeforeValidator(optional_text),
        Field(max_length=4096, description="a symbol id, a path, or path:line"),
    ] = None
    symbol_id: SymbolId = None
    path: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(max_length=4096, description='a file for its outline, or "file:line"'),
    ] = None
    line: Annotated[
        int | None, Field(ge=1, description="with path: the definition at this line")
    ] = None
    context_lines: Annotated[
        int,
        Field(ge=0, le=MAX_CONTEXT_LINES, description="lines shown before and after the source"),
    ] = 3
    max_lines: Annotated[
        int,
        Field(ge=1, le=100_000, description="cut a longer source after this many lines"),
        ForAgents("the token budget cuts the source, and next_offset reads on", default=5000),
    ] = 400
    offset: Annotated[
        int,
        Field(ge=0, le=MAX_OFFSET, description="source: skip this many lines; outline: rows"),
    ] = 0

    show_evolution: Annotated[
        Flag,
        Field(
            description="also list the commits that changed the definition, newest first, "
            "each with the diff of its own lines (needs the history index)"
        ),
    ] = False
    evolution_limit: Annotated[
        int,
        Field(ge=1, le=MAX_EVOLUTION, description="with show_evolution: most commits to list"),
    ] = 10
    at_commit: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(
            max_length=200,
            description='the definition as of this commit or ref ("HEAD~5", a tag, a hash), '
            "read from git",
        ),
    ] = None
    include_removed: Annotated[
        Flag,
        Field(
            description="a definition that no longer exists is read from the commit before "
            "the one that deleted it (is_removed: true; needs the history index)"
        ),
    ] = False

    @property
    def needs_history(self) -> bool:
        """Whether answering reads the history index."""
        return self.show_evolution or self.include_removed

    @model_validator(mode="after")
    def _one_target(self) -> Any:
        given = [f for f in ("target", "symbol_id", "path") if getattr(self, f) is not None]
        if not given:
            raise InvalidRequest(
                "target",
                'give a symbol_id, or a path (a file for its outline, "file:line" for the '
                "definition there)",
            )
        if len(given) > 1:
            raise InvalidRequest(given[1], f"give either {' or '.join(given)}, not both")
        return self


class CallsRequest(TargetRequest):
    """Callers or callees of one symbol, breadth first."""

    depth: Depth = 1
    limit: Annotated[
        int,
        Field(ge=1, le=1000, description="most symbols to return"),
        ForAgents(_TOKENS, cap=500, default=30),
    ] = 100
    offset: Offset = 0


class Direction(StrEnum):
    BOTH = "both"
    SUPERTYPES = "supertypes"
    SUBTYPES = "subtypes"


class HierarchyRequest(TargetRequest):
    """Supertypes and subtypes of one type."""

    direction: Annotated[Direction, Field(description="which way to walk")] = Direction.BOTH
    depth: Depth = 1
    offset: Offset = 0


class DepsRequest(Request):
    """The files a file imports and the files that import it."""

    target: Annotated[
        str,
        Primary(),
        Field(
            min_length=1,
            max_length=4096,
            description='a workspace file ("shop/models.py") or a Python module ("shop.models")',
        ),
    ]
    depth: Depth = 1


MAX_LINE = 100_000_000
_PATH_RANGE = re.compile(r"^(?P<path>.*[^\s:]):(?P<start>\d+)(?P<dash>-(?P<end>\d+)?)?$")


class ReadRequest(Request):
    """A text file under the workspace roots, or a range of its lines."""

    path: Annotated[
        str,
        Primary(),
        Field(
            min_length=1,
            max_length=4096,
            description='a file under a workspace root ("README.md"), optionally with lines: '
            '"setup.cfg:5" (one), "shop/models.py:10-40", "shop/models.py:10-" (to the end)',
        ),
    ]
    start_line: Annotated[
        int | None, Field(ge=1, le=MAX_LINE, description="first line to read (default 1)")
    ] = None
    end_line: Annotated[
        int | None,
        Field(ge=1, le=MAX_LINE, description="last line to read, inclusive (default: the end)"),
    ] = None
    offset: Annotated[
        int,
        Field(ge=0, le=MAX_LINE, description="skip this many lines of the range (paging)"),
    ] = 0

    @model_validator(mode="after")
    def _range(self) -> ReadRequest:
        """``PATH:START[-[END]]`` sets the range when the fields do not."""
        found = _PATH_RANGE.match(self.path)
        if found and self.start_line is None and self.end_line is None:
            start = int(found["start"])
            end = None if found["dash"] and not found["end"] else int(found["end"] or start)
            if start < 1:
                raise InvalidRequest("path", "lines are numbered from 1")
            object.__setattr__(self, "path", found["path"])
            object.__setattr__(self, "start_line", start)
            object.__setattr__(self, "end_line", end)
        if self.end_line is not None and self.end_line < (self.start_line or 1):
            raise InvalidRequest("end_line", "must not come before start_line")
        return self


class StatusRequest(Request):
    """The state of the index (never waits for it)."""

    offset: Annotated[
        int,
        Field(ge=0, le=MAX_OFFSET, description="skip this many stale files (paging)"),
        ServerOnly("`symfuse stats` updates the index first: it has no stale files to page"),
    ] = 0


class ReindexRequest(Request):
    """Re-index everything, or only the given files."""

    paths: Annotated[
        tuple[Annotated[str, Field(min_length=1, max_length=4096)], ...],
        Field(
            max_length=1000,
            description="files to re-index, relative to a workspace root; omit for all",
        ),
    ] = ()
    add_root: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(
            max_length=4096,
            description='a repository to serve as well: "PATH" or "ALIAS=PATH" (absolute)',
        ),
        ServerOnly("a command line names its roots as arguments"),
    ] = None
    remove_root: Annotated[
        str | None,
        BeforeValidator(optional_text),
        Field(max_length=500, description="the alias of a repository to stop serving"),
        ServerOnly("a command line names its roots as arguments"),
    ] = None


class ReposRequest(Request):
    """The repositories (workspace roots) of the index."""

    repository: Annotated[
        TextList, Field(description='only these repositories: names or wildcards ("svc-*")')
    ] = ()
