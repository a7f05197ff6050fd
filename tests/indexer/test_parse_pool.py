"""The parser pool's tasks: a language the workers do not inherit comes in runs of its own
(each worker compiles a query the first time it meets its language), and the pool builds
the index one process builds."""

from __future__ import annotations

from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.extract.parsing import POOL_THRESHOLD, ParseJob, by_language
from symfuse.indexer.update.workspace import update_index
from tests.support.paths import FIXTURES


def job(number: int, language: str) -> ParseJob:
    rel = f"f{number}.{language}"
    return ParseJob(f"w/{rel}", "/w", rel, f"/w/{rel}", language)


def test_other_languages_come_in_runs_of_their_own() -> None:
    languages = ["python", "go", "python", "rust", "go", "python", "zig", "go", "python"] * 9
    jobs = [job(n, language) for n, language in enumerate(languages)]

    tasks = list(by_language(jobs, {"python"}, 4))

    assert sorted(j.key for task in tasks for j in task) == sorted(j.key for j in jobs)
    inherited = [j for task in tasks for j in task if j.language == "python"]
    assert inherited == [j for j in jobs if j.language == "python"]  # in their order
    for task in tasks:
        assert len({j.language for j in task}) == 1
        assert len(task) <= 4
    # a run as soon as it fills, the rest of each language at the end: 27 go files, 9 zig
    assert [len(t) for t in tasks if t[0].language == "go"] == [4, 4, 4, 4, 4, 4, 3]
    assert [len(t) for t in tasks if t[0].language == "zig"] == [4, 4, 1]
    left = sorted((t[0].language, len(t)) for t in tasks[-3:])  # what was left, at the end
    assert left == [("go", 3), ("rust", 1), ("zig", 1)]


def test_one_language_keeps_its_order() -> None:
    jobs = [job(n, "go") for n in range(19)]

    tasks = list(by_language(jobs, set(), 8))

    assert [len(t) for t in tasks] == [8, 8, 3]
    assert [j for task in tasks for j in task] == jobs


def test_the_pool_builds_what_one_process_builds(tmp_path: Path) -> None:
    def built(jobs: int) -> tuple[list[str], dict[str, list[tuple[str, str, int, float]]]]:
        config = IndexConfig(
            roots=(FIXTURES,), index_dir=tmp_path / f"index-{jobs}", progress=False, jobs=jobs
        )
        index, _ = update_index(config)
        languages = {entry.language for entry in index.files.values()}
        assert len(index.files) > POOL_THRESHOLD
        assert len(languages) > 20
        edges = {key: sorted(rows) for key, rows in index.edges_by_file.items()}
        return index.symbol_ids, edges

    pooled_ids, pooled_edges = built(2)
    alone_ids, alone_edges = built(1)

    assert pooled_ids == alone_ids
    assert pooled_edges == alone_edges
