"""Sure answers first: usages linked by scope or imports come before by-name guesses,
whatever file holds more of them (issue 36, item 2)."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.graph.usages import find_usages
from tests.support.index import index_of_tree

TREE = {
    "shop/__init__.py": "",
    "shop/models.py": "class Order:\n    def total(self):\n        return 1\n\n"
    "    def twice(self):\n        return 2 * self.total()\n",
    "shop/cart.py": "class Cart:\n    def total(self):\n        return 0\n",
    # two calls on an untyped value: Order.total or Cart.total, a guess
    "shop/audit.py": "def audit(x):\n    x.total()\n    return x.total()\n",
    # one call through the imported class: sure
    "shop/report.py": "from shop.models import Order\n\n\ndef report(o):\n"
    "    return Order.total(o)\n",
}


def test_sure_usages_come_before_guesses(tmp_path: Path) -> None:
    index = index_of_tree(tmp_path, TREE)
    found = find_usages(index, symbol_id="shop/models.py::Order.total#method")
    rows = [(u.file, u.line, u.confidence) for u in found.usages]
    assert rows[:2] == [("shop/models.py", 6, 1.0), ("shop/report.py", 5, 1.0)]
    assert [r[0] for r in rows[2:]] == ["shop/audit.py", "shop/audit.py"]
    assert all(r[2] < 1.0 for r in rows[2:])
