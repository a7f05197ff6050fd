"""definition, references, call and type hierarchy, hover: a real client (pygls) against
the in-process server."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types as lsp

from tests.support.cli import write_tree
from tests.support.index import index_writer_busy
from tests.support.lsp import Session, lsp_session


def doc(s: Session, rel: str) -> lsp.TextDocumentIdentifier:
    return lsp.TextDocumentIdentifier(uri=s.uri(rel))


def at(line: int, character: int) -> lsp.Position:
    return lsp.Position(line=line, character=character)


def where(loc: lsp.Location) -> tuple[str, int, int]:
    return (
        loc.uri.rsplit("/", 2)[-2] + "/" + loc.uri.rsplit("/", 1)[-1],
        loc.range.start.line,
        loc.range.start.character,
    )


async def test_definition_across_files(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        # report.py line 14: `    shapes = [Rectangle(2, 3), Square(4)]`
        found = await s.client.text_document_definition_async(
            lsp.DefinitionParams(text_document=doc(s, "geometry/report.py"), position=at(13, 17))
        )
        assert isinstance(found, list)
        assert [where(x) for x in found] == [("geometry/shapes.py", 17, 6)]
        assert found[0].range.end == at(17, 15)
        # Nothing at a blank line.
        none = await s.client.text_document_definition_async(
            lsp.DefinitionParams(text_document=doc(s, "geometry/report.py"), position=at(1, 0))
        )
        assert not none


async def test_references_honour_include_declaration(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        params = {"text_document": doc(s, "geometry/shapes.py"), "position": at(17, 8)}
        with_decl = await s.client.text_document_references_async(
            lsp.ReferenceParams(context=lsp.ReferenceContext(include_declaration=True), **params)
        )
        without = await s.client.text_document_references_async(
            lsp.ReferenceParams(context=lsp.ReferenceContext(include_declaration=False), **params)
        )
        assert with_decl is not None
        assert without is not None
        places = {where(x) for x in with_decl}
        assert ("geometry/shapes.py", 17, 6) in places  # the declaration
        assert ("geometry/report.py", 13, 14) in places  # Rectangle(2, 3)
        assert ("geometry/shapes.py", 29, 13) in places  # class Square(Rectangle)
        assert {where(x) for x in without} == places - {("geometry/shapes.py", 17, 6)}


async def test_call_hierarchy(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        # report.py line 7: `def total_area(shapes):`
        items = await s.client.text_document_prepare_call_hierarchy_async(
            lsp.CallHierarchyPrepareParams(
                text_document=doc(s, "geometry/report.py"), position=at(6, 6)
            )
        )
        assert items is not None
        assert [i.name for i in items] == ["total_area"]
        assert items[0].kind == lsp.SymbolKind.Function
        incoming = await s.client.call_hierarchy_incoming_calls_async(
            lsp.CallHierarchyIncomingCallsParams(item=items[0])
        )
        assert incoming is not None
        assert [c.from_.name for c in incoming] == ["build_report"]
        assert [r.start for r in incoming[0].from_ranges] == [at(17, 11)]

        builder = await s.client.text_document_prepare_call_hierarchy_async(
            lsp.CallHierarchyPrepareParams(
                text_document=doc(s, "geometry/report.py"), position=at(11, 6)
            )
        )
        assert builder is not None
        outgoing = await s.client.call_hierarchy_outgoing_calls_async(
            lsp.CallHierarchyOutgoingCallsParams(item=builder[0])
        )
        assert outgoing is not None
        called = {c.to.name: c for c in outgoing}
        assert {"Rectangle", "Square", "total_area", "lookup_shape", "héllo_wörld"} <= set(called)
        # héllo_wörld is called twice; the second call follows an emoji on its line (UTF-16).
        assert sorted(
            (r.start.line, r.start.character) for r in called["héllo_wörld"].from_ranges
        ) == [
            (14, 4),
            (16, 19),
        ]


async def test_type_hierarchy_python_and_java(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        # shapes.py line 30: `class Square(Rectangle):`
        items = await s.client.text_document_prepare_type_hierarchy_async(
            lsp.TypeHierarchyPrepareParams(
                text_document=doc(s, "geometry/shapes.py"), position=at(29, 7)
            )
        )
        assert items is not None
        assert [i.name for i in items] == ["Square"]
        assert items[0].kind == lsp.SymbolKind.Class
        supers = await s.client.type_hierarchy_supertypes_async(
            lsp.TypeHierarchySupertypesParams(item=items[0])
        )
        assert supers is not None
        assert [t.name for t in supers] == ["Rectangle"]
        upper = await s.client.type_hierarchy_supertypes_async(
            lsp.TypeHierarchySupertypesParams(item=supers[0])
        )
        assert upper is not None
        assert [t.name for t in upper] == ["Shape"]
        subs = await s.client.type_hierarchy_subtypes_async(
            lsp.TypeHierarchySubtypesParams(item=upper[0])
        )
        assert subs is not None
        assert [t.name for t in subs] == ["Rectangle"]

        # Greeter.java line 22: `class LoudGreeter extends Greeter {`
        java = await s.client.text_document_prepare_type_hierarchy_async(
            lsp.TypeHierarchyPrepareParams(
                text_document=doc(s, "java/app/Greeter.java"), position=at(21, 8)
            )
        )
        assert java is not None
        assert [i.name for i in java] == ["LoudGreeter"]
        parent = await s.client.type_hierarchy_supertypes_async(
            lsp.TypeHierarchySupertypesParams(item=java[0])
        )
        assert parent is not None
        assert [t.name for t in parent] == ["Greeter"]
        interfaces = await s.client.type_hierarchy_supertypes_async(
            lsp.TypeHierarchySupertypesParams(item=parent[0])
        )
        assert interfaces is not None
        assert [(t.name, t.kind) for t in interfaces] == [("Speaker", lsp.SymbolKind.Interface)]


async def test_hover_shows_signature_and_doc(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        hover = await s.client.text_document_hover_async(
            lsp.HoverParams(text_document=doc(s, "geometry/report.py"), position=at(13, 32))
        )
        assert hover is not None
        assert isinstance(hover.contents, lsp.MarkupContent)
        assert hover.contents.kind == lsp.MarkupKind.Markdown
        text = hover.contents.value
        assert "```python\nclass Square(Rectangle)\n```" in text
        assert "A rectangle whose sides are equal." in text
        assert "`@register_shape`" in text
        # Over a use, the definition's first lines of code follow (its docstring is above).
        assert text.endswith(
            "```python\ndef __init__(self, side):\n    super().__init__(side, side)\n```"
        )
        on_name = await s.client.text_document_hover_async(
            lsp.HoverParams(text_document=doc(s, "geometry/shapes.py"), position=at(5, 7))
        )
        assert on_name is not None
        assert on_name.range == lsp.Range(at(5, 6), at(5, 11))
        assert isinstance(on_name.contents, lsp.MarkupContent)
        assert on_name.contents.value.count("```") == 2  # on the definition: no code again


async def test_references_leave_out_guesses(tmp_path: Path) -> None:
    """References of a method (issue 36): the call on a receiver annotated with its class,
    not the call on an untyped parameter that may be either of two same-named methods
    (a guess, below the usages' default min_confidence)."""
    root = write_tree(
        tmp_path / "tree",
        {
            "app.py": (
                "class Client:\n"
                "    def send(self, request):\n"
                "        return request\n"
                "\n"
                "\n"
                "class Flow:\n"
                "    def send(self, value):\n"
                "        return value\n"
                "\n"
                "\n"
                "def run(client: Client, anything) -> None:\n"
                "    client.send(1)\n"
                "    anything.send(2)\n"
            )
        },
    )
    async with lsp_session(tmp_path, root=root) as s:
        await s.wait_ready()
        found = await s.client.text_document_references_async(
            lsp.ReferenceParams(
                text_document=doc(s, "app.py"),
                position=at(1, 8),
                context=lsp.ReferenceContext(include_declaration=True),
            )
        )
    assert found is not None
    assert sorted((x.range.start.line, x.range.start.character) for x in found) == [
        (1, 8),  # the declaration, asked for
        (11, 11),  # client.send(1)
    ]


@pytest.mark.slow  # symfuse lsp over stdio
async def test_a_definition_asked_during_the_first_index_waits_for_it(tmp_path: Path) -> None:
    """An editor opens a file and asks at once: "no definition" would be wrong. While the
    first index cannot finish (its write lock held), the questions wait; released, they
    are answered."""
    with index_writer_busy(tmp_path / "index") as release:
        # the installed command: its first index is built by a forked process, whose
        # snapshots its readers see only when it is done
        async with lsp_session(tmp_path, stdio=True) as s:
            position = {"text_document": doc(s, "geometry/report.py"), "position": at(13, 17)}
            definition = asyncio.ensure_future(
                s.client.text_document_definition_async(lsp.DefinitionParams(**position))
            )
            hover = asyncio.ensure_future(
                s.client.text_document_hover_async(lsp.HoverParams(**position))
            )
            outline = await s.client.text_document_document_symbol_async(
                lsp.DocumentSymbolParams(text_document=doc(s, "geometry/report.py"))
            )
            assert not s.ready.is_set()  # the first index is still held
            release()
            found = await definition
            shown = await hover
    assert isinstance(found, list)
    assert [where(x) for x in found] == [("geometry/shapes.py", 17, 6)]
    assert shown is not None
    assert outline is None or isinstance(outline, list)
