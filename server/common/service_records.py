"""The records the index service hands out: its status, progress and what a query runs on.

Kept apart from :mod:`symfuse.server.common.service` (which re-exports them) so that
module stays about the policy.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from symfuse.indexer.config import UpdateReport
from symfuse.indexer.index import Index
from symfuse.indexer.update.live import Status

if TYPE_CHECKING:
    from symfuse.ranking.api import Prepared


@dataclass(frozen=True, slots=True)
class Progress:
    """The latest progress of the first index."""

    message: str = "starting"
    done: int = 0
    total: int = 0


@dataclass(frozen=True, slots=True)
class Ranking:
    """The ranking structures a query gets for an index.

    ``prepared`` are exactly the index's, when built; else ``previous`` is an
    earlier index of the same workspace with its structures (their rebuild has
    been asked for); neither on a cold start.
    """

    prepared: Prepared | None = None
    previous: tuple[Index, Prepared] | None = None


@dataclass(frozen=True, slots=True)
class Ranked:
    """What a full search runs on: an index and its structures (None: the search builds
    them), ``stale`` when that index is an earlier one whose structures exist."""

    index: Index
    prepared: Prepared | None
    stale: bool


@dataclass(frozen=True, slots=True)
class LanguageCount:
    language: str
    files: int
    symbols: int


@dataclass(frozen=True, slots=True)
class ServiceStatus:
    """The live index's status, with what a client needs around it."""

    index: Status
    ranking: bool  # the current index has its ranking structures
    roots: dict[str, str]  # alias -> absolute root
    index_dir: Path
    stale_files: tuple[str, ...]  # changed on disk, not re-indexed yet
    languages: tuple[LanguageCount, ...]
    similarity_model: str = ""  # the built-in model, and the semantic extra's with its state
    # one query of each shape was answered ahead on the warming thread, so none of a
    # client's first queries builds what its shape needs (server/common/first_queries.py)
    warmed: bool = False

    @property
    def stale(self) -> bool:
        return is_stale(self.index)


@dataclass(frozen=True, slots=True)
class Reindexed:
    scope: Literal["full", "paths"]
    report: UpdateReport | None  # None: nothing to do (not ready, or only open buffers)


def is_stale(status: Status) -> bool:
    """Answers may miss edits: files wait to be re-indexed, or the first index runs."""
    return status.stale or not status.ready


def languages_of(index: Index) -> tuple[LanguageCount, ...]:
    files: dict[str, int] = {}
    symbols: dict[str, int] = {}
    for entry in index.files.values():
        files[entry.language] = files.get(entry.language, 0) + 1
        symbols[entry.language] = symbols.get(entry.language, 0) + entry.definition_count
    return tuple(LanguageCount(lang, files[lang], symbols[lang]) for lang in sorted(files))
