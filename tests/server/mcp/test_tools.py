"""Every MCP tool through the SDK's ClientSession against an in-process server (the one
``symfuse mcp`` builds), on the fixture workspace."""

from __future__ import annotations

import toon_format
from mcp_types import CallToolResult

from tests.support.mcp import Workspace, call, call_error, hits, mcp_session, text_of

READ_ONLY = {
    "search",
    "search_text",
    "find_usages",
    "get_symbol",
    "callers",
    "callees",
    "type_hierarchy",
    "file_dependencies",
    "dead_code",
    "impact",
    "read_file",
    "search_history",
    "index_status",
    "stats",
    "cache_stats",
    "list_repositories",
}


async def test_tools_are_listed_with_annotations_schemas_and_examples(
    workspace: Workspace,
) -> None:
    async with mcp_session(workspace) as session:
        tools = {t.name: t for t in (await session.list_tools()).tools}
    assert READ_ONLY | {"reindex"} <= set(tools)
    for name, tool in tools.items():
        assert tool.annotations is not None, name
        assert tool.annotations.read_only_hint is (name in READ_ONLY), name
        assert tool.output_schema is not None, name
        props = tool.output_schema["properties"]
        assert {"stale", "index_age_seconds", "truncated", "next_offset"} <= set(props), name
        assert tool.description is not None
        assert "Example" in tool.description, name
        params = tool.input_schema["properties"]
        # The rendering arguments are one `options` object away in every tool.
        assert "max_tokens" in params["options"]["description"], name
        assert "output_format" in params["options"]["description"], name
    reindex = tools["reindex"].annotations
    assert reindex is not None
    assert reindex.destructive_hint is False


