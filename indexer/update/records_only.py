"""Saving a small edit without loading the index: new records, the same graph.

When a change to a few files moves nothing the graph reads (the same definitions
and the same link groups, file by file: an edit inside a body, the most common
one), every edge and rank stands, and only these files' records and the manifest
are new. ``symfuse index`` after such an edit then reads the changed files'
records alone, not every file's and the graph.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from symfuse.indexer.config import UpdateReport
from symfuse.indexer.extract.parsing import ParsedFile, ParseJob, parse_job
from symfuse.indexer.model import FileProblem
from symfuse.indexer.store import rows
from symfuse.indexer.store.manifest import FileMeta, Manifest
from symfuse.indexer.store.objects import Store

LEAN_FILES = 8  # changed files up to which `symfuse index` tries a records-only update


@dataclass(slots=True)
class _Change:
    """What a records-only update writes: file key -> (new meta, new record or None
    when only the stamp moved), the change in the reference count, the parsed files."""

    files: dict[str, tuple[FileMeta, rows.RecordParts | None]] = field(default_factory=dict)
    references: int = 0
    parsed: list[ParsedFile] = field(default_factory=list)


def update_records_only(
    store: Store, manifest: Manifest, to_parse: list[ParseJob], report: UpdateReport
) -> bool:
    """Save the change to ``to_parse`` as new records alone when it moves nothing the
    graph reads; False (nothing written) when the change is any other."""
    if not 0 < len(to_parse) <= LEAN_FILES:
        return False
    change = _Change()
    for job in to_parse:
        if not _add_file(store, manifest, job, change):
            return False
    counts = dict(manifest.counts)
    counts["references"] = int(counts.get("references", 0)) + change.references
    if store.save_records(manifest, change.files, counts) is None:
        return False
    report.parsed = len(change.parsed)
    report.unchanged += len(to_parse) - len(change.parsed)
    report.problems.extend(
        FileProblem(p.key, problem) for p in change.parsed for problem in p.problems
    )
    report.files = len(manifest.files)
    report.counts = counts
    report.records_only = True
    return True


def _add_file(store: Store, manifest: Manifest, job: ParseJob, change: _Change) -> bool:
    """Parse one file into ``change``; False when it changed what linking reads."""
    meta = manifest.files.get(job.key)
    if meta is None:
        return False  # a new file: new definitions
    new = parse_job(job)
    if not isinstance(new, ParsedFile):
        return False  # now skipped: its definitions go
    if new.language != meta.language:
        return False  # read as another language (a .h decided afresh)
    if new.stamp.digest == meta.stamp.digest:  # touched, not changed
        change.files[job.key] = (replace(meta, stamp=new.stamp), None)
        return True
    old_rows, old_refs, _, old_links = rows.unpack_record(store.read_record(meta))
    new_rows, _ = rows.unpack_parts(new.record)
    if new.record[3] != old_links or [_identity(r) for r in new_rows] != [
        _identity(r) for r in old_rows
    ]:
        return False
    change.references += rows.reference_count(new.record[1]) - rows.reference_count(old_refs)
    fresh = FileMeta(meta.root, meta.rel, meta.language, new.stamp, "", list(new.problems))
    fresh.object_key = Store.object_key_of(job.key, meta.root, new.stamp.digest)
    change.files[job.key] = (fresh, new.record)
    change.parsed.append(new)
    return True


def _identity(row: list[Any]) -> tuple[Any, ...]:
    """What linking reads of a definition (rows.symbol_row order): id, name, kind,
    qualified name, parent."""
    return (row[0], row[1], row[2], row[3], row[13])
