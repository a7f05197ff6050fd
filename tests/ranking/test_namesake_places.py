"""Which of several definitions of one name comes first (issue 35, item 4): the newest
copy (v4 over v3, not legacy), a definition with a body over an interface's declaration
of it, the file named after it. On tests/fixtures/namesakes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.api import SearchRequest
from symfuse.ranking.query import operations
from symfuse.ranking.query.responses import SearchResponse
from tests.support.index import index_of_fixture, index_of_tree


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("namesakes"), "namesakes")


def first_files(index: Index, query: str, count: int, **fields: Any) -> list[str]:
    request = SearchRequest.from_mapping({"query": query, "limit": 5, **fields})
    answer = operations.search(index, request)
    assert isinstance(answer, SearchResponse)
    return [item.symbol.file for item in answer.items[:count]]


def test_the_newest_copy_comes_first(index: Index) -> None:
    assert first_files(index, "ZodObject", 2) == ["src/v4/schemas.ts", "src/v3/types.ts"]


def test_a_version_the_query_names_comes_first(index: Index) -> None:
    assert first_files(index, "ZodObject in v3", 2) == ["src/v3/types.ts", "src/v4/schemas.ts"]
    assert first_files(index, "ZodObject v4", 2) == ["src/v4/schemas.ts", "src/v3/types.ts"]
    assert first_files(index, "ZodObject in v7", 2) == ["src/v4/schemas.ts", "src/v3/types.ts"]


@pytest.mark.parametrize("fields", [{}, {"kind": "method"}])
def test_a_method_with_a_body_comes_before_the_interface_declaring_it(
    index: Index, fields: dict[str, Any]
) -> None:
    assert first_files(index, "ServeHTTP", 2, **fields) == [
        "server/engine.go",
        "server/handler.go",
    ]


def test_the_file_named_after_it_then_the_others_then_legacy(index: Index) -> None:
    assert first_files(index, "router", 3) == [
        "server/router.py",
        "server/helpers.py",
        "legacy/router.py",
    ]


def test_a_type_comes_before_a_function_of_its_name(index: Index) -> None:
    # the function is called more (PageRank), but the bare name reaches the class too
    assert first_files(index, "Query", 2) == ["web/params.py", "web/param_functions.py"]


def test_a_module_function_comes_before_a_method_of_its_name(index: Index) -> None:
    # Session.patch is the more linked, and Session.patch is how to ask for it
    assert first_files(index, "patch", 2) == ["web/api.py", "web/sessions.py"]
    assert first_files(index, "Session.patch", 1) == ["web/sessions.py"]


def test_a_type_built_on_a_base_of_its_name_comes_first(index: Index) -> None:
    # the base is the more linked; the subclass is the one a package exports over it
    assert first_files(index, "Blueprint", 2) == ["web/blueprints.py", "web/sansio/blueprints.py"]


def test_a_partial_type_leads_from_the_file_of_its_exact_name(index: Index) -> None:
    # Polly's PolicyWrap.ContextAndKeys.cs holds another part of the class (and sorts first)
    assert first_files(index, "PolicyWrap", 2) == [
        "wrap/PolicyWrap.cs",
        "wrap/PolicyWrap.ContextAndKeys.cs",
    ]


def test_a_public_definition_before_one_its_modifier_restricts(tmp_path: Path) -> None:
    """tokio's `Mutex` is `sync::Mutex` (`pub struct`), not the internal wrapper
    `loom::std::Mutex` (`pub(crate) struct`) its own code uses everywhere; C#'s
    `internal` keeps a type out of the public face the same way."""
    index = index_of_tree(
        tmp_path,
        {
            "src/loom/std/mutex.rs": (
                "pub(crate) struct Mutex<T: ?Sized>(std::sync::Mutex<T>);\n\n"
                "impl<T> Mutex<T> {\n    pub(crate) fn new(t: T) -> Mutex<T> {\n"
                "        Mutex(std::sync::Mutex::new(t))\n    }\n}\n"
            ),
            "src/sync/mutex.rs": (
                "/// An asynchronous mutual exclusion lock.\n"
                "pub struct Mutex<T: ?Sized> {\n    c: std::cell::UnsafeCell<T>,\n}\n"
            ),
            "Core/Internal/Pipeline.cs": "namespace Core.Internal;\ninternal class Pipeline { }\n",
            "Core/Pipeline.cs": "namespace Core;\n\npublic class Pipeline { }\n",
        },
    )
    assert first_files(index, "Mutex", 2) == ["src/sync/mutex.rs", "src/loom/std/mutex.rs"]
    assert first_files(index, "Pipeline", 2) == ["Core/Pipeline.cs", "Core/Internal/Pipeline.cs"]


def test_a_qualifier_as_written_picks_the_namesake(tmp_path: Path) -> None:
    """gin's exported interface `ResponseWriter` and the struct `responseWriter` that
    implements it both have a `Status` method: the qualifier's case says which."""
    index = index_of_tree(
        tmp_path,
        {
            "response_writer.go": (
                "package gin\n\n"
                "// ResponseWriter is what a handler writes to.\n"
                "type ResponseWriter interface {\n\tStatus() int\n}\n\n"
                "type responseWriter struct{ status int }\n\n"
                "// Status returns the response's status code.\n"
                "func (w *responseWriter) Status() int {\n\treturn w.status\n}\n"
            ),
        },
    )
    request = SearchRequest.from_mapping({"query": "ResponseWriter.Status", "limit": 2})
    answer = operations.search(index, request)
    assert isinstance(answer, SearchResponse)
    assert [item.symbol.fqn for item in answer.items] == [
        "ResponseWriter.Status",
        "responseWriter.Status",
    ]
    request = SearchRequest.from_mapping({"query": "responseWriter.Status", "limit": 1})
    answer = operations.search(index, request)
    assert isinstance(answer, SearchResponse)
    assert answer.items[0].symbol.fqn == "responseWriter.Status"  # the body, as written
