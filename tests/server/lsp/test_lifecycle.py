"""The LSP lifecycle: capabilities, position encoding negotiation, initializationOptions,
work-done progress and answers while the first index is being built.

Three tests run the installed ``symfuse lsp`` over stdio (initialize, bad options shown to
the user, work-done progress); the others drive the in-process server.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp

from symfuse.server.common import turns as turns_module
from tests.support.cli import run_symfuse
from tests.support.index import index_writer_busy
from tests.support.lsp import capabilities, copy_fixture, lsp_session


@pytest.mark.slow  # symfuse lsp over stdio
async def test_initialize_advertises_features_and_utf16_by_default(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, stdio=True) as s:  # the installed command
        caps = s.result.capabilities
        assert caps.position_encoding == lsp.PositionEncodingKind.Utf16
        assert caps.workspace_symbol_provider == lsp.WorkspaceSymbolOptions(resolve_provider=True)
        for provider in (
            caps.document_symbol_provider,
            caps.definition_provider,
            caps.references_provider,
            caps.call_hierarchy_provider,
            caps.type_hierarchy_provider,
            caps.hover_provider,
        ):
            assert provider
        assert caps.workspace is not None
        assert caps.workspace.workspace_folders is not None
        assert caps.workspace.workspace_folders.change_notifications
        assert s.result.server_info is not None
        assert s.result.server_info.name == "symfuse"
        await s.wait_ready()


@pytest.mark.parametrize(
    ("offered", "chosen"),
    [
        (["utf-8", "utf-16"], lsp.PositionEncodingKind.Utf8),
        (["utf-32"], lsp.PositionEncodingKind.Utf32),
        (["utf-16"], lsp.PositionEncodingKind.Utf16),
    ],
)
async def test_position_encoding_follows_the_client(
    tmp_path: Path, offered: list[str], chosen: lsp.PositionEncodingKind
) -> None:
    async with lsp_session(tmp_path, caps=capabilities(encodings=offered)) as s:
        assert s.result.capabilities.position_encoding == chosen


@pytest.mark.slow  # symfuse lsp over stdio
async def test_bad_initialization_options_are_shown_and_replaced_by_defaults(
    tmp_path: Path,
) -> None:
    options = {
        "resultLimit": "many",
        "maxFileSize": -3,
        "languages": ["klingon"],
        "colour": 1,
        "hoverSnippetLines": 9999,
    }
    async with lsp_session(tmp_path, options=options, stdio=True) as s:  # the installed command
        await s.wait_ready()
        assert len(s.messages) == 1
        message = s.messages[0]
        assert message.type == lsp.MessageType.Warning
        for name in ("resultLimit", "maxFileSize", "languages", "colour", "hoverSnippetLines"):
            assert name in message.message
        # Defaults apply: every language is indexed, and the limit is not "many".
        assert {"Greeter", "Shape"} <= {x.name for x in await s.symbols("kind:class")}


@pytest.mark.parametrize("options", [{}, [], ""])
async def test_empty_initialization_options_are_the_defaults_without_a_warning(
    tmp_path: Path, options: object
) -> None:
    # Neovim 0.7 sends setup({})'s empty table as a JSON array.
    async with lsp_session(tmp_path, options=options) as s:
        await s.wait_ready()
        assert s.messages == []
        assert (await s.names("Shape"))[0] == "Shape"


async def test_good_initialization_options_apply(tmp_path: Path) -> None:
    options = {"resultLimit": 2, "languages": ["python"], "exclude": ["**/report.py"]}
    async with lsp_session(tmp_path, options=options) as s:
        await s.wait_ready()
        assert s.messages == []
        assert len(await s.symbols("e")) == 2
        assert "Greeter" not in await s.names("Greeter")  # java is not indexed
        assert "build_report" not in await s.names("build_report")  # excluded
        assert (await s.names("Shape"))[0] == "Shape"


@pytest.mark.slow  # symfuse lsp over stdio
async def test_work_done_progress_reports_the_first_index(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, stdio=True) as s:  # the installed command
        await s.wait_ready()
        kinds = [p.value.get("kind") for p in s.progress if isinstance(p.value, dict)]
        assert kinds[0] == "begin"
        assert kinds[-1] == "end"
        assert "symbols" in s.progress[-1].value["message"]


@pytest.mark.slow  # parser processes for its 250 files
async def test_requests_during_the_first_index_are_answered(tmp_path: Path) -> None:
    root = tmp_path / "big"
    for n in range(250):  # more classes than the default cap of 200
        package = root / f"pkg{n // 100}"
        package.mkdir(parents=True, exist_ok=True)
        (package / f"mod{n}.py").write_text(
            f"class Thing{n}:\n    def run_{n}(self):\n        return helper_{n}()\n\n\n"
            f"def helper_{n}():\n    return {n}\n",
            encoding="utf-8",
        )
    # While the index directory's write lock is held the first index cannot finish,
    # however fast the machine: every request before the release is made during it.
    with index_writer_busy(tmp_path / "index") as release:
        async with lsp_session(tmp_path, root=root) as s:
            answers = []
            uri = s.uri("pkg0/mod1.py")
            for _ in range(3):
                answers.append(await s.symbols("Thing"))
                doc = await s.client.text_document_document_symbol_async(
                    lsp.DocumentSymbolParams(text_document=lsp.TextDocumentIdentifier(uri=uri))
                )
                assert doc is None or isinstance(doc, list)
            assert not s.ready.is_set()  # no progress `end` yet
            release()
            await s.wait_ready()
            assert answers  # at least one answer came while indexing
            final = await s.symbols("Thing")
            assert len(final) == 200  # the default cap
            assert final[0].name.startswith("Thing")


async def test_the_language_server_uses_the_index_the_cli_built(tmp_path: Path) -> None:
    # An editor names its folder as it likes ("My Project"); the index `symfuse index`
    # built for the same root is the server's, not rebuilt under another alias (issue 37,
    # item 6): after the server ran, the CLI finds nothing to parse.
    root = copy_fixture(tmp_path)
    index = ["index", str(root), "--index-dir", str(tmp_path / "index")]
    first = run_symfuse(index).stdout
    assert "0 unchanged" in first
    async with lsp_session(tmp_path, root=root, folder_name="My Project") as s:
        await s.wait_ready()
        assert (await s.names("Rectangle"))[0] == "Rectangle"
    again = run_symfuse(index).stdout
    assert " 0 parsed" in again.replace("(", " ")


async def test_a_query_answered_ends_the_hold_on_the_work_ahead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's request is a client's query to the index service: its answer ends the
    hold on the work ahead, and the names' suffix arrays come then. Before, the language
    server's requests were not counted: the hold lapsed only after 5 s of serving, and
    an editor typing away meanwhile had every name lookup scan (SQLAlchemy's
    workspace/symbol: 6.6 ms in the server against 5.3 with the arrays)."""
    monkeypatch.setattr(turns_module, "HOLD_MAX", 3600.0)  # only an answer ends it now
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        await s.wait_status("ranking", True)
        assert (await s.names("Rectangle"))[0] == "Rectangle"

        async def names_indexed() -> bool:
            assert s.server is not None
            service = s.server.state.service
            assert service is not None
            prepared = service.prepared_for(service.current())
            return prepared is not None and prepared.names.distinct.pairs.value is not None

        await s.wait_until(names_indexed, "the names' suffix arrays")
