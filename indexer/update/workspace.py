"""Load, build and incrementally update the stored index of a workspace.

``update_index`` is the one entry point: it takes the lock, reads the manifest,
walks the roots, re-parses only files whose size, mtime and then content hash
changed (in a process pool when there are many), patches the graph for the
names whose definitions changed, recomputes PageRank and writes what is new.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from symfuse.indexer.config import (
    IndexConfig,
    UpdateReport,
    file_key,
    same_file_set,
)
from symfuse.indexer.errors import IndexCorrupt, IndexUnavailable
from symfuse.indexer.files.discover import (
    Candidate,
    Discovery,
    discover,
    discover_iter,
    discover_paths,
)
from symfuse.indexer.files.headers import HeaderHints, decide, is_ambiguous, is_source
from symfuse.indexer.files.layouts import python_layouts
from symfuse.indexer.index import Index
from symfuse.indexer.model import FileStamp, Skipped
from symfuse.indexer.store.manifest import Manifest
from symfuse.indexer.store.objects import Store, collector_paused

# Parsing, patching and the records-only update are imported where a file is to be
# parsed: an update that finds nothing changed (a warm `symfuse search`) needs none.
if TYPE_CHECKING:
    from symfuse.indexer.extract.parsing import ParseJob, ParseResult
    from symfuse.indexer.update.early import EarlyWriter

log = logging.getLogger(__name__)

Progress = Callable[[int, int], None]


def load_index(config: IndexConfig) -> Index | None:
    """The stored index as it is (no walking, no parsing); None when absent or unusable."""
    store = config.store
    try:
        manifest = store.read_manifest()
        return None if manifest is None else store.load(manifest)
    except IndexCorrupt as exc:
        log.warning("stored index at %s is unusable: %s", store.directory, exc)
        return None


def update_index(
    config: IndexConfig,
    *,
    index: Index | None = None,
    only: Sequence[str] | None = None,
    on_progress: Progress | None = None,
) -> tuple[Index, UpdateReport]:
    """Bring the index up to date with the files on disk and persist it.

    ``index`` is an already loaded index to patch (servers keep one in memory);
    ``only`` limits the check to these paths (absolute or root-relative).
    """
    result, report = _locked_update(config, index, only, on_progress, need_index=True)
    assert result is not None
    return result, report


def refresh_index(
    config: IndexConfig, *, early: EarlyWriter | None = None
) -> tuple[Index | None, UpdateReport]:
    """``update_index`` for callers that mostly want the report (``symfuse index``).

    When nothing changed it reads the manifest alone, never the whole index, and
    the index is None; otherwise it is the index as built or patched. ``early``: a cold
    build's parsed files go to it as they come (a server's forked first build, :mod:`.early`).
    """
    return _locked_update(config, None, None, None, need_index=False, early=early)


def _locked_update(
    config: IndexConfig,
    index: Index | None,
    only: Sequence[str] | None,
    on_progress: Progress | None,
    *,
    need_index: bool,
    early: EarlyWriter | None = None,
) -> tuple[Index | None, UpdateReport]:
    started = time.perf_counter()
    store = config.store
    if index is None and only is None:
        unchanged = _unchanged_unlocked(config, need_index)
        if unchanged is not None:
            unchanged[1].seconds = time.perf_counter() - started
            return unchanged
    try:
        with store.lock(), collector_paused():
            try:
                result, report = _update(
                    config, store, index, only, on_progress, need_index, early=early
                )
            except IndexCorrupt as exc:
                log.warning(
                    "stored index at %s is unusable (%s); rebuilding it", store.directory, exc
                )
                store.clear()
                result, report = _update(config, store, None, None, on_progress, need_index)
                report.rebuilt_because = str(exc)
    except OSError as exc:
        # Source files that cannot be read are skipped with a reason, deep down; what gets
        # here is the index directory itself: not creatable, a file, locked too long, full.
        raise IndexUnavailable(
            f"cannot write the index at {store.directory}: {_reason(exc)}"
        ) from exc
    report.seconds = time.perf_counter() - started
    return result, report


def _reason(exc: OSError) -> str:
    if isinstance(exc, TimeoutError):
        return "another symfuse process held its lock too long"
    text = exc.strerror or str(exc) or type(exc).__name__
    return f"{text} ({exc.filename})" if exc.filename else text


@dataclass(slots=True)
class _Update:
    """One update's inputs, as read once at its start."""

    config: IndexConfig
    store: Store
    aliases: dict[str, str]
    options: dict[str, Any]
    manifest: Manifest | None
    reusable: bool  # the manifest's files are of these roots and this file set
    report: UpdateReport
    on_progress: Progress | None
    early: EarlyWriter | None = None  # a cold build's parsed files, as they come