async def test_search_filters_modes_and_call_graph_routing(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        plain = await call(session, "search", query="compute total")
        classes = await call(session, "search", query="Gateway", kind="class")
        typo = await call(session, "search", query="chekout", detail_level="minimal")
        extends = await call(session, "search", query="Order", extends="Entity")
        decorated = await call(session, "search", query="item", decorator="dataclass")
        java = await call(session, "search", query="dispatch", language="java")
        tiered = await call(session, "search", query="total", mode="tiered", limit=5)
        drill = await call(
            session, "search", query="total", mode="drill", drill_from="shop/models.py"
        )
        by_path = await call(session, "search", query="shop/service.py")
        debug = await call(session, "search", query="total", fusion_debug=True, limit=2)
        who = await call(session, "search", query="who calls compute_total")
        callees = await call(session, "search", query="what does checkout call")
        page2 = await call(session, "search", query="compute total", limit=3, offset=3)
    top = plain["items"][0]
    assert top["symbol_id"] == "shop/pricing.py::compute_total#function"
    # The id says the file, name and kind; an agent's default: a few lines of code per hit.
    assert set(top) == {"symbol_id", "signature", "line", "score", "snippet"}
    assert plain["search_mode"] == "single"
    assert plain["total"] >= len(hits(plain))
    assert {i["name"] for i in hits(classes)[:3]} == {
        "PaymentGateway",
        "CardGateway",
        "InvoiceGateway",
    }
    assert all(i["kind"] == "class" for i in hits(classes))
    assert hits(typo)[0]["name"] == "checkout"
    assert set(typo["items"][0]) == {"symbol_id", "line"}  # minimal: the id says the rest
    assert [i["name"] for i in hits(extends)] == ["Order"]
    assert [i["name"] for i in hits(decorated)] == ["Item"]
    assert {i["file"] for i in hits(java)} == {"web/Router.java"}
    assert tiered["search_mode"] == "tiered"
    assert "items" not in tiered
    assert [i["name"] for i in hits(tiered["tiers"], "high")][:2] == ["total", "total"]
    assert {i["file"] for i in hits(drill)} == {"shop/models.py"}
    assert by_path["search_mode"] == "get"
    assert {i["file"] for i in hits(by_path)} == {"shop/service.py"}
    assert "lexical_rank" in hits(debug)[0]
    assert debug["channels"]
    assert who["search_mode"] == "callers"
    assert who["intent"] == {"direction": "callers", "target": "compute_total"}
    assert [i["symbol_id"] for i in hits(who)] == ["shop/models.py::Order.total#method"]
    assert hits(who)[0]["sites"] == "shop/models.py:42:16"
    assert callees["search_mode"] == "callees"
    assert {"validate_order", "default_gateway"} <= {i["name"] for i in hits(callees)}
    assert hits(page2) == hits(plain)[3:6]
    assert page2["next_offset"] == 6


async def test_get_symbol_by_id_outline_and_line(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        got = await call(session, "get_symbol", symbol_id="shop/models.py::Order.total#method")
        outline = await call(session, "get_symbol", path="shop/models.py")
        at_line = await call(session, "get_symbol", path="shop/payments.py:23")
        with_line = await call(session, "get_symbol", path="shop/payments.py", line=23)
        rates = "shop/pricing.py::currency_rates#function"
        cut = await call(session, "get_symbol", symbol_id=rates, max_tokens=300)
        rest = await call(
            session, "get_symbol", symbol_id=rates, max_tokens=400, offset=cut["next_offset"]
        )
    symbol = got["symbol"]
    assert symbol["fqn"] == "shop.models.Order.total"
    assert symbol["start_line"] == 41
    assert symbol["end_line"] == 42
    assert symbol["source"] == (
        "    def total(self) -> float:\n        return compute_total(self.items)"
    )
    assert "def add_item" in symbol["context_before"]
    assert "class GiftOrder" in symbol["context_after"]
    assert symbol["parent"]["symbol_id"] == "shop/models.py::Order#class"
    assert symbol["callers_count"] >= 1
    assert symbol["callees_count"] == 1
    # what the symbol_id says, the one root, relations it does not have: left out
    assert not {"name", "kind", "file", "repository", "decorators", "children"} & set(symbol)
    assert got["stale"] is False
    assert got["truncated"] is False

    rows = {r["name"]: r for r in outline["outline"]}
    assert outline["file"] == "shop/models.py"
    assert rows["Order"]["depth"] == 0
    assert rows["add_item"]["depth"] == 1
    assert [r["line"] for r in outline["outline"]] == sorted(r["line"] for r in outline["outline"])

    assert at_line["symbol"]["symbol_id"] == "shop/payments.py::CardGateway.charge#method"
    assert with_line["symbol"]["symbol_id"] == at_line["symbol"]["symbol_id"]

    # A small budget cuts the source and says where to go on; the next page continues.
    assert cut["truncated"] is True
    assert cut["next_offset"] > 0
    assert "offset=" in cut["hint"]
    first = cut["symbol"]["source"].split("\n")
    assert first[0] == "def currency_rates() -> dict[str, float]:"
    assert len(first) == cut["next_offset"]
    assert cut["symbol"]["start_line"] == 31
    assert rest["symbol"]["start_line"] == 31 + cut["next_offset"]
    assert rest["symbol"]["source"].endswith("return rates")


async def test_find_usages_by_name_id_kind_and_file_groups(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        by_name = await call(session, "find_usages", name="checkout")
        by_id = await call(session, "find_usages", symbol_id="shop/service.py::checkout#function")
        calls = await call(session, "find_usages", name="checkout", kinds=["call"])
        inherit = await call(session, "find_usages", name="PaymentGateway", kinds=["inherit"])
        grouped = await call(  # order.total() on an untyped order: a guess, asked for
            session,
            "find_usages",
            name="Order.total",
            group_by_file=True,
            min_confidence=0,
        )
        ambiguous = await call_error(session, "find_usages", name="total", file="shop/models.py")
        paged = await call(session, "find_usages", name="Order", limit=2)
    assert by_name["total"] == 2
    assert by_name["usages"] == by_id["usages"]
    kinds = {(u["file"], u["kind"]) for u in by_name["usages"]}
    assert kinds == {("shop/__init__.py", "import"), ("shop/service.py", "call")}
    call_row = next(u for u in by_name["usages"] if u["kind"] == "call")
    assert call_row["line"] == 23
    assert call_row["column"] == 13
    assert call_row["enclosing"] == "shop/service.py::checkout_all#function"
    assert call_row["text"] == "return [checkout(order) for order in orders]"
    assert [u["kind"] for u in calls["usages"]] == ["call"]
    assert calls["by_kind"] == {"call": 1, "import": 1}
    assert {u["file"] for u in inherit["usages"]} == {"shop/payments.py"}
    assert len(inherit["usages"]) == 2
    # two definitions in the file: both offered, each with the target that names it alone
    assert "'total' names 2 definitions" in ambiguous
    assert '"Order.total" (method shop.models.Order.total in shop/models.py:' in ambiguous
    assert '"GiftOrder.total"' in ambiguous
    files = {g["file"]: g for g in grouped["files"]}
    assert set(files) == {"shop/models.py", "shop/service.py"}
    assert all(g["count"] == len(g["usages"]) for g in grouped["files"])
    assert paged["total"] > 2
    assert len(paged["usages"]) == 2
    assert paged["truncated"] is True
    assert paged["next_offset"] == 2


async def test_search_text_literal_regex_fuzzy_and_filters(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        todo = await call(session, "search_text", pattern="TODO")
        regex = await call(session, "search_text", pattern=r"raise \w+Error", regex=True)
        sensitive = await call(session, "search_text", pattern="todo", case_sensitive=True)
        fuzzy = await call(session, "search_text", pattern="gatway", fuzzy=True)
        only_java = await call(session, "search_text", pattern="path", language="java", limit=3)
        excluded = await call(
            session, "search_text", pattern="import", exclude_path="shop/**", snippet_lines=1
        )
        unicode = await call(session, "search_text", pattern="café")
    assert todo["total"] == 1
    hit = todo["hits"][0]
    assert (hit["file"], hit["line"], hit["column"]) == ("shop/pricing.py", 20, 7)
    assert hit["text"] == "    # TODO: refuse discounts above 50 percent"
    assert "repository" not in hit  # the one root every hit is in
    assert regex["mode"] == "regex"
    assert {h["file"] for h in regex["hits"]} == {
        "shop/payments.py",
        "shop/pricing.py",
        "shop/service.py",
    }
    assert sensitive["total"] == 0
    assert fuzzy["mode"] == "fuzzy"
    assert fuzzy["total"] >= 1
    assert all(h["distance"] <= 1 for h in fuzzy["hits"])
    assert {h["file"] for h in only_java["hits"]} == {"web/Router.java"}
    assert only_java["truncated"] is True
    assert only_java["next_offset"] == 3
    assert {h["file"] for h in excluded["hits"]} == {"web/Router.java"}
    assert all("snippet" in h and ":" in h["snippet"] for h in excluded["hits"])
    assert [h["line"] for h in unicode["hits"]] == [1, 15]
    assert unicode["hits"][0]["column"] == 30  # code points, not bytes


async def test_callers_callees_and_type_hierarchy(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        callers = await call(session, "callers", name="compute_total")
        deeper = await call(session, "callers", name="compute_total", depth=2)
        callees = await call(session, "callees", symbol_id="shop/service.py::checkout#function")
        down = await call(
            session, "type_hierarchy", symbol_id="shop/payments.py::PaymentGateway#class"
        )
        up = await call(
            session, "type_hierarchy", name="GiftOrder", direction="supertypes", depth=3
        )
    assert [r["symbol_id"] for r in hits(callers)] == ["shop/models.py::Order.total#method"]
    assert hits(callers)[0]["sites"] == "42:16"  # in the caller's own file
    assert "via" not in hits(callers)[0]  # the target itself
    assert all(r["via"].startswith("shop/") for r in hits(deeper) if r["depth"] == 2)
    assert callers["direction"] == "callers"
    assert {r["name"] for r in hits(deeper)} >= {"total", "checkout"}
    assert {r["depth"] for r in hits(deeper)} == {1, 2}
    names = {r["name"] for r in hits(callees)}
    assert {"validate_order", "default_gateway", "total", "charge"} <= names
    assert {r["name"] for r in down["subtypes"]} == {"CardGateway", "InvoiceGateway"}
    assert [(r["name"], r["symbol_id"]) for r in down["supertypes"]] == [("ABC", None)]
    assert [(r["name"], r["depth"]) for r in up["supertypes"]] == [("Order", 1), ("Entity", 2)]
    assert up["subtypes"] == []
    # the symbol_id says a workspace type's file and kind; via only past the first level
    assert all("file" not in r and "kind" not in r for r in down["subtypes"])
    assert [r.get("via", "").split("::")[-1] for r in up["supertypes"]] == ["", "Order#class"]


async def test_toon_answers_decode_to_the_json_answers(workspace: Workspace) -> None:
    calls = [
        ("search", {"query": "order"}),
        ("search", {"query": "total", "mode": "tiered"}),
        ("search", {"query": "who calls total", "detail_level": "full"}),
        ("get_symbol", {"symbol_id": "shop/models.py::Order.total#method"}),
        ("get_symbol", {"path": "shop/models.py"}),
        ("find_usages", {"name": "Order"}),
        ("find_usages", {"name": "Order.total", "group_by_file": True}),
        ("search_text", {"pattern": "order", "snippet_lines": 1}),
        ("callers", {"name": "compute_total", "depth": 2}),
        ("type_hierarchy", {"name": "PaymentGateway"}),
        ("index_status", {}),
    ]
    async with mcp_session(workspace) as session:
        await call(session, "reindex")
        for tool, arguments in calls:
            as_json = await call(session, tool, **arguments)
            result = await session.call_tool(tool, {**arguments, "output_format": "toon"})
            assert isinstance(result, CallToolResult)
            assert not result.is_error, text_of(result)
            decoded = toon_format.decode(text_of(result))
            assert decoded == result.structured_content, tool
            for timing in ("index_age_seconds", "elapsed_ms"):
                decoded.pop(timing)
                as_json.pop(timing)
            assert decoded == as_json, tool


async def test_max_tokens_trims_rows_and_offset_fetches_the_rest(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        full = await call(session, "search", query="order", limit=12)
        result = await session.call_tool(
            "search", {"query": "order", "limit": 12, "max_tokens": 300}
        )
        assert isinstance(result, CallToolResult)
        trimmed = result.structured_content
        assert trimmed is not None
        assert len(text_of(result)) / 4 <= 300
        rest = await call(
            session,
            "search",
            query="order",
            limit=12 - trimmed["next_offset"],
            offset=trimmed["next_offset"],
        )
        defaults = [
            await session.call_tool(tool, arguments)
            for tool, arguments in (
                ("search", {"query": "order"}),
                ("find_usages", {"name": "Order"}),
                ("search_text", {"pattern": "order", "snippet_lines": 2}),
                ("get_symbol", {"path": "shop/pricing.py"}),
                ("callees", {"name": "checkout", "depth": 3}),
            )
        ]
    kept = len(hits(trimmed))
    assert 0 < kept < 12
    assert trimmed["truncated"] is True
    assert trimmed["next_offset"] == kept
    assert f"offset={kept}" in trimmed["hint"]
    assert hits(trimmed) == hits(full)[:kept]
    assert hits(rest) == hits(full)[kept:12]
    for answer in defaults:
        assert isinstance(answer, CallToolResult)
        assert not answer.is_error
        assert len(text_of(answer)) / 4 <= 2000


async def test_search_takes_kind_and_language_aliases(workspace: Workspace) -> None:
    """The words the language server's filters take, through MCP's search tool."""
    async with mcp_session(workspace) as session:
        aliased = await call(session, "search", query="Gateway", kind=["cls"], language=["py"])
        spelled = await call(session, "search", query="Gateway", kind="class", language="python")
        java = await call(session, "search", query="dispatch", language=".java")
        methods = await call(session, "search", query="__init__", kind="method", limit=50)
        constructors = await call(session, "search", query="__init__", kind="ctor", limit=50)
        bad = await session.call_tool("search", {"query": "x", "kind": "klass"})
    assert hits(aliased)
    assert [i["symbol_id"] for i in hits(aliased)] == [i["symbol_id"] for i in hits(spelled)]
    assert hits(java)
    assert all(i["file"].endswith(".java") for i in hits(java))
    assert {i["kind"] for i in hits(constructors)} == {"constructor"}
    ids = {i["symbol_id"] for i in hits(methods)}
    assert {i["symbol_id"] for i in hits(constructors)} <= ids
    assert bad.is_error
    assert "ctor (constructor)" in text_of(bad)


async def test_file_dependencies_resolve_imports_both_ways(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        by_path = await call(session, "file_dependencies", target="shop/service.py")
        by_module = await call(session, "file_dependencies", target="shop.models", depth=2)
        missing = await call_error(session, "file_dependencies", target="shop/nope.py")
    rows = {(r["relation"], r["target"]) for r in by_path["dependencies"]}
    assert ("imports", "shop/models.py") in rows
    assert all(r["lines"] for r in by_path["dependencies"])
    assert by_module["file"] == "shop/models.py"
    importers = [r for r in by_module["dependencies"] if r["relation"] == "imported_by"]
    assert "shop/service.py" in {r["target"] for r in importers}
    assert "target" in missing


async def test_file_dependencies_give_a_multi_line_import_as_a_range(
    workspace: Workspace,
) -> None:
    (workspace.root / "shop" / "report.py").write_text(
        "from shop.pricing import (\n"
        "    apply_discount,\n"
        "    compute_total,\n"
        "    round_price,\n"
        ")\n"
        "from shop.models import Order\n\n"
        "from shop.models import Item\n"
    )
    async with mcp_session(workspace) as session:
        found = await call(session, "file_dependencies", target="shop/report.py")
    lines = {r["target"]: r["lines"] for r in found["dependencies"]}
    assert lines == {"shop/pricing.py": "2-4", "shop/models.py": "6,8"}


async def test_a_name_no_definition_bears_is_said_so(workspace: Workspace) -> None:
    """Asked for an identifier nothing defines, the nearest names still answer, and the
    answer says the name is not there: an agent must not take the first for it."""
    async with mcp_session(workspace) as session:
        missing = await call(session, "search", query="PaymentProcessor")
        qualified = await call(session, "search", query="Order.grand_total")
        typo = await call(session, "search", query="compute_totl")
        found = await call(session, "search", query="CardGateway")
        folded = await call(session, "search", query="cardgateway")
        method = await call(session, "search", query="Order.add_item")
        words = await call(session, "search", query="payment processor")
        later = await call(session, "search", query="PaymentProcessor", offset=1)
    assert hits(missing)  # the nearest: PaymentGateway, PaymentError
    assert missing["hint"].startswith("no definition is named PaymentProcessor:")
    assert qualified["hint"].startswith("no definition is named Order.grand_total:")
    assert hits(typo)[0]["name"] == "compute_total"
    assert typo["hint"].startswith("no definition is named compute_totl:")
    for answer in (found, folded, method, words, later):
        assert "hint" not in answer, answer
