"""Impact on a small tree: callers up to a depth, subclasses, overriders, importing files,
tests apart; a file's definitions; a unified diff mapped to the definitions it touches."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.errors import InvalidRequest, NotFound
from symfuse.indexer.index import Index
from symfuse.ranking.analysis.diffs import changed_lines
from symfuse.ranking.analysis.impact import ImpactResult, changed_by_diff, changed_in_file, impact
from symfuse.ranking.query import operations
from symfuse.ranking.query.analysis_requests import ImpactRequest
from tests.support.index import index_of_tree

MODELS = """\
class Order:
    def total(self):
        return 1


class RushOrder(Order):
    def total(self):
        return 2
"""
SERVICE = """\
from shop.models import Order


def checkout(order: Order):
    return order.total()


def api():
    return checkout(Order())


def guess(thing):
    return thing.total()
"""
TREE = {
    "shop/__init__.py": "",
    "shop/models.py": MODELS,
    "shop/service.py": SERVICE,
    "tests/test_service.py": "from shop.service import checkout\n\n\n"
    "def test_checkout():\n    assert checkout(None) is None\n",
}
DIFF = """\
diff --git a/shop/service.py b/shop/service.py
index 1111111..2222222 100644
--- a/shop/service.py
+++ b/shop/service.py
@@ -3,3 +3,3 @@ from shop.models import Order

 def checkout(order):
-    return 0
+    return order.total()
diff --git a/shop/gone.py b/shop/gone.py
deleted file mode 100644
--- a/shop/gone.py
+++ /dev/null
@@ -1 +0,0 @@
-x = 1
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("impact"), TREE)


def rows(result: ImpactResult) -> set[tuple[str, str, str, int]]:
    return {(g.file, i.name, i.relation, i.depth) for g in result.files for i in g.items}


def test_a_method_reaches_callers_overriders_and_tests(index: Index) -> None:
    total = index.get("shop/models.py::Order.total#method")
    assert total is not None
    result = impact(index, [total], depth=2)
    found = rows(result)
    assert result.tests == ("tests/test_service.py",)
    assert [g.test for g in result.files] == sorted(g.test for g in result.files)  # tests last
    assert ("shop/service.py", "checkout", "calls", 1) in found
    assert ("shop/models.py", "total", "override", 1) in found  # RushOrder.total
    assert ("shop/service.py", "api", "calls", 2) in found
    assert ("tests/test_service.py", "test_checkout", "calls", 2) in found
    shallow = rows(impact(index, [total], depth=1))
    assert not any(r[3] == 2 for r in shallow)


def test_a_guess_is_counted_not_followed_unless_asked(index: Index) -> None:
    """`thing.total()` on an untyped receiver may be either class's `total`: a guess
    below the usages' default confidence, counted as unresolved."""
    total = index.get("shop/models.py::Order.total#method")
    assert total is not None
    sure = impact(index, [total], depth=1)
    assert "guess" not in {name for _, name, _, _ in rows(sure)}
    assert sure.unresolved == 1
    every = impact(index, [total], depth=1, min_confidence=0.0)
    assert ("shop/service.py", "guess", "calls", 1) in rows(every)
    assert every.unresolved == 0


def test_a_reached_method_does_not_reach_its_overriders(tmp_path: Path) -> None:
    """`RushOrder.total` replaces `Order.total`: a change to what `Order.total` calls
    does not reach the override."""
    tree = {
        "m.py": "def helper():\n    return 1\n\n\nclass A:\n    def run(self):\n"
        "        return helper()\n\n\nclass B(A):\n    def run(self):\n        return 2\n",
    }
    small = index_of_tree(tmp_path, tree)
    helper = small.get("m.py::helper#function")
    assert helper is not None
    found = rows(impact(small, [helper], depth=2))
    assert ("m.py", "run", "calls", 1) in found
    assert not any(relation == "override" for _, _, relation, _ in found)
    run = small.get("m.py::A.run#method")
    assert run is not None
    assert ("m.py", "run", "override", 1) in rows(impact(small, [run], depth=1))


def test_a_class_reaches_subclasses_and_importers_and_names_the_tests(index: Index) -> None:
    order = index.get("shop/models.py::Order#class")
    assert order is not None
    result = impact(index, [order], depth=2)
    found = rows(result)
    assert ("shop/models.py", "RushOrder", "subclass", 1) in found
    assert ("shop/service.py", "", "imports", 1) in found
    assert ("shop/service.py", "checkout", "references", 1) in found  # `order: Order`
    assert result.tests == ("tests/test_service.py",)  # through checkout
    assert impact(index, [order], depth=1).tests == ()


def test_a_diff_touches_the_definitions_around_its_lines(index: Index) -> None:
    assert changed_lines(DIFF) == {"shop/service.py": {5}}  # the new side; gone.py left out
    touched = changed_by_diff(index, DIFF)
    assert [s.name for s in touched] == ["checkout"]
    answer = operations.impact(index, ImpactRequest.from_mapping({"diff": DIFF}))
    assert ("shop/service.py", "api", "calls", 1) in rows(answer)
    with pytest.raises(InvalidRequest, match="diff"):
        changed_by_diff(index, "not a diff")


def test_a_file_target_means_all_its_definitions(index: Index) -> None:
    assert {s.name for s in changed_in_file(index, "shop/service.py")} == {
        "checkout",
        "api",
        "guess",
    }
    answer = operations.impact(index, ImpactRequest.from_mapping({"target": "shop/service.py"}))
    assert ("tests/test_service.py", "test_checkout", "calls", 1) in rows(answer)
    by_name = operations.impact(index, ImpactRequest.from_mapping({"target": "checkout"}))
    assert [c.name for c in by_name.changed] == ["checkout"]
    with pytest.raises(NotFound):
        operations.impact(index, ImpactRequest.from_mapping({"target": "nowhere_at_all"}))
    with pytest.raises(InvalidRequest, match="target"):
        ImpactRequest.from_mapping({"target": "checkout", "diff": DIFF})


def test_paging(index: Index) -> None:
    total = index.get("shop/models.py::Order.total#method")
    assert total is not None
    first = impact(index, [total], depth=3, limit=1)
    assert first.truncated
    assert sum(len(g.items) for g in first.files) == 1
    assert first.total > 1


CLASS_DIFF = "\n".join(
    [
        "--- a/m.py",
        "+++ b/m.py",
        "@@ -1,9 +1,18 @@",
        " class Shop:",
        '     """A shop."""',
        " ",
        "     limit = 3",
        '+    """How many items at most."""',
        " ",
        "+    # the total, with tax",
        "+    @property",
        "     def total(self):",
        "         return 1",
        "+",
        "     def pay(self):",
        "         return 2",
        "+",
        "+",
        "+class Added:",
        "+    def go(self):",
        "+        return 3",
    ]
)


def test_a_diff_between_members_touches_the_member_not_its_class(tmp_path: Path) -> None:
    """A decorator, a comment above a method, an attribute's docstring and a blank line
    change the member they belong to (or nothing), not the whole class, whose every use
    the impact would follow; a class the diff adds is changed with its members."""
    new_side = "".join(line[1:] + "\n" for line in CLASS_DIFF.splitlines()[3:] if line[0] != "-")
    small = index_of_tree(tmp_path, {"m.py": new_side})
    touched = sorted(s.symbol_id for s in changed_by_diff(small, CLASS_DIFF))
    assert touched == [
        "m.py::Added#class",
        "m.py::Added.go#method",
        "m.py::Shop.limit#field",
        "m.py::Shop.total#method",
    ]