def _update(
    config: IndexConfig,
    store: Store,
    index: Index | None,
    only: Sequence[str] | None,
    on_progress: Progress | None,
    need_index: bool = True,
    *,
    early: EarlyWriter | None = None,
) -> tuple[Index | None, UpdateReport]:
    report = UpdateReport()
    aliases = config.aliases
    manifest = _read_manifest(store, report)
    options = config.options()
    reusable = _reusable(manifest, options, aliases)
    if manifest is not None and not reusable and report.rebuilt_because is None:
        report.rebuilt_because = "index options or roots changed"
    run = _Update(config, store, aliases, options, manifest, reusable, report, on_progress, early)
    previous = index if (index is not None and index.roots == aliases) else None
    if previous is not None and not same_file_set(previous.options, options):
        previous = None
    if previous is None and not reusable and only is None:
        result = _build(run)  # nothing to compare with: parse all
        if on_progress is not None:
            on_progress(len(result.files), len(result.files))
    else:
        refreshed = _refresh(run, previous, only, lean=not need_index)
        if refreshed is None:  # nothing changed
            return (_loaded(store, manifest, previous) if need_index else None), report
        result = refreshed
    result.options = options
    report.counts = result.stats()
    report.files = len(result.files)
    store.save(result, report.counts, options, manifest if reusable else None)
    return result, report


def _loaded(store: Store, manifest: Manifest | None, previous: Index | None) -> Index:
    assert manifest is not None
    return previous or store.load(manifest)


def _build(run: _Update) -> Index:
    """A cold build: the files go to the parser pool as discovery finds them.

    Two jobs leave the serial tail (link, rank, save) for moments the parent would
    wait anyway: numpy, which ranking needs, is imported once the pool runs, and the
    records are written to their pack while the graph is linked.
    """
    from symfuse.indexer.extract.parsing import parse_stream
    from symfuse.indexer.update.apply import patch

    index = Index(run.aliases)
    config = run.config
    results = parse_stream(_discovered_jobs(run), config.jobs, config.progress)

    def parsed() -> Iterator[ParseResult]:
        first = next(results, None)
        if first is None:
            return
        yield first
        import numpy  # noqa: F401

        yield from results if run.early is None else run.early.passing(first, results)
        run.store.write_records_early(index)  # every entry is in: patch() links next

    patch(index, parsed(), [], run.report)
    return index


def _discovered_jobs(run: _Update) -> Iterator[ParseJob]:
    """Jobs as discovery finds files; a root's ``.h`` files last, once the walk has seen
    the sources their language is decided from (:class:`HeaderHints`); with answers
    given meanwhile (``run.early``), documents, tests and examples after every root's code."""
    from symfuse.indexer.extract.parsing import job_for
    from symfuse.indexer.update.early import later

    aliases = run.aliases
    layouts = python_layouts(aliases)
    deferred: list[ParseJob] = []
    wait = later if run.early is not None else None
    for alias, real in aliases.items():
        found = Discovery()
        seen: list[str] = []
        headers: list[Candidate] = []
        for c in discover_iter(Path(real), run.config.discovery(), found):
            seen.append(c.path)
            if is_ambiguous(c.path):
                headers.append(c)
                continue
            job = job_for(alias, c, aliases, layouts)
            if wait is not None and wait(job):
                deferred.append(job)
            else:
                yield job
        if headers:
            hints = HeaderHints.of_root(real, seen)
            for c in headers:
                yield job_for(alias, c, aliases, layouts, hints)
        run.report.skipped.extend(_skips(found, alias, aliases))
    yield from deferred


def _skips(found: Discovery, alias: str, aliases: dict[str, str]) -> list[Skipped]:
    return [Skipped(file_key(alias, s.path, aliases), s.reason) for s in found.skipped]


def _refresh(
    run: _Update, previous: Index | None, only: Sequence[str] | None, lean: bool
) -> Index | None:
    """An update against the stored or loaded index; None when nothing changed, or when
    ``lean`` (the caller needs no index) and the change was saved as records alone."""
    manifest, store, report = run.manifest, run.store, run.report
    to_parse, removed, stale, relink = _changes(run, previous, only)
    nothing_new = not to_parse and not removed and (previous is None or previous.linked)
    if nothing_new and not relink and manifest is not None and run.reusable:
        report.files = len(manifest.files)
        report.counts = manifest.counts
        return None
    if previous is None and manifest is not None and run.reusable:
        quiet = lean and not relink and not stale and not removed
        if quiet:
            from symfuse.indexer.update.records_only import update_records_only

            if update_records_only(store, manifest, to_parse, report):
                return None
        previous = store.load(manifest)
    if previous is not None and relink:
        previous.linked = False  # resolution changed: relink every file
    return _apply(run, previous, to_parse, removed, stale)


