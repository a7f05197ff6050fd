"""The dead_code and impact tools through the MCP client: rows, reasons, filters, a diff,
TOON answers and errors."""

from __future__ import annotations

import toon_format

from tests.support.mcp import Workspace, call, call_error, dead_rows, mcp_session, text_of

DIFF = """\
--- a/shop/pricing.py
+++ b/shop/pricing.py
@@ -14,3 +14,3 @@ def compute_total(items: list) -> float:
 def round_price(amount: float) -> float:
     \"\"\"Round to whole cents (the café rounds half up).\"\"\"
-    return float(int(amount * 100)) / 100
+    return float(int(amount * 100 + 0.5)) / 100
"""


async def test_dead_code_lists_unreferenced_definitions(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        found = await call(session, "dead_code")
        python = await call(session, "dead_code", language="py", kind="function")
        low = await call(session, "dead_code", min_confidence=0.0, file_pattern="shop/**")
        toon = await session.call_tool("dead_code", {"output_format": "toon"})
        bad = await call_error(session, "dead_code", min_confidence=2)
    rows = dead_rows(found)
    ids = {row["symbol_id"] for row in rows}
    assert "shop/pricing.py::apply_discount#function" in ids
    assert "shop/pricing.py::compute_total#function" not in ids  # called by Order.total
    row = next(r for r in rows if r["symbol_id"].endswith("apply_discount#function"))
    assert row["confidence"] == 0.8
    assert row["reason"].startswith("public, but nothing imports")
    # each reason is written once, over the rows it explains, surest first
    reasons = [(g["confidence"], g["reason"]) for g in found["groups"]]
    assert len(set(reasons)) == len(reasons)
    assert len(rows) > len(reasons)
    assert [c for c, _ in reasons] == sorted((c for c, _ in reasons), reverse=True)
    assert text_of(toon).count(row["reason"]) == 1
    assert all(r["symbol_id"].endswith("#function") for r in dead_rows(python))
    assert all(".py::" in r["symbol_id"] for r in dead_rows(python))
    assert any(r["confidence"] < 0.5 for r in dead_rows(low))
    assert all(r["symbol_id"].startswith("shop/") for r in dead_rows(low))
    assert toon_format.decode(text_of(toon))["total"] == found["total"]
    assert "min_confidence" in bad


async def test_impact_of_a_symbol_and_of_a_diff(workspace: Workspace) -> None:
    async with mcp_session(workspace) as session:
        by_symbol = await call(session, "impact", target="shop/pricing.py::round_price#function")
        by_diff = await call(session, "impact", diff=DIFF, depth=1)
        missing = await call_error(session, "impact", target="no_such_symbol_anywhere")
        both = await call_error(session, "impact", target="round_price", diff=DIFF)
    assert by_symbol["changed"] == ["shop/pricing.py::round_price#function"]
    reached = {
        (g["file"], i["name"], i["relation"]) for g in by_symbol["files"] for i in g["items"]
    }
    assert ("shop/pricing.py", "compute_total", "calls") in reached
    assert by_diff["changed"] == ["shop/pricing.py::round_price#function"]
    assert all(i["depth"] == 1 for g in by_diff["files"] for i in g["items"])
    assert "no_such_symbol_anywhere" in missing
    assert "either a target" in both
