"""The history index: the diff -> definitions mapping, the git reader and incremental updates."""

from __future__ import annotations

from pathlib import Path

import msgpack
import pytest

from symfuse.indexer.history import gitlog
from symfuse.indexer.history.build import read_new_commits, stored_commits, update_history
from symfuse.indexer.history.gitlog import Hunk, NotARepository
from symfuse.indexer.history.records import Change, Commit
from symfuse.indexer.history.store import HEAD, HistoryStore, history_dir
from symfuse.indexer.history.touched import definitions, parse, touched
from tests.support.history import BOB, MODELS_1, MODELS_2, commit, make_history_repo


def _defs(path: str, text: str) -> list:  # type: ignore[type-arg]
    parsed = parse(path, text.encode())
    assert parsed is not None
    return definitions(path, parsed)


def test_a_diff_maps_to_the_definitions_it_touches() -> None:
    # MODELS_1 -> MODELS_2: total's body line 6 changed, discount added after helper.
    hunks = [
        Hunk(6, 1, 6, 1, ("-        return sum(self.items)", "+        return sum(...)")),
        Hunk(10, 0, 11, 4, ("+", "+", "+def discount(order, rate):", "+    return 0")),
    ]
    found = {
        (d.qualified, d.change): d
        for d in touched(_defs("m.py", MODELS_1), _defs("m.py", MODELS_2), hunks)
    }
    assert set(found) == {
        ("Order", Change.MODIFIED),
        ("Order.total", Change.MODIFIED),
        ("discount", Change.ADDED),
    }
    assert found[("Order.total", Change.MODIFIED)].diff == (
        "@@ -6,1 +6,1 @@\n-        return sum(self.items)\n+        return sum(...)"
    )
    assert "+def discount(order, rate):" in found[("discount", Change.ADDED)].diff


def test_a_removed_definition_is_deleted_with_its_old_lines() -> None:
    old = _defs("m.py", "def a():\n    return 1\n\n\ndef b():\n    return 2\n")
    new = _defs("m.py", "def a():\n    return 1\n")
    hunks = [Hunk(3, 4, 2, 0, ("-", "-", "-def b():", "-    return 2"))]
    [gone] = touched(old, new, hunks)
    assert (gone.qualified, gone.change, gone.line) == ("b", Change.DELETED, 5)
    assert gone.diff.splitlines()[1:] == ["-def b():", "-    return 2"]


def test_without_hunks_definitions_are_compared_by_their_text() -> None:
    old = _defs("m.py", "def a():\n    return 1\n\n\ndef b():\n    return 2\n")
    new = _defs("m.py", "def a():\n    return 10\n\n\ndef b():\n    return 2\n")
    changed = touched(old, new, [], compare_text=True)
    assert [(d.qualified, d.change) for d in changed] == [("a", Change.MODIFIED)]


def test_a_declared_encoding_is_read_as_the_index_reads_it() -> None:
    # PEP 263: a Latin-1 file's non-ASCII names are whole (read as UTF-8 they were cut)
    latin = "# -*- coding: latin-1 -*-\ndef café_name():\n    return 'é'\n".encode("latin-1")
    parsed = parse("m.py", latin)
    assert parsed is not None
    assert [d.qualified for d in definitions("m.py", parsed)] == ["café_name"]
    wide = "\ufeffdef naïve():\n    return 1\n".encode("utf-16")
    parsed = parse("w.py", wide)
    assert parsed is not None
    assert [d.qualified for d in definitions("w.py", parsed)] == ["naïve"]


def test_an_incremental_parse_finds_what_a_fresh_parse_finds() -> None:
    base = parse("m.py", MODELS_1.encode())
    hunks = [
        Hunk(6, 1, 6, 1, ("-x", "+y")),
        Hunk(10, 0, 11, 4, ("+", "+", "+def discount(order, rate):", "+x")),
    ]
    again = parse("m.py", MODELS_2.encode(), base, hunks)
    fresh = parse("m.py", MODELS_2.encode())
    assert again is not None
    assert fresh is not None
    assert str(again.tree.root_node) == str(fresh.tree.root_node)
    assert definitions("m.py", again) == definitions("m.py", fresh)


