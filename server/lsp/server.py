"""``build_lsp_server(launch)``: a fresh symfuse language server, and its lifecycle.

Lifecycle: ``initialize`` reads the options, negotiates the position encoding
(pygls picks UTF-8 or UTF-32 when the client offers them, else UTF-16) and starts
indexing in the background; ``initialized`` registers file watching with the
client when it can (else symfuse watches the roots itself) and reports work-done
progress until the first index is complete. Workspace folders added or removed
rebuild the live index over the new roots.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from pathlib import Path

from lsprotocol import types as lsp
from pygls.exceptions import JsonRpcException

from symfuse.indexer.files import languages
from symfuse.server.common.service_records import Progress
from symfuse.server.lsp import features as lsp_features
from symfuse.server.lsp import navigation as lsp_navigation
from symfuse.server.lsp import sync as lsp_sync
from symfuse.server.lsp.base import SymfuseLanguageServer, path_of, query
from symfuse.server.lsp.options import parse_options
from symfuse.server.lsp.positions import Encoding
from symfuse.server.lsp.state import LaunchConfig

log = logging.getLogger(__name__)

PROGRESS_WAIT = 5.0  # seconds: the longest wait for a change while the first index runs
WATCH_ID = "symfuse-watched-files"
STATUS = "symfuse/status"  # custom request: index and ranking readiness


def build_lsp_server(launch: LaunchConfig | None = None) -> SymfuseLanguageServer:
    ls = SymfuseLanguageServer(launch or LaunchConfig())
    _register_lifecycle(ls)
    lsp_sync.register(ls)
    lsp_features.register(ls)
    lsp_navigation.register(ls)
    return ls


def workspace_roots(ls: SymfuseLanguageServer) -> tuple[Path, ...]:
    """The launch roots, else the client's workspace folders, else its root, else cwd."""
    if ls.state.launch.roots:
        return ls.state.launch.roots
    folders = [path_of(f.uri) for f in ls.workspace.folders.values()]
    roots = [Path(p) for p in folders if p]
    if not roots and ls.workspace.root_path:
        roots = [Path(ls.workspace.root_path)]
    unique = dict.fromkeys(r.resolve() for r in roots if r.is_dir())
    return tuple(unique) or (Path.cwd(),)


def folder_names(ls: SymfuseLanguageServer) -> dict[Path, str]:
    """The client's name of each workspace folder (a repository's alias), by its path."""
    names: dict[Path, str] = {}
    for folder in ls.workspace.folders.values():
        path = path_of(folder.uri)
        if path and folder.name:
            names[Path(path).resolve()] = folder.name
    return names


def _watch_ourselves(ls: SymfuseLanguageServer) -> bool:
    dynamic = ls.supports("workspace.did_change_watched_files.dynamic_registration")
    return ls.state.launch.watch_fallback and not dynamic