def _changes(
    run: _Update, previous: Index | None, only: Sequence[str] | None
) -> tuple[list[ParseJob], list[str], set[str], bool]:
    """What an update would do: the files to parse, the keys removed, the languages
    whose extractor changed, and whether every file must be linked again."""
    manifest, report = run.manifest, run.report
    candidates = _candidates(run, only)
    stored = manifest.files if (manifest is not None and run.reusable) else {}
    old_options = previous.options if previous else manifest.options if manifest else {}
    old_prints = old_options.get("extractor", {})
    new_prints = run.options["extractor"]
    stale = {lang for lang, fp in new_prints.items() if old_prints.get(lang) != fp}
    relink = old_options.get("linker") != run.options["linker"]
    to_parse, unchanged = _classify(candidates, stored, previous, stale, run.aliases)
    removed = _removed(candidates, stored, previous, only, run.aliases)
    report.unchanged = len(unchanged)
    report.removed = len(removed)
    return to_parse, removed, stale, relink


def _unchanged_unlocked(
    config: IndexConfig, need_index: bool
) -> tuple[Index | None, UpdateReport] | None:
    """The stored index when the files on disk are the ones it was built from, checked
    without the lock; None when anything would be written (the caller takes the lock).

    Readers need no lock: the manifest is renamed into place last and the objects it
    names are immutable, so a reader sees a whole index. A writer may delete a pack
    the manifest read here still names: the load then fails and the locked path runs.
    A warm query on an unchanged tree thus never imports or touches the lock.
    """
    store, report = config.store, UpdateReport()
    try:
        manifest = store.read_manifest()
    except IndexCorrupt:
        return None  # the locked path says so and rebuilds
    options = config.options()
    if manifest is None or not _reusable(manifest, options, config.aliases):
        return None
    run = _Update(config, store, config.aliases, options, manifest, True, report, None)
    to_parse, removed, _stale, relink = _changes(run, None, None)
    if to_parse or removed or relink:
        return None
    report.files = len(manifest.files)
    report.counts = manifest.counts
    try:
        return (store.load(manifest) if need_index else None), report
    except IndexCorrupt:
        return None


def _reusable(manifest: Manifest | None, options: dict[str, Any], aliases: dict[str, str]) -> bool:
    """Whether the stored files are of these roots and this file set."""
    return (
        manifest is not None
        and same_file_set(manifest.options, options)
        and manifest.roots == aliases
    )


def _read_manifest(store: Store, report: UpdateReport) -> Manifest | None:
    try:
        return store.read_manifest()
    except IndexCorrupt as exc:
        log.warning("stored index at %s is unusable (%s); rebuilding it", store.directory, exc)
        report.rebuilt_because = str(exc)
        store.clear()
        return None


def _candidates(run: _Update, only: Sequence[str] | None) -> dict[str, tuple[str, Candidate]]:
    """The files to index now: key -> (root alias, what discovery found)."""
    found: dict[str, tuple[str, Candidate]] = {}
    aliases = run.aliases
    multi = len(aliases) > 1
    wanted: dict[str, list[str]] = {alias: [] for alias in aliases}
    for key in {_key_of(p, aliases) for p in only or ()}:
        alias, _, rel = key.partition("/") if multi else (next(iter(aliases)), "", key)
        if alias in wanted:
            wanted[alias].append(rel)
    for alias, real in aliases.items():
        if only is None:
            result = discover(Path(real), run.config.discovery())
        else:  # the given files alone, checked as the walk would check them
            result = discover_paths(Path(real), wanted[alias], run.config.discovery())
        run.report.skipped.extend(_skips(result, alias, aliases))
        for c in result.candidates:
            found[file_key(alias, c.path, aliases)] = (alias, c)
    return found


def _key_of(path: str, aliases: dict[str, str]) -> str:
    absolute = os.path.abspath(path) if os.path.isabs(path) else None
    for alias, real in aliases.items():
        if absolute is not None and absolute.startswith(real + os.sep):
            return file_key(alias, Path(absolute).relative_to(real).as_posix(), aliases)
    return Path(path).as_posix()