def test_git_history_is_read_with_statuses_authors_and_dates(tmp_path: Path) -> None:
    repo = make_history_repo(tmp_path / "repo")
    commits = read_new_commits(repo.root, repo.commits[-1], None)
    assert [c.hash for c in commits] == repo.commits
    first, second, third, rename, last = commits
    assert (first.author, first.email) == ("Alice Liddell", "alice@example.org")
    assert first.time == 1704880800  # 2024-01-10T10:00:00Z
    assert {(f.path, f.status) for f in first.files} == {
        ("logo.png", "binary"),
        ("shop/models.py", "added"),
    }
    added = {d.qualified for f in first.files for d in f.definitions}
    assert added == {"Order", "Order.__init__", "Order.total", "helper"}
    assert {(d.qualified, d.change) for f in third.files for d in f.definitions} == {
        ("helper", Change.DELETED)
    }
    moved = {f.path: f for f in rename.files}
    assert moved["shop/orders.py"].status == "renamed"
    assert moved["shop/orders.py"].old_path == "shop/models.py"
    assert moved["shop/orders.py"].definitions == ()  # renamed, not edited
    assert moved["logo.png"].status == "binary"
    assert {(d.qualified, d.change) for f in last.files for d in f.definitions} == {
        ("Order", Change.MODIFIED),
        ("Order.total", Change.MODIFIED),
    }
    assert second.subject == "Price-based totals and a discount"


def test_an_update_reads_only_the_new_commit(tmp_path: Path) -> None:
    repo = make_history_repo(tmp_path / "repo")
    index_dir = tmp_path / "index"
    cold = update_history("repo", repo.root, index_dir)
    assert (cold.read, cold.commits, cold.tip) == (5, 5, repo.commits[-1])
    unchanged = update_history("repo", repo.root, index_dir)
    assert (unchanged.read, unchanged.commits) == (0, 5)
    (repo.root / "shop" / "extra.py").write_text("def extra():\n    return 1\n")
    new = commit(repo.root, "Add extra", BOB, "2024-06-01T00:00:00Z")
    warm = update_history("repo", repo.root, index_dir)
    assert (warm.read, warm.commits, warm.tip) == (1, 6, new)
    store = HistoryStore(history_dir(index_dir, "repo"))
    head = store.read_head()
    assert head is not None
    assert [len(store.load_segment(s)) for s in head.segments] == [5, 1]
    stored = stored_commits("repo", index_dir)
    assert stored is not None
    assert [c.hash for c in stored] == [*repo.commits, new]


def test_an_old_format_is_rebuilt_with_a_reason(tmp_path: Path) -> None:
    repo = make_history_repo(tmp_path / "repo")
    index_dir = tmp_path / "index"
    update_history("repo", repo.root, index_dir)
    head = history_dir(index_dir, "repo") / HEAD
    data = msgpack.unpackb(head.read_bytes())
    data["format"] = [0, 0]
    head.write_bytes(msgpack.packb(data))
    report = update_history("repo", repo.root, index_dir)
    assert report.read == 5
    assert report.rebuilt_because is not None
    assert "history format [0, 0]" in report.rebuilt_because


def test_a_rewritten_history_is_rebuilt(tmp_path: Path) -> None:
    repo = make_history_repo(tmp_path / "repo")
    index_dir = tmp_path / "index"
    update_history("repo", repo.root, index_dir)
    gitlog_reset = ["reset", "-q", "--hard", repo.commits[2]]
    from tests.support.history import git

    git(repo.root, *gitlog_reset)
    report = update_history("repo", repo.root, index_dir)
    assert (report.read, report.commits) == (3, 3)
    assert report.rebuilt_because is not None
    assert "rewritten" in report.rebuilt_because


def test_a_folder_outside_git_is_named(tmp_path: Path) -> None:
    with pytest.raises(NotARepository, match="not in a git repository"):
        gitlog.git_dir(tmp_path)


def test_a_commit_over_its_cap_keeps_files_and_compares_text(tmp_path: Path) -> None:
    repo = make_history_repo(tmp_path / "repo")
    [capped] = read_new_commits(repo.root, repo.commits[1], repo.commits[0], max_lines=0)
    [full] = read_new_commits(repo.root, repo.commits[1], repo.commits[0])
    [models] = [f for f in capped.files if f.path == "shop/models.py"]
    assert models.truncated
    assert all(d.diff == "" for d in models.definitions)

    def changes(c: Commit) -> set[tuple[str, Change]]:
        return {(d.qualified, d.change) for f in c.files for d in f.definitions}

    assert (
        changes(capped)
        == changes(full)
        == {
            ("Order", Change.MODIFIED),
            ("Order.total", Change.MODIFIED),
            ("discount", Change.ADDED),
        }
    )
