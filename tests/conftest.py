"""Shared fixtures: small real workspaces (helpers live in ``tests/support``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

# Tests run as an install without the semantic extra, even where its model is installed
# (servers would embed every workspace, and prose rankings would change); the tests of
# the extra name their model (tests/server/mcp/test_semantic.py, tests/ranking/test_neural.py).
os.environ["SYMFUSE_SEMANTIC_MODEL"] = "off"
# Each command of the installed CLI runs in its own process, as it reads its own test's
# files; tests/server/cli/test_resident.py turns the resident process on for itself.
os.environ["SYMFUSE_RESIDENT"] = "off"

SHOP_MODELS = '''"""Order handling for the shop."""

from shop.util import money as fmt_money


class Base:
    """Common base of every model."""

    def save(self):
        return persist(self)


class Order(Base):
    """An order placed by a customer."""

    TAX = 0.2

    def __init__(self, items):
        self.items = items

    def total(self):
        """Sum of the item prices with tax."""
        return fmt_money(sum(i.price for i in self.items) * (1 + self.TAX))


def persist(model):
    """Write a model to storage."""
    return model
'''

SHOP_UTIL = '''"""Small helpers."""


def money(value):
    """Format a value as money."""
    return f"{value:.2f}"


def unused_helper():
    return money(0)
'''

SHOP_VIEWS = """from shop.models import Order


def checkout(items):
    order = Order(items)
    order.save()
    return order.total()
"""


@pytest.fixture
def shop(tmp_path: Path) -> Path:
    """A small Python package with imports, inheritance and calls across files."""
    root = tmp_path / "shop_ws"
    pkg = root / "shop"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "models.py").write_text(SHOP_MODELS, encoding="utf-8")
    (pkg / "util.py").write_text(SHOP_UTIL, encoding="utf-8")
    (pkg / "views.py").write_text(SHOP_VIEWS, encoding="utf-8")
    return root


@pytest.fixture
def index_dir(tmp_path: Path) -> Path:
    return tmp_path / "index"
