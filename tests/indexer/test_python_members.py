"""A member read through ``self`` in any position is found like a call: the class's own
member or the one it inherits (Flask's ``options["autoescape"] =
self.select_jinja_autoescape``, a method of its base App in another package)."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import UsagesRequest
from tests.support.index import index_of_tree, links


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


def test_an_attribute_called_on_an_unknown_value_is_no_nested_or_top_level_function(
    tmp_path: Path,
) -> None:
    """`f.read()` on a file is no `read` nested in a test; `httpcore.Request(url)` (a
    module from outside) is not the workspace's own `Request` class; a method of that
    name in a class still is a guess."""
    index = index_of_tree(
        tmp_path,
        {
            "web/models.py": "class Request:\n    def __init__(self, url):\n"
            "        self.url = url\n\n\nclass Stream:\n    def read(self):\n        return b''\n",
            "web/transport.py": "import httpcore\n\n\ndef send(url, f):\n"
            "    data = f.read()\n    return httpcore.Request(url), data\n",
            "tests/test_app.py": "def test_route(app):\n    @app.route('/read')\n"
            "    def read():\n        return 'x'\n",
        },
    )
    found = links(index, "web/transport.py", "web/transport.py::send#function")
    assert "tests/test_app.py::test_route.read#function" not in found
    assert "web/models.py::Request#class" not in found
    assert "web/models.py::Stream.read#method" in found
