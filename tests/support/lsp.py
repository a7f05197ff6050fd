"""A real LSP client (pygls' ``LanguageClient``) driving a fresh symfuse language server.

``lsp_session`` starts one per test on a temporary copy of tests/fixtures/lsp_workspace
with a temporary index directory, either

- in-process (the default): ``build_lsp_server`` runs ``start_io`` in a thread on a
  pair of OS pipes, and the client reads and writes the other ends with pygls' own
  stream loop, so every message is framed and parsed as over stdio; or
- ``stdio=True``: the installed ``symfuse lsp`` as a subprocess, for the end-to-end
  tests of the real entry point.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp
from pygls.io_ import StdinAsyncReader, StdoutWriter, run_async
from pygls.lsp.client import LanguageClient
from pygls.uris import from_fs_path

from symfuse.server.lsp.base import SymfuseLanguageServer
from symfuse.server.lsp.server import build_lsp_server
from symfuse.server.lsp.state import LaunchConfig
from tests.support.paths import FIXTURES

FIXTURE = FIXTURES / "lsp_workspace"
SYMFUSE = Path(sys.executable).parent / "symfuse"
READY_TIMEOUT = 30.0  # seconds: only turns a hang into a failure


@dataclass
class Session:
    client: LanguageClient
    root: Path
    result: lsp.InitializeResult
    messages: list[lsp.ShowMessageParams] = field(default_factory=list)
    progress: list[lsp.ProgressParams] = field(default_factory=list)
    registrations: list[lsp.Registration] = field(default_factory=list)
    ready: asyncio.Event = field(default_factory=asyncio.Event)  # progress `end` arrived
    registered: asyncio.Event = field(default_factory=asyncio.Event)  # a registration came
    versions: dict[str, int] = field(default_factory=dict)
    server: SymfuseLanguageServer | None = None  # in-process only

    @contextmanager
    def index_held(self) -> Iterator[None]:
        """Hold the in-process server as a long buffer re-index would (its flush lock):
        every request that reads the index waits until the block ends, however fast
        the machine."""
        assert self.server is not None, "only an in-process server can be held"
        with self.server.state.flush_lock:
            yield

    def uri(self, rel: str, root: Path | None = None) -> str:
        uri = from_fs_path(str((root or self.root) / rel))
        assert uri is not None
        return uri

    async def symbols(self, query: str, **extra: Any) -> list[lsp.WorkspaceSymbol]:
        """The answer as WorkspaceSymbols (without ``data`` the wire shape also reads as the
        older SymbolInformation, which the client's converter may pick)."""
        result = await self.client.workspace_symbol_async(
            lsp.WorkspaceSymbolParams(query=query, **extra)
        )
        assert result is not None
        return [
            s
            if isinstance(s, lsp.WorkspaceSymbol)
            else lsp.WorkspaceSymbol(
                name=s.name, kind=s.kind, location=s.location, container_name=s.container_name
            )
            for s in result
        ]

    async def names(self, query: str) -> list[str]:
        return [s.name for s in await self.symbols(query)]

    async def wait_ready(self) -> None:
        """Until the work-done progress of the first index ends (the `end` notification)."""
        await asyncio.wait_for(self.ready.wait(), READY_TIMEOUT)

    async def wait_registered(self) -> None:
        """Until the server has registered a capability with the client."""
        await asyncio.wait_for(self.registered.wait(), READY_TIMEOUT)

    async def status(self) -> Any:
        """The custom ``symfuse/status`` answer (pygls reads unknown results as namedtuples)."""
        return await self.client.protocol.send_request_async("symfuse/status", None)

    async def wait_status(self, field: str, value: object) -> None:
        """Ask ``symfuse/status`` until ``field`` has ``value``.

        For changes that run in the server's background (ranking structures, a closed
        buffer) and that the server announces with no notification.
        """

        async def reached() -> bool:
            return getattr(await self.status(), field, None) == value

        await self._until(reached, f"{field} == {value!r}")

    async def wait_for_symbol(self, query: str, name: str, present: bool = True) -> None:
        """Ask workspace/symbol until ``name`` is (or is no longer) in the answer.

        For changes the server applies in the background (a closed buffer, watched
        files, new folders) and announces with no notification.
        """

        async def reached() -> bool:
            return (name in await self.names(query)) == present

        await self._until(reached, f"{name!r} present={present} for {query!r}")

    async def wait_until(self, reached: Callable[[], Awaitable[bool]], what: str) -> None:
        """Ask ``reached`` after each change of the in-process server's service until it
        holds (:meth:`_until`): for what the server does in the background unannounced."""
        await self._until(reached, what)

    async def _until(self, reached: Callable[[], Awaitable[bool]], what: str) -> None:
        """Ask ``reached`` again after each change of the in-process server's index service
        (a new index, its structures, the end of the first index) until it holds. The
        bound only turns "never" into a failure; how long it took is not what is tested."""
        assert self.server is not None, "waiting on the server's changes needs it in-process"
        try:
            async with asyncio.timeout(READY_TIMEOUT):
                while True:
                    service = self.server.state.service  # a new one after a folder change
                    assert service is not None
                    seen = service.version
                    if await reached():
                        return
                    await asyncio.to_thread(service.wait_change, seen, READY_TIMEOUT)
        except TimeoutError:
            raise AssertionError(f"{what} never happened") from None

    def open(self, rel: str, text: str | None = None, language: str = "python") -> str:
        uri = self.uri(rel)
        body = text if text is not None else (self.root / rel).read_text(encoding="utf-8")
        self.versions[uri] = 1
        self.client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(
                lsp.TextDocumentItem(uri=uri, language_id=language, version=1, text=body)
            )
        )
        return uri

    def change(self, uri: str, *changes: lsp.TextDocumentContentChangeEvent) -> None:
        self.versions[uri] += 1
        self.client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(
                    uri=uri, version=self.versions[uri]
                ),
                content_changes=list(changes),
            )
        )