def _classify(
    candidates: dict[str, tuple[str, Candidate]],
    stored: dict[str, Any],
    previous: Index | None,
    stale_languages: set[str],
    aliases: dict[str, str],
) -> tuple[list[ParseJob], list[str]]:
    """The candidates to parse (new, or their size or mtime moved, or their language's
    extraction changed) as jobs, and the keys of the others."""
    changed: list[tuple[str, Candidate]] = []
    unchanged: list[str] = []
    layouts = python_layouts(aliases)
    headers = _HeaderHintsByRoot(candidates, stored, previous, aliases)
    moved = _roots_with_other_sources(candidates, stored, previous)
    for key, (alias, c) in candidates.items():
        stamp: FileStamp | None = None
        language = c.language  # a .h may have been read as another (header_language)
        if previous is not None and key in previous.files:
            stamp, language = previous.files[key].stamp, previous.files[key].language
        elif key in stored:
            stamp, language = stored[key].stamp, stored[key].language
        same = stamp is not None and stamp.size == c.size and stamp.mtime_ns == c.mtime_ns
        if same and alias in moved and is_ambiguous(c.path):
            same = not _decided_otherwise(c, language, headers.of(alias, c.path))
        if same and c.language not in stale_languages and language not in stale_languages:
            unchanged.append(key)
        else:
            changed.append((alias, c))
    if not changed:
        return [], unchanged
    from symfuse.indexer.extract.parsing import job_for

    jobs = [job_for(alias, c, aliases, layouts, headers.of(alias, c.path)) for alias, c in changed]
    return jobs, unchanged


def _roots_with_other_sources(
    candidates: dict[str, tuple[str, Candidate]], stored: dict[str, Any], previous: Index | None
) -> set[str]:
    """Roots whose C, C++ or Objective-C sources were added or removed since the index
    was made: the project evidence their unchanged ``.h`` files were decided on moved."""
    now = {(a, c.path) for a, c in candidates.values() if is_source(c.path)}
    known = previous.files.values() if previous is not None else stored.values()
    before = {(e.root, e.rel) for e in known if is_source(e.rel)}
    return {alias for alias, _ in now ^ before}


def _decided_otherwise(c: Candidate, language: str, hints: HeaderHints | None) -> bool:
    """Whether an unchanged ``.h`` read as ``language`` is now decided as another."""
    try:
        with open(c.abs_path, "rb") as f:
            source = f.read()
    except OSError:
        return True  # parsed again, which reports why it cannot be read
    return decide(source, hints.of(c.path) if hints is not None else None) != language


class _HeaderHintsByRoot:
    """Each root's :class:`HeaderHints`, made when a ``.h`` of it is to be parsed, from
    every file the index has or discovery found there."""

    def __init__(
        self,
        candidates: dict[str, tuple[str, Candidate]],
        stored: dict[str, Any],
        previous: Index | None,
        aliases: dict[str, str],
    ) -> None:
        self._candidates, self._stored, self._previous = candidates, stored, previous
        self._aliases = aliases
        self._made: dict[str, HeaderHints] = {}

    def of(self, alias: str, rel: str) -> HeaderHints | None:
        if not is_ambiguous(rel):
            return None
        made = self._made.get(alias)
        if made is None:
            known = self._previous.files.values() if self._previous is not None else ()
            rels = {c.path for a, c in self._candidates.values() if a == alias}
            rels.update(e.rel for e in known if e.root == alias)
            rels.update(m.rel for m in self._stored.values() if m.root == alias)
            made = self._made[alias] = HeaderHints.of_root(self._aliases[alias], rels)
        return made


def _removed(
    candidates: dict[str, tuple[str, Candidate]],
    stored: dict[str, Any],
    previous: Index | None,
    only: Sequence[str] | None,
    aliases: dict[str, str],
) -> list[str]:
    known = set(previous.files) if previous is not None else set(stored)
    if only is not None:
        known &= {_key_of(p, aliases) for p in only}
    return sorted(known - set(candidates))


def _apply(
    run: _Update,
    previous: Index | None,
    to_parse: list[ParseJob],
    removed: list[str],
    stale: set[str],
) -> Index:
    from symfuse.indexer.extract.parsing import parse_stream
    from symfuse.indexer.update.apply import patch

    index = previous if previous is not None else Index(run.aliases)
    results = parse_stream(to_parse, run.config.jobs, run.config.progress)
    patch(index, results, removed, run.report, stale)
    if run.on_progress is not None:
        run.on_progress(len(to_parse), len(to_parse))
    return index
