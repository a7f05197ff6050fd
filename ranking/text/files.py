"""Which files a text search reads: the indexed code, and the text files beside it.

Documentation, configuration and plain text (:data:`~symfuse.indexer.files.discover.TEXT_FILES`:
Markdown, reStructuredText, YAML, TOML, JSON, ``.txt``) hold the strings people grep
for, whether or not a language indexes them. They are found as the indexer finds code
(:func:`~symfuse.indexer.files.discover.discover_text`: the same ignore files, skipped folders,
include/exclude globs and size limit, from the options the index was built with), at
each search, so a file written a moment ago is read. ``code_only`` leaves them all out,
indexed ones (Markdown, YAML, TOML headings and keys) included.
"""

from __future__ import annotations

from pathlib import Path

from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.files import languages
from symfuse.indexer.files.discover import (
    DEFAULT_MAX_FILE_SIZE,
    TEXT_FILES,
    DiscoveryConfig,
    discover_text,
)
from symfuse.indexer.index import Index
from symfuse.ranking.text import paths

TEXT_KINDS = frozenset(TEXT_FILES.values())


def searched_files(
    index: Index,
    file_pattern: str | list[str] | None,
    language: str | None,
    exclude_path: str | list[str] | None,
    *,
    code_only: bool = False,
) -> list[str]:
    """The keys of the files to search: indexed files (not the text ones when
    ``code_only``) and, unless ``code_only``, the text files the index does not hold; code
    first, then documentation and configuration, each sorted by path (what a search for a
    name is after is mostly its code; the prose that mentions it comes after)."""
    every = {*languages.supported(), *TEXT_KINDS}
    if language is not None and language not in every:
        known = ", ".join(sorted(every))
        raise InvalidRequest("language", f"unknown language {language!r}; one of {known}")
    kinds = {key: entry.language for key, entry in index.files.items()}
    if not code_only:
        for key, kind in _text_files(index):
            kinds.setdefault(key, kind)
    wanted = paths.split_globs(file_pattern)
    unwanted = paths.split_globs(exclude_path)
    return [
        key
        for key in sorted(kinds, key=lambda k: (kinds[k] in TEXT_KINDS, k))
        if (language is None or kinds[key] == language)
        and not (code_only and kinds[key] in TEXT_KINDS)
        and (not wanted or paths.any_match(key, wanted))
        and not (unwanted and paths.any_match(key, unwanted))
    ]


def _text_files(index: Index) -> list[tuple[str, str]]:
    """(key, kind) of every text file under the roots, as the index's options select files."""
    options = index.options
    config = DiscoveryConfig(
        include=tuple(options.get("include") or ()),
        exclude=tuple(options.get("exclude") or ()),
        max_file_size=int(options.get("max_file_size") or DEFAULT_MAX_FILE_SIZE),
    )
    return [
        (index.key(alias, found.path), found.language)
        for alias, root in index.roots.items()
        for found in discover_text(Path(root), config)
    ]
