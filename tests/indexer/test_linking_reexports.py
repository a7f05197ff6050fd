"""Names a Python package re-exports: `from pkg import Model` where `pkg/__init__.py`
imports Model from `pkg.base`, by name or with `*`. The linker follows the package's
imports, and an incremental update that changes them relinks what used them exactly
as a cold build of the same tree would."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind
from symfuse.indexer.update.workspace import update_index
from tests.support.cli import write_tree

FILES = {
    "pkg/__init__.py": "from .base import Model\nfrom .fields import *\n",
    "pkg/base.py": "class Model:\n    pass\n",
    "pkg/fields.py": "class CharField:\n    pass\n",
    "other/__init__.py": "",
    "other/base.py": "class Model:\n    pass\n\n\nclass CharField:\n    pass\n",
    "app.py": (
        "import pkg\n"
        "from pkg import Model, CharField\n\n\n"
        "class Post(Model):\n"
        "    title = CharField()\n\n\n"
        "class Page(pkg.Model):\n"
        "    pass\n"
    ),
}
MODEL = "pkg/base.py::Model#class"
INHERITS, CALLS = int(EdgeKind.INHERITS), int(EdgeKind.CALLS)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "ws", FILES)


def edges_from(index: Index, source: str) -> set[tuple[str, int, float]]:
    """(target id, edge kind, weight) of the edges leaving ``source``."""
    return {(dst, kind, weight) for src, dst, kind, weight in _rows(index) if src == source}


def _rows(index: Index) -> list[tuple[str, str, int, float]]:
    return sorted(row for rows in index.edges_by_file.values() for row in rows)


def cold(root: Path, tmp_path: Path, name: str) -> Index:
    config = IndexConfig(roots=(root,), index_dir=tmp_path / name, progress=False)
    index, _ = update_index(config)
    return index


def test_reexported_names_link_to_their_definitions(tree: Path, tmp_path: Path) -> None:
    index = cold(tree, tmp_path, "idx")
    inherits = {e for e in edges_from(index, "app.py::Post#class") if e[1] == INHERITS}
    assert inherits == {(MODEL, INHERITS, 1.0)}  # not other/base.py's Model
    assert (MODEL, INHERITS, 1.0) in edges_from(index, "app.py::Page#class")
    calls = edges_from(index, "app.py::Post.title#field")
    assert ("pkg/fields.py::CharField#class", CALLS, 1.0) in calls  # found through `*`
    assert not any(dst.startswith("other/") for dst, _, _ in calls)


def test_changing_what_a_package_reexports_relinks_its_users(tree: Path, tmp_path: Path) -> None:
    config = IndexConfig(roots=(tree,), index_dir=tmp_path / "live", progress=False)
    index, _ = update_index(config)
    init = tree / "pkg" / "__init__.py"
    for text in (
        "from .fields import *\n",  # Model no longer re-exported
        "from .base import Model\nfrom .fields import *\n",  # and back
        "from .base import Model\n",  # the `*` import gone
        "from .base import Model as Model\nfrom .fields import CharField\n",
    ):
        init.write_text(text)
        index, report = update_index(config, index=index)
        assert report.parsed == 1
        fresh = cold(tree, tmp_path, f"cold-{len(text)}")
        assert _rows(index) == _rows(fresh), text
        assert index.pagerank.tolist() == pytest.approx(fresh.pagerank.tolist(), abs=1e-6)
    assert (MODEL, INHERITS, 1.0) in edges_from(index, "app.py::Post#class")


# Namesakes that BM25, similarity and PageRank all prefer: a "pkg" path and document, and
# more subclasses. Only reading the query as an import path finds pkg's own.
RIVALS = {
    "tools/pkg_model.py": (
        "class Model:\n    'The pkg model.'\n\n\nclass CharField:\n    'A pkg field.'\n"
    ),
    "tools/users.py": "from tools.pkg_model import Model, CharField\n\n\n"
    + "".join(f"class Rival{i}(Model):\n    name = CharField()\n\n\n" for i in range(8)),
}


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("pkg.Model", "pkg/base.py::Model#class"),  # re-exported by name
        ("pkg.CharField", "pkg/fields.py::CharField#class"),  # through `*`
    ],
)
def test_search_finds_a_name_written_as_it_is_imported(
    tree: Path, tmp_path: Path, query: str, expected: str
) -> None:
    from symfuse.ranking.api import SearchRequest, search

    write_tree(tree, RIVALS)
    index = cold(tree, tmp_path, "idx")
    response = search(index, SearchRequest.from_mapping({"query": query, "limit": 5}))
    assert response.items[0].symbol.symbol_id == expected
