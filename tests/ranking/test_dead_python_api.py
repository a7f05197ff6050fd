"""A Python distribution's public names are its users' API (issue 36, item 3): not dead
by default, however unused inside the repository; private names and code outside the
shipped packages still are."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
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


def test_tools_that_load_a_module_by_its_path_call_its_functions(tmp_path: Path) -> None:
    index = index_of_tree(
        tmp_path,
        tree(
            {
                "docs/en/mkdocs.yml": "site_name: Shop\nhooks:\n  - ../../scripts/hooks.py\n",
                "scripts/hooks.py": "def on_config(config):\n    return config\n",
                "pdm_build.py": "def pdm_build_initialize(context):\n    context.x = 1\n",
            }
        ),
    )
    everything = dead(index, 0.0)
    assert everything[("scripts/hooks.py", "on_config")][1].endswith(
        "its module is named in docs/en/mkdocs.yml: loaded and called by name"
    )
    pdm = everything[("pdm_build.py", "pdm_build_initialize")]
    assert "a build hook PDM's backend calls" in pdm[1]
    assert ("scripts/release.py", "helper_never_called") in dead(index)  # named by nothing


def test_documentation_sources_are_examples_left_out_by_default(tmp_path: Path) -> None:
    files = tree({"docs_src/first_steps/tutorial001.py": "def say_hi(name):\n    return name\n"})
    index = index_of_tree(tmp_path, files)
    default = dead_code(index, DeadCodeScope(), limit=1000)
    assert "say_hi" not in {d.symbol.name for d in default.items}
    assert ("docs_src/first_steps/tutorial001.py", "say_hi") in dead(index)  # tests included
