"""Dead code over a Teal source and the Lua compiled from it, both indexed."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from tests.support.index import index_of_tree

TEAL = {
    "src/tool/path.tl": "local path = {}\n\nfunction path.manifest(tree: string): string\n"
    "   return tree\nend\n\nfunction path.unused(tree: string): string\n   return tree\n"
    "end\n\nreturn path\n",
    "src/tool/path.lua": "local path = {}\n\nfunction path.manifest(tree)\n   return tree\nend\n\n"
    "function path.unused(tree)\n   return tree\nend\n\nreturn path\n",
    "src/tool/main.lua": 'local path = require("tool.path")\nprint(path.manifest("x"))\n',
}


def test_a_teal_source_and_its_lua_are_one_module(tmp_path: Path) -> None:
    """luarocks ships each Teal module as `x.tl` and the `x.lua` compiled from it;
    callers reach the `.lua` form: its `.tl` twin is used as much (luarocks: 401 rows at
    0.3 and above, 214 after)."""
    index = index_of_tree(tmp_path, TEAL)
    found = dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    assert sorted((d.symbol.file, d.symbol.name) for d in found) == [
        ("src/tool/path.lua", "unused"),
        ("src/tool/path.tl", "unused"),
    ]
