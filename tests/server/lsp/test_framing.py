"""The frame reader on byte streams (no server): every malformed frame is one
``Unreadable`` with the id its bytes name, and the message after it is read whole.
And which pending workspace/symbol queries a newer one overtakes: only those it types on."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from symfuse.server.lsp.framing import FrameLimits, FrameReader, Parsed, Unreadable, recover_id
from symfuse.server.lsp.supersede import SymbolQueries


def frame(msg_id: int, query: str = "Square") -> bytes:
    body = json.dumps(
        {"jsonrpc": "2.0", "id": msg_id, "method": "workspace/symbol", "params": {"query": query}}
    ).encode()
    return b"Content-Length: %d\r\n\r\n%s" % (len(body), body)


def body_of(msg_id: int) -> bytes:
    return frame(msg_id).split(b"\r\n\r\n", 1)[1]


def reader(chunks: Iterable[bytes], limits: FrameLimits | None = None) -> FrameReader:
    """A reader over ``chunks``, each handed out in pieces of at most ``n`` bytes."""
    pending = list(chunks)

    async def read(n: int) -> bytes:
        while pending and not pending[0]:
            pending.pop(0)
        if not pending:
            return b""
        piece, pending[0] = pending[0][:n], pending[0][n:]
        return piece

    return FrameReader(read, limits)


async def everything(frames: FrameReader) -> list[Parsed | Unreadable]:
    found: list[Parsed | Unreadable] = []
    while (item := await frames.next()) is not None:
        found.append(item)
    return found


def ids(found: list[Parsed | Unreadable]) -> list[tuple[str, Any]]:
    return [
        ("ok", item.value["id"]) if isinstance(item, Parsed) else ("bad", item.msg_id)
        for item in found
    ]


async def test_well_formed_messages_in_any_chunking() -> None:
    stream = frame(1) + b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(2)
    stream += frame(3).replace(b"\r\n", b"\n", 2)  # bare newlines, as hand-written clients do
    for size in (1, 7, len(stream)):
        pieces = [stream[i : i + size] for i in range(0, len(stream), size)]
        assert ids(await everything(reader(pieces))) == [("ok", 1), ("ok", 2), ("ok", 3)]


BAD_FRAMES = {
    "non-numeric length": b"Content-Length: abc\r\n\r\n" + body_of(7),
    "absurd length": b"Content-Length: 1000000000000\r\n\r\n" + body_of(7),
    "length of 5,000 digits": b"Content-Length: " + b"9" * 5000 + b"\r\n\r\n" + body_of(7),
    "length 40 bytes too large": b"Content-Length: %d\r\n\r\n%s"
    % (len(body_of(7)) + 40, body_of(7)),
    "length 10 bytes too small": b"Content-Length: %d\r\n\r\n%s"
    % (len(body_of(7)) - 10, body_of(7)),
    "headers without Content-Length": b"Content-Type: x\r\n\r\n" + body_of(7),
    "no headers at all": body_of(7),
    "body not JSON": b"Content-Length: 9\r\n\r\n{not json",
    "body not UTF-8": b'Content-Length: 12\r\n\r\n{"id": 7, "\xff',
}


@pytest.mark.parametrize("piece", [1, 3, 1 << 20], ids=["bytewise", "3-byte reads", "whole"])
@pytest.mark.parametrize("bad", BAD_FRAMES.values(), ids=BAD_FRAMES.keys())
async def test_a_bad_frame_is_unreadable_and_the_next_is_read(bad: bytes, piece: int) -> None:
    stream = frame(1) + bad + frame(2) + frame(3)
    found = await everything(reader(stream[i : i + piece] for i in range(0, len(stream), piece)))
    assert ids(found)[0] == ("ok", 1)
    assert ids(found)[-2:] == [("ok", 2), ("ok", 3)]
    unreadable = found[1:-2]
    assert len(unreadable) == 1, found
    assert isinstance(unreadable[0], Unreadable)
    assert unreadable[0].msg_id in (7, None)  # 7 wherever the bytes hold it whole


async def test_the_id_of_an_unreadable_request_is_recovered() -> None:
    for name in ("non-numeric length", "absurd length", "length 40 bytes too large"):
        found = await everything(reader([BAD_FRAMES[name], frame(2)]))
        assert ids(found) == [("bad", 7), ("ok", 2)], name


async def test_a_long_header_line_without_newline_is_skipped_in_bounded_memory() -> None:
    limits = FrameLimits(header_line=1024, body=1024 * 1024)
    junk = [b"X-Junk: " + b"a" * 100_000 for _ in range(200)]  # 20 MB, no newline
    frames = reader([frame(1), *junk, frame(2)], limits)
    found = [await frames.next(), await frames.next()]
    assert ids(found) == [("ok", 1), ("bad", None)]
    assert isinstance(found[1], Unreadable)
    assert "over 1024 bytes" in found[1].reason
    assert len(frames._buffer) <= 2 * limits.header_line + 64 * 1024  # read so far, not 20 MB
    assert ids(await everything(frames)) == [("ok", 2)]


async def test_a_body_over_the_limit_is_never_read_into_memory() -> None:
    limits = FrameLimits(header_line=1024, body=1000)
    over = b"Content-Length: 1001\r\n\r\n" + b"x" * 1001
    found = await everything(reader([over, frame(2)], limits))
    assert ids(found) == [("bad", None), ("ok", 2)]


async def test_blank_lines_between_messages_are_no_frame() -> None:
    found = await everything(reader([b"\r\n\r\n", frame(1), b"\r\n", frame(2)]))
    assert ids(found) == [("ok", 1), ("ok", 2)]


async def test_headerless_json_is_answered_before_anything_follows() -> None:
    """A client that sends a bare body and waits: the reader does not wait for a newline."""
    frames = reader([body_of(7)])
    assert ids([item for item in [await frames.next()] if item is not None]) == [("bad", 7)]


def test_recover_id() -> None:
    assert recover_id(b'{"jsonrpc": "2.0", "id": "abc", "method": "x"}') == "abc"
    assert recover_id(b'{"jsonrpc": "2.0", "id": 12, "method": "x", "params": {"qu') == 12
    assert recover_id(b'{"id": true}') is None
    assert recover_id(b"junk") is None


def test_only_a_query_typed_on_overtakes_a_pending_one() -> None:
    queries = SymbolQueries()
    for msg_id, query in enumerate(["Square", "circle", "sq", "CIRC", "Circles", "shape"]):
        queries.arrived(msg_id, query)
    overtaken = {msg_id: queries.overtaken(msg_id)() for msg_id in range(6)}
    # "sq" shortens "Square", "CIRC" shortens "circle", "Circles" extends "CIRC"
    assert overtaken == {0: True, 1: True, 2: False, 3: True, 4: False, 5: False}
    queries.answered(2)
    queries.arrived(6, "sq")  # "sq" again, after the first was answered: nothing pending
    assert not queries.overtaken(6)()
    assert not queries.overtaken("unknown")()
