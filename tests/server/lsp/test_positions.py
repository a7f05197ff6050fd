"""Positions on non-ASCII lines: the conversions, and end to end under UTF-16 and UTF-8."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp

from symfuse.server.lsp.positions import Encoding, FileMapper, from_units, to_units
from tests.support.lsp import capabilities, lsp_session

LINE = 'LABEL = "π ≈ 3.14 😀"; EMOJI_TARGET = "after the emoji"'
TARGET = LINE.index("EMOJI_TARGET")  # 22 code points


@pytest.mark.parametrize(
    ("encoding", "units"), [(Encoding.UTF16, 23), (Encoding.UTF8, 28), (Encoding.UTF32, 22)]
)
def test_column_conversions_round_trip(encoding: Encoding, units: int) -> None:
    assert to_units(LINE, TARGET, encoding) == units
    assert from_units(LINE, units, encoding) == TARGET
    for col in range(len(LINE) + 1):
        assert from_units(LINE, to_units(LINE, col, encoding), encoding) == col


def test_offsets_inside_a_character_land_on_it() -> None:
    emoji = LINE.index("😀")
    inside16 = to_units(LINE, emoji, Encoding.UTF16) + 1  # between the surrogates
    assert from_units(LINE, inside16, Encoding.UTF16) == emoji
    inside8 = to_units(LINE, emoji, Encoding.UTF8) + 2
    assert from_units(LINE, inside8, Encoding.UTF8) == emoji
    assert from_units(LINE, 10_000, Encoding.UTF16) == len(LINE)


def test_file_mapper_uses_only_non_ascii_lines() -> None:
    mapper = FileMapper({3: LINE}, Encoding.UTF16)
    assert mapper.position(3, TARGET + 1) == lsp.Position(2, 23)
    assert mapper.position(4, TARGET + 1) == lsp.Position(3, 22)  # an ASCII line
    assert mapper.column(lsp.Position(2, 23)) == (3, TARGET + 1)


@pytest.mark.parametrize(
    ("offered", "target", "hello_end", "call"),
    [
        # EMOJI_TARGET start, héllo_wörld's name end, the héllo_wörld call after an emoji
        (None, 23, 15, 19),
        (["utf-8"], 28, 17, 22),
    ],
)
async def test_positions_on_non_ascii_lines(
    tmp_path: Path, offered: list[str] | None, target: int, hello_end: int, call: int
) -> None:
    async with lsp_session(tmp_path, caps=capabilities(encodings=offered)) as s:
        await s.wait_ready()
        found = (await s.symbols("EMOJI_TARGET"))[0]
        assert isinstance(found.location, lsp.Location)
        assert found.location.range.start == lsp.Position(36, target)
        assert found.location.range.end == lsp.Position(36, target + len("EMOJI_TARGET"))

        hello = (await s.symbols("héllo_wörld"))[0]
        assert isinstance(hello.location, lsp.Location)
        assert hello.location.range == lsp.Range(lsp.Position(39, 4), lsp.Position(39, hello_end))

        # report.py line 17: `    note = "😀 ü"; héllo_wörld(note)`; ask from inside the name.
        report = lsp.TextDocumentIdentifier(uri=s.uri("geometry/report.py"))
        where = await s.client.text_document_definition_async(
            lsp.DefinitionParams(text_document=report, position=lsp.Position(16, call + 3))
        )
        assert isinstance(where, list)
        assert [(w.uri, w.range) for w in where] == [(hello.location.uri, hello.location.range)]
        # One unit before the call is the `; ` separator: nothing there.
        before = await s.client.text_document_definition_async(
            lsp.DefinitionParams(text_document=report, position=lsp.Position(16, call - 1))
        )
        assert not before
