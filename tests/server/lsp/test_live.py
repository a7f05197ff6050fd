"""The live index through the protocol: buffers, watched files, folders, cancellation."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException, JsonRpcRequestCancelled

from symfuse.indexer.update import buffers
from tests.support.lsp import capabilities, copy_fixture, lsp_session


def edit(line: int, start: int, end: int, text: str) -> lsp.TextDocumentContentChangePartial:
    return lsp.TextDocumentContentChangePartial(
        range=lsp.Range(lsp.Position(line, start), lsp.Position(line, end)), text=text
    )


async def test_buffer_edits_show_up_in_workspace_symbol_at_once(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        uri = s.open("geometry/shapes.py")
        # Line 37 is `LABEL = "π ≈ 3.14 😀"; EMOJI_TARGET = ...`: rename EMOJI_TARGET in
        # place with an incremental edit whose columns are UTF-16 units after the emoji.
        s.change(uri, edit(36, 23, 35, "RENAMED_TARGET"))
        assert "RENAMED_TARGET" in await s.names("RENAMED_TARGET")  # no waiting
        assert "EMOJI_TARGET" not in await s.names("EMOJI_TARGET")
        found = (await s.symbols("RENAMED_TARGET"))[0]
        assert isinstance(found.location, lsp.Location)
        assert found.location.range == lsp.Range(lsp.Position(36, 23), lsp.Position(36, 37))
        # A new function typed at the end of the file.
        s.change(uri, edit(42, 0, 0, "\n\ndef freshly_typed():\n    pass\n"))
        assert (await s.names("freshly_typed"))[0] == "freshly_typed"
        # The disk is untouched; closing the buffer goes back to the file on disk.
        s.client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri))
        )
        await s.wait_for_symbol("EMOJI_TARGET", "EMOJI_TARGET")
        assert "freshly_typed" not in await s.names("freshly_typed")


async def test_after_an_edit_answers_stay_fused_and_fresh(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        # Cold start: the quick name ranking answers until the structures are built.
        await s.wait_status("ranking", True)
        assert (await s.status()).ranking is True
        assert "area" in await s.names("surface")  # only the fused ranking reads docstrings
        uri = s.open("geometry/report.py")
        s.change(uri, edit(0, 0, 0, "def freshly_typed():\n    pass\n\n\n"))
        # Until the structures of the edited index are built, the previous ones answer
        # for the files that did not change and the edited file is ranked quickly.
        assert (await s.names("freshly_typed"))[0] == "freshly_typed"
        assert "area" in await s.names("surface")
        assert (await s.names("Rectangle"))[0] == "Rectangle"
        assert "build_report" in await s.names("build_report")  # the edited file, moved down
        await s.wait_status("ranking", True)  # rebuilt for the edited index
        assert (await s.status()).ranking is True
        assert (await s.names("freshly_typed"))[0] == "freshly_typed"


async def test_calls_right_after_an_edit_see_the_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name search does not wait for an edit's links; the call hierarchy does."""
    monkeypatch.setattr(buffers, "LINK_QUIET", 3600.0)  # no background linking meanwhile
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        uri = s.open("geometry/report.py")
        s.change(uri, edit(0, 0, 0, "def freshly_typed():\n    return total_area([])\n\n\n"))
        assert (await s.names("freshly_typed"))[0] == "freshly_typed"
        items = await s.client.text_document_prepare_call_hierarchy_async(
            lsp.CallHierarchyPrepareParams(
                text_document=lsp.TextDocumentIdentifier(uri=uri),
                position=lsp.Position(10, 6),  # def total_area, four lines lower now
            )
        )
        assert items is not None
        assert [i.name for i in items] == ["total_area"]
        incoming = await s.client.call_hierarchy_incoming_calls_async(
            lsp.CallHierarchyIncomingCallsParams(item=items[0])
        )
        assert incoming is not None
        assert {c.from_.name for c in incoming} == {"build_report", "freshly_typed"}


