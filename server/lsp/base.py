"""The language server class and the one way handlers read the index.

Handlers are ``async``: the index work runs in a worker thread (``query``) so
the event loop keeps reading messages, and a ``$/cancelRequest`` cancels the
waiting handler at once (pygls answers it with RequestCancelled).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import threading
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import BinaryIO, TypeVar

from lsprotocol import types as lsp
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from symfuse.indexer.index import Index
from symfuse.indexer.update.live import LiveIndex
from symfuse.ranking.api import ShouldStop, Stopped, checkpoint, stoppable
from symfuse.server.lsp.framing import FrameReader
from symfuse.server.lsp.protocol import ConformingProtocol
from symfuse.server.lsp.state import LaunchConfig, ServerState
from symfuse.server.lsp.stream import serve, stdin_reader

log = logging.getLogger(__name__)

T = TypeVar("T")
LINK_TRIES = 3  # flushes a reader of the graph tries before it reads what it has
FIRST_INDEX_WAIT = 60.0  # seconds a question about a file waits for the first index
READY_POLL = 0.1  # seconds between its checks that the request still stands


def _version() -> str:
    try:
        return version("symfuse")
    except PackageNotFoundError:
        return "0"


class SymfuseLanguageServer(LanguageServer):
    """pygls server plus symfuse's state (live index, buffers, options)."""

    def __init__(self, launch: LaunchConfig) -> None:
        super().__init__(
            "symfuse",
            _version(),
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
            protocol_cls=ConformingProtocol,
        )
        self.state = ServerState(launch)
        self.tasks: set[asyncio.Task[None]] = set()
        self.flush_timer: asyncio.TimerHandle | None = None

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio with symfuse's own message loop (:mod:`symfuse.server.lsp.stream`):
        a malformed stream is answered with parse errors, never a hang or an exit."""
        self._stop_event = threading.Event()
        read = stdin_reader(stdin or sys.stdin.buffer, self.thread_pool)
        frames = FrameReader(read, self.state.launch.framing)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(serve(frames, self.conforming, self._stop_event))
        except BrokenPipeError:
            log.error("the connection to the client is lost; stopping")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]

    def start_tcp(self, host: str, port: int) -> None:
        """pygls' TCP server, reading each connection with symfuse's message loop."""
        self._stop_event = stop = threading.Event()

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.protocol.set_writer(writer)
            await serve(FrameReader(reader.read, self.state.launch.framing), self.conforming, stop)
            self.shutdown()  # type: ignore[no-untyped-call]

        async def listen() -> None:
            self._server = server = await asyncio.start_server(connection, host, port)
            async with server:  # closed by shutdown() once the client leaves
                await server.serve_forever()

        with contextlib.suppress(asyncio.CancelledError, KeyboardInterrupt):
            asyncio.run(listen())

    @property
    def conforming(self) -> ConformingProtocol:
        protocol = self.protocol
        assert isinstance(protocol, ConformingProtocol)
        return protocol

    @property
    def exit_code(self) -> int:
        """The process's exit code: 1 once an exit came without a shutdown before it."""
        protocol = self.protocol
        return protocol.exit_code if isinstance(protocol, ConformingProtocol) else 0

    def spawn(self, coroutine: object) -> None:
        """Run a background coroutine, keeping a reference until it ends."""
        task: asyncio.Task[None] = asyncio.ensure_future(coroutine)  # type: ignore[call-overload]
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("background task failed: %s", task.exception())

    def notify_user(self, message: str, kind: lsp.MessageType = lsp.MessageType.Warning) -> None:
        self.window_show_message(lsp.ShowMessageParams(type=kind, message=f"symfuse: {message}"))

    def supports(self, path: str) -> bool:
        """Whether the client capability at dotted ``path`` is present and truthy."""
        value: object = self.client_capabilities
        for part in path.split("."):
            value = getattr(value, part, None)
            if value is None:
                return False
        return bool(value)


def path_of(uri: str) -> str | None:
    return to_fs_path(uri) if uri.startswith("file:") else None


