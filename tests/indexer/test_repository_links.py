"""A bare name links inside its own repository (issue 40, item 3): in a multi-root index,
`len(...)` in one repository is not a use of another repository's `len`; an import still
links across."""

from __future__ import annotations

from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.graph.usages import find_usages
from tests.support.index import write_tree


def test_bare_names_stay_in_their_repository_and_imports_cross(tmp_path: Path) -> None:
    shop = write_tree(
        tmp_path / "shop",
        {
            "shop/__init__.py": "",
            "shop/sizes.py": "def measure(items):\n    return len(items)\n",
            "shop/cart.py": "def total(cart):\n    return measure(cart)\n",
        },
    )
    other = write_tree(
        tmp_path / "other",
        {
            "tools/__init__.py": "",
            "tools/report.py": "def summary(rows):\n    return measure(rows)\n",
            "tools/uses.py": (
                "from shop.sizes import measure\n\n\ndef count(x):\n    return measure(x)\n"
            ),
        },
    )
    config = IndexConfig(roots=(shop, other), index_dir=tmp_path / "index", progress=False)
    index, _ = update_index(config)
    found = find_usages(index, name="measure", min_confidence=0.0)
    files = sorted({u.file for u in found.usages})
    assert any(f.endswith("shop/cart.py") for f in files)  # in its own repository
    assert not any(f.endswith("tools/report.py") for f in files)  # a bare name elsewhere
    assert any(f.endswith("tools/uses.py") for f in files)  # an import says so
