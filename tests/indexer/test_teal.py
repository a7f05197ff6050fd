"""Teal read as the Lua it compiles to (issue 35, item 7): types blanked byte for byte, so
the Lua grammar parses what it could not and every position stays the file's."""

from __future__ import annotations

from pathlib import Path

from symfuse.indexer.extract.tags import extract
from symfuse.indexer.extract.teal import teal_to_lua
from symfuse.indexer.files import languages

SAMPLE = Path(__file__).parents[1] / "fixtures" / "languages" / "teal" / "sample.tl"

# from luarocks' deps.tl: a function-typed parameter whose return types hold commas, a
# table-typed local, casts and type tests
SOURCE = b"""local record Query
   name: string
end

local function rock_status(dep: Query, get: function(Query): {string}, {string}, boolean): string
   local versions: {string} = get(dep) as {string}
   if dep is {any: any} then
      return "installed", true
   end
   return versions[1], false
end
"""


def test_positions_and_lines_are_kept() -> None:
    for source in (SAMPLE.read_bytes(), SOURCE):
        lua = teal_to_lua(source)
        assert len(lua) == len(source)
        assert [i for i, b in enumerate(source) if b == 0x0A] == [
            i for i, b in enumerate(lua) if b == 0x0A
        ]


def test_the_lua_grammar_parses_what_teal_declares() -> None:
    tree = languages.parser("teal").parse(teal_to_lua(SOURCE))
    assert not tree.root_node.has_error
    assert languages.parser("teal").parse(SOURCE).root_node.has_error  # the types, unblanked
    found = {
        s.name: (s.kind.value, s.line, s.end_line)
        for s in extract("d.tl", "r", "teal", SOURCE).symbols
    }
    assert found["rock_status"] == ("function", 5, 11)
    assert found["Query"] == ("variable", 1, 3)  # the record, as the table it compiles to
