"""Kotlin receivers (issue 36): a parameter's or a typed variable's declared type says
what a method called on it belongs to; Kotlin Multiplatform's ``expect class Path`` and
its ``actual`` classes are one type; a call on an outside type (``String``) reaches the
workspace's extension functions on that type, and nothing else of the workspace."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.index import Index
from tests.support.index import index_of_tree, links

FILES = {
    "common/okio/Path.kt": "package okio\n\nexpect class Path {\n    fun name(): String\n}\n",
    "jvm/okio/Path.kt": (
        'package okio\n\nactual class Path {\n    actual fun name(): String = ""\n'
        '    fun toFile(): String = ""\n}\n'
    ),
    "common/okio/Utf8.kt": "package okio\n\nfun String.utf8Size(): Long = 0L\n",
    # namesakes a guess by name would split with
    "other/Other.kt": (
        'package other\n\nclass Other {\n    fun toFile(): String = ""\n'
        '    fun utf8Size(): Long = 1L\n    fun trim(): String = ""\n}\n'
    ),
    "common/okio/Use.kt": (
        "package okio\n\nclass Use {\n"
        "    fun file(p: Path): String = p.toFile()\n"
        "    fun typed(): String {\n        val p: Path = make()\n        return p.name()\n    }\n"
        "    fun size(s: String): Long = s.utf8Size()\n"
        "    fun outside(s: String): String = s.trim()\n"
        "    fun make(): Path = Path()\n}\n"
    ),
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("kotlin_receivers"), FILES)


def links_of_use(index: Index, source: str) -> dict[str, float]:
    return links(index, "common/okio/Use.kt", source)


def test_a_parameter_of_a_multiplatform_type_reaches_the_actual_class(index: Index) -> None:
    found = links_of_use(index, "common/okio/Use.kt::Use.file#method")
    assert found["jvm/okio/Path.kt::Path.toFile#method"] == 1.0
    assert "other/Other.kt::Other.toFile#method" not in found


def test_a_typed_variable_is_a_typed_receiver(index: Index) -> None:
    found = links_of_use(index, "common/okio/Use.kt::Use.typed#method")
    assert found["common/okio/Path.kt::Path.name#method"] == 1.0


def test_an_outside_type_reaches_extension_functions_alone(index: Index) -> None:
    size = links_of_use(index, "common/okio/Use.kt::Use.size#method")
    assert size["common/okio/Utf8.kt::utf8Size#function"] == 1.0
    assert "other/Other.kt::Other.utf8Size#method" not in size
    trimmed = links_of_use(index, "common/okio/Use.kt::Use.outside#method")
    assert not [dst for dst in trimmed if dst.endswith("trim#method")]  # String.trim


REFERENCES = {
    "Adapter.kt": "class Adapter {\n"
    "    fun read(peeked: List<String>): Int = peeked.map(::labelIndex).sum()\n"
    "    fun same(a: Int, b: Int): Boolean = a valueEquals b\n"
    "    private fun labelIndex(s: String): Int = s.length\n"
    "    private infix fun Int.valueEquals(other: Int): Boolean = this == other\n"
    "}\n",
}


def test_a_function_reference_and_an_infix_call_are_uses(tmp_path: Path) -> None:
    """`::labelIndex` passed as a value and `a valueEquals b` use the functions (moshi:
    `symfuse dead` listed both)."""
    index = index_of_tree(tmp_path, REFERENCES)
    read = links(index, "Adapter.kt", "Adapter.kt::Adapter.read#method")
    assert read.get("Adapter.kt::Adapter.labelIndex#method") == 1.0
    same = links(index, "Adapter.kt", "Adapter.kt::Adapter.same#method")
    assert same.get("Adapter.kt::Adapter.valueEquals#method") == 1.0