async def test_saved_buffer_stays_indexed(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        path = s.root / "geometry" / "registry.py"
        uri = s.open("geometry/registry.py")
        text = path.read_text(encoding="utf-8") + "\n\ndef saved_helper():\n    pass\n"
        s.change(uri, lsp.TextDocumentContentChangeWholeDocument(text=text))
        assert (await s.names("saved_helper"))[0] == "saved_helper"  # the buffer is indexed
        assert (await s.status()).overlays == 1
        path.write_text(text, encoding="utf-8")
        s.client.text_document_did_save(
            lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri))
        )
        s.client.text_document_did_close(
            lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri=uri))
        )
        await s.wait_status("overlays", 0)  # the close is done: back to the file on disk
        assert (await s.names("saved_helper"))[0] == "saved_helper"


async def test_files_created_and_deleted_on_disk_via_watched_files(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        await s.wait_registered()  # client/registerCapability arrived
        [registration] = s.registrations
        assert registration.method == lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES
        watchers = registration.register_options["watchers"]  # type: ignore[index]
        assert "py" in watchers[0]["globPattern"]

        new = s.root / "geometry" / "extra.py"
        new.write_text("class Hexagon:\n    pass\n", encoding="utf-8")
        s.client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri=s.uri("geometry/extra.py"), type=lsp.FileChangeType.Created)]
            )
        )
        await s.wait_for_symbol("Hexagon", "Hexagon")

        (s.root / "geometry" / "registry.py").unlink()
        s.client.workspace_did_change_watched_files(
            lsp.DidChangeWatchedFilesParams(
                [lsp.FileEvent(uri=s.uri("geometry/registry.py"), type=lsp.FileChangeType.Deleted)]
            )
        )
        await s.wait_for_symbol("lookup_shape", "lookup_shape", present=False)


async def test_without_client_watching_the_server_watches_the_roots(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, caps=capabilities(dynamic_watch=False)) as s:
        await s.wait_ready()
        assert s.registrations == []
        (s.root / "geometry" / "octagon.py").write_text("class Octagon:\n    pass\n", "utf-8")
        await s.wait_for_symbol("Octagon", "Octagon")


async def test_workspace_folders_added_and_removed(tmp_path: Path) -> None:
    other = tmp_path / "second"
    other.mkdir()
    (other / "lib.py").write_text("def second_root_function():\n    pass\n", encoding="utf-8")
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        assert "second_root_function" not in await s.names("second_root_function")
        folder = lsp.WorkspaceFolder(uri=s.uri("", root=other).rstrip("/"), name="second")
        s.client.workspace_did_change_workspace_folders(
            lsp.DidChangeWorkspaceFoldersParams(
                event=lsp.WorkspaceFoldersChangeEvent(added=[folder], removed=[])
            )
        )
        await s.wait_for_symbol("second_root_function", "second_root_function")
        assert (await s.names("Rectangle"))[0] == "Rectangle"  # the first root is still there
        found = (await s.symbols("second_root_function"))[0]
        assert isinstance(found.location, lsp.Location)
        assert found.location.uri == s.uri("lib.py", root=other)
        s.client.workspace_did_change_workspace_folders(
            lsp.DidChangeWorkspaceFoldersParams(
                event=lsp.WorkspaceFoldersChangeEvent(added=[], removed=[folder])
            )
        )
        await s.wait_for_symbol("second_root_function", "second_root_function", present=False)


