"""One name defined twice in one scope, and a nested definition rebound: jinja's
`async_variant` defines `is_async` in both branches of an `if` and then rebinds
`wrapper = pass_eval_context(wrapper)`; `symfuse dead` listed the second `is_async` and
`wrapper` (its uses were read as a local variable's)."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from tests.support.index import index_of_tree, links

SOURCE = """\
import functools


def variant(normal, by_environment):
    def decorator(func):
        if by_environment:

            def is_async(args):
                return args[0].is_async

        else:

            def is_async(args):
                return args[0].environment.is_async

        @functools.wraps(func)
        def wrapper(*args):
            return func(*args) if is_async(args) else normal(*args)

        wrapper = functools.partial(wrapper)
        return wrapper

    return decorator


try:
    from fastjson import loads
except ImportError:

    def loads(text):
        return text


def parse(text):
    return loads(text)
"""


def test_each_definition_of_a_name_defined_twice_is_reached(tmp_path: Path) -> None:
    index = index_of_tree(tmp_path, {"pkg/utils.py": SOURCE})
    wrapper = links(index, "pkg/utils.py", "pkg/utils.py::variant.decorator.wrapper#function")
    first = "pkg/utils.py::variant.decorator.is_async#function"
    assert wrapper == {first: 0.5, first + "~2": 0.5}
    decorator = links(index, "pkg/utils.py", "pkg/utils.py::variant.decorator#function")
    assert "pkg/utils.py::variant.decorator.wrapper#function" in decorator
    found = dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    assert not {d.symbol.name for d in found} & {"is_async", "wrapper", "loads"}
