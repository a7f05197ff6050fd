"""``initializationOptions`` of ``symfuse lsp``: nested dataclasses with defaults.

Clients send (every key optional)::

    {"include": ["src/**"], "exclude": ["**/migrations/**"],
     "maxFileSize": 1000000, "resultLimit": 200, "languages": ["python", "go"],
     "hoverSnippetLines": 8}

Each bad value is reported (logged, and shown to the user by the server) and
replaced by its default; the other values still apply. Unknown keys are reported
too, so a misspelt option does not silently do nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from symfuse.indexer.files import languages as language_table
from symfuse.indexer.files.discover import DEFAULT_MAX_FILE_SIZE
from symfuse.ranking.query.search_request import MAX_SNIPPET_LINES

DEFAULT_RESULT_LIMIT = 200
MAX_RESULT_LIMIT = 10_000
DEFAULT_HOVER_SNIPPET_LINES = 8  # enough to see what a called function does first


@dataclass(frozen=True, slots=True)
class IndexOptions:
    """Which files the server indexes (the same meaning as the CLI's options)."""

    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    languages: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class SearchOptions:
    """How ``workspace/symbol`` answers."""

    result_limit: int = DEFAULT_RESULT_LIMIT
    # Hover over a use shows this many lines of the definition's code (0: none).
    hover_snippet_lines: int = DEFAULT_HOVER_SNIPPET_LINES


@dataclass(frozen=True, slots=True)
class LspOptions:
    index: IndexOptions = field(default_factory=IndexOptions)
    search: SearchOptions = field(default_factory=SearchOptions)


@dataclass(frozen=True, slots=True)
class ParsedOptions:
    options: LspOptions
    problems: tuple[str, ...] = ()


_KNOWN = ("include", "exclude", "maxFileSize", "resultLimit", "languages", "hoverSnippetLines")


def parse_options(raw: Any, defaults: LspOptions | None = None) -> ParsedOptions:
    """Validate ``initializationOptions``; bad or absent values take ``defaults``.

    ``defaults`` are the command line's options (or the built-in defaults).
    """
    base = defaults if defaults is not None else LspOptions()
    if raw is None or (isinstance(raw, list | str) and not raw):
        # Nothing given: Neovim 0.7 sends setup({})'s empty table as [], others send ""
        return ParsedOptions(base)
    if not isinstance(raw, Mapping):
        return ParsedOptions(base, (f"initializationOptions must be an object, not {_type(raw)}",))
    problems: list[str] = []
    for key in raw:
        if key not in _KNOWN:
            problems.append(f"unknown option {key!r} ignored (known: {', '.join(_KNOWN)})")
    idx = base.index
    include = _globs(raw.get("include"), "include", problems)
    exclude = _globs(raw.get("exclude"), "exclude", problems)
    max_size = _int(raw.get("maxFileSize"), "maxFileSize", 1, None, problems)
    limit = _int(raw.get("resultLimit"), "resultLimit", 1, MAX_RESULT_LIMIT, problems)
    langs = _languages(raw.get("languages"), problems)
    snippet = _int(
        raw.get("hoverSnippetLines"), "hoverSnippetLines", 0, MAX_SNIPPET_LINES, problems
    )
    options = LspOptions(
        index=IndexOptions(
            include=include if include is not None else idx.include,
            exclude=exclude if exclude is not None else idx.exclude,
            max_file_size=max_size if max_size is not None else idx.max_file_size,
            languages=langs if langs is not None else idx.languages,
        ),
        search=SearchOptions(
            result_limit=limit if limit is not None else base.search.result_limit,
            hover_snippet_lines=snippet if snippet is not None else base.search.hover_snippet_lines,
        ),
    )
    return ParsedOptions(options, tuple(problems))


def _type(value: object) -> str:
    return type(value).__name__


def _globs(value: Any, name: str, problems: list[str]) -> tuple[str, ...] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        problems.append(f"{name} must be a list of glob strings; using the default")
        return None
    return tuple(value)


def _int(value: Any, name: str, low: int, high: int | None, problems: list[str]) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or value != int(value):
        problems.append(f"{name} must be an integer, not {value!r}; using the default")
        return None
    number = int(value)
    if number < low or (high is not None and number > high):
        bound = f"between {low} and {high}" if high is not None else f"at least {low}"
        problems.append(f"{name} must be {bound}, not {number}; using the default")
        return None
    return number


def _languages(value: Any, problems: list[str]) -> frozenset[str] | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append("languages must be a list of language names; using the default")
        return None
    if not value:
        return None
    supported = set(language_table.supported())
    wanted = {v.lower() for v in value}
    unknown = sorted(wanted - supported)
    if unknown:
        problems.append(
            f"languages: unknown {', '.join(unknown)} (supported: {', '.join(sorted(supported))});"
            " using the default"
        )
        return None
    return frozenset(wanted)
