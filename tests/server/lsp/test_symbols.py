"""workspace/symbol (ranking, filters, cap, partial results, resolve) and documentSymbol."""

from __future__ import annotations

import shutil
from pathlib import Path

from lsprotocol import types as lsp

from symfuse.indexer.model import Kind
from symfuse.ranking.query.parse import parse_symbol_query as parse_query
from symfuse.server.common.metrics import MetricsStore
from tests.support.lsp import capabilities, copy_fixture, lsp_session
from tests.support.paths import FIXTURES


def test_query_filters_parse() -> None:
    q = parse_query("#kind:class,func lang:Python file:geometry/** Rect")
    assert q.text == "Rect"
    assert q.kinds == (Kind.CLASS, Kind.FUNCTION)
    assert q.languages == ("python",)
    assert q.files == ("geometry/**",)
    assert parse_query("k:nonsense x").text == "k:nonsense x"  # not a kind: searched as text


async def test_workspace_symbol_ranks_the_typed_name_first(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        found = await s.symbols("Rectangle")
        assert found[0].name == "Rectangle"
        assert found[0].kind == lsp.SymbolKind.Class
        assert found[0].container_name == "geometry.shapes"
        assert isinstance(found[0].location, lsp.Location)  # no resolve support: full location
        assert found[0].location.uri == s.uri("geometry/shapes.py")
        assert found[0].location.range == lsp.Range(lsp.Position(17, 6), lsp.Position(17, 15))
        assert (await s.names("rect"))[0] == "Rectangle"  # prefix, any case
        assert (await s.names("Rectangl"))[0] == "Rectangle"
        assert "Rectangle" in (await s.names("Rectnagle"))[:5]  # typo
        assert (await s.names("LoudGreeter"))[0] == "LoudGreeter"  # the other language
        assert (await s.names("LG"))[0] == "LoudGreeter"  # camel humps
        assert await s.symbols("") == []


async def test_workspace_symbol_lists_files_as_file_symbols(tmp_path: Path) -> None:
    # every code file is a searchable unit (issue 35): kind File, its range the whole file
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        found = await s.symbols("kind:file shapes")
        assert found[0].name == "shapes.py"
        assert found[0].kind == lsp.SymbolKind.File
        assert found[0].container_name == "geometry"  # its folder
        assert isinstance(found[0].location, lsp.Location)
        assert found[0].location.uri == s.uri("geometry/shapes.py")
        assert found[0].location.range.start == lsp.Position(0, 0)
        assert (await s.names("Rectangle"))[0] == "Rectangle"  # a name still finds itself


async def test_workspace_symbol_lists_regions_of_code_outside_definitions(
    tmp_path: Path,
) -> None:
    # issue 35: a route table beside a function is a region, a block (Namespace) of lines
    root = shutil.copytree(FIXTURES / "regions", tmp_path / "regions")
    async with lsp_session(tmp_path, root=root) as s:
        await s.wait_ready()
        found = await s.symbols("kind:region")  # filters alone list what they select
        assert [(x.name, x.kind) for x in found] == [
            ("14-18", lsp.SymbolKind.Namespace),
            ("13-17", lsp.SymbolKind.Namespace),
        ]
        await s.wait_status("ranking", True)  # words rank by the fused search's structures
        prose = await s.symbols("mail the daily sales report from cron")
        assert ("13-17", lsp.SymbolKind.Namespace) in [(x.name, x.kind) for x in prose]
        assert isinstance(found[0].location, lsp.Location)
        assert found[0].location.uri == s.uri("server/routes.js")
        assert found[0].location.range.start == lsp.Position(14, 0)  # its first line of code
        assert found[0].container_name == "server/routes.js"  # beside its lines: its file
        assert "14-18" not in await s.names("requireLogin")  # a name finds its definition


async def test_markdown_headings_are_listed_without_their_markup(tmp_path: Path) -> None:
    # issue 37, item 6: '## `Rectangle`' is Rectangle, not 'Rectangle`', beside the class
    root = copy_fixture(tmp_path)
    (root / "README.md").write_text(
        "# Shapes\n\n## `Rectangle`\n\nA box.\n\n## **Bold** and *em* [link](x.md)\n",
        encoding="utf-8",
    )
    async with lsp_session(tmp_path, root=root) as s:
        await s.wait_ready()
        found = [(x.name, x.kind) for x in await s.symbols("Rectangle")]
        assert ("Rectangle", lsp.SymbolKind.Class) in found
        headings = [name for name, kind in found if kind != lsp.SymbolKind.Class]
        assert "Rectangle" in headings
        assert "Bold and em link" in await s.names("Bold")
        assert not [n for n in await s.names("Rectangle") if "`" in n or "*" in n]


async def test_workspace_symbol_filters(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        areas = await s.symbols("kind:method area")
        # the two methods so named first; then, once the structures are built, a method
        # whose body calls them (`describe`) may follow: the quick ranking has no bodies
        assert [x.name for x in areas][:2] == ["area", "area"]
        assert {x.name for x in areas} <= {"area", "describe"}
        assert all(x.kind == lsp.SymbolKind.Method for x in areas)
        speakers = await s.symbols("lang:java speak")
        assert speakers
        assert all(x.location.uri.endswith(".java") for x in speakers)
        inside = await s.symbols("file:geometry/report.py kind:function")
        assert {x.name for x in inside} == {"total_area", "build_report"}


async def test_an_identifier_finds_only_names_before_and_after_the_structures(
    tmp_path: Path,
) -> None:
    # An identifier typed is matched as a name, by the quick ranking and by the fused
    # search alike: the fused search's lexical channel also found its parts in bodies, so
    # a name nobody defines listed unrelated definitions once the structures were built.
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        await s.wait_status("ranking", True)
        assert await s.symbols("AreaReportBuilder") == []
        assert await s.symbols("total_area_of_box") == []
        assert (await s.names("total_area"))[0] == "total_area"
        assert "describe" not in await s.names("total_area")  # its body holds "area"
        assert "area" in await s.names("surface")  # a word still reads docstrings
        assert "build_report" in await s.names("build report")  # words: every match


async def test_workspace_symbol_is_capped_by_result_limit(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, options={"resultLimit": 3}) as s:
        await s.wait_ready()
        assert len(await s.symbols("kind:method,function,class")) == 3


async def test_workspace_symbol_resolves_locations_lazily(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, caps=capabilities(resolve=True)) as s:
        await s.wait_ready()
        found = await s.symbols("EMOJI_TARGET")
        assert found[0].name == "EMOJI_TARGET"
        assert isinstance(found[0].location, lsp.LocationUriOnly)
        resolved = await s.client.workspace_symbol_resolve_async(found[0])
        assert isinstance(resolved.location, lsp.Location)
        # After `LABEL = "π ≈ 3.14 😀"; ` -- 22 code points, 23 UTF-16 units.
        assert resolved.location.range.start == lsp.Position(36, 23)


async def test_workspace_symbol_streams_partial_results(tmp_path: Path) -> None:
    root = tmp_path / "many"
    root.mkdir()
    (root / "many.py").write_text(
        "".join(f"def item_{n:03}():\n    pass\n\n\n" for n in range(120)), encoding="utf-8"
    )
    async with lsp_session(tmp_path, root=root) as s:
        await s.wait_ready()
        final = await s.symbols("item", partial_result_token="partial-1")
        # Partial results come as $/progress notifications before the response, on the same
        # stream; the client has handled them by the time the response is read.
        batches = [p.value for p in s.progress if p.token == "partial-1"]
        assert final == []
        assert [len(b) for b in batches] == [50, 50, 20]
        names = [x["name"] for batch in batches for x in batch]
        assert len(set(names)) == 120
        assert all(n.startswith("item_") for n in names)


async def test_document_symbols_are_a_tree_with_both_ranges(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        tree = await s.client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(
                text_document=lsp.TextDocumentIdentifier(uri=s.uri("geometry/shapes.py"))
            )
        )
        assert tree is not None
        top = {x.name: x for x in tree if isinstance(x, lsp.DocumentSymbol)}
        assert list(top) == ["Shape", "Rectangle", "Square", "LABEL", "EMOJI_TARGET", "héllo_wörld"]
        rect = top["Rectangle"]
        assert rect.kind == lsp.SymbolKind.Class
        assert [(c.name, c.kind) for c in rect.children or []] == [
            ("__init__", lsp.SymbolKind.Constructor),
            ("area", lsp.SymbolKind.Method),
        ]
        assert rect.range == lsp.Range(lsp.Position(17, 0), lsp.Position(25, 39))
        assert rect.selection_range == lsp.Range(lsp.Position(17, 6), lsp.Position(17, 15))
        assert rect.detail == "class Rectangle(Shape)"
        # A name with non-ASCII letters: its end is in UTF-16 units (all BMP: = code points).
        hello = top["héllo_wörld"].selection_range
        assert hello == lsp.Range(lsp.Position(39, 4), lsp.Position(39, 15))
        java = await s.client.text_document_document_symbol_async(
            lsp.DocumentSymbolParams(
                text_document=lsp.TextDocumentIdentifier(uri=s.uri("java/app/Greeter.java"))
            )
        )
        assert java is not None
        assert [x.name for x in java] == ["Speaker", "Greeter", "LoudGreeter"]


async def test_who_calls_lists_the_callers(tmp_path: Path) -> None:
    """A call-graph question in workspace/symbol lists the calling definitions."""
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        callers = await s.symbols("who calls total_area")
        assert [(c.name, c.kind) for c in callers] == [("build_report", lsp.SymbolKind.Function)]
        assert isinstance(callers[0].location, lsp.Location)
        assert callers[0].location.uri == s.uri("geometry/report.py")
        assert callers[0].location.range.start == lsp.Position(11, 4)  # the caller's name
        assert await s.names("callers of geometry.registry.lookup_shape") == ["build_report"]
        callees = await s.names("what does build_report call")
        assert {"total_area", "lookup_shape"} <= set(callees)
        assert "build_report" not in callees
        assert (await s.names("total_area"))[0] == "total_area"  # a name is ranked as before


async def test_every_request_is_recorded_in_the_query_metrics(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        for query in ("Rectangle", "rect", "Rectangle"):
            await s.symbols(query)
        # A response is recorded as soon as it is sent, before the next message is read:
        # once this later answer is back, the three above are in the store.
        await s.status()
        store = MetricsStore(tmp_path / "index")
        rows = [r for r in store.records() if r[0] == lsp.WORKSPACE_SYMBOL]
        store.close()
    assert len(rows) == 3
    assert all(front_end == "lsp" and not error for _op, front_end, *_, error in rows)
