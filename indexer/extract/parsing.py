"""Files -> parsed records, in worker processes when there are many.

``parse_file`` reads, hashes and extracts one file; ``parse_stream`` runs it over many
(a process pool past :data:`POOL_THRESHOLD` files, its tasks grouped by language:
:func:`by_language`), yielding results in task order as they come; ``entry_of`` turns a
parsed file into the index's :class:`FileEntry`.
"""

from __future__ import annotations

import hashlib
import itertools
import logging
import os
from collections.abc import Iterable, Iterator, Mapping, Sequence, Sized
from dataclasses import dataclass
from typing import TYPE_CHECKING

from symfuse.indexer.config import file_key
from symfuse.indexer.extract.progress import Bar, progress_bar
from symfuse.indexer.extract.units import NO_FILE_UNIT, enclose, file_unit, regions
from symfuse.indexer.files import headers as header_language
from symfuse.indexer.files.discover import Candidate
from symfuse.indexer.files.layouts import NO_LAYOUT, PythonLayout, python_layout
from symfuse.indexer.files.source import as_utf8, strip_bom
from symfuse.indexer.index import FileEntry
from symfuse.indexer.model import FileStamp, Skipped
from symfuse.indexer.store import rows

if TYPE_CHECKING:
    from symfuse.indexer.extract.tags import Extraction
    from symfuse.indexer.update.buffer_trees import BufferTrees

# The parser and the process pool are imported where they are first used: `symfuse
# index` with nothing new to parse needs neither (their import would slow its start-up).

log = logging.getLogger(__name__)

POOL_THRESHOLD = 48  # fewer files than this are parsed in-process


@dataclass(frozen=True, slots=True)
class ParseJob:
    """One file to parse. ``layout`` says where its root's Python modules start
    (``django/`` when the root is the ``django`` package, ``src/``: see
    :mod:`~symfuse.indexer.files.layouts`)."""

    key: str
    root: str
    rel: str
    abs_path: str
    language: str
    layout: PythonLayout = NO_LAYOUT
    hints: header_language.FileHints | None = None  # for a .h: what its project says


@dataclass(frozen=True, slots=True)
class ParsedFile:
    """A file as a parser worker sends it: ``record`` is its stored form in parts
    (rows.RecordParts), encoded in the worker; the parent decodes the symbol rows and
    writes the parts as they came."""

    key: str
    root: str
    rel: str
    language: str
    stamp: FileStamp
    record: rows.RecordParts
    problems: tuple[str, ...] = ()


ParseResult = ParsedFile | Skipped


def job_for(
    alias: str,
    found: Candidate,
    aliases: Mapping[str, str],
    layouts: Mapping[str, PythonLayout],
    headers: header_language.HeaderHints | None = None,
) -> ParseJob:
    """The job that parses a file discovery found under root ``alias`` (``layouts``:
    :func:`~symfuse.indexer.files.layouts.python_layouts` of the roots; ``headers``: the
    root's evidence for a .h)."""
    key = file_key(alias, found.path, aliases)
    hints = None
    if headers is not None and header_language.is_ambiguous(found.path):
        hints = headers.of(found.path)
    return ParseJob(key, alias, found.path, found.abs_path, found.language, layouts[alias], hints)


def _read(abs_path: str, source: bytes | None) -> tuple[int, bytes] | str:
    """The file's mtime and bytes (``source`` when given); the reason when unreadable."""
    try:
        st = os.stat(abs_path)
        if source is None:
            with open(abs_path, "rb") as f:
                source = as_utf8(f.read())  # a buffer's text is UTF-8 already
    except FileNotFoundError:
        return "vanished before it could be read"
    except OSError as exc:
        return f"cannot read: {exc.strerror}"
    if b"\0" in source[:8192]:
        return "binary file"
    return st.st_mtime_ns, source


