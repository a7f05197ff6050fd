"""A doc comment that the grammar hangs on the node before a definition is still the
definition's doc: Kotlin's KDoc after the imports, Haskell's Haddock after another
declaration, a YAML key's comment after another key; a comment that ends a line of code
is not."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind
from tests.support.index import index_of_tree

FILES = {
    "okio/ForwardingSink.kt": (
        "package okio\n\nimport java.io.IOException\n\n"
        "/** A [Sink] which forwards calls to another. */\n"
        "abstract class ForwardingSink(val delegate: Sink) : Sink\n"
    ),
    "src/KeyMap.hs": (
        "module KeyMap where\n\nimport Data.Map (Map)\n\n"
        "empty :: Int\nempty = 0\n"
        "-- | A map from JSON key type to values.\n"
        "newtype KeyMap v = KeyMap { unKeyMap :: Map String v }\n"
    ),
    "labels.yml": (
        "# changes to the command flags\nflags:\n  - flags.go\n"
        "# shell completions\nshells:\n  - bash.go\n"
    ),
    "okio/Io.kt": (
        "package okio\n\nimport java.io.File\nimport java.io.IOException // for read\nclass Io\n"
    ),
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("comment_docs"), FILES)


def _doc(index: Index, file: str, name: str, kind: Kind | None = None) -> str:
    return next(
        s.doc for s in index.symbols if s.file == file and s.name == name and kind in (None, s.kind)
    )


def test_kdoc_after_the_imports(index: Index) -> None:
    assert _doc(index, "okio/ForwardingSink.kt", "ForwardingSink") == (
        "A [Sink] which forwards calls to another."
    )


def test_haddock_after_another_declaration(index: Index) -> None:
    doc = _doc(index, "src/KeyMap.hs", "KeyMap", Kind.STRUCT)
    assert doc == "A map from JSON key type to values."


def test_a_yaml_key_after_another(index: Index) -> None:
    assert _doc(index, "labels.yml", "shells") == "shell completions"


def test_a_comment_ending_a_line_of_code_is_no_doc(index: Index) -> None:
    assert _doc(index, "okio/Io.kt", "Io") == ""
