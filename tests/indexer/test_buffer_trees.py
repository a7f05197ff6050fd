"""A buffer parsed from its previous tree gives what parsing it from scratch gives."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.extract.tags import Extraction, extract, extract_tree
from symfuse.indexer.files.source import BOM
from symfuse.indexer.update import buffer_trees
from symfuse.indexer.update.buffer_trees import BufferTrees
from symfuse.indexer.update.live import LiveIndex

LANGUAGES = Path(__file__).parents[1] / "fixtures" / "languages"
SAMPLES = {
    "python": LANGUAGES / "python" / "sample.py",
    "go": LANGUAGES / "go" / "sample.go",
    "rust": LANGUAGES / "rust" / "sample.rs",
    "java": LANGUAGES / "java" / "sample.java",
}
INSERTS = [
    b"x",
    b"\n",
    b"def added_\xc3\xa9(a):\n    return a\n",
    b"  ",
    b"(",
    b"}",
    b"\xe6\x97\xa5",
]


def _rows(found: Extraction) -> tuple[object, ...]:
    return found.symbols, found.reference_rows, found.problems  # symbols compare by value


def _edited(rng: random.Random, source: bytes) -> bytes:
    """One edit an editor could send: an insert, a deletion or a replaced range (bytes
    cut anywhere, so a UTF-8 character may be split: the text is still parsed)."""
    at = rng.randrange(len(source) + 1)
    end = min(len(source), at + rng.randrange(40))
    change = rng.choice(("insert", "delete", "replace"))
    if change == "insert":
        return source[:at] + rng.choice(INSERTS) + source[at:]
    if change == "delete":
        return source[:at] + source[end:]
    return source[:at] + rng.choice(INSERTS) + source[end:]


@pytest.mark.parametrize("language", sorted(SAMPLES))
def test_edits_parsed_incrementally_extract_as_fresh_parses_do(language: str) -> None:
    rng = random.Random(language)
    source = SAMPLES[language].read_bytes()
    trees = BufferTrees()
    for _ in range(60):
        source = _edited(rng, source)
        tree = trees.parse("f", language, source)
        assert tree is not None
        incremental = extract_tree("f", "", language, source, tree)
        fresh = extract("f", "", language, source)
        assert _rows(incremental) == _rows(fresh)


def test_the_same_text_takes_the_same_tree() -> None:
    trees = BufferTrees()
    source = SAMPLES["python"].read_bytes()
    first = trees.parse("f", "python", source)
    assert trees.parse("f", "python", source) is first


def test_the_edit_spans_what_changed_between_the_shared_start_and_end() -> None:
    edit = buffer_trees._edit(b"abc", b"abXbc")
    assert (edit.start, edit.old_end, edit.new_end) == (2, 2, 4)
    edit = buffer_trees._edit(b"aaaa", b"aa")  # the shared end never overlaps the start
    assert (edit.start, edit.old_end, edit.new_end) == (2, 4, 2)
    assert buffer_trees._point(b"ab\ncd", 4) == (1, 1)


def test_texts_a_prepass_rewrites_and_a_byte_order_mark_are_left_to_a_fresh_parse() -> None:
    trees = BufferTrees()
    assert trees.parse("f.ts", "typescript", b"interface Tag<in out Id> {}\n") is None
    assert trees.parse("f.rs", "rust", b"cfg_rt! {\n    pub fn spawn() {}\n}\n") is None
    assert trees.parse("f.py", "python", BOM + b"a = 1\n") is None
    assert "f.ts" not in trees
    assert "f.rs" not in trees
    assert "f.py" not in trees
    # a text of a prepass language that the prepass leaves as it is keeps its tree
    assert trees.parse("g.rs", "rust", b"pub fn spawn() {}\n") is not None
    assert "g.rs" in trees


def test_only_the_most_recent_buffers_keep_a_tree() -> None:
    trees = BufferTrees(kept=2)
    for key in ("a", "b", "c"):
        trees.parse(key, "python", b"x = 1\n")
    assert "a" not in trees
    assert "b" in trees
    assert "c" in trees
    trees.forget("b")
    assert "b" not in trees


def test_a_live_buffer_edited_twice_has_the_names_of_its_text(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    root.mkdir()
    (root / "mod.py").write_text("def first():\n    return 1\n", encoding="utf-8")
    live = LiveIndex(IndexConfig(roots=(root,), index_dir=tmp_path / "index", progress=False))
    live.start()
    try:
        assert live.wait_ready(30)
        text = "def first():\n    return 1\n\n\ndef second():\n    return 2\n"
        live.set_overlay(root / "mod.py", text, link=False)
        live.set_overlay(root / "mod.py", text.replace("second", "third"), link=False)
        assert "mod.py" in live._trees
        with live.reading() as index:
            names = {s.name for s in index.files["mod.py"].definitions()}
        assert names == {"first", "third"}
        live.clear_overlay(root / "mod.py")
        assert "mod.py" not in live._trees
    finally:
        live.stop()
