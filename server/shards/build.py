"""``symfuse shards build``: one shard per repository, each built by one Dask task.

The repositories whose revision, files or index formats changed since their shard
was built are rebuilt, the largest first (a large repository started last would
finish last, alone, while the other workers wait); the others are left as they
are. Each task runs the ordinary indexer (:func:`update_index`) on its root alone
into the shard's ``index/`` and persists its ranking pieces there (learning no models:
every shard scores with the ones learned once over all of them), then the manifest
(:mod:`.manifest`), atomically, last. A repository that fails is
reported and the others complete.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import IndexCorrupt
from symfuse.indexer.files.discover import DiscoveryConfig
from symfuse.indexer.store.atomic import atomic_write
from symfuse.server.shards.manifest import (
    GLOBAL_MODELS,
    GLOBAL_STATS,
    INDEX,
    PARTS,
    STATS,
    ShardManifest,
    Source,
    formats,
    read_manifest,
    selected,
    shard_dir,
    shard_dirs,
    source_of,
    write_manifest,
)
from symfuse.server.shards.name_table import NAMES, names_bytes, write_name_table

if TYPE_CHECKING:
    from distributed import Client

Outcome = Literal["built", "unchanged", "failed"]


@dataclass(frozen=True, slots=True)
class BuildJob:
    """One repository to build into ``out``/``alias``; ``jobs``: its parser processes."""

    alias: str
    root: str
    out: str
    source: Source
    jobs: int | None = 1
    chosen: DiscoveryConfig = field(default_factory=DiscoveryConfig)  # --include ... files


@dataclass(frozen=True, slots=True)
class ShardBuilt:
    """What became of one repository's shard."""

    alias: str
    outcome: Outcome
    seconds: float = 0.0
    counts: dict[str, Any] = field(default_factory=dict)
    error: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "repository": self.alias,
            "outcome": self.outcome,
            "seconds": round(self.seconds, 3),
            "files": self.counts.get("files", 0),
            "definitions": self.counts.get("definitions", 0),
        }
        if self.error is not None:
            out["error"] = self.error
        return out


Report = Callable[[ShardBuilt, int, int], None]  # (result, done, total)


def shard_config(
    directory: Path,
    alias: str,
    root: str,
    jobs: int | None = 1,
    chosen: DiscoveryConfig | None = None,
) -> IndexConfig:
    """The index configuration of one shard: its root alone, under its alias, indexing
    the files ``chosen`` selects (all by default)."""
    chosen = chosen if chosen is not None else DiscoveryConfig()
    return IndexConfig(
        roots=(Path(root),),
        names=(alias,),
        index_dir=directory / INDEX,
        include=chosen.include,
        exclude=chosen.exclude,
        max_file_size=chosen.max_file_size,
        languages=chosen.languages,
        progress=False,
        jobs=jobs,
    )


def build_one(job: BuildJob) -> ShardBuilt:
    """Index one repository into its shard (a Dask task); failures come back as values."""
    from symfuse.indexer.update.workspace import update_index
    from symfuse.ranking.api import shard_pieces

    started = time.perf_counter()
    directory = shard_dir(Path(job.out), job.alias)
    try:
        if not Path(job.root).is_dir():
            raise FileNotFoundError(f"the repository root {job.root} is not a directory")
        config = shard_config(directory, job.alias, job.root, job.jobs, job.chosen)
        index, report = update_index(config)
        # its pieces for the holders (no models of its own: they score with the shared ones)
        made = shard_pieces(index, config.store.directory, job.alias)
        atomic_write(directory / STATS, made.stats.to_bytes())
        made.parts.save(directory / PARTS)
        atomic_write(directory / NAMES, names_bytes(s.name for s in index.symbols))
        seconds = time.perf_counter() - started
        counts = {k: v for k, v in report.counts.items() if isinstance(v, int | dict)}
        source = job.source
        manifest = ShardManifest(
            job.alias, job.root, source.revision, source.files, formats(), counts, seconds
        )
        manifest = replace(manifest, selection=selected(job.chosen))
        write_manifest(directory, manifest)
    except Exception as exc:  # reported as this repository's failure; the others go on
        return ShardBuilt(job.alias, "failed", time.perf_counter() - started, error=_why(exc))
    return ShardBuilt(job.alias, "built", seconds, counts)


