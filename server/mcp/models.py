"""Parameter types and result models of the MCP tools: the published contract.

Each result model becomes a tool's output schema. Every answer extends
:class:`Answer`: the index freshness (``stale``, ``index_age_seconds``) and the
paging fields of the token budget (``truncated``, ``next_offset``, ``hint``).
Row models allow extra keys, so a richer row from the query layer (for
example ``fusion_debug`` columns) passes through without a schema change.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from symfuse.server.common.present import MAX_MAX_TOKENS, MIN_MAX_TOKENS

# --- parameters shared by the tools ------------------------------------------------------

OutputFormat = Annotated[
    Literal["json", "toon"],
    Field(
        description='"json" (default) or "toon": the same data as TOON, which writes lists '
        "of rows as compact tables and costs fewer tokens"
    ),
]
MaxTokens = Annotated[
    int | None,
    Field(
        ge=MIN_MAX_TOKENS,
        le=MAX_MAX_TOKENS,
        description="budget for the answer in tokens (about 4 characters each; default "
        "2000). Rows past the budget are left out and the answer says truncated: true "
        "with the next_offset to ask for",
    ),
]
Offset = Annotated[
    int, Field(ge=0, le=100_000, description="skip this many rows (paging; see next_offset)")
]
# --- results -------------------------------------------------------------------------------


class Answer(BaseModel):
    """Fields every answer carries.

    Their schemas carry no descriptions: every tool's output schema repeats them, and an
    agent reads ``tools/list`` into its context; the server's instructions say what
    ``stale``, ``truncated`` and ``next_offset`` mean, once (:data:`.server.INSTRUCTIONS`).
    """

    model_config = ConfigDict(extra="allow")

    # true while files changed on disk are being re-indexed, or the first index is not
    # complete: the answer may miss the latest edits
    stale: bool
    index_age_seconds: float  # since the index last changed
    truncated: bool = False  # more rows exist than this answer shows
    next_offset: int | None = None  # pass as offset to get the next rows
    hint: str | None = None  # why the answer was cut, and what to do
    elapsed_ms: float | None = None  # what answering took
    cache_hit: bool | None = None  # the answer came from the query cache


class Row(BaseModel):
    model_config = ConfigDict(extra="allow")


class SymbolRow(Row):
    symbol_id: str  # "path::Qualified.name#kind": the search tool's description says so
    line: int
    name: str | None = Field(default=None, description="with detail_level full")
    kind: str | None = Field(default=None, description="with detail_level full")
    file: str | None = Field(default=None, description="with detail_level full")
    fqn: str | None = None
    signature: str | None = None
    score: float | None = None


class SearchTiers(BaseModel):
    high: list[SymbolRow] = Field(default_factory=list)
    medium: list[SymbolRow] = Field(default_factory=list)
    low: list[SymbolRow] = Field(default_factory=list)


class SearchResult(Answer):
    query: str | None = None
    items: list[SymbolRow] | None = Field(
        default=None, description="the matches, best first (absent in tiered mode)"
    )
    tiers: SearchTiers | None = Field(
        default=None, description="tiered mode: the matches bucketed by confidence"
    )
    results_by_repo: dict[str, Any] | None = Field(
        default=None, description='response_format "grouped": {repository: {count, items}}'
    )
    errors: list[dict[str, str]] | None = Field(
        default=None, description="repositories that could not answer: repository, path, reason"
    )
    total: int = Field(description="how many symbols matched in all")
    search_mode: str = Field(
        description="the mode that answered: single, tiered, drill, flat, get, or "
        "callers / callees when the query asked about the call graph"
    )
    names_only: bool | None = Field(
        default=None,
        description="true on a cold start, while the ranking structures are first built: "
        "ranked by names alone; the same query asked again later gets the full ranking",
    )


class TextRow(Row):
    file: str
    line: int
    column: int
    text: str
    snippet: str | None = None


class TextResult(Answer):
    query: str = Field(description="what was searched for")
    mode: str = Field(description="literal, regex or fuzzy")
    hits: list[TextRow]
    total: int
    files_searched: int


class UsageRow(Row):
    file: str
    line: int
    column: int
    kind: str = Field(description="call, reference, import, inherit, implement, decorate, type")
    enclosing: str | None = Field(default=None, description="symbol_id of the enclosing definition")
    text: str = Field(description="the source line")


class GroupedUsageRow(Row):
    line: int
    column: int
    kind: str
    enclosing: str | None = None
    text: str


class UsageGroup(BaseModel):
    model_config = ConfigDict(extra="allow")

    file: str
    count: int
    usages: list[GroupedUsageRow]


class UsagesResult(Answer):
    symbol: dict[str, Any] | None = Field(default=None, description="the symbol looked up")
    usages: list[UsageRow] | None = None
    files: list[UsageGroup] | None = Field(
        default=None, description="with group_by_file: the usages per file"
    )
    total: int


class GraphRow(Row):
    symbol_id: str  # "path::Qualified.name#kind": the description says so
    line: int


class CallGraphResult(Answer):
    symbol: dict[str, Any]
    direction: Literal["callers", "callees"]
    items: list[GraphRow]
    total: int


class TypeRow(Row):
    name: str
    symbol_id: str | None = Field(description="null for a base outside the workspace")
    kind: str | None = None
    file: str | None = None
    line: int | None = None
    relation: str = Field(description="extends or implements")
    depth: int


class HierarchyResult(Answer):
    symbol: dict[str, Any]
    supertypes: list[TypeRow]
    subtypes: list[TypeRow]


class DependencyRow(Row):
    relation: str = Field(description="imports, imported_by or external")
    target: str = Field(description="the workspace file, or the module outside it")
    depth: int = Field(description="import hops from the file (1: direct)")
    lines: str = Field(description="the import lines, in the importing file")


class DependenciesResult(Answer):
    file: str
    dependencies: list[DependencyRow]
    cycles: list[list[str]]


class DeadCodeRow(Row):
    symbol_id: str = Field(description='"path::Qualified.name#kind": the file and the kind')
    line: int


class DeadCodeGroup(BaseModel):
    model_config = ConfigDict(extra="allow")

    confidence: float = Field(description="0..1: how sure the report is that nothing uses them")
    reason: str = Field(description="why they are reported, and what lowered the confidence")
    items: list[DeadCodeRow]


class DeadCodeResult(Answer):
    groups: list[DeadCodeGroup] = Field(description="unreferenced definitions, surest first")
    total: int
    by_kind: dict[str, int] = Field(description="how many were found of each kind")


class ImpactRow(Row):
    line: int = Field(description="0 for a file reached by an import or module-level code")
    name: str
    kind: str
    relation: str = Field(
        description="calls, references, subclass, override, imports or module_code"
    )
    depth: int = Field(description="hops from the changed symbols (1: direct)")


class ImpactGroup(BaseModel):
    model_config = ConfigDict(extra="allow")

    file: str
    test: bool = Field(description="a test, example or benchmark file")
    items: list[ImpactRow]


class ImpactResult(Answer):
    changed: list[str] = Field(description="symbol ids of the changed definitions (first 20)")
    changed_count: int
    files: list[ImpactGroup] = Field(description="what they reach, per file, product code first")
    tests: list[str] = Field(description="the test files that exercise the change (first 20)")
    test_count: int
    total: int


class HistoryHitRow(Row):
    commit: str
    date: str = Field(description="commit time, UTC, ISO 8601")
    author: str
    email: str
    subject: str
    repository: str
    score: float
    files: list[dict[str, Any]] = Field(description="changed files: path, status, old_path")
    symbols: list[dict[str, Any]] = Field(
        description="definitions the diff touched: name, kind, change, file, line, diff"
    )


class HistoryResult(Answer):
    items: list[HistoryHitRow]
    total: int
    without_history: list[str] | None = Field(
        default=None, description="repositories whose history is not indexed"
    )


class OutlineRow(Row):
    symbol_id: str
    name: str
    kind: str
    line: int
    end_line: int
    depth: int = Field(description="nesting: 0 at top level, 1 for members, ...")


class SymbolResult(Answer):
    symbol: dict[str, Any] | None = Field(
        default=None, description="the symbol with its source, context and relations"
    )
    evolution: list[dict[str, Any]] | None = Field(
        default=None,
        description="with show_evolution: the commits that changed it, newest first "
        "(commit, date, author, subject, repository, change, file, diff)",
    )
    file: str | None = Field(default=None, description="for a path: the file")
    outline: list[OutlineRow] | None = Field(
        default=None, description="for a path: the file's definitions in source order"
    )


class LanguageCount(BaseModel):
    language: str
    files: int
    symbols: int


class StatusResult(Answer):
    roots: dict[str, str] = Field(description="root alias -> absolute path")
    ready: bool = Field(description="the first index is complete")
    indexing: bool
    files: int
    symbols: int
    languages: list[LanguageCount]
    updated_at: str | None = Field(description="when the index last changed (UTC, ISO 8601)")
    stale_files: list[str] = Field(description="files changed on disk, not yet re-indexed")
    channels: dict[str, bool] = Field(description="ranking channels and whether each is usable")
    similarity_model: str = Field(
        description="the similarity models that run: the built-in one, and the semantic "
        "extra's (symfuse[semantic]) with its state: embedding N/M files, or ready"
    )
    index_dir: str
    error: str | None = None
    warmed: bool = Field(
        False, description="one query of each ranked shape was answered ahead: none builds more"
    )


class ReindexResult(Answer):
    scope: str = Field(description='"full" or "paths"')
    files: int
    parsed: int
    unchanged: int
    removed: int
    skipped: int
    seconds: float
    problems: list[dict[str, str]]


class OperationRow(Row):
    operation: str
    requests: int
    errors: int
    p50_ms: float
    p95_ms: float
    p99_ms: float
    cache_hit_rate: float
    saved_ms: float


class StatsResult(Answer):
    operations: list[OperationRow]
    requests: int
    errors: int
    index: dict[str, Any] = Field(description="the index's directory, size on disk and age")


class CacheResult(Answer):
    cache: dict[str, Any] | None = Field(
        default=None, description="this server's cache: entries, hits, misses, hit_rate, saved_ms"
    )
    recorded: dict[str, Any] | None = Field(
        default=None, description="cache hits recorded in the metrics, every front end"
    )
    cleared: bool | None = None
    entries_dropped: int | None = None


class RepositoryRow(Row):
    repository: str
    path: str
    languages: dict[str, int]
    files: int
    symbols: int
    readable: bool
    history: bool


class ReposResult(Answer):
    repositories: list[RepositoryRow]
    total: int


class FileTextResult(Answer):
    file: str = Field(description="the file, relative to its workspace root")
    start_line: int = Field(description="the first line shown (1-based)")
    end_line: int = Field(description="the last line shown")
    total_lines: int = Field(description="lines in the whole file")
    content: str = Field(description="the lines, joined by newlines")