def capabilities(
    *,
    encodings: Sequence[str] | None = None,
    progress: bool = True,
    dynamic_watch: bool = True,
    resolve: bool = False,
) -> lsp.ClientCapabilities:
    symbol = lsp.WorkspaceSymbolClientCapabilities(
        resolve_support=lsp.ClientSymbolResolveOptions(properties=["location.range"])
        if resolve
        else None
    )
    return lsp.ClientCapabilities(
        general=lsp.GeneralClientCapabilities(
            position_encodings=[lsp.PositionEncodingKind(e) for e in encodings]
        )
        if encodings
        else None,
        window=lsp.WindowClientCapabilities(work_done_progress=progress),
        workspace=lsp.WorkspaceClientCapabilities(
            symbol=symbol,
            workspace_folders=True,
            did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(
                dynamic_registration=dynamic_watch
            ),
        ),
    )


def copy_fixture(tmp_path: Path, name: str = "ws") -> Path:
    root = tmp_path / name
    shutil.copytree(FIXTURE, root)
    return root


@asynccontextmanager
async def lsp_session(
    tmp_path: Path,
    *,
    root: Path | None = None,
    options: Any = None,
    caps: lsp.ClientCapabilities | None = None,
    args: Sequence[str] = (),
    stdio: bool = False,
    folder_name: str = "ws",
) -> AsyncIterator[Session]:
    """A fresh server on a copy of the fixture, initialized (``args``: ``symfuse lsp``'s,
    with ``stdio=True`` only; ``folder_name``: the workspace folder's name the client
    gives)."""
    root = root or copy_fixture(tmp_path)
    client = LanguageClient("symfuse-tests", "1")
    holder: dict[str, Session] = {}
    early: list[Any] = []

    def session_or_early() -> Session | None:
        return holder.get("s")

    @client.feature(lsp.WINDOW_SHOW_MESSAGE)
    def show_message(params: lsp.ShowMessageParams) -> None:
        s = session_or_early()
        (s.messages if s else early).append(params)

    @client.feature(lsp.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def create_progress(params: lsp.WorkDoneProgressCreateParams) -> None:
        return None

    @client.feature(lsp.PROGRESS)
    def on_progress(params: lsp.ProgressParams) -> None:
        s = session_or_early()
        if s is None:
            return
        s.progress.append(params)
        if isinstance(params.value, dict) and params.value.get("kind") == "end":
            s.ready.set()

    @client.feature(lsp.CLIENT_REGISTER_CAPABILITY)
    def register(params: lsp.RegistrationParams) -> None:
        s = session_or_early()
        if s is not None:
            s.registrations.extend(params.registrations)
            s.registered.set()

    index_dir = tmp_path / "index"
    connect = _subprocess(client, index_dir, args) if stdio else _in_process(client, index_dir)
    async with connect as server:
        result = await client.initialize_async(
            lsp.InitializeParams(
                capabilities=caps or capabilities(),
                process_id=os.getpid(),
                root_uri=from_fs_path(str(root)),
                workspace_folders=[
                    lsp.WorkspaceFolder(uri=from_fs_path(str(root)) or "", name=folder_name)
                ],
                initialization_options=options,
            )
        )
        session = Session(client, root, result, messages=list(early), server=server)
        holder["s"] = session
        client.initialized(lsp.InitializedParams())
        yield session
        await asyncio.wait_for(client.shutdown_async(None), 10)
        client.exit(None)


@asynccontextmanager
async def _in_process(
    client: LanguageClient, index_dir: Path
) -> AsyncIterator[SymfuseLanguageServer]:
    """Serve ``build_lsp_server`` in a thread over two pipes; ``client`` talks on their ends."""
    server = build_lsp_server(LaunchConfig(index_dir=index_dir))
    to_server_r, to_server_w = os.pipe()
    to_client_r, to_client_w = os.pipe()
    server_in, server_out = os.fdopen(to_server_r, "rb"), os.fdopen(to_client_w, "wb")
    client_in, client_out = os.fdopen(to_client_r, "rb"), os.fdopen(to_server_w, "wb")
    thread = threading.Thread(
        target=server.start_io, args=(server_in, server_out), name="symfuse-lsp", daemon=True
    )
    thread.start()
    client.protocol.set_writer(StdoutWriter(client_out))
    stopped = threading.Event()
    reading = asyncio.ensure_future(
        run_async(stop_event=stopped, reader=StdinAsyncReader(client_in), protocol=client.protocol)
    )
    try:
        yield server
    finally:
        # EOF on the server's input ends its loop (after `exit`, or after a failed test);
        # then its output is closed, which ends the client's loop.
        client_out.close()
        await asyncio.to_thread(thread.join, 30)
        assert not thread.is_alive(), "the in-process language server did not stop"
        server.state.stop()
        stopped.set()
        if not server_out.closed:
            server_out.close()
        await asyncio.wait_for(reading, 10)
        for stream in (server_in, client_in):
            stream.close()


@asynccontextmanager
async def _subprocess(
    client: LanguageClient, index_dir: Path, args: Sequence[str]
) -> AsyncIterator[None]:
    """``symfuse lsp`` as a subprocess over stdio; its stderr is shown if it fails."""
    env = dict(os.environ, PYTHONWARNINGS="error::ResourceWarning")
    await client.start_io(str(SYMFUSE), "lsp", "--index-dir", str(index_dir), *args, env=env)
    stderr: list[bytes] = []
    assert client._server is not None
    assert client._server.stderr is not None
    drain = asyncio.ensure_future(_drain(client._server.stderr, stderr))
    try:
        yield
        await asyncio.wait_for(client.stop(), 10)
    finally:
        server = client._server
        if server is not None and server.returncode is None:
            server.kill()
            await server.wait()
        await drain
        if server is not None and server.returncode not in (0, None, -9):
            print(b"".join(stderr).decode(errors="replace"), file=sys.stderr)


async def _drain(stream: asyncio.StreamReader, into: list[bytes]) -> None:
    while chunk := await stream.read(65536):
        into.append(chunk)
