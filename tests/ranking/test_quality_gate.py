"""The ranking quality gate: the fixture golden set through the real search API, per category.

The queries are ``tests/golden_queries_fixture.json`` over tests/fixtures/workspace,
measured as tests/bench/quality_bench.py measures them (``tests/support/quality.py``,
nl targets' docstrings deleted from the indexed copy). Each category's hit@k and
MRR@10 must stay at or above the figures recorded in ``quality_floors.json`` beside
this file. After a deliberate ranking change, regenerate them with
``SYMFUSE_UPDATE_GOLDEN=1 pytest tests/ranking/test_quality_gate.py`` and commit
the file with the change (a drop shows up in the diff).
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.model import Kind
from tests.support.quality import (
    CALLABLES,
    CATEGORIES,
    CUTOFF,
    FIXTURE,
    load_queries,
    measure_fixture,
    stripped_index,
)

FLOORS = Path(__file__).with_name("quality_floors.json")
UPDATE = os.environ.get("SYMFUSE_UPDATE_GOLDEN") == "1"


def floors_of(measured: dict[str, dict[str, float]]) -> dict[str, Any]:
    """Today's figures, rounded down to 3 decimals: the floors a later run must reach."""
    return {
        "note": "measured by tests/ranking/test_quality_gate.py; regenerate with "
        "SYMFUSE_UPDATE_GOLDEN=1 (figures rounded down to 3 decimals)",
        "categories": {
            category: {
                "n": int(row["n"]),
                "metric": f"hit@{CUTOFF[category]}",
                "hit": math.floor(row["hit"] * 1000) / 1000,
                "mrr10": math.floor(row["mrr10"] * 1000) / 1000,
            }
            for category, row in measured.items()
        },
    }


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, float]]:
    return measure_fixture(tmp_path_factory.mktemp("quality"))


def test_floors_cover_every_category(measured: dict[str, dict[str, float]]) -> None:
    if UPDATE or not FLOORS.exists():
        FLOORS.write_text(json.dumps(floors_of(measured), indent=1) + "\n", encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"wrote new floors to {FLOORS}; review and commit them")
    recorded = json.loads(FLOORS.read_text(encoding="utf-8"))["categories"]
    assert set(measured) == set(CATEGORIES)
    assert set(recorded) == set(CATEGORIES)


@pytest.mark.parametrize("category", CATEGORIES)
def test_ranking_quality_stays_above_its_floor(
    measured: dict[str, dict[str, float]], category: str
) -> None:
    floor = json.loads(FLOORS.read_text(encoding="utf-8"))["categories"][category]
    got = measured[category]
    assert got["n"] == floor["n"], "the golden query set changed; regenerate the floors"
    assert got["hit"] >= floor["hit"], (
        f"{category} {floor['metric']} fell to {got['hit']:.3f} (floor {floor['hit']:.3f})"
    )
    assert got["mrr10"] >= floor["mrr10"], (
        f"{category} MRR@10 fell to {got['mrr10']:.3f} (floor {floor['mrr10']:.3f})"
    )


def test_stripping_every_docstring_leaves_no_definition_documented(tmp_path: Path) -> None:
    """The leak-free construction (nl_bench.py --strip all): every docstring and doc comment
    of the fixture goes, so having a doc says nothing about being an nl target."""
    queries = load_queries("fixture")
    index, copy, removed, targets = stripped_index(FIXTURE, queries, tmp_path, every=True)
    defined = [s for s in index.symbols if s.kind in (*CALLABLES, Kind.CLASS)]
    assert removed > len(targets)
    assert targets <= {s.symbol_id for s in defined}
    assert [s.symbol_id for s in defined if s.doc] == []
    for path in copy.rglob("*.py"):
        assert '"""' not in path.read_text(encoding="utf-8"), path
