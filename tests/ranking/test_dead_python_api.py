"""A Python distribution's public names are its users' API (issue 36, item 3): not dead
by default, however unused inside the repository; private names and code outside the
shipped packages still are."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.analysis.dead_conventions import PUBLIC_API
from symfuse.ranking.analysis.dead_rules import PRIVATE_REASON
from tests.support.dead import dead
from tests.support.index import index_of_tree

UTILS = '''
def dict_to_sequence(d):
    """Return the items of a dict: kept for the users of 1.x."""
    return d.items()


def _path_is_ancestor(path, other):
    return other.startswith(path)


def used(value):
    return value


class Adapter:
    def get_connection(self, url):
        return url

    def send(self, url):
        return used(url)
'''
MAIN = "from shop.utils import used, Adapter\n\nAdapter().send(used('x'))\n"
SCRIPT = "def helper_never_called():\n    return 1\n"


def tree(declaration: dict[str, str]) -> dict[str, str]:
    return {
        **declaration,
        "src/shop/__init__.py": "",
        "src/shop/utils.py": UTILS,
        "src/shop/_compat.py": "def is_py2():\n    return False\n",
        "scripts/release.py": SCRIPT,
        "app.py": MAIN,
    }


def test_public_names_of_a_shipped_package_are_public_api(tmp_path: Path) -> None:
    index = index_of_tree(tmp_path, tree({"pyproject.toml": '[project]\nname = "Shop"\n'}))
    found = dead(index)
    # a private function, a private module, a script outside the package: still dead
    assert set(found) == {
        ("src/shop/utils.py", "_path_is_ancestor"),
        ("src/shop/_compat.py", "is_py2"),
        ("scripts/release.py", "helper_never_called"),
    }
    assert found[("src/shop/utils.py", "_path_is_ancestor")] == (0.95, PRIVATE_REASON)
    everything = dead(index, 0.0)
    for name in ("dict_to_sequence", "get_connection"):
        confidence, reason = everything[("src/shop/utils.py", name)]
        assert confidence == PUBLIC_API
        assert "public in the package shop of the distribution" in reason


def test_a_setup_py_declares_one_too(tmp_path: Path) -> None:
    setup = 'from setuptools import setup\n\nsetup(name=about["__title__"])\n'
    index = index_of_tree(tmp_path, tree({"setup.py": setup}))
    assert ("src/shop/utils.py", "dict_to_sequence") not in dead(index)


def test_without_a_distribution_unused_public_names_are_dead(tmp_path: Path) -> None:
    found = dead(index_of_tree(tmp_path, tree({})))
    assert found[("src/shop/utils.py", "dict_to_sequence")][0] >= 0.5
    assert found[("src/shop/utils.py", "get_connection")][0] >= 0.5
