"""A member read through ``self`` in any position is found like a call: the class's own
member or the one it inherits (Flask's ``options["autoescape"] =
self.select_jinja_autoescape``, a method of its base App in another package)."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import UsagesRequest
from tests.support.index import index_of_tree


def test_an_inherited_member_read_as_a_value_is_the_bases(tmp_path: Path) -> None:
    index = index_of_tree(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/sub/__init__.py": "",
            "pkg/sub/base.py": "class A:\n    def sel(self):\n        return 1\n",
            "pkg/app.py": "from .sub.base import A\n\n\nclass B(A):\n    def run(self):\n"
            '        options = {}\n        options["k"] = self.sel\n        return options\n',
        },
    )
    found = operations.usages(index, UsagesRequest(target="pkg/sub/base.py::A.sel#method"))
    assert [(u.file, u.line, u.confidence) for u in found.usages] == [("pkg/app.py", 7, 1.0)]
