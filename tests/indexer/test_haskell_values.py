"""Haskell values named, not applied: aeson passes `consFromJSON` as an argument and in
a list, and names `noArrayFail` in Template Haskell quotes (`[|noArrayFail|]`,
`'noObjectFail`); `symfuse dead` listed them. A function's own parameters and local
bindings are no uses of the module's definitions of those names."""

from __future__ import annotations

from pathlib import Path

from symfuse.ranking.analysis.dead_code import DeadCodeScope, dead_code
from tests.support.index import index_of_tree, links

SOURCE = """\
module Data.Aeson.TH where

deriveFromJSON = deriveJSONClass [(ParseJSON, consFromJSON)]

mkParseJSON = mkFunCommon consFromJSON

consFromJSON opts (Just tName) = go opts tName
  where
    go o w = (o, w, [|noArrayFail|], 'noObjectFail)

noArrayFail t = t

noObjectFail t = t

opts = 1

tName = 2

deriveJSONClass x = x

mkFunCommon x = x
"""


def test_a_value_named_is_used_and_a_parameter_is_no_definition(tmp_path: Path) -> None:
    index = index_of_tree(tmp_path, {"src/Data/Aeson/TH.hs": SOURCE})
    path = "src/Data/Aeson/TH.hs"
    cons = links(index, path, f"{path}::consFromJSON#function")
    assert f"{path}::noArrayFail#function" in cons
    assert f"{path}::noObjectFail#function" in cons
    # `opts` and `tName` are its parameters, not the top-level definitions so named
    assert f"{path}::opts#function" not in cons
    assert f"{path}::tName#function" not in cons
    found = dead_code(index, DeadCodeScope(min_confidence=0.0)).items
    assert {d.symbol.name for d in found} & {"consFromJSON", "noArrayFail"} == set()
    assert {"opts", "tName"} <= {d.symbol.name for d in found}


def test_an_escaped_character_before_a_primed_name_leaves_the_file_whole() -> None:
    """pandoc's Markdown reader: ``notFollowedBy (char '\\n')``, then ``spnl' :: ...``.
    The grammar's scanner took the escaped character and the prime together, and the
    next 60 lines were one error (their definitions lost)."""
    from symfuse.indexer.extract.tags import extract

    source = b"""module Reader where

spnl :: Parser ()
spnl = notFollowedBy (char '\\n')

spnl' :: Parser Text
spnl' = many (char '\\'')

indentSpaces :: Parser Text
indentSpaces = countChar 4 (char ' ')
"""
    found = extract("src/Reader.hs", ".", "haskell", source)
    assert found.problems == []
    assert {"spnl", "spnl'", "indentSpaces"} <= {s.name for s in found.symbols}
