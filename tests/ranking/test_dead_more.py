"""Dead code on tests/fixtures/dead_code_more: the false positives a judged sample of
real trees showed (issue 36, item 3), each written small, beside what is really dead.

Rust trait impl members, ``#[test]`` and ``#[global_allocator]`` items, ``_``-named
items and ``#[macro_export]`` macros (serde_json, tokio, ripgrep); TypeScript ``#private``
methods called through ``this``, computed ``[Symbol.iterator]`` methods, event handler
properties, function expressions passed on a line of their own, object literal methods
(ky, axios, zod); exported Go methods that may satisfy a dependency's interface (gin,
cobra, echo), a Nix flake's ``outputs``; Python methods of standard duck-typed protocols
and names read from a table in a string (requests, click, black); Java serialization
hooks and classes handed over by ``Foo.class`` (gson); Kotlin ``external`` declarations
and headers of an include tree (okio)."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.analysis.dead_rules import MODULE_REASON, PRIVATE_REASON, PUBLIC_REASON
from tests.support.dead import dead
from tests.support.index import index_of_fixture


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("dead"), "dead_code_more")


def test_the_default_report_holds_only_what_is_dead(index: Index) -> None:
    assert dead(index) == {
        ("c/main.c", "forgotten_c"): (0.95, PRIVATE_REASON),
        ("go/flags_test.go", "unusedHelper"): (0.95, PRIVATE_REASON),
        ("java/src/bench/ParseBenchmark.java", "unusedCount"): (0.95, PRIVATE_REASON),
        ("kotlin/Fs.kt", "forgottenKotlin"): (0.95, PRIVATE_REASON),
        ("kotlin/Fs.kt", "isRegular"): (0.8, PUBLIC_REASON),
        ("py/kit/cookies.py", "EchoingStdin"): (0.8, PUBLIC_REASON),
        ("py/kit/cookies.py", "extract"): (0.8, PUBLIC_REASON),
        ("py/kit/cookies.py", "forgotten_function"): (0.8, PUBLIC_REASON),
        ("py/kit/token.py", "NT_OFFSET"): (
            0.6,
            PUBLIC_REASON + "; a public module-level value: may be read by name",
        ),
        ("rust/src/lib.rs", "forgotten_helper"): (0.95, PRIVATE_REASON),
        ("ts/src/client.ts", "neverCalled"): (0.95, MODULE_REASON),
    }


def test_rust_trait_impls_tests_and_runtime_hooks(index: Index) -> None:
    found = dead(index, 0.0)
    for name in ("add", "Output"):
        confidence, reason = found[("rust/src/lib.rs", name)]
        assert confidence == 0.1
        assert reason == "unreferenced, but implements Add for Meters: called through the trait"
    assert found[("rust/src/lib.rs", "ALLOC")][0] == 0.1
    assert "#[global_allocator]" in found[("rust/src/lib.rs", "ALLOC")][1]
    confidence, reason = found[("rust/src/lib.rs", "meters_internal")]
    assert (confidence, reason) == (
        0.45,
        "unreferenced, but #[macro_export]: other crates may use it",
    )
    # #[test] under a second attribute and a comment; `_assert_send`: unused on purpose
    assert ("rust/src/lib.rs", "adds_lengths") not in found
    assert ("rust/src/lib.rs", "_assert_send") not in found


def test_typescript_uses_no_call_names(index: Index) -> None:
    found = dead(index, 0.0)
    for name in ("#retry", "#fetch", "[Symbol.iterator]", "onreadystatechange", "replacer"):
        assert ("ts/src/client.ts", name) not in found, name
    confidence, reason = found[("ts/src/client.ts", "plain loop")]
    assert confidence == 0.1
    assert "a member of an object literal" in reason


def test_go_methods_a_dependency_may_call_and_nix_outputs(index: Index) -> None:
    found = dead(index, 0.0)
    for name in ("Set", "Type"):
        confidence, reason = found[("go/flags_test.go", name)]
        assert confidence == 0.3
        assert "an exported Go method: may satisfy an interface of a dependency" in reason
    assert not any(file.endswith(".nix") for file, _ in found)


def test_python_protocol_methods_and_names_read_from_a_string(index: Index) -> None:
    found = dead(index, 0.0)
    for name, protocol in (
        ("get_full_url", "urllib.request.Request"),
        ("has_header", "urllib.request.Request"),
        ("readline", "a file object (io)"),
    ):
        confidence, reason = found[("py/kit/cookies.py", name)]
        assert confidence == 0.3
        assert reason.startswith(f"unreferenced, but {name} is a method of {protocol}")
    # `*= STAREQUAL` in a string is no comment line: the name appears in code
    for name in ("STAREQUAL", "DOUBLESLASHEQUAL"):
        confidence, reason = found[("py/kit/token.py", name)]
        assert confidence == 0.45
        assert "its name appears 1 more times in code or strings" in reason


def test_java_serialization_and_reflection_kotlin_external_c_headers(index: Index) -> None:
    found = dead(index, 0.0)
    bench = "java/src/bench/ParseBenchmark.java"
    assert found[(bench, "writeReplace")][0] == 0.1
    assert ("java/src/bench/ParseBenchmark.java", "serialVersionUID") not in dead(index)
    confidence, reason = found[(bench, "timeParse")]
    assert confidence == 0.3
    assert "ParseBenchmark is handed over for reflection (ParseBenchmark.class)" in reason
    assert not any(
        file == "kotlin/Fs.kt" and name.startswith("is") and name != "isRegular"
        for file, name in found
    )
    confidence, reason = found[("c/include/linux/stat.h", "S_IFSOCK")]
    assert confidence == 0.45
    assert "a header of an include tree" in reason
