"""Shared fixtures: small real workspaces and the installed ``symfuse`` command."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


def symfuse_command() -> list[str]:
    """The installed console script, next to the interpreter running the tests."""
    script = Path(sys.executable).with_name("symfuse")
    if script.exists():
        return [str(script)]
    found = shutil.which("symfuse")
    if found is None:
        pytest.fail("the symfuse command is not installed; run `pip install -e .[test]`")
    return [found]


def write_tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (relative path -> text) under ``root``; returns ``root``."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def run_symfuse(
    args: Sequence[str], *, check: bool = True, cwd: Path | None = None, timeout: float = 120
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONUTF8="1")
    result = subprocess.run(
        [*symfuse_command(), *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=timeout,
        check=False,
    )
    if check and result.returncode != 0:
        raise AssertionError(
            f"symfuse {' '.join(args)} exited {result.returncode}\n"
            f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
        )
    return result


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
