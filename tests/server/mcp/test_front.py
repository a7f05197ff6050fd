"""The stdio front (issue 39): a session's first answers before the MCP SDK has loaded
are the SDK server's answers, and the SDK takes the wire without a message lost.

One session over a pair of pipes: the front answers the handshake, the tool list and
calls; a request only the SDK serves has it loaded (held until the test lets it), it
takes the wire, and the same requests go to it. Each pair of answers is compared as
the bytes on the wire (the times in them aside); the SDK's own answer to the client's
``initialize``, which the front gave, is the one it wrote and the handover dropped.
"""

from __future__ import annotations

import json
import os
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import IO, Any

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from symfuse.server.mcp.front import VERSIONS, Front, SDKStdout, Wire, serve
from symfuse.server.mcp.options import MCPOptions
from symfuse.server.mcp.pools import Lane, ToolPools
from symfuse.server.mcp.sdk import sdk_server
from symfuse.server.mcp.server import build_tools
from tests.support.mcp import Workspace

SAFETY = 60.0  # seconds: only turns a server that never answers into a failure
_TIMES = re.compile(r'((?:\\?")?(?:elapsed_ms|index_age_seconds)(?:\\?")?: ?)[0-9.e+-]+')


def timeless(line: str) -> str:
    """A wire line with the times of the answer (which differ call to call) blanked."""
    return _TIMES.sub(r"\g<1>0", line)


@dataclass
class Session:
    """A client's end of the pipes, and the server's thread."""

    send_to: IO[bytes]
    read_from: IO[bytes]
    pools: ToolPools
    release: threading.Event = field(default_factory=threading.Event)  # let the SDK load
    loaded: threading.Event = field(default_factory=threading.Event)  # it has the wire
    stdout: list[SDKStdout | None] = field(default_factory=list)
    failed: list[BaseException] = field(default_factory=list)
    ended: threading.Event = field(default_factory=threading.Event)  # serve() returned

    def send(self, message: dict[str, Any]) -> None:
        self.send_to.write((json.dumps(message) + "\n").encode())
        self.send_to.flush()

    def answer(self, message: dict[str, Any]) -> str:
        self.send(message)
        return self.read_from.readline().decode()


@contextmanager
def session(
    workspace: Workspace,
    tools: str = "default",
    *,
    calls: bool = True,
    broken: bool = False,
    query_threads: int | None = None,
) -> Iterator[Session]:
    client_out, server_in = os.pipe()
    server_out, client_in = os.pipe()
    config = workspace.config()
    backend, specs = build_tools(config, MCPOptions(tools=tools))
    if query_threads is not None:
        backend.pools.close()
        backend.pools = ToolPools(query_threads=query_threads)
    wire = Wire(os.fdopen(client_out, "rb"), os.fdopen(client_in, "wb"))
    talk = Session(os.fdopen(server_in, "wb"), os.fdopen(server_out, "rb"), backend.pools)

    def load() -> Any:
        assert talk.release.wait(SAFETY)
        if broken:
            raise ImportError("no mcp")
        return sdk_server(backend, specs)

    def run() -> None:
        try:
            front = Front(wire, backend, specs, load, calls=calls, handed=talk.loaded.set)
            talk.stdout.append(serve(front))
        except ImportError as exc:
            talk.failed.append(exc)
        talk.ended.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield talk
    finally:
        talk.release.set()
        talk.send_to.close()
        thread.join(SAFETY)
        wire.close()
        talk.read_from.close()


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
# A sentence waits for the ranking structures of a small index (a name may be answered by
# names alone before them: symfuse.ranking.search.cold_start), which answer from then on.
BUILT = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
         "params": {"name": "search", "arguments": {"query": "pay for the order"}}}  # fmt: skip
ASKED = [
    {"jsonrpc": "2.0", "id": 2, "method": "ping"},
    {"jsonrpc": "2.0", "id": 3, "method": "tools/list"},
    {"jsonrpc": "2.0", "id": 4, "method": "tools/call",
     "params": {"name": "search", "arguments": {"query": "checkout", "limit": 3}}},
    {"jsonrpc": "2.0", "id": "five", "method": "tools/call",
     "params": {"name": "search", "arguments": {"query": "total", "output_format": "toon"}}},
    {"jsonrpc": "2.0", "id": 6, "method": "tools/call",
     "params": {"name": "search", "arguments": {"query": "checkout", "limit": 0}}},
    {"jsonrpc": "2.0", "id": 7, "method": "tools/call",
     "params": {"name": "search", "arguments": {"query": "x", "bogus": 1}}},
    {"jsonrpc": "2.0", "id": 8, "method": "tools/call",
     "params": {"name": "get_symbol", "arguments": {"target": "nowhere.py::x#class"}}},
    {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "search"}},
]  # fmt: skip


