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


def _usage_files(
    tmp_path: Path, first: dict[str, str], second: dict[str, str], name: str
) -> set[str]:
    """The files of the second repository that use ``name``, defined in the first."""
    one = write_tree(tmp_path / "one", first)
    two = write_tree(tmp_path / "two", second)
    config = IndexConfig(roots=(one, two), index_dir=tmp_path / "index", progress=False)
    index, _ = update_index(config)
    found = find_usages(index, name=name, min_confidence=0.0)
    return {u.file.rsplit("/", 1)[-1] for u in found.usages if u.file.startswith("two/")}


def test_a_type_named_by_a_qualifier_stays_in_its_repository(tmp_path: Path) -> None:
    """`Util.go()` without an import is not another repository's `Util` (a name alone);
    with one, or spelled out as `a.Util.go()`, it is."""
    found = _usage_files(
        tmp_path,
        {
            "src/a/Util.java": (
                "package a;\n\npublic class Util {\n  public static int go() { return 1; }\n}\n"
            )
        },
        {
            "src/b/Plain.java": (
                "package b;\n\nclass Plain {\n  int run() { return Util.go(); }\n}\n"
            ),
            "src/b/Imported.java": (
                "package b;\n\nimport a.Util;\n\n"
                "class Imported {\n  int run() { return Util.go(); }\n}\n"
            ),
            "src/b/Spelled.java": (
                "package b;\n\nclass Spelled {\n  int run() { return a.Util.go(); }\n}\n"
            ),
        },
        "go",
    )
    assert found == {"Imported.java", "Spelled.java"}


def test_a_kotlin_extension_of_another_repository_needs_its_import(tmp_path: Path) -> None:
    """`text.shout()` on a String reaches another repository's `fun String.shout()` only
    when the file imports it."""
    found = _usage_files(
        tmp_path,
        {"src/a/Strings.kt": "package a\n\nfun String.shout(): String = uppercase()\n"},
        {
            "src/b/Plain.kt": "package b\n\nfun yell(text: String): String = text.shout()\n",
            "src/b/Imported.kt": (
                "package b\n\nimport a.shout\n\nfun call(text: String): String = text.shout()\n"
            ),
        },
        "shout",
    )
    assert found == {"Imported.kt"}
