"""Dead code a reviewer would accept, on tests/fixtures/graph_answers (Go, Python,
TypeScript with a barrel and Next.js routes, Java, C#): entry points and framework hooks
by language are not reported, public API only at a low confidence, each with its reason;
what is really dead still is (issue 36, item 3)."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.analysis.dead_rules import MODULE_REASON, PRIVATE_REASON, PUBLIC_REASON
from tests.support.dead import dead
from tests.support.index import index_of_fixture


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("dead"), "graph_answers")


def test_the_default_report_holds_only_what_is_dead(index: Index) -> None:
    assert dead(index) == {
        ("go/codec/codec.go", "unusedHelper"): (0.95, PRIVATE_REASON),
        ("go/internal/tools/tools.go", "Trim"): (0.8, PUBLIC_REASON),
        ("py/httpkit/decoders.py", "_forgotten_helper"): (0.95, PRIVATE_REASON),
        ("py/httpkit/decoders.py", "fallback"): (0.8, PUBLIC_REASON),
        ("py/httpkit/client.py", "hooks"): (
            0.75,
            "a public method nothing calls; no super- or subtype defines it",
        ),
        ("ts/src/api.ts", "neverUsed"): (0.95, MODULE_REASON),
        ("ts/src/internal.ts", "orphanExport"): (0.8, PUBLIC_REASON),
        ("java/src/main/java/shop/Cart.java", "unusedCount"): (0.95, PRIVATE_REASON),
        ("csharp/OrdersController.cs", "UnusedTotal"): (0.95, PRIVATE_REASON),
    }


def test_go_entry_points_are_never_reported(index: Index) -> None:
    found = dead(index, 0.0)
    for name in ("init", "main", "TestRender", "BenchmarkRender", "ExampleRender", "FuzzRender"):
        assert not any(n == name for _, n in found), name
    # a method of an interface in the index (Square satisfies Shape without saying so)
    assert ("go/codec/codec.go", "Area") not in found


def test_go_interface_methods_and_exported_names_get_low_confidence(index: Index) -> None:
    found = dead(index, 0.0)
    confidence, reason = found[("go/codec/codec.go", "MarshalJSON")]
    assert confidence == 0.1
    assert reason.startswith("unreferenced, but MarshalJSON is a method of json.Marshaler")
    assert found[("go/codec/codec.go", "String")][0] == 0.1
    assert "fmt.Stringer" in found[("go/codec/codec.go", "String")][1]
    assert "a method of error" in found[("go/codec/codec.go", "Error")][1]
    confidence, reason = found[("go/codec/codec.go", "KindBind")]
    assert confidence == 0.45
    assert "exported Go name of an importable package" in reason


def test_a_leading_underscore_is_not_private_in_typescript(index: Index) -> None:
    found = dead(index, 0.0)
    confidence, reason = found[("ts/src/api.ts", "_tuple")]
    assert confidence == 0.3
    assert reason == (
        "unreferenced, but exported, and re-exported by ts/src/index.ts (export *): public API"
    )
    assert found[("ts/src/checks.ts", "minLength")][0] == 0.3  # export * as checks
    assert ("ts/src/api.ts", "_union") not in found  # union() calls it
    assert ("ts/src/api.ts", "_cached") not in found


def test_next_js_route_exports_are_framework_calls(index: Index) -> None:
    found = dead(index, 0.0)
    page = "ts/app/blog/[slug]/page.tsx"
    for file, name in (
        (page, "generateMetadata"),
        (page, "generateStaticParams"),
        (page, "BlogPost"),
        ("ts/app/api/health/route.ts", "GET"),
        ("ts/app/api/health/route.ts", "POST"),
    ):
        confidence, reason = found[(file, name)]
        assert confidence == 0.1, name
        assert (
            reason == "unreferenced, but an export of a Next.js route file: the framework calls it"
        )


def test_registering_decorators_annotations_and_attributes(index: Index) -> None:
    found = dead(index, 0.0)
    expected = {
        ("py/httpkit/testing.py", "http_client"): "a pytest fixture",
        ("py/httpkit/cli.py", "fetch"): "a command-line command",
        ("java/src/main/java/shop/Cart.java", "toString"): "@Override: overrides",
        ("java/src/test/java/shop/CartTest.java", "addsItems"): "@Test: a test",
        ("csharp/OrdersTests.cs", "ListsOrders"): "@Fact: a test",
    }
    for key, words in expected.items():
        confidence, reason = found[key]
        assert confidence == 0.1, key
        assert reason.startswith(f"unreferenced, but {words}"), reason


def test_a_method_passed_as_a_value_is_used(index: Index) -> None:
    # `return [self.on_close]`: no call, no graph edge, still a use
    assert ("py/httpkit/client.py", "on_close") not in dead(index, 0.0)