def parse_file(
    key: str,
    root: str,
    rel: str,
    abs_path: str,
    language: str,
    source: bytes | None = None,
    *,
    layout: PythonLayout | None = None,
    hints: header_language.FileHints | None = None,
    definitions_only: bool = False,
    trees: BufferTrees | None = None,
) -> ParseResult:
    """Read, hash and extract one file; :class:`Skipped` when it cannot be indexed.
    ``definitions_only``: no references (see :func:`~symfuse.indexer.update.apply.patch`'s
    ``shallow``).

    ``layout``: the root's :func:`~symfuse.indexer.files.layouts.python_layout`, looked
    up here when not given. A ``.h`` file is parsed as the language
    :func:`header_language.decide` picks from its text and ``hints``; the result
    carries that language. ``trees``: an editor's buffers' last trees, to parse this
    version from (:mod:`~symfuse.indexer.update.buffer_trees`).
    """
    read = _read(abs_path, source)
    if isinstance(read, str):
        return Skipped(key, read)
    mtime_ns, source = read
    problems = _decoding_problems(source)
    if language == header_language.C and header_language.is_ambiguous(rel):
        language = header_language.decide(source, hints)
    module_path = _module_path(rel, abs_path, layout)
    try:
        result = _extract(key, root, language, source, module_path, definitions_only, trees)
    except (RecursionError, MemoryError, ValueError) as exc:
        return Skipped(key, f"parser failed: {exc}")
    problems.extend(result.problems)
    if language not in NO_FILE_UNIT:
        text = strip_bom(source).decode("utf-8", errors="replace")
        found = regions(key, root, language, text, result.symbols)
        enclose(result.reference_rows, found, len(result.symbols))
        result.symbols.extend([*found, file_unit(key, root, language, text, result.symbols)])
    stamp = FileStamp(len(source), mtime_ns, hashlib.blake2b(source, digest_size=16).hexdigest())
    return ParsedFile(key, root, rel, language, stamp, _record(result), tuple(problems))


def _decoding_problems(source: bytes) -> list[str]:
    """The file's problem when it is not UTF-8 (it is indexed all the same)."""
    try:
        source.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [f"not valid UTF-8 at byte {exc.start}; undecodable bytes replaced"]
    return []


def _module_path(rel: str, abs_path: str, layout: PythonLayout | None) -> str:
    """The path module names are made from, with the root's layout looked up when not given."""
    if layout is None:
        root_dir = abs_path[: len(abs_path) - len(rel)] if abs_path.endswith(rel) else ""
        layout = python_layout(root_dir.rstrip("/")) if root_dir else NO_LAYOUT
    return layout.module_path(rel)


def _extract(
    key: str,
    root: str,
    language: str,
    source: bytes,
    module_path: str,
    definitions_only: bool,
    trees: BufferTrees | None,
) -> Extraction:
    """Definitions and references of ``source``, from an editor buffer's last tree when
    ``trees`` has one for ``key``, else from a fresh parse."""
    from symfuse.indexer.extract.tags import extract, extract_tree

    tree = None if trees is None else trees.parse(key, language, source)
    if tree is not None:
        return extract_tree(key, root, language, source, tree, module_path, definitions_only)
    return extract(
        key, root, language, source, module_path=module_path, definitions_only=definitions_only
    )


def _record(result: Extraction) -> rows.RecordParts:
    """An extraction in its stored form (symbol rows, packed references and links)."""
    refs_blob, links_blob, ref_names = rows.pack_references(result.reference_rows)
    symbol_rows = rows.symbol_rows(result.symbols)
    return rows.record_parts(symbol_rows, refs_blob, ref_names, links_blob)


def parse_job(job: ParseJob) -> ParseResult:
    """:func:`parse_file` of a job (what the pool's workers run)."""
    return parse_file(
        job.key,
        job.root,
        job.rel,
        job.abs_path,
        job.language,
        layout=job.layout,
        hints=job.hints,
    )


def _load_for_workers(names: Iterable[str]) -> None:
    """The extractor and these languages' compiled queries, loaded here once for the
    workers to inherit when forked, rather than imported and compiled in each of them."""
    from symfuse.indexer.extract import tags  # noqa: F401  (tree-sitter and the engine)
    from symfuse.indexer.files import languages

    for name in sorted(names):
        if name in languages.supported():
            languages.query(name)


