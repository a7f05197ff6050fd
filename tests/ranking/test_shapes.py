"""Query shapes, the demotion of test and example code for prose, and code in the answer,
through search() on tests/fixtures/prose_workspace (a toolkit, its tests, an example)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from symfuse.ranking.fusion.roles import Role, asks_for_side_code, role_of
from symfuse.ranking.search.plans import Shape, classify, code_tokens, name_words
from symfuse.ranking.search.snippets import SOURCE_LINES
from tests.support.index import index_of_tree
from tests.support.paths import FIXTURES

PROSE = FIXTURES / "prose_workspace"
PASSWORD = "prompt the user for a password and hide the input"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    directory = tmp_path_factory.mktemp("index")
    built, _ = update_index(IndexConfig(roots=(PROSE,), index_dir=directory, progress=False))
    return built


def ids(index: Index, query: str, **fields: Any) -> list[str]:
    request = SearchRequest.from_mapping({"query": query, "limit": 10, **fields})
    return [item.symbol.symbol_id for item in search(index, request).items]


@pytest.mark.parametrize(
    ("query", "shape"),
    [
        ("getUserById", Shape.IDENTIFIER),
        ("get_user", Shape.IDENTIFIER),
        ("models.CharField", Shape.DOTTED),
        ("Foo::bar", Shape.DOTTED),
        ("shop/models.py", Shape.PATH),
        ("models.py:12", Shape.PATH),
        ("who calls prompt", Shape.CALL_GRAPH),
        ("reciprocal rank fusion", Shape.KEYWORDS),
        (PASSWORD, Shape.SENTENCE),
        ("parse header in Request", Shape.MIXED),
        ("where is hide_input read", Shape.MIXED),
        ("call `prompt` twice when confirming", Shape.MIXED),
    ],
)
def test_each_query_gets_its_shape(query: str, shape: Shape) -> None:
    assert classify(query) is shape


def test_a_type_with_parameters_and_a_call_with_arguments_are_names() -> None:
    assert code_tokens("IPipelineBehavior<TRequest, TResponse>") == [
        "IPipelineBehavior",
        "TRequest",
        "TResponse",
    ]
    assert code_tokens("JsonWriter.value(double)") == ["JsonWriter.value"]
    assert classify("JsonWriter.value(double)") is Shape.MIXED
    assert code_tokens("the HTTPServer class") == ["HTTPServer"]
    assert code_tokens("The HTTP server") == []  # a word in capitals is no name


def test_a_rust_macro_as_it_is_invoked_is_a_name() -> None:
    assert code_tokens("how does the json! literal macro expand") == ["json"]
    assert classify("build it with `vec!` and push") is Shape.MIXED
    assert code_tokens("and then it works!") == []  # the end of a sentence: no macro


def test_names_see_only_the_code_tokens_of_prose() -> None:
    assert code_tokens("parse header in Request") == ["Request"]
    assert code_tokens("Parse the header") == []  # a capital first word is only a sentence
    assert name_words(PASSWORD) == []
    # Numbers and single letters never match names as identities ("1/0" -> Class1).
    assert name_words("divide 1 by 0 in x_value and Class1 or A") == ["x_value", "Class1"]


@pytest.mark.parametrize(
    ("path", "role"),
    [
        ("tests/test_termui.py", Role.TEST),
        ("pkg/test_util.py", Role.TEST),
        ("pkg/conftest.py", Role.TEST),
        ("server/handler_test.go", Role.TEST),
        ("test.c", Role.TEST),
        ("src/tests.rs", Role.TEST),
        ("Tests/SessionTests.swift", Role.TEST),
        ("test/repo_test.exs", Role.TEST),
        ("lib/testing.c", Role.PRODUCT),
        ("okio/src/jvmTest/kotlin/okio/BufferTest.kt", Role.TEST),
        ("app/src/androidTest/java/Main.java", Role.TEST),
        ("src/commonMain/kotlin/Buffer.kt", Role.PRODUCT),
        ("src/latest/x.py", Role.PRODUCT),
        ("src/__tests__/button.tsx", Role.TEST),
        ("web/button.spec.ts", Role.TEST),
        ("src/test/java/org/x/ParserTest.java", Role.TEST),
        ("spec/models/user_spec.rb", Role.TEST),
        ("test/parser.c", Role.TEST),
        ("examples/password.py", Role.EXAMPLE),
        ("_examples/graceful/main.go", Role.EXAMPLE),  # Go's tools skip `_` folders
        ("benches/parse.rs", Role.BENCHMARK),
        ("lua/telescope/testharness/helpers.lua", Role.TEST),  # a test harness's helpers
        ("pkg/test_utils/fakes.go", Role.TEST),
        # a folder named for tests among other words; a lone `testing` is a package
        ("okhttp-testing-support/src/main/kotlin/okhttp3/Dns.kt", Role.TEST),
        ("integration_test/server_test_helpers.go", Role.TEST),
        ("tests-build/src/lib.rs", Role.TEST),
        ("numpy/testing/_private/utils.py", Role.PRODUCT),
        ("src/latest-release/notes.rs", Role.PRODUCT),
        ("django/test/client.py", Role.PRODUCT),  # Django's test package is product code
        ("termkit/termui.py", Role.PRODUCT),
        ("src/main/java/org/x/Parser.java", Role.PRODUCT),
        # another project's code shipped in this one, and a documentation site's scripts
        ("vendor/argparse.lua", Role.VENDORED),
        ("deps/jemalloc/src/arena.c", Role.VENDORED),
        ("src/third_party/zlib/inflate.c", Role.VENDORED),
        ("static/app.min.js", Role.VENDORED),
        ("docs/js/typeahead.jquery.js", Role.VENDORED),
        # a project's own code amalgamated into one file, beside the code it copies
        ("single_include/nlohmann/json.hpp", Role.VENDORED),
        ("sqlite/amalgamation/sqlite3.c", Role.VENDORED),
        ("include/nlohmann/json.hpp", Role.PRODUCT),
        # code a documentation tree shows (in folders below it) is example code; the code
        # right in it builds its pages; not the pages, and not a package named doc
        ("docs/code/onchange/main.c", Role.EXAMPLE),
        ("src/Snippets/Docs/Hedging.cs", Role.EXAMPLE),
        ("packages/docs/app/page.tsx", Role.EXAMPLE),
        ("docs/conf.py", Role.PRODUCT),
        ("docs/build_manpage.py", Role.PRODUCT),
        ("docs/guide/routing.md", Role.PRODUCT),
        ("Documentation/README.MD", Role.PRODUCT),
        ("doc/man_docs.go", Role.PRODUCT),
        ("lib/deps.py", Role.PRODUCT),
    ],
)
def test_roles_follow_each_languages_conventions(path: str, role: Role) -> None:
    assert role_of(path) is role


def test_prose_ranks_product_code_above_its_tests(index: Index) -> None:
    found = ids(index, PASSWORD)
    assert found[0] == "termkit/termui.py::prompt#function"
    first_side = min(i for i, x in enumerate(found) if x.startswith(("tests/", "examples/")))
    assert all(not x.startswith(("tests/", "examples/")) for x in found[:first_side])
    # Without the demotion the tests' names and bodies would win: they repeat every word.
    plain = ids(index, PASSWORD, include_tests="only")
    assert plain
    assert all(x.startswith(("tests/", "examples/")) for x in plain)
    assert "termkit/termui.py::prompt#function" not in plain


def test_a_query_asking_for_tests_is_not_demoted(index: Index) -> None:
    assert asks_for_side_code("test for a password prompt that hides input")
    assert not asks_for_side_code(PASSWORD)
    assert asks_for_side_code("the vendored argparse copy")
    for asking in ("tests for the prompt", "integration tests of the client", "where is it tested"):
        assert asks_for_side_code(asking), asking
    # "test" or "testing" before a product's own concept asks for the product code
    for product in ("how does the test sandbox route a process", "delay calls in chaos testing"):
        assert not asks_for_side_code(product), product
    assert not asks_for_side_code("check an app against the Rack SPEC")  # a standard
    found = ids(index, "test for a password prompt that hides input")
    assert found[0].startswith("tests/test_termui.py::test_password_prompt")


def test_include_tests_false_leaves_side_code_out(index: Index) -> None:
    found = ids(index, PASSWORD, include_tests=False)
    assert found
    assert not any(x.startswith(("tests/", "examples/")) for x in found)
    names = ids(index, "prompt", include_tests="false")
    assert names[0] == "termkit/termui.py::prompt#function"
    assert not any(x.startswith(("tests/", "examples/")) for x in names)
    with pytest.raises(InvalidRequest, match="include_tests"):
        SearchRequest.from_mapping({"query": "x", "include_tests": "sometimes"})


def test_identifier_queries_keep_exact_names_first(index: Index) -> None:
    # Shapes never touch names: an identifier in a test file still comes first.
    assert ids(index, "test_password_prompt_hides_input")[0] == (
        "tests/test_termui.py::test_password_prompt_hides_input#function"
    )


def test_snippets_show_the_lines_after_the_signature(index: Index) -> None:
    request = SearchRequest.from_mapping(
        {"query": "open a file lazily only when it is first written", "snippet_lines": 2}
    )
    answer = search(index, request)
    lazy = next(i for i in answer.items if i.symbol.name == "write")
    assert lazy.snippet == "if self._handle is None:\n    self._handle = open(self.name, self.mode)"
    row = answer.to_dict()["items"][0]
    assert {"end_line", "snippet"} <= set(row)
    none = search(index, request.model_copy(update={"snippet_lines": 0})).to_dict()
    assert "snippet" not in none["items"][0]


def test_full_detail_carries_the_source_and_debug_the_shape(index: Index) -> None:
    request = SearchRequest.from_mapping(
        {"query": "LazyFile", "detail_level": "full", "fusion_debug": True, "limit": 1}
    )
    data = search(index, request).to_dict()
    source = data["items"][0]["source"]
    assert source.startswith("class LazyFile:")
    assert source.count("\n") < SOURCE_LINES
    assert "def close(self):" in source
    assert data["shape"] == "identifier"


HEADERS_RS = """\
/// Reads every Content-Length value of a message; None when two of them disagree,
/// so that the message is rejected.
pub fn content_length_parse_all(values: &[&str]) -> Option<u64> {
    let mut found = None;
    for value in values {
        let n: u64 = value.trim().parse().ok()?;
        if found.is_some() && found != Some(n) {
            return None;
        }
        found = Some(n);
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_length_values_that_disagree_reject_the_message() {
        // two Content-Length headers whose values disagree: the message is rejected
        let values = ["10", "12"];
        assert_eq!(content_length_parse_all(&values), None);
    }

    #[tokio::test]
    async fn content_length_values_that_agree_keep_the_message() {
        assert_eq!(content_length_parse_all(&["10", "10"]), Some(10));
    }
}
"""


def test_tests_a_product_file_holds_are_side_code(tmp_path: Path) -> None:
    """Rust keeps a file's tests in it (`#[cfg(test)] mod tests`): marked `#[test]`,
    they rank after the code they exercise, and include_tests leaves them out or asks
    for them alone, as it does tests in test files."""
    index = index_of_tree(tmp_path, {"src/headers.rs": HEADERS_RS})
    product = "src/headers.rs::content_length_parse_all#function"
    tests = {
        "src/headers.rs::tests.content_length_values_that_disagree_reject_the_message#function",
        "src/headers.rs::tests.content_length_values_that_agree_keep_the_message#function",
    }
    question = "reject a message when Content-Length values disagree"
    assert ids(index, question)[0] == product
    assert tests.isdisjoint(ids(index, question, include_tests="false"))
    assert set(ids(index, question, include_tests="only")) == tests