async def test_cancelled_request_gets_request_cancelled(tmp_path: Path) -> None:
    root = copy_fixture(tmp_path)
    body = "".join(f"def caller_{n}():\n    return target()\n\n\n" for n in range(4000))
    (root / "busy.py").write_text("def target():\n    pass\n\n\n" + body, encoding="utf-8")
    async with lsp_session(tmp_path, root=root) as s:
        await s.wait_ready()
        params = lsp.ReferenceParams(
            text_document=lsp.TextDocumentIdentifier(uri=s.uri("busy.py")),
            position=lsp.Position(0, 5),
            context=lsp.ReferenceContext(include_declaration=True),
        )
        # While the test holds the index, the request cannot finish before the cancel
        # reaches the server, however fast the machine is.
        with s.index_held():
            future = s.client.protocol.send_request_async(lsp.TEXT_DOCUMENT_REFERENCES, params)
            msg_id = next(reversed(s.client.protocol._request_futures))
            s.client.protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id=msg_id))
            with pytest.raises(JsonRpcRequestCancelled):
                await future
        # The server carries on.
        assert (await s.names("target"))[0] == "target"
        refs = await s.client.text_document_references_async(params)
        assert refs is not None
        assert len(refs) == 4001


async def test_superseded_workspace_symbol_requests_are_dropped(tmp_path: Path) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        protocol = s.client.protocol
        with s.index_held():  # the user types three letters while the index is busy
            typed = [
                protocol.send_request_async(
                    lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolParams(query=query)
                )
                for query in ("S", "Sq", "Squ")
            ]
            # A request that reads no index: answered once the three handlers have begun.
            outside = lsp.TextDocumentIdentifier(uri="file:///outside/the/workspace.py")
            await s.client.text_document_document_symbol_async(
                lsp.DocumentSymbolParams(text_document=outside)
            )
        for stale in typed[:2]:
            with pytest.raises(JsonRpcException) as dropped:
                await stale
            assert dropped.value.code == lsp.LSPErrorCodes.ContentModified
        last = await typed[2]
        assert last is not None
        assert "Square" in [item.name for item in last]


async def test_cancelled_and_superseded_searches_in_a_burst_are_all_acknowledged(
    tmp_path: Path,
) -> None:
    async with lsp_session(tmp_path) as s:
        await s.wait_ready()
        protocol = s.client.protocol
        typed = "Square"
        with s.index_held():  # every request is queued or started, none can finish
            sent = []
            for n in range(1, 24):  # the last (23rd) is neither cancelled nor overtaken
                query = typed[: 1 + n % len(typed)]
                sent.append(
                    protocol.send_request_async(
                        lsp.WORKSPACE_SYMBOL, lsp.WorkspaceSymbolParams(query=query)
                    )
                )
                if n % 3 == 0:  # every third is cancelled, as the user moves on
                    msg_id = next(reversed(protocol._request_futures))
                    protocol.notify(lsp.CANCEL_REQUEST, lsp.CancelParams(id=msg_id))
            outside = lsp.TextDocumentIdentifier(uri="file:///outside/the/workspace.py")
            await s.client.text_document_document_symbol_async(
                lsp.DocumentSymbolParams(text_document=outside)
            )
        for n, future in enumerate(sent[:-1], start=1):
            with pytest.raises(JsonRpcException) as dropped:
                await future
            wanted = (
                JsonRpcRequestCancelled.CODE if n % 3 == 0 else lsp.LSPErrorCodes.ContentModified
            )
            assert dropped.value.code == wanted, n
        last = await sent[-1]
        assert last is not None
        assert "Square" in [item.name for item in last]


async def test_a_buffer_over_max_file_size_is_not_indexed(tmp_path: Path) -> None:
    async with lsp_session(tmp_path, options={"maxFileSize": 4000}) as s:
        await s.wait_ready()
        big = "def only_in_the_big_buffer():\n    pass\n" + "# padding line\n" * 400
        uri = s.open("geometry/shapes.py", big)
        # Answers come from the file on disk, at once: the buffer is never parsed.
        assert "only_in_the_big_buffer" not in await s.names("only_in_the_big_buffer")
        assert "Square" in await s.names("Square")
        assert any("over maxFileSize" in m.message for m in s.messages)
        # Cut back under the limit, the buffer is indexed again.
        s.change(uri, lsp.TextDocumentContentChangeWholeDocument(text=big[:300]))
        assert (await s.names("only_in_the_big_buffer"))[0] == "only_in_the_big_buffer"
        assert sum("over maxFileSize" in m.message for m in s.messages) == 1  # told once
