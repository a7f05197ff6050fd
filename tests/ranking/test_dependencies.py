"""File dependencies across languages: Python modules, script paths, C includes, externals,
transitive depth and import cycles."""

from __future__ import annotations

import pytest

from symfuse.indexer.errors import NotFound
from symfuse.indexer.index import Index
from symfuse.ranking.dependencies import dependencies
from tests.support.index import index_of_tree

TREE = {
    "app/__init__.py": "",
    "app/a.py": "from app import b\nimport json\n\n\ndef fa():\n    return b.fb()\n",
    "app/b.py": "from app.a import fa\nfrom app.c import fc\n\n\ndef fb():\n    return fc()\n",
    "app/c.py": "def fc():\n    return 1\n",
    "web/use.ts": (
        "import * as m from './mod';\nimport { x } from 'lodash';\nexport const y = m.a;\n"
    ),
    "web/mod.ts": "export const a = 1;\n",
    "web/lib/index.js": "export const z = 2;\n",
    "web/other.js": "import { z } from './lib';\n",
    "csrc/main.c": '#include "util.h"\n#include <stdio.h>\nint main(void) { return util(); }\n',
    "csrc/util.h": "int util(void);\n",
}


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_tree(tmp_path_factory.mktemp("deps"), TREE)


def files(links: tuple[object, ...]) -> list[tuple[str, int]]:
    return [(link.file, link.depth) for link in links]  # type: ignore[attr-defined]


def test_python_modules_depth_and_cycles(index: Index) -> None:
    found = dependencies(index, "app/a.py", depth=2)
    assert files(found.imports) == [("app/b.py", 1), ("app/c.py", 2)]
    assert files(found.importers) == [("app/b.py", 1)]
    assert [(e.module, e.lines) for e in found.external] == [("json", (2,))]
    assert found.cycles == (("app/a.py", "app/b.py"),)
    assert dependencies(index, "app.c").file == "app/c.py"  # a module name works too


def test_script_paths_and_c_includes(index: Index) -> None:
    assert files(dependencies(index, "web/use.ts").imports) == [("web/mod.ts", 1)]
    assert [e.module for e in dependencies(index, "web/use.ts").external] == ["lodash"]
    assert files(dependencies(index, "web/other.js").imports) == [("web/lib/index.js", 1)]
    main = dependencies(index, "csrc/main.c")
    assert files(main.imports) == [("csrc/util.h", 1)]
    assert [e.module for e in main.external] == ["<stdio.h>"]
    assert files(dependencies(index, "csrc/util.h").importers) == [("csrc/main.c", 1)]


def test_an_unknown_target_is_named(index: Index) -> None:
    with pytest.raises(NotFound, match=r"no file or Python module 'app/zzz\.py'"):
        dependencies(index, "app/zzz.py")
