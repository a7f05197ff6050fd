"""Impact on a small tree: callers up to a depth, subclasses, overriders, importing files,
tests apart; a file's definitions; a unified diff mapped to the definitions it touches."""

from __future__ import annotations

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


def checkout(order):
    return order.total()


def api():
    return checkout(Order())
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


def test_a_class_reaches_subclasses_and_importers_and_names_the_tests(index: Index) -> None:
    order = index.get("shop/models.py::Order#class")
    assert order is not None
    result = impact(index, [order], depth=2)
    found = rows(result)
    assert ("shop/models.py", "RushOrder", "subclass", 1) in found
    assert ("shop/service.py", "", "imports", 1) in found
    assert result.tests == ()  # no test reaches Order within two hops


def test_a_diff_touches_the_definitions_around_its_lines(index: Index) -> None:
    assert changed_lines(DIFF) == {"shop/service.py": {5}}  # the new side; gone.py left out
    touched = changed_by_diff(index, DIFF)
    assert [s.name for s in touched] == ["checkout"]
    answer = operations.impact(index, ImpactRequest.from_mapping({"diff": DIFF}))
    assert ("shop/service.py", "api", "calls", 1) in rows(answer)
    with pytest.raises(InvalidRequest, match="diff"):
        changed_by_diff(index, "not a diff")


def test_a_file_target_means_all_its_definitions(index: Index) -> None:
    assert {s.name for s in changed_in_file(index, "shop/service.py")} == {"checkout", "api"}
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