def _why(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def plan(
    roots: dict[str, str], out: Path, jobs: int | None, chosen: DiscoveryConfig
) -> tuple[list[BuildJob], list[str]]:
    """The repositories to build, largest first, and the aliases whose shard is current."""
    todo: list[BuildJob] = []
    current: list[str] = []
    for alias, root in roots.items():
        source = source_of(Path(root))
        try:
            existing: ShardManifest | None = read_manifest(shard_dir(out, alias))
        except (OSError, ValueError):
            existing = None
        folder = shard_dir(out, alias)
        has_stats = _readable_stats(folder) and (folder / NAMES).is_file()
        has_stats = has_stats and (folder / PARTS).is_file()
        if existing is not None and existing.up_to_date(root, source, chosen) and has_stats:
            current.append(alias)
        else:
            todo.append(BuildJob(alias, root, str(out), source, jobs, chosen))
    todo.sort(key=lambda j: -j.source.size)
    return todo, current


def _readable_stats(folder: Path) -> bool:
    """Whether the shard's statistics are there in today's format (else it is rebuilt)."""
    from symfuse.ranking.api import CorpusStats

    try:
        CorpusStats.from_bytes((folder / STATS).read_bytes())
    except (OSError, IndexCorrupt):
        return False
    return True


def build_shards(
    roots: dict[str, str],
    out: Path,
    *,
    client: Client | None = None,
    report: Report | None = None,
    chosen: DiscoveryConfig | None = None,
) -> list[ShardBuilt]:
    """Build the shards of ``roots`` (alias -> path) that are not current, on ``client``'s
    cluster (one task per repository) or here, one after another, when it is None;
    ``chosen``: the files to index (``--include/--exclude/--languages``; all by default)."""
    out.mkdir(parents=True, exist_ok=True)
    chosen = chosen if chosen is not None else DiscoveryConfig()
    todo, current = plan(roots, out, 1 if client is not None else None, chosen)
    results = [ShardBuilt(alias, "unchanged") for alias in current]
    total = len(roots)
    for result in results:
        _tell(report, result, results, total)
    if client is None:
        for job in todo:
            results.append(build_one(job))
            _tell(report, results[-1], results, total)
    else:
        for result in _on_cluster(client, todo):
            results.append(result)
            _tell(report, result, results, total)
    write_global_models(out)  # before the statistics, whose change the holders watch
    write_global_stats(out)
    write_name_table(out, {read_manifest(d).alias: d for d in shard_dirs(out)})
    return results


def write_global_stats(out: Path) -> None:
    """Every shard's corpus statistics summed into ``out``'s global statistics (atomically),
    so that each shard scores as part of the whole (:mod:`symfuse.ranking.shards.global_stats`)."""
    from symfuse.ranking.api import CorpusStats

    parts = [
        CorpusStats.from_bytes((d / STATS).read_bytes())
        for d in shard_dirs(out)
        if (d / STATS).is_file()
    ]
    atomic_write(out / GLOBAL_STATS, CorpusStats.merged(parts).to_bytes())


def write_global_models(out: Path) -> None:
    """The word vectors and translation table learned over every shard's parts, in the
    order of their aliases (as one index of those roots orders its files), into ``out``
    (:mod:`symfuse.ranking.prepared.shared`)."""
    from symfuse.ranking.api import ShardParts, SharedModels

    folders = sorted(
        (d for d in shard_dirs(out) if (d / PARTS).is_file()),
        key=lambda d: f"{read_manifest(d).alias}/",
    )
    if not folders:
        return
    parts = [ShardParts.load(d / PARTS) for d in folders]
    models = SharedModels.learned(parts)
    models.save(out / GLOBAL_MODELS)


def _tell(report: Report | None, result: ShardBuilt, done: list[ShardBuilt], total: int) -> None:
    if report is not None:
        report(result, len(done), total)


def _on_cluster(client: Client, todo: Sequence[BuildJob]) -> Iterator[ShardBuilt]:
    """Each job as one task, the largest with the highest priority; as they finish."""
    from distributed import as_completed

    futures = {
        client.submit(build_one, job, priority=len(todo) - at, pure=False): job.alias
        for at, job in enumerate(todo)
    }
    for future in as_completed(list(futures)):
        try:
            yield future.result()
        except Exception as exc:  # the task's worker died (KilledWorker) or it was lost
            yield ShardBuilt(futures[future], "failed", error=_why(exc))
