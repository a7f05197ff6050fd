"""Which files get indexed, and what happens to the ones that cannot be."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.extract.parsing import parse_file
from symfuse.indexer.files.discover import DiscoveryConfig, discover, discover_paths
from symfuse.indexer.update.workspace import update_index

PY = "def keep_me():\n    return 1\n"


def _write(root: Path, rel: str, text: str | bytes = PY) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def _paths(root: Path, config: DiscoveryConfig | None = None) -> set[str]:
    return {c.path for c in discover(root, config or DiscoveryConfig()).candidates}


def test_nested_gitignore_with_negation(tmp_path: Path) -> None:
    _write(tmp_path, ".gitignore", "generated/\n*.gen.py\n")
    _write(tmp_path, "app/.gitignore", "*.py\n!keep.py\n")
    _write(tmp_path, "main.py")
    _write(tmp_path, "x.gen.py")
    _write(tmp_path, "generated/out.py")
    _write(tmp_path, "app/drop.py")
    _write(tmp_path, "app/keep.py")
    _write(tmp_path, "other/drop.py")
    assert _paths(tmp_path) == {"main.py", "app/keep.py", "other/drop.py"}


def test_a_gitignore_line_that_is_no_pattern_is_skipped_as_git_does(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Black's own test data holds a .gitignore of a lone "!"; git ignores that line.
    _write(tmp_path, ".gitignore", "*.log.py\n!\nscratch/\n")
    _write(tmp_path, "main.py")
    _write(tmp_path, "debug.log.py")
    _write(tmp_path, "scratch/a.py")
    with caplog.at_level(logging.WARNING, logger="symfuse.indexer.files.discover"):
        assert _paths(tmp_path) == {"main.py"}
    assert ".gitignore line 2 skipped" in caplog.text


def test_vcs_vendored_and_build_folders_are_skipped(tmp_path: Path) -> None:
    for rel in (".git/hooks/x.py", "node_modules/pkg/index.js", "build/lib/a.py", "src/a.py"):
        _write(tmp_path, rel, "function f() {}\n" if rel.endswith(".js") else PY)
    assert _paths(tmp_path) == {"src/a.py"}


def test_include_and_exclude_globs(tmp_path: Path) -> None:
    for rel in ("src/a.py", "src/gen/b.py", "tests/test_a.py", "notes.txt"):
        _write(tmp_path, rel)
    assert _paths(tmp_path, DiscoveryConfig(exclude=("src/gen/",))) == {
        "src/a.py",
        "tests/test_a.py",
    }
    assert _paths(tmp_path, DiscoveryConfig(include=("src/**",))) == {"src/a.py", "src/gen/b.py"}
    assert _paths(tmp_path, DiscoveryConfig(languages=frozenset({"go"}))) == set()


def test_large_files_are_skipped_with_a_reason(tmp_path: Path) -> None:
    _write(tmp_path, "big.py", "x = 1\n" * 50_000)
    _write(tmp_path, "small.py")
    found = discover(tmp_path, DiscoveryConfig(max_file_size=100_000))
    assert [c.path for c in found.candidates] == ["small.py"]
    assert found.skipped[0][0] == "big.py"
    assert "larger than 100000 bytes" in found.skipped[0][1]


def test_symlink_loops_and_links_out_of_the_root(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _write(root, "pkg/a.py")
    os.symlink(root, root / "pkg" / "loop")
    outside = tmp_path / "outside"
    _write(outside, "secret.py")
    os.symlink(outside, root / "escape")
    os.symlink(outside / "secret.py", root / "escape.py")
    found = discover(root, DiscoveryConfig())
    assert [c.path for c in found.candidates] == ["pkg/a.py"]
    reasons = dict(found.skipped)
    assert "symlink loop" in reasons["pkg/loop"]
    assert "outside the workspace" in reasons["escape"]
    assert "outside the workspace" in reasons["escape.py"]


def test_a_linked_folder_inside_the_root_is_indexed_once_under_its_real_path(
    tmp_path: Path,
) -> None:
    root = tmp_path / "ws"
    _write(root, "core_impl/src/lib.py", "def core(): pass\n")
    _write(root, "app/src/main.py")
    os.symlink(root / "core_impl" / "src", root / "app" / "src" / "core")  # before it by name
    os.symlink(root / "app" / "src" / "main.py", root / "main_link.py")
    found = discover(root, DiscoveryConfig())
    assert sorted(c.path for c in found.candidates) == ["app/src/main.py", "core_impl/src/lib.py"]
    reasons = dict(found.skipped)
    assert reasons["app/src/core"] == "symlink to core_impl/src, indexed under that path"
    assert reasons["main_link.py"] == "symlink to app/src/main.py, indexed under that path"
    # A changed path named through the link is the real file's business, not a second copy.
    named = discover_paths(root, ["app/src/core/lib.py", "core_impl/src/lib.py"], DiscoveryConfig())
    assert [c.path for c in named.candidates] == ["core_impl/src/lib.py"]


def test_a_build_folder_is_output_unless_it_is_inside_a_source_folder(tmp_path: Path) -> None:
    _write(tmp_path, "build/lib/pkg/copy.py")
    _write(tmp_path, "module/build/generated.py")
    _write(tmp_path, "src/tool/build/builtin.py")
    _write(tmp_path, "lib/tool/build/make.py")
    found = discover(tmp_path, DiscoveryConfig())
    assert sorted(c.path for c in found.candidates) == [
        "lib/tool/build/make.py",
        "src/tool/build/builtin.py",
    ]
    paths = ["build/lib/pkg/copy.py", "src/tool/build/builtin.py"]
    named = discover_paths(tmp_path, paths, DiscoveryConfig())
    assert [c.path for c in named.candidates] == ["src/tool/build/builtin.py"]


def test_binary_vanished_non_utf8_and_broken_files(tmp_path: Path) -> None:
    _write(tmp_path, "blob.py", b"\x00\x01\x02binary\x00")
    _write(tmp_path, "latin.py", "# caf\xe9\ndef latin_one():\n    return 1\n".encode("latin-1"))
    _write(tmp_path, "broken.py", "def ok_before():\n    pass\n\ndef broken(:\n\nclass After:\n")
    index, report = update_index(
        IndexConfig(roots=(tmp_path,), index_dir=tmp_path / ".idx", progress=False)
    )
    skipped = dict(report.skipped)
    assert skipped["blob.py"] == "binary file"
    names = {s.name for s in index.symbols}
    assert {"latin_one", "ok_before", "After"} <= names
    problems = dict(report.problems)
    assert "not valid UTF-8" in problems["latin.py"]
    assert problems["broken.py"] == "syntax errors from line 4; indexed what the parser recovered"
    vanished = parse_file("gone.py", "r", "gone.py", str(tmp_path / "gone.py"), "python")
    assert vanished == ("gone.py", "vanished before it could be read")


def test_names_that_are_not_utf8_are_skipped_with_a_reason(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _write(root, "ok.py")
    _write(root, "caf\u00e9.py")  # valid UTF-8: indexed like any other
    raw = os.fsencode(root)
    with open(raw + b"/latin1-\xe9.py", "wb") as handle:
        handle.write(PY.encode())
    os.makedirs(raw + b"/dir-\xff")
    with open(raw + b"/dir-\xff/inside.py", "wb") as handle:
        handle.write(PY.encode())
    found = discover(root, DiscoveryConfig())
    assert {c.path for c in found.candidates} == {"ok.py", "caf\u00e9.py"}
    reasons = dict(found.skipped)
    assert len(reasons) == 2  # the file, and the folder once (not each file in it)
    assert all("not valid UTF-8" in reason for reason in reasons.values())
    # The whole workspace still indexes, and the store can write every name it kept.
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    index, report = update_index(config)
    assert set(index.files) == {"ok.py", "caf\u00e9.py"}
    assert len(report.skipped) == 2


def test_names_with_a_line_break_are_skipped_and_the_ranking_file_reloads(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A file called ``a<newline>b.py`` (or a folder with a tab) cannot be a line of a
    ``file:line`` answer nor of the ranking file's table of paths: it is skipped with a
    reason, by the walk and when named alone, and the next start reads the ranking file
    as written (before, each load found the table one path short and rebuilt it)."""
    from symfuse.ranking.api import prepare

    root = tmp_path / "ws"
    _write(root, "ok.py")
    _write(root, "a\nb.py")
    _write(root, "tab\there/inside.py")
    reasons = dict(discover(root, DiscoveryConfig()).skipped)
    assert set(reasons) == {"a\nb.py", "tab\there"}
    assert all("line break" in reason for reason in reasons.values())
    named = discover_paths(root, ["a\nb.py", "ok.py"], DiscoveryConfig())
    assert [c.path for c in named.candidates] == ["ok.py"]
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    index, _ = update_index(config)
    assert set(index.files) == {"ok.py"}
    prepare(index, config.index_dir)
    with caplog.at_level(logging.INFO):
        prepare(update_index(config)[0], config.index_dir)
    assert not [r for r in caplog.records if "ranking data" in r.getMessage()]