def _register_lifecycle(ls: SymfuseLanguageServer) -> None:
    ls.feature(lsp.INITIALIZE)(initialize)
    ls.feature(lsp.INITIALIZED)(initialized)
    ls.feature(STATUS)(status)
    ls.feature(lsp.SHUTDOWN)(shutdown)
    ls.feature(lsp.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(folders_changed)


def initialize(ls: SymfuseLanguageServer, params: lsp.InitializeParams) -> None:
    """Read the options (bad ones shown to the user), take the encoding, start indexing."""
    parsed = parse_options(params.initialization_options, ls.state.launch.defaults)
    ls.state.options = parsed.options
    for problem in parsed.problems:
        log.warning("initializationOptions: %s", problem)
    if parsed.problems:
        ls.notify_user(
            "bad initializationOptions, defaults used instead: " + "; ".join(parsed.problems)
        )
    ls.state.encoding = Encoding.of(ls.workspace.position_encoding)
    ls.state.folder_names = folder_names(ls)
    ls.state.start(workspace_roots(ls), watch=_watch_ourselves(ls))


async def initialized(ls: SymfuseLanguageServer, params: lsp.InitializedParams) -> None:
    if ls.supports("workspace.did_change_watched_files.dynamic_registration"):
        ls.spawn(_register_watchers(ls))
    if ls.supports("window.work_done_progress"):
        ls.spawn(_report_progress(ls))


async def status(ls: SymfuseLanguageServer, params: object) -> dict[str, object]:
    """``symfuse/status``: index readiness and whether the fused ranking is warm."""
    service = ls.state.service
    if service is None:
        return {"ready": False, "indexing": False, "ranking": False}
    found = await query(ls, lambda _index: service.status())
    st = found.index
    return {
        "ready": st.ready,
        "indexing": st.indexing,
        "files": st.files,
        "symbols": st.symbols,
        "stale": st.stale,
        "overlays": st.overlays,
        "error": st.error,
        "ranking": found.ranking,
        "similarity_model": found.similarity_model,
        "roots": [str(r) for r in ls.state.roots],
    }


def shutdown(ls: SymfuseLanguageServer, params: None) -> None:
    ls.state.stop()


async def folders_changed(
    ls: SymfuseLanguageServer, params: lsp.DidChangeWorkspaceFoldersParams
) -> None:
    roots = workspace_roots(ls)
    names = folder_names(ls)
    if roots == ls.state.roots and names == ls.state.folder_names:
        return
    ls.state.folder_names = names
    log.info("workspace roots are now %s", ", ".join(map(str, roots)))
    await asyncio.to_thread(ls.state.start, roots, _watch_ourselves(ls))
    if ls.supports("window.work_done_progress"):
        ls.spawn(_report_progress(ls))


def watch_glob() -> str:
    """One glob for every file extension symfuse indexes."""
    exts = sorted(
        {e.lstrip(".") for spec in languages.supported().values() for e in spec.extensions}
    )
    return "**/*.{" + ",".join(exts) + "}"


async def _register_watchers(ls: SymfuseLanguageServer) -> None:
    options = lsp.DidChangeWatchedFilesRegistrationOptions(
        watchers=[lsp.FileSystemWatcher(glob_pattern=watch_glob())]
    )
    registration = lsp.Registration(
        id=WATCH_ID, method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES, register_options=options
    )
    try:
        await ls.client_register_capability_async(lsp.RegistrationParams([registration]))
    except JsonRpcException as exc:
        log.warning("client refused file watching (%s); watching the roots ourselves", exc)
        if ls.state.service is not None:
            ls.state.service.watch()


async def _report_progress(ls: SymfuseLanguageServer) -> None:
    """window/workDoneProgress/create, then begin / report / end while the first index runs."""
    service = ls.state.service
    if service is None:
        return
    token = f"symfuse-index-{uuid.uuid4().hex[:8]}"
    try:
        await ls.work_done_progress.create_async(token)
    except JsonRpcException as exc:  # the client may refuse: progress is optional
        log.info("client refused work-done progress: %s", exc)
        return
    ls.work_done_progress.begin(
        token,
        lsp.WorkDoneProgressBegin(title="symfuse: indexing", message="starting", percentage=0),
    )
    last: Progress | None = None
    seen = service.version
    while ls.state.service is service and service.running and service.live.status().indexing:
        p = service.progress
        if p != last:
            last = p
            percent = int(100 * p.done / p.total) if p.total else None
            text = f"{p.done}/{p.total} files" if p.total else p.message
            ls.work_done_progress.report(
                token, lsp.WorkDoneProgressReport(message=text, percentage=percent)
            )
        seen = await asyncio.to_thread(service.wait_change, seen, PROGRESS_WAIT)
    if ls.state.service is service and not service.running:
        return  # shut down: nothing more goes to the client
    st = service.live.status()
    ls.work_done_progress.end(
        token,
        lsp.WorkDoneProgressEnd(message=st.error or f"{st.files} files, {st.symbols} symbols"),
    )
