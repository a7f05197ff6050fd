"""The one presentation path: a flat page trimmed to its budget, then grouped once."""

from __future__ import annotations

from typing import Any

import pytest

from symfuse.server.common.present import Format, Grouping, estimate_tokens, fit, group

SEARCH = {
    "query": "total",
    "items": [
        {"name": "total", "file": "a/x.py", "tier": "high", "repository": "a"},
        {"name": "totals", "file": "b/y.py", "tier": "high", "repository": "b"},
        {"name": "subtotal", "file": "a/z.py", "tier": "low", "repository": "a"},
    ],
    "total": 3,
}


def test_tiers_stand_where_the_items_stood() -> None:
    shaped = group(SEARCH, "items", Grouping.TIERS)
    assert list(shaped) == ["query", "tiers", "total"]
    assert [r["name"] for r in shaped["tiers"]["high"]] == ["total", "totals"]
    assert shaped["tiers"]["medium"] == []
    assert "tier" not in shaped["tiers"]["low"][0]


def test_repositories_count_their_items() -> None:
    shaped = group(SEARCH, "items", Grouping.REPOSITORIES)
    assert shaped["results_by_repo"]["a"]["count"] == 2
    assert [r["name"] for r in shaped["results_by_repo"]["a"]["items"]] == ["total", "subtotal"]
    assert "repository" not in shaped["results_by_repo"]["b"]["items"][0]


def test_usages_by_file_keep_the_order_of_first_use() -> None:
    data = {
        "usages": [
            {"file": "b.py", "line": 3},
            {"file": "a.py", "line": 1},
            {"file": "b.py", "line": 9},
        ]
    }
    shaped = group(data, "usages", Grouping.USAGES_BY_FILE)
    assert shaped["files"] == [
        {"file": "b.py", "count": 2, "usages": [{"line": 3}, {"line": 9}]},
        {"file": "a.py", "count": 1, "usages": [{"line": 1}]},
    ]


def test_impact_and_types_group_by_their_fields() -> None:
    impact = {"rows": [{"file": "t.py", "test": True, "name": "f"}]}
    assert group(impact, "rows", Grouping.IMPACT_BY_FILE)["files"] == [
        {"file": "t.py", "test": True, "items": [{"name": "f"}]}
    ]
    types = {
        "types": [{"direction": "subtype", "name": "B"}, {"direction": "supertype", "name": "A"}]
    }
    shaped = group(types, "types", Grouping.TYPES_BY_DIRECTION)
    assert shaped["supertypes"] == [{"name": "A"}]
    assert shaped["subtypes"] == [{"name": "B"}]


@pytest.mark.parametrize("fmt", [Format.JSON, Format.TOON])
def test_a_grouped_answer_fits_its_budget_measured_grouped(fmt: Format) -> None:
    rows: list[dict[str, Any]] = [
        {"name": f"n{i}", "file": f"pkg/mod{i % 7}.py", "tier": "high" if i < 5 else "low"}
        for i in range(200)
    ]
    fitted = fit({"items": rows}, "items", fmt, 300, grouping=Grouping.TIERS)
    assert fitted.tokens <= 300
    assert estimate_tokens(fitted.text) == fitted.tokens
    assert 0 < fitted.kept < 200
    kept = fitted.data["tiers"]["high"] + fitted.data["tiers"]["low"]
    assert [r["name"] for r in kept] == [f"n{i}" for i in range(fitted.kept)]
    assert fitted.data["next_offset"] == fitted.kept
