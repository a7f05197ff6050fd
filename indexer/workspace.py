"""Build, load and incrementally update the index of a workspace.

``update_index`` is the one entry point: it takes the lock, reads the manifest,
walks the roots, re-parses only files whose size, mtime and then content hash
changed (in a process pool when there are many), patches the graph for the
names whose definitions changed, recomputes PageRank and writes what is new.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import itertools
import logging
import os
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence, Sized
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from symfuse.indexer import languages, rows
from symfuse.indexer.discover import (
    DEFAULT_MAX_FILE_SIZE,
    Candidate,
    Discovery,
    DiscoveryConfig,
    discover,
    discover_iter,
    discover_paths,
)
from symfuse.indexer.errors import IndexCorrupt, IndexUnavailable
from symfuse.indexer.index import FileEntry, Index
from symfuse.indexer.model import FileStamp, Symbol
from symfuse.indexer.store import FileMeta, Manifest, Store, default_index_dir

if TYPE_CHECKING:
    import multiprocessing.context

# The parser, the linker and the process pool are imported where they are first used:
# `symfuse index` with nothing new to parse needs none of them (20 ms of its start-up).

log = logging.getLogger(__name__)

POOL_THRESHOLD = 48  # fewer files than this are parsed in-process


@dataclass(frozen=True, slots=True)
class IndexConfig:
    """Where the workspace is, where its index lives, and what to index."""

    roots: tuple[Path, ...]
    index_dir: Path | None = None
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    max_file_size: int = DEFAULT_MAX_FILE_SIZE
    languages: frozenset[str] | None = None
    jobs: int | None = None
    progress: bool = True

    @property
    def store(self) -> Store:
        return Store(self.index_dir or default_index_dir(list(self.roots)))

    def discovery(self) -> DiscoveryConfig:
        return DiscoveryConfig(
            include=self.include,
            exclude=self.exclude,
            max_file_size=self.max_file_size,
            languages=self.languages,
        )

    def options(self) -> dict[str, Any]:
        """What, when changed, makes stored extractions unusable or the file set different."""
        return {
            "extractor": extractor_fingerprint(),
            "linker": linker_fingerprint(),
            "include": list(self.include),
            "exclude": list(self.exclude),
            "max_file_size": self.max_file_size,
            "languages": sorted(self.languages) if self.languages is not None else None,
        }


@dataclass(slots=True)
class UpdateReport:
    """What one update did; ``counts`` are the index totals after it."""

    files: int = 0
    parsed: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)
    problems: list[tuple[str, str]] = field(default_factory=list)
    counts: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    rebuilt_because: str | None = None
    records_only: bool = False  # the change moved no definition or link: graph untouched


def linker_fingerprint() -> str:
    """Changes whenever reference resolution changes; stored edges are then relinked."""
    source = Path(__file__).with_name("graph.py").read_bytes()
    return hashlib.blake2b(source, digest_size=8).hexdigest()


def extractor_fingerprint() -> dict[str, str]:
    """Per language, a digest that changes whenever its query, the extractor or the rows do.

    Files of a language whose digest changed are re-parsed; the others are kept.
    """
    engine = hashlib.blake2b(digest_size=8)
    engine.update(str(rows.SCHEMA).encode())
    engine.update(Path(__file__).with_name("extract.py").read_bytes())
    prints: dict[str, str] = {}
    for name in sorted(languages.supported()):
        digest = engine.copy()
        digest.update(languages.query_source(name).encode())
        prints[name] = digest.hexdigest()
    return prints


def root_aliases(roots: Iterable[Path]) -> dict[str, str]:
    """alias -> absolute path; aliases are directory names, made unique with a suffix."""
    aliases: dict[str, str] = {}
    for root in roots:
        real = str(Path(root).resolve())
        base = Path(real).name or "root"
        alias, n = base, 1
        while alias in aliases and aliases[alias] != real:
            n += 1
            alias = f"{base}~{n}"
        aliases[alias] = real
    return aliases


# --- parsing (runs in worker processes) ------------------------------------------------

# (key, root, rel, language, size, mtime_ns, digest, record, problems): ``record`` is the
# file's stored form in parts (rows.RecordParts), encoded in the worker: the parent decodes
# the symbol rows and writes the parts as they came.
ParsedFile = tuple[str, str, str, str, int, int, str, rows.RecordParts, list[str]]


def parse_file(
    key: str, root: str, rel: str, abs_path: str, language: str, source: bytes | None = None
) -> ParsedFile | tuple[str, str]:
    """Read, hash and extract one file; ``(key, reason)`` when it cannot be indexed."""
    try:
        st = os.stat(abs_path)
        if source is None:
            with open(abs_path, "rb") as f:
                source = f.read()
    except FileNotFoundError:
        return key, "vanished before it could be read"
    except OSError as exc:
        return key, f"cannot read: {exc.strerror}"
    if b"\0" in source[:8192]:
        return key, "binary file"
    digest = hashlib.blake2b(source, digest_size=16).hexdigest()
    problems: list[str] = []
    try:
        source.decode("utf-8")
    except UnicodeDecodeError as exc:
        problems.append(f"not valid UTF-8 at byte {exc.start}; undecodable bytes replaced")
    from symfuse.indexer.extract import extract

    try:
        result = extract(key, root, language, source, module_path=_module_path(abs_path, rel))
    except (RecursionError, MemoryError, ValueError) as exc:
        return key, f"parser failed: {exc}"
    problems.extend(result.problems)
    refs_blob, links_blob, ref_names = rows.pack_references(result.reference_rows)
    return (
        key,
        root,
        rel,
        language,
        len(source),
        st.st_mtime_ns,
        digest,
        rows.record_parts(
            [rows.symbol_row(s) for s in result.symbols], refs_blob, ref_names, links_blob
        ),
        problems,
    )


@functools.cache
def _package_prefix(directory: str) -> str:
    """``a/b/`` when ``directory`` is package ``b`` inside package ``a`` (``__init__.py``)."""
    parts: list[str] = []
    current = Path(directory)
    while (current / "__init__.py").is_file() and current.name:
        parts.append(current.name)
        current = current.parent
    return "".join(f"{part}/" for part in reversed(parts))


def _module_path(abs_path: str, rel: str) -> str:
    """``rel`` behind the packages its root sits in: ``django/`` + ``db/models.py``."""
    if not abs_path.endswith(rel):
        return rel
    return _package_prefix(abs_path[: len(abs_path) - len(rel)].rstrip("/")) + rel


def _parse_job(job: tuple[str, str, str, str, str]) -> ParsedFile | tuple[str, str]:
    return parse_file(*job)


def entry_of(parsed: ParsedFile) -> FileEntry:
    key, root, rel, language, size, mtime_ns, digest, record, problems = parsed
    symbol_rows, names = rows.unpack_parts(record)
    refs, links = record[1], record[3]
    return FileEntry(
        path=key,
        root=root,
        rel=rel,
        language=language,
        stamp=FileStamp(size, mtime_ns, digest),
        symbols=[rows.symbol_from_row(r, key, root, language) for r in symbol_rows],
        refs_blob=refs,
        ref_names=frozenset(names),
        links_blob=links,
        problems=problems,
        record=record,
    )


def _pool_context() -> multiprocessing.context.BaseContext:
    import multiprocessing

    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def parse_many(
    jobs: Sequence[tuple[str, str, str, str, str]],
    workers: int | None,
    show_progress: bool,
) -> list[ParsedFile | tuple[str, str]]:
    """Parse files, in a process pool when there are many; order is kept."""
    return list(parse_stream(jobs, workers, show_progress))


class _Bar(Protocol):
    total: int | None

    def update(self, n: int = 1) -> object: ...
    def refresh(self) -> object: ...
    def __enter__(self) -> _Bar: ...
    def __exit__(self, *exc: object) -> object: ...


class _SilentBar:
    """What parse_stream asks of a progress bar, doing nothing."""

    total: int | None = None

    def update(self, n: int = 1) -> None:
        pass

    def refresh(self) -> None:
        pass

    def __enter__(self) -> _SilentBar:
        return self

    def __exit__(self, *exc: object) -> None:
        pass


def _progress_bar(total: int | None, show: bool) -> _Bar:
    """tqdm on a terminal; otherwise nothing, and tqdm is not even imported (20 ms of
    every command, most of them run by editors and scripts without a terminal)."""
    if not (show and sys.stderr.isatty()):
        return _SilentBar()
    from tqdm import tqdm

    tqdm.monitor_interval = 0  # no monitor thread: it would make forking unsafe
    bar: _Bar = tqdm(total=total, unit="file", desc="indexing", file=sys.stderr, leave=False)
    return bar


def parse_stream(
    jobs: Iterable[tuple[str, str, str, str, str]],
    workers: int | None,
    show_progress: bool,
) -> Iterator[ParsedFile | tuple[str, str]]:
    """Results as they come (in job order), so the caller works while the pool parses.

    ``jobs`` may be a generator (a cold build feeds discovery straight in): the pool
    starts on the first chunk while the rest is still being found.
    """
    total = len(jobs) if isinstance(jobs, Sized) else None
    pending = iter(jobs)
    head = list(itertools.islice(pending, POOL_THRESHOLD))
    bar = _progress_bar(total, show_progress)
    count = workers or os.cpu_count() or 1
    with bar:
        if len(head) < POOL_THRESHOLD or count == 1:
            for job in itertools.chain(head, pending):
                yield _parse_job(job)
                bar.update()
            return
        from concurrent.futures.process import BrokenProcessPool

        from symfuse.indexer import procs

        chunk = 8 if total is None else max(1, min(32, total // (count * 8)))
        submitted: list[tuple[str, str, str, str, str]] = []

        def remember() -> Iterator[tuple[str, str, str, str, str]]:
            for job in itertools.chain(head, pending):
                submitted.append(job)
                yield job

        done = 0
        pool = procs.pool(count, _pool_context())
        try:
            results = pool.map(_parse_job, remember(), chunksize=chunk)
            if bar.total is None:  # map() has submitted every job: the total is known
                bar.total = len(submitted)
                bar.refresh()
            for result in results:
                done += 1
                yield result
                bar.update()
        except BrokenProcessPool as exc:
            log.warning("parser processes failed (%s); parsing the rest in this process", exc)
            for job in itertools.chain(submitted[done:], pending):
                yield _parse_job(job)
                bar.update()
        finally:
            # Not waiting for the workers to exit (0.2 s on Django): they wind down
            # while the caller links; the interpreter joins them before it exits.
            pool.shutdown(wait=False, cancel_futures=True)


# --- the update ---------------------------------------------------------------------------


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
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[Index, UpdateReport]:
    """Bring the index up to date with the files on disk and persist it.

    ``index`` is an already loaded index to patch (servers keep one in memory);
    ``only`` limits the check to these paths (absolute or root-relative).
    """
    result, report = _locked_update(config, index, only, on_progress, need_index=True)
    assert result is not None
    return result, report


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector during an update.

    An update allocates millions of small acyclic objects (references, edges,
    rows), each allocation burst triggering full collections that find nothing:
    pausing them cut a cold index of Django's sdist from 7.0 s to 5.0 s. Memory is
    still freed by reference counting; cycles wait for the next collection.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def refresh_index(config: IndexConfig) -> tuple[Index | None, UpdateReport]:
    """``update_index`` for callers that mostly want the report (``symfuse index``).

    When nothing changed it reads the manifest alone, never the whole index, and
    the index is None; otherwise it is the index as built or patched.
    """
    return _locked_update(config, None, None, None, need_index=False)


def _locked_update(
    config: IndexConfig,
    index: Index | None,
    only: Sequence[str] | None,
    on_progress: Callable[[int, int], None] | None,
    *,
    need_index: bool,
) -> tuple[Index | None, UpdateReport]:
    started = time.perf_counter()
    store = config.store
    try:
        with store.lock(), _collector_paused():
            try:
                result, report = _update(config, store, index, only, on_progress, need_index)
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


def _update(
    config: IndexConfig,
    store: Store,
    index: Index | None,
    only: Sequence[str] | None,
    on_progress: Callable[[int, int], None] | None,
    need_index: bool = True,
) -> tuple[Index | None, UpdateReport]:
    report = UpdateReport()
    aliases = root_aliases(config.roots)
    manifest = _read_manifest(store, report)
    options = config.options()
    reusable = (
        manifest is not None
        and _same_file_set(manifest.options, options)
        and manifest.roots == aliases
    )
    if manifest is not None and not reusable and report.rebuilt_because is None:
        report.rebuilt_because = "index options or roots changed"
    previous = index if (index is not None and index.roots == aliases) else None
    if previous is not None and not _same_file_set(previous.options, options):
        previous = None
    if previous is None and not reusable and only is None:
        result = _build(config, store, aliases, report)  # nothing to compare with: parse all
        if on_progress is not None:
            on_progress(len(result.files), len(result.files))
    else:
        refreshed = _refresh(
            config, store, manifest, reusable, previous, only, report, on_progress, not need_index
        )
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


def _build(
    config: IndexConfig, store: Store, aliases: dict[str, str], report: UpdateReport
) -> Index:
    """A cold build: the files go to the parser pool as discovery finds them.

    Two jobs leave the serial tail (link, rank, save) for moments the parent would
    wait anyway: numpy, which ranking needs, is imported once the pool runs (0.08 s),
    and the records are written to their pack while the graph is linked (0.1 s).
    """
    index = Index(aliases)
    results = parse_stream(_discovered_jobs(config, aliases, report), config.jobs, config.progress)

    def parsed() -> Iterator[ParsedFile | tuple[str, str]]:
        first = next(results, None)
        if first is None:
            return
        yield first
        import numpy  # noqa: F401

        yield from results
        store.write_records_early(index)  # every entry is in: patch() links next

    patch(index, parsed(), [], report)
    return index


def _discovered_jobs(
    config: IndexConfig, aliases: dict[str, str], report: UpdateReport
) -> Iterator[tuple[str, str, str, str, str]]:
    multi = len(aliases) > 1
    for alias, real in aliases.items():
        found = Discovery()
        for c in discover_iter(Path(real), config.discovery(), found):
            yield (f"{alias}/{c.path}" if multi else c.path, alias, c.path, c.abs_path, c.language)
        for path, reason in found.skipped:
            report.skipped.append((f"{alias}/{path}" if multi else path, reason))


def _refresh(
    config: IndexConfig,
    store: Store,
    manifest: Manifest | None,
    reusable: bool,
    previous: Index | None,
    only: Sequence[str] | None,
    report: UpdateReport,
    on_progress: Callable[[int, int], None] | None,
    lean: bool = False,
) -> Index | None:
    """An update against the stored or loaded index; None when nothing changed, or when
    ``lean`` (the caller needs no index) and the change was saved as records alone."""
    aliases = root_aliases(config.roots)
    options = config.options()
    candidates = _candidates(config, aliases, report, only, previous)
    stored = manifest.files if (manifest is not None and reusable) else {}
    old_options = previous.options if previous else manifest.options if manifest else {}
    old_prints = old_options.get("extractor", {})
    stale = {lang for lang, fp in options["extractor"].items() if old_prints.get(lang) != fp}
    relink = old_options.get("linker") != options["linker"]
    to_parse, unchanged = _classify(candidates, stored, previous, stale)
    removed = _removed(candidates, stored, previous, only, aliases)
    report.unchanged = len(unchanged)
    report.removed = len(removed)
    nothing_new = not to_parse and not removed and (previous is None or previous.linked)
    if nothing_new and not relink and manifest is not None and reusable:
        report.files = len(stored)
        report.counts = manifest.counts
        return None
    if previous is None and manifest is not None and reusable:
        quiet = lean and not relink and not stale and not removed
        if quiet and _records_only(store, manifest, to_parse, report):
            return None
        previous = store.load(manifest)
    if previous is not None and relink:
        previous.linked = False  # resolution changed: relink every file
    return _apply(config, aliases, previous, to_parse, removed, report, on_progress, stale)


LEAN_FILES = 8  # changed files up to which `symfuse index` tries a records-only update


def _records_only(
    store: Store,
    manifest: Manifest,
    to_parse: list[tuple[str, str, Candidate]],
    report: UpdateReport,
) -> bool:
    """Save a change to a few files without loading the index, when it moves nothing the
    graph reads: the same definitions (id, name, kind, qualified name, parent) and the
    same link groups, file by file (an edit inside a body, the most common one).

    Then every edge and rank stands and only these records and the manifest are new:
    ``symfuse index`` after such an edit reads the changed files' records alone, not
    Django's 2869 and the graph. False (nothing written) when the change is any other.
    """
    if not 0 < len(to_parse) <= LEAN_FILES:
        return False
    changed: dict[str, tuple[FileMeta, rows.RecordParts | None]] = {}
    references = 0
    parsed: list[ParsedFile] = []
    for key, alias, c in to_parse:
        meta = manifest.files.get(key)
        if meta is None or meta.language != c.language:
            return False  # a new file (new definitions), or one read as another language
        new = parse_file(key, alias, c.path, c.abs_path, c.language)
        if len(new) == 2:
            return False  # now skipped: its definitions go
        size, mtime_ns, digest, record = new[4], new[5], new[6], new[7]
        stamp = FileStamp(size, mtime_ns, digest)
        if digest == meta.stamp.digest:  # touched, not changed
            changed[key] = (replace(meta, stamp=stamp), None)
            continue
        old_rows, old_refs, _, old_links = rows.unpack_record(store.read_record(meta))
        new_rows, _ = rows.unpack_parts(record)
        if record[3] != old_links or [_identity(r) for r in new_rows] != [
            _identity(r) for r in old_rows
        ]:
            return False
        references += rows.array_length(record[1]) - rows.array_length(old_refs)
        fresh = FileMeta(meta.root, meta.rel, meta.language, stamp, "", new[8])
        fresh.object_key = Store.object_key_of(key, meta.root, digest)
        changed[key] = (fresh, record)
        parsed.append(new)
    counts = dict(manifest.counts)
    counts["references"] = int(counts.get("references", 0)) + references
    if store.save_records(manifest, changed, counts) is None:
        return False
    report.parsed = len(parsed)
    report.unchanged += len(to_parse) - len(parsed)
    report.problems.extend((p[0], problem) for p in parsed for problem in p[8])
    report.files = len(manifest.files)
    report.counts = counts
    report.records_only = True
    return True


def _identity(row: list[Any]) -> tuple[Any, ...]:
    """What linking reads of a definition (rows.symbol_row order): id, name, kind,
    qualified name, parent."""
    return (row[0], row[1], row[2], row[3], row[13])


def _read_manifest(store: Store, report: UpdateReport) -> Manifest | None:
    try:
        return store.read_manifest()
    except IndexCorrupt as exc:
        log.warning("stored index at %s is unusable (%s); rebuilding it", store.directory, exc)
        report.rebuilt_because = str(exc)
        store.clear()
        return None


def _candidates(
    config: IndexConfig,
    aliases: dict[str, str],
    report: UpdateReport,
    only: Sequence[str] | None,
    index: Index | None,
) -> dict[str, tuple[str, Candidate]]:
    found: dict[str, tuple[str, Candidate]] = {}
    multi = len(aliases) > 1
    wanted: dict[str, list[str]] = {alias: [] for alias in aliases}
    for key in {_key_of(p, aliases) for p in only or ()}:
        alias, _, rel = key.partition("/") if multi else (next(iter(aliases)), "", key)
        if alias in wanted:
            wanted[alias].append(rel)
    for alias, real in aliases.items():
        if only is None:
            result = discover(Path(real), config.discovery())
        else:  # the given files alone, checked as the walk would check them
            result = discover_paths(Path(real), wanted[alias], config.discovery())
        for path, reason in result.skipped:
            report.skipped.append((f"{alias}/{path}" if multi else path, reason))
        for c in result.candidates:
            found[f"{alias}/{c.path}" if multi else c.path] = (alias, c)
    return found


def _key_of(path: str, aliases: dict[str, str]) -> str:
    multi = len(aliases) > 1
    absolute = os.path.abspath(path) if os.path.isabs(path) else None
    for alias, real in aliases.items():
        if absolute is not None and absolute.startswith(real + os.sep):
            rel = Path(absolute).relative_to(real).as_posix()
            return f"{alias}/{rel}" if multi else rel
    return Path(path).as_posix()


def _same_file_set(old: dict[str, Any], new: dict[str, Any]) -> bool:
    """Whether two option sets select the same files (the extractor may differ)."""
    return all(old.get(k) == new.get(k) for k in new if k not in ("extractor", "linker"))


def _classify(
    candidates: dict[str, tuple[str, Candidate]],
    stored: dict[str, Any],
    previous: Index | None,
    stale_languages: set[str],
) -> tuple[list[tuple[str, str, Candidate]], list[str]]:
    to_parse: list[tuple[str, str, Candidate]] = []
    unchanged: list[str] = []
    for key, (alias, c) in candidates.items():
        if c.language in stale_languages:
            to_parse.append((key, alias, c))
            continue
        stamp: FileStamp | None = None
        if previous is not None and key in previous.files:
            stamp = previous.files[key].stamp
        elif key in stored:
            stamp = stored[key].stamp
        if stamp is not None and stamp.size == c.size and stamp.mtime_ns == c.mtime_ns:
            unchanged.append(key)
        else:
            to_parse.append((key, alias, c))
    return to_parse, unchanged


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
    config: IndexConfig,
    aliases: dict[str, str],
    previous: Index | None,
    to_parse: list[tuple[str, str, Candidate]],
    removed: list[str],
    report: UpdateReport,
    on_progress: Callable[[int, int], None] | None,
    stale: set[str],
) -> Index:
    index = previous if previous is not None else Index(aliases)
    jobs = [(key, alias, c.path, c.abs_path, c.language) for key, alias, c in to_parse]
    results = parse_stream(jobs, config.jobs, config.progress)
    patch(index, results, removed, report, stale)
    if on_progress is not None:
        on_progress(len(jobs), len(jobs))
    return index


def patch(
    index: Index,
    results: Iterable[ParsedFile | tuple[str, str]],
    removed: Sequence[str],
    report: UpdateReport | None = None,
    reextracted: frozenset[str] | set[str] = frozenset(),
) -> None:
    """Put parsed files into ``index``, drop removed ones, relink what they affect, rerank.

    A file whose content hash did not change keeps its entry (only the stamp moves),
    unless its language is in ``reextracted`` (its query or the extractor changed).
    An index that was never linked (a fresh or partial one) is linked in full.
    """
    from symfuse.indexer import graph

    report = report if report is not None else UpdateReport()
    touched: set[str] = set(removed)
    names: set[str] = set()
    for key in removed:
        old = index.files.pop(key, None)
        if old is not None:
            names.update(s.name for s in old.symbols)
            _rebound(index, names, graph.changed_bindings(old, None))
        index.edges_by_file.pop(key, None)
    for result in results:
        if len(result) == 2:
            key, reason = result
            report.skipped.append((key, reason))
            old = index.files.pop(key, None)
            if old is not None:
                names.update(s.name for s in old.symbols)
                _rebound(index, names, graph.changed_bindings(old, None))
                touched.add(key)
            continue
        entry = entry_of(result)
        old = index.files.get(entry.path)
        same = old is not None and old.stamp.digest == entry.stamp.digest
        if old is not None and same and entry.language not in reextracted:
            old.stamp = entry.stamp  # touched but not changed
            report.unchanged += 1
            continue
        report.parsed += 1
        for problem in entry.problems:
            report.problems.append((entry.path, problem))
        if index.linked:  # an unlinked index is linked in full below: no names needed
            old_symbols: list[Symbol] = old.symbols if old is not None else []
            names.update(graph.changed_names(old_symbols, entry.symbols))
            _rebound(index, names, graph.changed_bindings(old, entry))
        index.files[entry.path] = entry
        touched.add(entry.path)
    index.changed()
    if not index.linked:
        graph.relink(index, list(index.files))
        index.linked = True
    elif touched:
        affected = graph.affected_files(index, names, touched)
        before = {key: sorted(index.edges_by_file.get(key, ())) for key in affected}
        graph.relink(index, affected)
        after = {key: sorted(index.edges_by_file.get(key, ())) for key in affected}
        if not names and before == after:
            # Same symbols, same edges (an edit inside a body): PageRank cannot change.
            index.updated_at = time.time()
            return
    else:
        return
    _rank(index)
    index.graph_dirty = True
    index.updated_at = time.time()


def _rebound(index: Index, names: set[str], rebound: set[str] | None) -> None:
    """Add the names a file's imports bind differently; None (its ``*`` imports changed,
    so any name may resolve differently): link the whole index again."""
    if rebound is None:
        index.linked = False
    else:
        names.update(rebound)


def _rank(index: Index) -> None:
    import numpy as np

    from symfuse.indexer.pagerank import pagerank  # numpy only when ranking

    edges = index.edges
    n = len(index.symbols)
    start = index.previous_ranks()  # a warm start from the ranks before this change
    if start is not None:
        start = np.where(start > 0, start, 1.0 / max(1, n))
    index.set_ranks(pagerank(n, edges.src, edges.dst, edges.weight, start=start))