def test_the_fronts_answers_are_the_sdks(workspace: Workspace) -> None:
    with session(workspace, tools="all", calls=False) as talk:
        front_init = talk.answer(INITIALIZE)
        talk.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        talk.answer(BUILT)  # the structures: a name's first answer by names alone aside
        by_front = [timeless(talk.answer(message)) for message in ASKED]
        talk.send({"jsonrpc": "2.0", "id": 12, "method": "prompts/list"})  # the SDK's
        assert not talk.loaded.is_set()  # all of them answered before the SDK loaded
        talk.release.set()
        assert json.loads(talk.read_from.readline())["result"] == {"prompts": []}
        assert talk.loaded.wait(SAFETY)
        talk.answer({"jsonrpc": "2.0", "id": 10, "method": "tools/call",
                     "params": {"name": "cache_clear", "arguments": {}}})  # fmt: skip
        by_sdk = [timeless(talk.answer(message)) for message in ASKED]
    assert by_front == by_sdk
    answers = [json.loads(line) for line in by_front]
    assert [a["id"] for a in answers] == [m["id"] for m in ASKED]
    assert "checkout" in answers[2]["result"]["content"][0]["text"]
    assert answers[4]["result"]["isError"] is True  # a bad limit: a tool error, in our words
    assert "limit" in answers[4]["result"]["content"][0]["text"]
    (stdout,) = talk.stdout
    assert stdout is not None
    assert stdout.dropped == front_init  # the SDK's own answer, dropped


def test_the_front_keeps_the_calls_and_the_sdk_answers_the_rest(workspace: Workspace) -> None:
    with session(workspace, tools="all") as talk:
        talk.answer(INITIALIZE)
        talk.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        talk.send({"jsonrpc": "2.0", "id": 1, "method": "resources/list"})  # the SDK's: loads it
        assert json.loads(talk.answer(ASKED[0])) == {"jsonrpc": "2.0", "id": 2, "result": {}}
        talk.release.set()
        assert json.loads(talk.read_from.readline())["result"] == {"resources": []}
        assert talk.loaded.wait(SAFETY)
        after = json.loads(talk.answer(ASKED[2]))  # a call once the SDK has the wire
        prompts = json.loads(talk.answer({"jsonrpc": "2.0", "id": 11, "method": "prompts/list"}))
    assert "checkout" in after["result"]["content"][0]["text"]
    assert prompts["result"] == {"prompts": []}


def test_a_cancelled_call_that_has_not_started_is_not_answered(workspace: Workspace) -> None:
    with session(workspace, query_threads=1) as talk:
        talk.answer(INITIALIZE)
        busy, free = threading.Event(), threading.Event()
        talk.pools.submit(Lane.QUERY, lambda: (busy.set(), free.wait(SAFETY)))
        assert busy.wait(SAFETY)  # the one query thread is taken: the next call waits
        talk.send(ASKED[2])  # id 4
        talk.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                   "params": {"requestId": 4, "reason": "no longer needed"}})  # fmt: skip
        assert json.loads(talk.answer(ASKED[0]))["id"] == 2  # the cancellation was read
        free.set()
        after = json.loads(talk.answer({**ASKED[2], "id": 13}))  # runs after 4 would have
    assert after["id"] == 13  # 4 never ran, and nothing answered it


def test_an_initialize_the_sdk_would_refuse_is_the_sdks(workspace: Workspace) -> None:
    unnamed = {**INITIALIZE, "params": {**INITIALIZE["params"], "clientInfo": {"name": "t"}}}
    with session(workspace) as talk:
        talk.send(unnamed)
        talk.release.set()
        answer = json.loads(talk.read_from.readline())
    assert answer["error"]["code"] == -32602  # the SDK's: no client version


def test_a_session_of_calls_alone_never_loads_the_sdk(workspace: Workspace) -> None:
    with session(workspace) as talk:
        talk.release.set()  # the SDK may load: nothing asks for it
        talk.answer(INITIALIZE)
        talk.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert all(json.loads(talk.answer(message))["id"] == message["id"] for message in ASKED)
    (stdout,) = talk.stdout
    assert stdout is None
    assert not talk.loaded.is_set()


def test_a_session_that_ends_before_any_call_leaves_cleanly(workspace: Workspace) -> None:
    with session(workspace) as talk:
        assert json.loads(talk.answer(INITIALIZE))["result"]["serverInfo"]["name"] == "symfuse"
    (stdout,) = talk.stdout
    assert stdout is None
    assert not talk.loaded.is_set()  # the SDK was never needed


def test_a_server_whose_sdk_fails_to_load_stops_with_the_error(workspace: Workspace) -> None:
    with session(workspace, broken=True) as talk:
        talk.answer(INITIALIZE)
        talk.send({"jsonrpc": "2.0", "id": 1, "method": "resources/list"})  # the SDK's
        talk.release.set()
        assert talk.ended.wait(SAFETY)  # serve() stopped, with the error
    assert [str(exc) for exc in talk.failed] == ["no mcp"]


def test_the_front_answers_only_the_sdks_handshake_versions() -> None:
    assert set(VERSIONS) <= set(HANDSHAKE_PROTOCOL_VERSIONS)