def by_language(jobs: Iterable[ParseJob], common: set[str], size: int) -> Iterator[list[ParseJob]]:
    """``jobs`` as the pool's tasks of ``size`` jobs: the ``common`` languages' (the first
    jobs', which every worker meets: forked ones inherit their compiled queries) in order;
    every other language's in runs of its own, after them. A worker compiles a language's
    query the first time it meets it, so a language whose few files fell in both workers'
    tasks was compiled twice; runs longer than a task would keep more languages to one
    worker but leave it a long last task (tests/bench/README.md, session 32)."""
    waiting: dict[str | None, list[ParseJob]] = {}
    for job in jobs:
        language = None if job.language in common else job.language
        run = waiting.setdefault(language, [])
        run.append(job)
        if len(run) == size:
            yield waiting.pop(language)
    yield from waiting.values()


def _parse_chunk(jobs: list[ParseJob]) -> list[ParseResult]:
    """What a pool's worker runs: one task's jobs."""
    return [parse_job(job) for job in jobs]


def entry_of(parsed: ParsedFile) -> FileEntry:
    record = parsed.record
    symbol_rows, names = rows.unpack_parts(record)
    key, root, language = parsed.key, parsed.root, parsed.language
    return FileEntry(
        path=key,
        root=root,
        rel=parsed.rel,
        language=language,
        stamp=parsed.stamp,
        symbols=rows.symbols_from_rows(symbol_rows, key, root, language, {}),
        refs_blob=record[1],
        ref_names=frozenset(names),
        links_blob=record[3],
        problems=list(parsed.problems),
        record=record,
    )


def parse_many(
    jobs: Sequence[ParseJob], workers: int | None, show_progress: bool
) -> list[ParseResult]:
    """Parse files, in a process pool when there are many; order is kept."""
    return list(parse_stream(jobs, workers, show_progress))


def parse_stream(
    jobs: Iterable[ParseJob], workers: int | None, show_progress: bool
) -> Iterator[ParseResult]:
    """Results as they come (in job order), so the caller works while the pool parses.

    ``jobs`` may be a generator (a cold build feeds discovery straight in): the pool
    starts on the first chunk while the rest is still being found.
    """
    total = len(jobs) if isinstance(jobs, Sized) else None
    pending = iter(jobs)
    head = list(itertools.islice(pending, POOL_THRESHOLD))
    count = workers or os.cpu_count() or 1
    with progress_bar(total, show_progress) as bar:
        if len(head) < POOL_THRESHOLD or count == 1:
            yield from _parse_here(itertools.chain(head, pending), bar)
        else:
            languages = {job.language for job in head}
            yield from _parse_in_pool(itertools.chain(head, pending), count, total, bar, languages)


def _parse_here(jobs: Iterable[ParseJob], bar: Bar) -> Iterator[ParseResult]:
    for job in jobs:
        yield parse_job(job)
        bar.update()


def _parse_in_pool(
    jobs: Iterator[ParseJob], count: int, total: int | None, bar: Bar, languages: set[str]
) -> Iterator[ParseResult]:
    """``jobs`` parsed by ``count`` worker processes; in this one if the pool breaks.
    ``languages``: those of the first jobs, whose queries forked workers inherit (and
    whose jobs keep their order and chunks: :func:`by_language`)."""
    from concurrent.futures.process import BrokenProcessPool

    from symfuse.indexer.extract import procs

    context = procs.context()
    if context.get_start_method() == "fork":
        _load_for_workers(languages)

    chunk = 8 if total is None else max(1, min(32, total // (count * 8)))
    tasks: list[list[ParseJob]] = []
    done = 0
    pool = procs.pool(count, context)
    grouped = by_language(jobs, languages, chunk)
    try:
        futures = []
        for task in grouped:  # submitted as discovery finds them: workers start at once
            tasks.append(task)
            futures.append(pool.submit(_parse_chunk, task))
        if bar.total is None:  # every job is submitted: the total is known
            bar.total = sum(len(task) for task in tasks)
            bar.refresh()
        for future in futures:
            results = future.result()
            done += 1
            for result in results:
                yield result
                bar.update()
    except BrokenProcessPool as exc:
        log.warning("parser processes failed (%s); parsing the rest in this process", exc)
        rest = itertools.chain.from_iterable(itertools.chain(tasks[done:], grouped))
        yield from _parse_here(rest, bar)
    finally:
        # Not waiting for the workers to exit (a wait for nothing): they wind down
        # while the caller links; the interpreter joins them before it exits.
        pool.shutdown(wait=False, cancel_futures=True)
