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


def test_a_constructor_on_the_line_after_the_class_head_keeps_the_members() -> None:
    """okio's ``expect open class ByteString`` / a comment / ``internal constructor(data:
    ByteArray) : Comparable<ByteString> {`` and its ``actual`` classes' ``internal actual
    val data: ByteArray,``: the grammar lost the class head, and every member was one of
    the file's functions (``utf8``, not ``ByteString.utf8``); a secondary constructor in
    a class body is left as it is, and the signature keeps the words as written."""
    from symfuse.indexer.extract.tags import extract

    common = b"""package okio

expect open class ByteString
// Trusted internal constructor doesn't clone data.
internal constructor(data: ByteArray) : Comparable<ByteString> {
  fun utf8(): String
}
"""
    actual = b"""package okio

actual open class ByteString
/**
 * Shares the array with its trusted caller.
 */
internal actual constructor(
  internal actual val data: ByteArray,
) : Comparable<ByteString> {
  constructor(text: String) : this(text.encodeToByteArray())
  actual fun utf8(): String = ""
}
"""
    for path, source in (("common/okio/ByteString.kt", common), ("jvm/okio/ByteString.kt", actual)):
        found = extract(path, ".", "kotlin", source)
        assert found.problems == [], path
        fqns = {s.fqn for s in found.symbols}
        assert {"ByteString", "ByteString.utf8"} <= fqns, fqns
        head = next(s for s in found.symbols if s.fqn == "ByteString")
        assert "internal" in head.signature
        assert "constructor" in head.signature
    assert "ByteString.data" in {s.fqn for s in extract("a.kt", ".", "kotlin", actual).symbols}


def test_an_annotated_constructor_on_the_line_after_the_head_keeps_the_members() -> None:
    """okhttp's ``HttpLoggingInterceptor`` / ``@JvmOverloads`` / ``constructor(``: the
    annotation's line stood between the head and the constructor, the grammar's recovery
    lost the class body, and its members became the file's functions (``MultipartReader``
    kept 5 of its 22 definitions)."""
    from symfuse.indexer.extract.tags import extract

    source = b"""class HttpLoggingInterceptor
  @JvmOverloads
  @Suppress("unused")
  constructor(
    private val logger: Logger = Logger.DEFAULT,
  ) : Interceptor {
    @Volatile private var headersToRedact = emptySet<String>()

    fun redactHeader(name: String) {
      headersToRedact = headersToRedact + name
    }
  }

class Other @Inject constructor(val a: Int) {
  fun g() = a
}
"""
    found = extract("HttpLoggingInterceptor.kt", ".", "kotlin", source)
    assert found.problems == []
    fqns = {s.fqn for s in found.symbols}
    members = {"logger", "headersToRedact", "redactHeader"}
    assert {f"HttpLoggingInterceptor.{m}" for m in members} <= fqns, fqns
    assert {"Other.a", "Other.g"} <= fqns


def test_a_member_used_through_one_platform_declaration_is_used_in_each(tmp_path: Path) -> None:
    """``deflaterSink.finishDeflate()`` reaches one of okio's ``DeflaterSink`` declarations
    (the ``expect`` class in ``zlibMain``, the ``actual`` ones per platform): each declares
    the member, none of them is dead code; a namesake in another file name is."""
    from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code

    expect = (
        "package okio\n\nexpect class DeflaterSink\ninternal constructor(sink: Sink) : Sink {\n"
        "  internal fun finishDeflate()\n}\n"
    )
    actual = (
        "package okio\n\nactual class DeflaterSink internal actual constructor(\n"
        "  private val sink: Sink,\n) : Sink {\n  internal actual fun finishDeflate() {}\n}\n"
    )
    files = {
        "src/zlibMain/kotlin/okio/DeflaterSink.kt": expect,
        "src/jvmMain/kotlin/okio/DeflaterSink.kt": actual,
        "src/nativeMain/kotlin/okio/DeflaterSink.kt": actual,
        "src/zlibMain/kotlin/okio/GzipSink.kt": (
            "package okio\n\nclass GzipSink(sink: Sink) {\n"
            "  private val deflaterSink = DeflaterSink(sink)\n"
            "  fun close() { deflaterSink.finishDeflate() }\n}\n"
        ),
        "src/zlibMain/kotlin/okio/Other.kt": (
            "package okio\n\nclass Other {\n  internal fun finishDeflate() {}\n}\n"
        ),
    }
    index = index_of_tree(tmp_path, files)
    dead = {
        (d.symbol.file, d.symbol.fqn)
        for d in dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    }
    assert not [f for f, fqn in dead if fqn == "DeflaterSink.finishDeflate"], dead
    assert ("src/zlibMain/kotlin/okio/Other.kt", "Other.finishDeflate") in dead


def test_a_name_declared_per_platform_is_one_choice(tmp_path: Path) -> None:
    """``get ByteString.utf8`` on okio listed the ``expect`` declaration and each
    platform's ``actual`` one of both a property and a method (8 choices); the choice is
    between the two things, each named by its ``expect`` declaration."""
    from symfuse.ranking.graph.targets import AmbiguousTarget
    from symfuse.ranking.query import operations
    from symfuse.ranking.query.requests import GetRequest

    common = (
        "package okio\n\nexpect open class ByteString\n"
        "internal constructor(data: ByteArray) {\n  internal var hex: String?\n"
        "  fun hex(): String\n}\n"
    )
    actual = (
        "package okio\n\nactual open class ByteString\ninternal actual constructor(\n"
        "  internal actual val data: ByteArray,\n) {\n  internal actual var hex: String? = null\n"
        '  actual fun hex(): String = ""\n}\n'
    )
    files = {
        "src/jvmMain/kotlin/okio/ByteString.kt": actual,
        "src/commonMain/kotlin/okio/ByteString.kt": common,
        "src/nativeMain/kotlin/okio/ByteString.kt": actual,
    }
    index = index_of_tree(tmp_path, files)
    with pytest.raises(AmbiguousTarget) as raised:
        operations.get(index, GetRequest(target="ByteString.hex"))
    choices = raised.value.candidates
    assert sorted(c.kind for c in choices) == ["method", "property"]
    assert {c.file for c in choices} == {"src/commonMain/kotlin/okio/ByteString.kt"}
