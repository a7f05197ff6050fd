"""A stdio server's hot path, answered without the MCP SDK: its first answers come before
the SDK has loaded, and its tool calls skip the SDK's per-call layers.

Importing the SDK (its protocol models, the server, the client it pulls in) costs about as
much CPU as everything else a warm server's first answer needs, and each call through it
validates and serialises the request and the answer again in pydantic models, beside ours.
So ``symfuse mcp`` over stdio reads the wire itself (:class:`Wire`), and :class:`Front`
answers the common path of a session that starts with the handshake: ``initialize`` (a
handshake protocol version), ``ping``, ``tools/list`` and ``tools/call`` of a listed tool
(and the cancellation of such a call), with the same JSON the SDK's server writes (a test
holds the two together, answer by answer). Every other message is the SDK's, in order:
it loads on a thread when the first such message comes (a session that only searches
never loads it: neither its import's CPU nor its memory), and then serves them, handed
the client's ``initialize`` first (its answer, given already, is dropped) and the
``initialized`` notification. A session that does not start with a handshake the front
answers is the SDK's from its first message.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import sys
import threading
from collections.abc import AsyncIterator, Callable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, BinaryIO

from symfuse.server.common.about import version
from symfuse.server.mcp.protocol import ToolAnswer, ToolError, ToolSpec
from symfuse.server.mcp.schema import output_schema
from symfuse.server.mcp.server import INSTRUCTIONS, SERVER_NAME, Backend

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

log = logging.getLogger(__name__)

# The handshake versions the front answers ``initialize`` for (the SDK's
# HANDSHAKE_PROTOCOL_VERSIONS, whose answers a test compares); another is left to the SDK.
VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
# What the SDK's server declares (a test holds it to the SDK's initialize answer).
CAPABILITIES: dict[str, Any] = {
    "prompts": {"listChanged": False},
    "resources": {"listChanged": False, "subscribe": False},
    "tools": {"listChanged": False},
}
_LOADED = object()  # on the queue of lines: the SDK's server is made, it takes the wire next


def dumped(message: Mapping[str, Any]) -> str:
    """A message as the SDK writes it: compact JSON, text as it is, one line."""
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n"


class Wire:
    """The process's stdin and stdout, read and written by the front and then the SDK.

    The descriptors move to private copies and fds 0 and 1 to the null device and stderr
    (as the SDK's stdio transport does), so that nothing else reads the client's messages
    or writes into the protocol. One thread reads lines onto :attr:`lines`; writes take a
    lock, so answers finished on several threads never interleave.
    """

    def __init__(self, reader: BinaryIO, writer: BinaryIO) -> None:
        self.lines: queue.SimpleQueue[object] = queue.SimpleQueue()
        self._reader = reader
        self._writer = writer
        self._lock = threading.Lock()

    @classmethod
    def claim(cls) -> Wire:
        """The process's stdio, claimed (POSIX)."""
        import fcntl

        wire_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
        wire_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        sys.stdout.flush()
        os.dup2(2, 1)
        # Never closed (closefd=False), as the SDK's transport keeps them: the reading
        # thread may still block on its descriptor, and a pool thread write, as the
        # process leaves; the process's end closes both.
        reader = os.fdopen(wire_in, "rb", closefd=False)
        return cls(reader, os.fdopen(wire_out, "wb", closefd=False))

    def start_reading(self, take: Callable[[str], bool]) -> None:
        """Read lines on a thread: each one ``take`` does not answer goes to :attr:`lines`."""
        threading.Thread(
            target=self._read, args=(take,), name="symfuse-mcp-stdin", daemon=True
        ).start()

    def _read(self, take: Callable[[str], bool]) -> None:
        try:
            for raw in self._reader:
                line = raw.decode("utf-8", errors="replace")
                if not take(line):
                    self.lines.put(line)
        except (OSError, ValueError) as exc:  # a closed descriptor: the client is gone
            log.debug("stdin: %s", exc)
        self.lines.put(None)

    def close(self) -> None:
        """Close both ends (once the reading thread has seen the end of the input)."""
        with self._lock:
            self._writer.close()
        self._reader.close()

    def write(self, text: str) -> None:
        data = text.encode("utf-8")
        with self._lock:
            try:
                self._writer.write(data)
                self._writer.flush()
            except (BrokenPipeError, ValueError):  # the client is gone; stdin's end follows
                log.debug("stdout closed")


@dataclass(slots=True)
class Handover:
    """What the SDK's server continues from: the messages to give it first."""

    server: MCPServer[Any]
    replay: list[str]
    answered_id: object = None  # the id of the initialize the front answered
    answered: bool = False  # whether it did


@dataclass(slots=True)
class _State:
    """What the front knows of the session: the reading thread changes it, but for
    ``handed``, which the SDK's loader sets (it and ``initialized`` under the front's lock)."""

    front: bool | None = None  # the front answers this session (None: its first message)
    initialize: str | None = None  # the client's initialize line, answered
    initialize_id: object = None
    initialized: list[str] = field(default_factory=list)  # its notifications, for the SDK
    handed: bool = False  # the SDK has the wire


class Front:
    """Answers the hot path of a session over ``wire``; the SDK's server the rest.

    ``calls``: answer tool calls (and lists and pings) after the SDK has taken the wire
    too; with False, those go to the SDK then (a test compares the two servers' answers).
    ``handed``: called once the SDK has taken the wire.
    """

    def __init__(
        self,
        wire: Wire,
        backend: Backend,
        tools: list[ToolSpec],
        load: Callable[[], MCPServer[Any]],
        *,
        calls: bool = True,
        handed: Callable[[], None] | None = None,
    ) -> None:
        self.wire = wire
        self.backend = backend
        self.tools = {tool.name: tool for tool in tools}
        self._listed = tools
        self._load = load
        self._calls = calls
        self._handed = handed  # called once the SDK has the wire
        self._state = _State()
        self._tool_list: list[dict[str, Any]] | None = None  # made on first need
        self._lock = threading.Lock()  # the SDK's load, the calls in flight
        self._loading = False
        self._loaded: MCPServer[Any] | None = None
        self._failed: BaseException | None = None  # what loading the SDK raised
        self._running: dict[object, Future[ToolAnswer]] = {}  # calls in flight, by id
        self._cancelled: set[object] = set()  # ... whose answer nobody reads any more

    def serve(self) -> Handover | None:
        """Wait until the SDK's server is loaded (its handover) or stdin ends (None); a
        message the front leaves to the SDK has it loaded at once."""
        deferred: list[str] = []
        while True:
            item = self.wire.lines.get()
            if item is None:
                return None
            if item is _LOADED:
                if self._failed is not None:
                    raise self._failed
                state = self._state
                replay = [state.initialize] if state.initialize is not None else []
                assert self._loaded is not None
                handover = Handover(self._loaded, [*replay, *state.initialized, *deferred])
                handover.answered_id, handover.answered = state.initialize_id, bool(replay)
                return handover
            assert isinstance(item, str)
            deferred.append(item)
            self.load_sdk()

    # --- the SDK --------------------------------------------------------------------

    def load_sdk(self) -> None:
        """Load the SDK and make its server on a thread (once); the wire's queue says when."""
        with self._lock:
            if self._loading:
                return
            self._loading = True
        threading.Thread(target=self._load_sdk, name="symfuse-mcp-sdk", daemon=True).start()

    def _load_sdk(self) -> None:
        try:
            self._loaded = self._load()
        except BaseException as exc:  # the server stops with it, as when it loaded first
            self._failed = exc
        with self._lock:  # lines read from now on come after _LOADED on the queue
            self._state.handed = True
            self.wire.lines.put(_LOADED)
        if self._handed is not None:
            self._handed()

    # --- answers --------------------------------------------------------------------

    def take(self, line: str) -> bool:
        """Answer ``line`` (on the reading thread) if it is on the hot path; False to leave
        it to the SDK."""
        state = self._state
        if state.front is False:
            return False
        message = _message(line)
        if state.front is None:  # the session's first message: the front's if a handshake
            state.front = message is not None and self._initialize(line, message)
            return state.front
        if message is None:
            return False
        method, params = message.get("method"), message.get("params")
        if "id" not in message:  # a notification
            if method == "notifications/initialized":
                with self._lock:
                    if not state.handed:
                        state.initialized.append(line)
                        return True
                return False
            return method == "notifications/cancelled" and self._cancel(params)
        if state.handed and not self._calls:
            return False
        ident = message["id"]
        if method in ("ping", "tools/list") and not _beyond_meta(params):
            if method == "ping":
                self._result(ident, {})
            else:
                self._result(ident, {"tools": self._tools_listed()})
            return True
        return method == "tools/call" and self._call(ident, params or {})

    def _initialize(self, line: str, message: Mapping[str, Any]) -> bool:
        params = message.get("params")
        if message.get("method") != "initialize" or not isinstance(params, dict):
            return False
        client = params.get("clientInfo")
        if params.get("protocolVersion") not in VERSIONS or "id" not in message:
            return False
        if not isinstance(params.get("capabilities"), dict) or not isinstance(client, dict):
            return False  # the SDK says what is wrong
        if not all(isinstance(client.get(key), str) for key in ("name", "version")):
            return False
        self._state.initialize, self._state.initialize_id = line, message["id"]
        result = {
            "capabilities": CAPABILITIES,
            "instructions": INSTRUCTIONS,
            "protocolVersion": params["protocolVersion"],
            "serverInfo": {"name": SERVER_NAME, "version": version()},
        }
        self._result(message["id"], result)
        # Made now, while a fresh start's first call would wait for the index anyway: a
        # client lists the tools next, or (the SDK's) after its first call's answer, when
        # the work held back until then (the ranking structures) competes with the list.
        self._tools_listed()
        return True

    def _tools_listed(self) -> list[dict[str, Any]]:
        if self._tool_list is None:
            self._tool_list = [listed(tool) for tool in self._listed]
        return self._tool_list

    def _call(self, ident: object, params: Mapping[str, Any]) -> bool:
        name, arguments = params.get("name"), params.get("arguments")
        tool = self.tools.get(name) if isinstance(name, str) else None
        if tool is None or _beyond_meta(params, "name", "arguments"):
            return False
        if arguments is not None and not isinstance(arguments, dict):
            return False
        with self._lock:
            if ident in self._running:
                return False  # an id in use: the SDK says so
            work = self.backend.pools.submit(tool.lane, lambda: tool.call(**(arguments or {})))
            self._running[ident] = work
        work.add_done_callback(lambda done: self._called(ident, tool.name, done))
        return True

    def _cancel(self, params: object) -> bool:
        """A client's cancellation of a call the front runs: it does not start if it has
        not, and its answer is not written (the client reads none, as the protocol says)."""
        if not isinstance(params, dict):
            return False
        ident = params.get("requestId")
        with self._lock:
            work = self._running.get(ident)
            if work is None:
                return False  # not ours (or answered already): the SDK's to ignore
            self._cancelled.add(ident)
        work.cancel()
        return True

    def _called(self, ident: object, name: str, done: Future[ToolAnswer]) -> None:
        with self._lock:
            self._running.pop(ident, None)
            if ident in self._cancelled:
                self._cancelled.discard(ident)
                return
        try:
            answer = done.result()
        except ToolError as exc:
            answer = ToolAnswer(f"Error executing tool {name}: {exc}", is_error=True)
        except Exception:  # a crash: its text stays here, as with the SDK
            log.exception("tool %r raised an unexpected exception", name)
            answer = ToolAnswer(f"Error executing tool {name}", is_error=True)
        self._result(ident, call_result(answer))

    def _result(self, ident: object, result: Mapping[str, Any]) -> None:
        self.wire.write(dumped({"jsonrpc": "2.0", "id": ident, "result": result}))


def _message(line: str) -> dict[str, Any] | None:
    """A JSON-RPC message the front may answer: an object, version 2.0, params an object
    when given, an id a string or an integer when given; None for anything else."""
    try:
        message = json.loads(line)
    except ValueError:
        return None
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        return None
    params = message.get("params")
    if params is not None and not isinstance(params, dict):
        return None
    ident = message.get("id")
    if "id" in message and (isinstance(ident, bool) or not isinstance(ident, str | int)):
        return None
    return message


def call_result(answer: ToolAnswer) -> dict[str, Any]:
    """A ``tools/call`` result as the SDK's server writes it."""
    result: dict[str, Any] = {
        "content": [{"text": answer.text, "type": "text"}],
        "isError": answer.is_error,
    }
    if answer.data is not None:
        result["structuredContent"] = answer.data
    return result


def listed(tool: ToolSpec) -> dict[str, Any]:
    """A ``tools/list`` entry as the SDK's server writes it."""
    entry: dict[str, Any] = {}
    if tool.annotations is not None:
        entry["annotations"] = tool.annotations.wire()
    entry["description"] = tool.description
    entry["inputSchema"] = _schema_order(tool.input_schema)
    entry["name"] = tool.name
    if tool.output_model is not None:
        entry["outputSchema"] = _schema_order(output_schema(tool.output_model))
    return entry


_SCHEMA_FIELDS = ("$schema", "properties", "required", "type")  # the SDK's schema model's


def _schema_order(schema: Mapping[str, Any]) -> dict[str, Any]:
    """``schema``'s keys in the order the SDK writes them: its model's fields, then the rest."""
    first = {key: schema[key] for key in _SCHEMA_FIELDS if key in schema}
    return {**first, **{k: v for k, v in schema.items() if k not in first}}


def _beyond_meta(params: Mapping[str, Any] | None, *known: str) -> bool:
    """Whether ``params`` holds more than ``known`` and ``_meta`` (a cursor, a task)."""
    return bool(params) and any(key not in (*known, "_meta") for key in params or {})


class SDKStdin:
    """The SDK's stdin after the handover: the replayed lines, then the wire's."""

    def __init__(self, wire: Wire, replay: list[str]) -> None:
        self._wire = wire
        self._replay = list(replay)

    def __aiter__(self) -> AsyncIterator[str]:
        return self._lines()

    async def _lines(self) -> AsyncIterator[str]:
        import anyio.to_thread

        for line in self._replay:
            yield line
        while True:
            item = await anyio.to_thread.run_sync(self._wire.lines.get, abandon_on_cancel=True)
            if item is None:
                return
            if isinstance(item, str):
                yield item


class SDKStdout:
    """The SDK's stdout after the handover: the wire, less its answer to the replayed
    ``initialize`` (the front gave it)."""

    def __init__(self, wire: Wire, answered_id: object, answered: bool) -> None:
        self._wire = wire
        self._drop = answered
        self._drop_id = answered_id
        self.dropped: str | None = None  # the SDK's own answer to it

    async def write(self, text: str) -> None:
        if self._drop:
            message = json.loads(text)
            if message.get("id") == self._drop_id and ("result" in message or "error" in message):
                self._drop, self.dropped = False, text
                return
        self._wire.write(text)

    async def flush(self) -> None:
        return None


def serve_stdio(backend: Backend, tools: list[ToolSpec]) -> None:
    """Serve ``tools`` over the process's stdio: the front first, then the SDK's server
    (on Windows, the SDK's alone)."""
    if sys.platform == "win32":
        from symfuse.server.mcp.sdk import sdk_server

        sdk_server(backend, tools).run("stdio")
        return
    serve(Front(Wire.claim(), backend, tools, lambda: _sdk_server(backend, tools)))


def serve(front: Front) -> SDKStdout | None:
    """Serve over ``front``'s wire until its input ends: the front, and the SDK's server
    once it is needed (its stdout; None when the input ended before)."""
    backend, wire = front.backend, front.wire
    backend.start()
    wire.start_reading(front.take)
    try:
        handover = front.serve()
    except BaseException:  # the SDK did not load (or an interrupt): nothing serves on
        backend.stop()
        raise
    if handover is None:  # stdin ended before the SDK was needed
        backend.stop()
        return None
    from symfuse.server.mcp.sdk import run_stdio

    stdout = SDKStdout(wire, handover.answered_id, handover.answered)
    run_stdio(handover.server, SDKStdin(wire, handover.replay), stdout)
    return stdout


def _sdk_server(backend: Backend, tools: list[ToolSpec]) -> MCPServer[Any]:
    from symfuse.server.mcp.sdk import sdk_server

    return sdk_server(backend, tools)