def read_index(
    state: ServerState,
    fn: Callable[[Index], T],
    should_stop: ShouldStop,
    linked: bool = True,
    file: str | None = None,
    whole: bool = False,
) -> T:
    """Index pending buffers, then call ``fn`` with the current index (worker thread).

    ``linked=False`` (a name search): ``fn`` may read an index whose edited buffers'
    definitions are in but whose links are still being made; by default every link is
    in place (for references, calls and hierarchies). ``whole``: a question about a
    position (a definition, a hover) waits while the first index is built (at most
    :data:`FIRST_INDEX_WAIT`) rather than answer null, which an editor reads as "no
    definition"; ``file``: a question about that file alone waits until it is indexed.
    A name search answers from what is indexed so far.

    With ``should_stop``: nothing is done for a request already abandoned when its
    turn comes (it may have queued behind many others), and a search ``fn`` runs
    stops between its channels once it is abandoned; both raise ``Stopped``.

    The service counts it as a client's query (:meth:`IndexService.asking`): its first
    answer ends the hold on the work ahead, which then runs in the client's pauses.
    """
    service = state.service
    asking = service.asking() if service is not None else contextlib.nullcontext()
    with stoppable(should_stop), asking:
        checkpoint()
        live = state.live
        if live is None:
            state.flush(linked)
            return fn(Index({}))
        if file is not None or whole:
            _first_index(live, None if whole else file)
        for _ in range(LINK_TRIES):
            state.flush(linked)
            with live.reading() as index:
                # a buffer patched after the flush may have left links behind again
                if linked and index.links_pending:
                    continue
                checkpoint()
                return fn(index)
        with live.reading() as index:  # edits keep coming: the newest definitions win
            return fn(index)


def _unindexed(live: LiveIndex, file: str | None) -> bool:
    """Whether a question must still wait: the first index is not in place (nor, when
    given, ``file`` in what is published of it)."""
    if live.ready:
        return False
    if file is None:
        return True
    with live.reading() as index:
        return file not in index.files


def _first_index(live: LiveIndex, file: str | None) -> None:
    """Wait while :func:`_unindexed`, stopping when the request is abandoned (checked
    every :data:`READY_POLL` seconds)."""
    waited = 0.0
    while waited < FIRST_INDEX_WAIT and _unindexed(live, file):
        live.wait_ready(READY_POLL)
        waited += READY_POLL
        checkpoint()


async def _indexed(live: LiveIndex, file: str | None) -> None:
    """:func:`_first_index` on the event loop (a cancelled request stops at once)."""
    waited = 0.0
    while waited < FIRST_INDEX_WAIT and _unindexed(live, file):
        await asyncio.sleep(READY_POLL)
        waited += READY_POLL


async def query(
    ls: SymfuseLanguageServer,
    fn: Callable[[Index], T],
    superseded: ShouldStop | None = None,
    linked: bool = True,
    file: str | None = None,
    whole: bool = False,
) -> T:
    """``read_index`` in a worker thread; cancellable while it waits, and while it runs.

    A ``$/cancelRequest`` cancels the waiting handler at once (pygls answers
    RequestCancelled); the worker thread cannot be interrupted, so it is told through
    ``should_stop`` and drops the work at its next check. ``superseded`` says whether
    a newer request made this one pointless: the worker then raises ``Stopped``,
    which the handler turns into its error.
    """
    cancelled = threading.Event()

    def should_stop() -> bool:
        return cancelled.is_set() or (superseded is not None and superseded())

    if should_stop():  # overtaken already: not even a thread hop (a burst has hundreds)
        raise Stopped
    live = ls.state.live
    if live is not None and (file is not None or whole):
        # waited here, not in a worker thread: questions asked during a long first index
        # (hovers, definitions) must not take every thread a name search needs
        await _indexed(live, None if whole else file)
    try:
        return await asyncio.to_thread(read_index, ls.state, fn, should_stop, linked, file, whole)
    except asyncio.CancelledError:
        cancelled.set()
        raise
