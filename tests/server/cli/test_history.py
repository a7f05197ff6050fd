"""symfuse index --history, symfuse history and symfuse evolution, through the installed
command, over a real git repository (tests/support/history.py): every option."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_symfuse
from tests.support.history import BOB, HistoryRepo, commit, make_history_repo

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> HistoryRepo:
    return make_history_repo(tmp_path_factory.mktemp("history") / "repo")


@pytest.fixture(scope="module")
def index_dir(tmp_path_factory: pytest.TempPathFactory, repo: HistoryRepo) -> Path:
    directory = tmp_path_factory.mktemp("history-index")
    done = run_symfuse(["index", str(repo.root), "--index-dir", str(directory), "--history"])
    assert "history of repo: 5 new commits, 5 in all" in done.stdout
    return directory


def history(repo: HistoryRepo, index_dir: Path, *args: str) -> dict[str, Any]:
    done = run_symfuse(
        ["history", *args, "--root", str(repo.root), "--index-dir", str(index_dir), "-f", "json"]
    )
    data: dict[str, Any] = json.loads(done.stdout)
    return data


def hashes(repo: HistoryRepo, index_dir: Path, *args: str) -> list[str]:
    return [item["commit"] for item in history(repo, index_dir, *args)["items"]]


def test_history_finds_a_commit_by_its_words(repo: HistoryRepo, index_dir: Path) -> None:
    c = repo.commits
    found = history(repo, index_dir, "discount")
    top = found["items"][0]
    assert (top["commit"], top["author"], top["date"]) == (
        c[1],
        "Bob Builder",
        "2024-02-15T12:00:00Z",
    )
    assert top["repository"] == "repo"
    assert ("discount", "added") in {(s["name"], s["change"]) for s in top["symbols"]}
    assert hashes(repo, index_dir, "cents", "--chunk-type", "commit_message") == [c[4]]
    assert hashes(repo, index_dir, "rate", "--chunk-type", "commit_diff") == [c[1]]
    text = run_symfuse(
        ["history", "discount", "--root", str(repo.root), "--index-dir", str(index_dir)]
    ).stdout
    assert text.splitlines()[1].strip() == "Price-based totals and a discount"
    assert "added function discount (shop/models.py:13)" in text


def test_history_filters(repo: HistoryRepo, index_dir: Path) -> None:
    c = repo.commits
    assert hashes(repo, index_dir, "--time-range", "2024-02-01..2024-03-20") == [c[2], c[1]]
    assert hashes(repo, index_dir, "--author", "alice@example.org") == [c[2], c[0]]
    assert hashes(repo, index_dir, "--diff-type", "deleted,renamed") == [c[3], c[2]]
    assert hashes(repo, index_dir, "--diff-type", "binary") == [c[3], c[0]]
    assert hashes(repo, index_dir, "--repository", "repo", "--limit", "2") == [c[4], c[3]]
    assert hashes(repo, index_dir, "--repository", "other") == []
    assert hashes(repo, index_dir, "--limit", "1", "--offset", "4") == [c[0]]
    small = history(repo, index_dir, "order model", "--limit", "1", "--max-tokens", "270")
    diffs = [s["diff"] for s in small["items"][0]["symbols"]]
    assert any(d.endswith("... (cut to max_tokens)") for d in diffs)


def test_history_errors_name_the_option(repo: HistoryRepo, index_dir: Path) -> None:
    where = ["--root", str(repo.root), "--index-dir", str(index_dir)]
    bad = run_symfuse(["history", "--time-range", "2024-13-01..", *where], check=False)
    assert bad.returncode != 0
    assert "time_range" in bad.stderr


def test_without_history_the_error_says_how_to_build_it(repo: HistoryRepo, tmp_path: Path) -> None:
    done = run_symfuse(
        ["history", "x", "--root", str(repo.root), "--index-dir", str(tmp_path / "none")],
        check=False,
    )
    assert done.returncode == 1
    assert "symfuse index --history" in done.stderr


def test_evolution_follows_the_definition_across_a_rename(
    repo: HistoryRepo, index_dir: Path
) -> None:
    c = repo.commits
    args = ["--root", str(repo.root), "--index-dir", str(index_dir)]
    done = run_symfuse(["evolution", "Order.total", *args, "-f", "json"])
    entries = json.loads(done.stdout)["evolution"]
    assert [(e["commit"], e["file"]) for e in entries] == [
        (c[4], "shop/orders.py"),
        (c[1], "shop/models.py"),
        (c[0], "shop/models.py"),
    ]
    assert entries[0]["subject"] == "Round totals to cents"
    limited = run_symfuse(["evolution", "Order.total", "--evolution-limit", "1", *args])
    lines = limited.stdout.splitlines()
    assert lines[0].startswith("method shop.orders.Order.total")
    assert "Round totals to cents (modified, shop/orders.py)" in lines[1]
    assert "Price-based" not in limited.stdout
    via_get = run_symfuse(
        ["get", "shop/orders.py::Order.total#method", "--show-evolution", *args, "-f", "json"]
    )
    assert len(json.loads(via_get.stdout)["evolution"]) == 3


def test_a_query_reads_only_the_new_commit(tmp_path: Path) -> None:
    repo = make_history_repo(tmp_path / "repo")
    index_dir = tmp_path / "index"
    run_symfuse(["index", str(repo.root), "--index-dir", str(index_dir), "--history"])
    (repo.root / "shop" / "extra.py").write_text("def extra():\n    return 1\n")
    new = commit(repo.root, "Add an extra function", BOB, "2024-06-01T00:00:00Z")
    assert hashes(repo, index_dir, "extra function") == [new]
    again = run_symfuse(
        ["index", str(repo.root), "--index-dir", str(index_dir), "--history", "-f", "json"]
    )
    [report] = json.loads(again.stdout)["history"]
    assert (report["read"], report["commits"], report["tip"]) == (0, 6, new)


def test_get_at_a_commit_and_a_removed_definition(repo: HistoryRepo, index_dir: Path) -> None:
    args = ["--root", str(repo.root), "--index-dir", str(index_dir), "-f", "json"]
    then = run_symfuse(["get", "Order.total", "--at-commit", "HEAD~1", *args])
    detail = json.loads(then.stdout)
    assert "return sum(item.price for item in self.items)" in detail["source"]
    assert detail["at_commit"] == repo.commits[3]
    removed = run_symfuse(["get", "helper", "--include-removed", *args])
    gone = json.loads(removed.stdout)
    assert (gone["is_removed"], gone["file"], gone["at_commit"]) == (
        True,
        "shop/models.py",
        repo.commits[1],
    )


def test_symbols_and_search_at_a_commit(tmp_path: Path) -> None:
    repo = make_history_repo(tmp_path / "repo")
    where = [str(repo.root), "--index-dir", str(tmp_path / "index")]
    then = run_symfuse(["symbols", *where, "--at-commit", repo.commits[0], "-f", "json"])
    names = {s["name"] for s in json.loads(then.stdout)["symbols"]}
    assert {"Order", "helper", "total"} <= names
    assert "discount" not in names  # added in the second commit
    now = json.loads(run_symfuse(["symbols", *where, "-f", "json"]).stdout)
    assert "helper" not in {s["name"] for s in now["symbols"]}
    found = run_symfuse(["search", "helper", *where, "--at-commit", "HEAD~4", "-f", "json"])
    assert json.loads(found.stdout)["items"][0]["name"] == "helper"