def test_a_byte_order_mark_does_not_shift_the_first_line(tmp_path: Path) -> None:
    # Editors hide a UTF-8 BOM: the columns they send and expect start after it.
    root = tmp_path / "ws"
    text = "def first():\n    return 1\n\n\nclass Second:\n    pass\n"
    _write(root, "plain.py", text)
    _write(root, "marked.py", b"\xef\xbb\xbf" + text.encode())
    config = IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False)
    index, _ = update_index(config)

    def spans(key: str) -> list[tuple[str, int, int, int, int]]:
        found = index.files[key].definitions()
        return [(s.name, s.line, s.col, s.name_col, s.name_end_col) for s in found]

    assert spans("marked.py") == spans("plain.py")
    assert spans("plain.py")[0] == ("first", 1, 1, 5, 10)
    # and text search reads the file as the index did
    from symfuse.ranking.text.search import search_text

    hits = {(h.file, h.line, h.column, h.text) for h in search_text(index, "first").hits}
    assert hits == {(key, 1, 5, "def first():") for key in ("plain.py", "marked.py")}


def test_an_extensionless_script_is_indexed_by_its_shebang(tmp_path: Path) -> None:
    """`bin/luarocks` (`#!/usr/bin/env lua`) is the program's entry point: its calls are
    what make the library's functions used. A file with no `#!`, a binary, a dot file,
    a shell script, a script outside bin/-like folders and a named pipe (whose first
    line would wait for a writer) are left out."""
    _write(tmp_path, "bin/tool", "#!/usr/bin/env lua\nlocal cmd = require('cmd')\ncmd.run()\n")
    _write(tmp_path, "bin/serve", "#!/usr/bin/env -S python3.12 -u\nprint('hi')\n")
    _write(tmp_path, "bin/setup", "#!/bin/sh\nset -e\n")
    _write(tmp_path, "AUTHORS", "Ada\n")
    _write(tmp_path, "bin/compiled", b"\x7fELF\x02\x01\x01\x00")
    _write(tmp_path, ".envrc", "#!/bin/sh\nexport A=1\n")
    _write(tmp_path, "benchsuite/benchsuite", "#!/usr/bin/env python3\nprint('bench')\n")
    os.mkfifo(tmp_path / "bin" / "pipe")
    found = {c.path: c.language for c in discover(tmp_path, DiscoveryConfig()).candidates}
    # a shell script without an extension is tooling, and so is a script outside the
    # folders of programs (languages._INTERPRETERS, languages.SCRIPT_DIRS)
    assert found == {"bin/tool": "lua", "bin/serve": "python"}
    named = discover_paths(tmp_path, ["bin/tool", "AUTHORS", "bin/pipe"], DiscoveryConfig())
    assert [(c.path, c.language) for c in named.candidates] == [("bin/tool", "lua")]
    only_lua = DiscoveryConfig(languages=frozenset({"lua"}))
    assert {c.path for c in discover(tmp_path, only_lua).candidates} == {"bin/tool"}
