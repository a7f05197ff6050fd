"""References and imports that tests/bench/graph_truth.py found missed or wrong on Django,
attrs and axios, each on a small tree: JavaScript names used as values and static members
of imported classes, Python members read through ``self`` and ``super()``, names bound to
modules, and file dependencies through ``from . import``, stubs and other languages."""

from __future__ import annotations

import pytest

from symfuse.indexer.index import Index
from symfuse.ranking.graph.dependencies import dependencies
from symfuse.ranking.graph.usages import find_usages
from tests.support.index import index_of_tree

TREE = {
    "web/Headers.js": """\
export default class Headers {
  static from(value) { return new Headers(); }
}
""",
    "web/use.js": """\
import Headers from './Headers.js';

export function check(value) {
  const made = Headers.from(value);
  if (value instanceof Headers) { return { Headers, kind: Headers }; }
  return [Headers];
}

const api = {};
api.Headers = Headers;
export default Headers;
""",
    "pkg/__init__.py": "from . import base, forms\n",
    "pkg/base.py": """\
class Base:
    def clean(self):
        return 1

    @property
    def loaded(self):
        return []


def attrs():
    return 0


class Error(Exception):
    pass
""",
    "pkg/values.py": """\
from pkg import base


def check(x):
    try:
        return isinstance(x, (base.Base, int)), {base.Base: 1}
    except base.Error:
        return base.Base
""",
    "pkg/base.pyi": "class Base:\n    def clean(self) -> int: ...\n",
    "pkg/forms.py": """\
import pickle

import pkg

from .base import Base


class Form(Base):
    def clean(self):
        self.loaded
        return super().clean()

    def other(self):
        return self.clean()


def use():
    return pkg.base, pickle
""",
    "docs/Makefile": "pickle:\n\techo pickle\n",
    "lib/__init__.py": "from ._make import attrs, pipe\n",
    "lib/__init__.pyi": "def attrs(x: int) -> int: ...\ndef pipe() -> None: ...\n",
    "lib/_make.py": """\
def attrs(cls):
    return cls


def pipe():
    return 1


@attrs
class A:
    pass


def shadow(attrs, x):
    pipe = x
    return attrs, pipe
""",
    "lib/use.py": "from lib import attrs\n\n\n@attrs(1)\nclass B:\n    pass\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("gaps"), TREE)


def lines(index: Index, symbol_id: str, file: str) -> list[tuple[int, str]]:
    result = find_usages(index, symbol_id=symbol_id)
    return sorted((u.line, u.kind) for u in result.usages if u.file == file)


def test_script_names_used_as_values(index: Index) -> None:
    found = [line for line, _ in lines(index, "web/Headers.js::Headers#class", "web/use.js")]
    # the import; before a dot; instanceof; `{ Headers, kind: Headers }`; `[Headers]`;
    # the assigned value (not the member `api.Headers` it is assigned to); the export
    assert found == [1, 4, 5, 5, 5, 6, 10, 11]


def test_static_member_of_an_imported_class(index: Index) -> None:
    assert lines(index, "web/Headers.js::Headers.from#method", "web/use.js") == [(4, "call")]


def test_members_through_self_and_super(index: Index) -> None:
    # super().clean() is the base's; self.clean() inside Form is Form's own
    assert lines(index, "pkg/base.py::Base.clean#method", "pkg/forms.py") == [(11, "call")]
    assert lines(index, "pkg/forms.py::Form.clean#method", "pkg/forms.py") == [(14, "call")]
    # a property read through self, not called
    assert lines(index, "pkg/base.py::Base.loaded#method", "pkg/forms.py") == [(10, "reference")]


def test_a_name_bound_to_a_module_is_not_a_namesake(index: Index) -> None:
    assert lines(index, "pkg/base.py::attrs#function", "pkg/forms.py") == []
    assert lines(index, "pkg/base.py::Base#class", "pkg/forms.py") == [
        (5, "import"),
        (8, "inherit"),
    ]


def test_dependencies_of_relative_stub_and_other_languages(index: Index) -> None:
    init = dependencies(index, "pkg/__init__.py")
    assert [link.file for link in init.imports] == ["pkg/base.py", "pkg/forms.py"]
    forms = dependencies(index, "pkg/forms.py")
    # the stub stands for its module; `import pickle` is not the Makefile's target
    assert [link.file for link in forms.imports] == ["pkg/__init__.py", "pkg/base.py"]
    assert [e.module for e in forms.external] == ["pickle"]


def test_stubs_parameters_and_decorators(index: Index) -> None:
    # `from lib import attrs` is lib/_make.py's attrs (the stub stands for lib/__init__.py);
    # `@attrs(1)` is one usage; parameters and locals named attrs or pipe are not it
    assert lines(index, "lib/_make.py::attrs#function", "lib/use.py") == [
        (1, "import"),
        (4, "decorate"),
    ]
    assert lines(index, "lib/_make.py::attrs#function", "lib/_make.py") == [(9, "decorate")]
    assert lines(index, "lib/_make.py::pipe#function", "lib/_make.py") == []


def test_dotted_names_as_values(index: Index) -> None:
    # in a tuple and as a dict key (line 6), `except base.Error`, `return base.Base`
    assert lines(index, "pkg/base.py::Base#class", "pkg/values.py") == [
        (6, "reference"),
        (6, "reference"),
        (8, "reference"),
    ]
    assert lines(index, "pkg/base.py::Error#class", "pkg/values.py") == [(7, "type")]
