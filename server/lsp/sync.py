"""Keeping the index live: open buffers, saves, closes and files changed on disk.

pygls applies ``didChange`` edits (incremental, in the negotiated encoding) to
its copy of the document; symfuse takes the resulting text. A buffer's text is
indexed after a short pause in typing, or at once when a query arrives first.
"""

from __future__ import annotations

import asyncio
import logging

from lsprotocol import types as lsp

from symfuse.indexer.errors import SymfuseError
from symfuse.server.common.service import IndexService
from symfuse.server.lsp.base import SymfuseLanguageServer, path_of

log = logging.getLogger(__name__)

FLUSH_DELAY = 0.3  # seconds of quiet typing before a buffer is re-indexed


def register(ls: SymfuseLanguageServer) -> None:
    @ls.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: SymfuseLanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        _buffer_changed(ls, params.text_document.uri)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: SymfuseLanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        _buffer_changed(ls, params.text_document.uri)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_SAVE, lsp.SaveOptions(include_text=False))
    def did_save(ls: SymfuseLanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        # The buffer is indexed already; it now matches the file on disk.
        _buffer_changed(ls, params.text_document.uri)

    @ls.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    async def did_close(ls: SymfuseLanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        path = path_of(params.text_document.uri)
        if path is None:
            return
        ls.state.open_docs.pop(path, None)
        await asyncio.to_thread(_close, ls, path)

    @ls.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def watched_files(
        ls: SymfuseLanguageServer, params: lsp.DidChangeWatchedFilesParams
    ) -> None:
        paths = sorted({p for p in (path_of(c.uri) for c in params.changes) if p is not None})
        service = ls.state.service
        if not paths or service is None:
            return
        service.note_changed(paths)
        await asyncio.to_thread(_refresh, service, paths)


def _close(ls: SymfuseLanguageServer, path: str) -> None:
    try:
        ls.state.close(path)
    except SymfuseError as exc:
        log.debug("closing %s: %s", path, exc)
    except OSError as exc:
        log.warning("re-reading %s after close failed: %s", path, exc)


def _refresh(service: IndexService, paths: list[str]) -> None:
    try:
        service.refresh(paths)
    except (SymfuseError, OSError) as exc:
        log.warning("refresh after file changes failed: %s", exc)


def _buffer_changed(ls: SymfuseLanguageServer, uri: str) -> None:
    path = path_of(uri)
    if path is None:
        return
    text = ls.workspace.get_text_document(uri).source
    if _too_large(ls, path, text):
        return
    ls.state.open_docs[path] = text
    ls.state.mark_dirty(path, text)
    if ls.flush_timer is not None:
        ls.flush_timer.cancel()
    loop = asyncio.get_running_loop()
    ls.flush_timer = loop.call_later(FLUSH_DELAY, lambda: ls.spawn(_flush(ls)))


def _too_large(ls: SymfuseLanguageServer, path: str, text: str) -> bool:
    """A buffer over ``maxFileSize`` is treated as such a file on disk is: not indexed (it
    would stall every query while it parses), its text not kept, and the user told once."""
    limit = ls.state.options.index.max_file_size
    size = len(text) if len(text) > limit else len(text.encode("utf-8", "surrogatepass"))
    state = ls.state
    if size <= limit:
        state.too_large.discard(path)
        return False
    state.open_docs.pop(path, None)
    state.drop_pending(path)
    if path in state.overlaid:  # an earlier, smaller text is indexed: back to the disk file
        ls.spawn(asyncio.to_thread(_close, ls, path))
    if path not in state.too_large:
        state.too_large.add(path)
        ls.notify_user(
            f"{path} is {size / 1e6:.1f} MB, over maxFileSize ({limit / 1e6:.1f} MB): "
            "its unsaved changes are not indexed; answers use the file on disk"
        )
    return True


async def _flush(ls: SymfuseLanguageServer) -> None:
    await asyncio.to_thread(ls.state.flush)
