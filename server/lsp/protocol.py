"""JSON-RPC as the spec says, where pygls is lenient: every request gets an answer.

pygls drops a request whose params do not deserialize (the client waits forever),
answers requests before ``initialize`` with an internal error, ignores them after
``shutdown`` and accepts ``"id": null``. :class:`ConformingProtocol` answers:

- params that do not fit the method's types (missing, a string, a position given
  as strings, a negative character, a line past 2^31 - 1, a query that is not a
  string, a URI that is not a string): ``-32602 InvalidParams``;
- a request before ``initialize``: ``-32002 ServerNotInitialized``;
- a request after ``shutdown``: ``-32600 InvalidRequest``;
- a request with ``"id": null``: ``-32600 InvalidRequest`` (ids are integers or strings);
- a message that is not a JSON-RPC object: ``-32600 InvalidRequest``; a frame that
  cannot be read at all (:mod:`symfuse.server.lsp.framing`): ``-32700 ParseError``,
  with the request's id when its bytes name one.

A ``workspace/symbol`` request the user has typed past (:mod:`symfuse.server.lsp.supersede`)
is answered ContentModified, and a cancelled one RequestCancelled, each with a line in
the debug log: neither is a failure worth a traceback.

It also times every request from its arrival to its response, and records it
in the query metrics of the server's index (:mod:`symfuse.server.common.observe`):
the one place every method passes, whatever its handler.
"""

from __future__ import annotations

import logging
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import (
    JsonRpcContentModified,
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcRequestCancelled,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol

from symfuse.server.common.observe import Observer, Query, new_request_id
from symfuse.server.lsp.framing import Unreadable
from symfuse.server.lsp.supersede import SymbolQueries

log = logging.getLogger(__name__)

_ALWAYS_ALLOWED = frozenset({lsp.INITIALIZE, lsp.EXIT})
_UNRECORDED = frozenset({lsp.INITIALIZE, lsp.SHUTDOWN})  # the session, not queries


class ProtocolJson(list[Any]):
    """A result that is already the protocol's JSON (lists, dicts, strings, numbers).

    Sent as it is: pygls would hand the response to cattrs, which walks every
    dictionary of the result to unstructure it again, which costs several times what
    ``json.dumps`` of the plain message does.
    """


@dataclass(frozen=True, slots=True)
class Refused:
    """A request answered with an error before any handler sees it."""

    msg_id: int | str | None
    method: str
    error: JsonRpcException


def _text_fields_problem(params: Any) -> str | None:
    """What cattrs would quietly coerce: a ``query`` or ``uri`` that is not a string, a
    position coordinate that is not an integer."""
    if not isinstance(params, dict):
        return None
    if "query" in params and not isinstance(params["query"], str):
        return "query must be a string"
    document = params.get("textDocument")
    if isinstance(document, dict) and not isinstance(document.get("uri"), str):
        return "textDocument.uri must be a string"
    position = params.get("position")
    if isinstance(position, dict):
        for key in ("line", "character"):
            value = position.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                return f"position.{key} must be an integer"
    return None


class ConformingProtocol(LanguageServerProtocol):
    """pygls' protocol, answering every request (see the module docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._initialized = False
        self.exit_code = 0  # 1 once an exit arrives without a shutdown before it
        self._in_flight: dict[Any, tuple[Observer, Query]] = {}
        self.symbol_queries = SymbolQueries()  # pending workspace/symbol requests

    def structure_message(self, data: dict[str, Any]) -> Any:
        if not isinstance(data, dict) or "jsonrpc" not in data or "method" not in data:
            return super().structure_message(data)
        method = str(data["method"])
        if "id" in data:
            refused = self._refusal(data, method)
            if refused is not None:
                return refused
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if "id" not in data:
                raise
            return Refused(data["id"], method, exc)

    def _refusal(self, data: dict[str, Any], method: str) -> Refused | None:
        msg_id = data["id"]
        if msg_id is None or isinstance(msg_id, bool) or not isinstance(msg_id, int | str):
            return Refused(None, method, JsonRpcInvalidRequest("id must be an integer or string"))
        if self._shutdown and method != lsp.EXIT:
            return Refused(msg_id, method, JsonRpcInvalidRequest("the server is shutting down"))
        if not self._initialized and method not in _ALWAYS_ALLOWED:
            return Refused(msg_id, method, JsonRpcServerNotInitialized())
        if method != lsp.INITIALIZE and "params" not in data and _needs_params(method):
            return Refused(msg_id, method, JsonRpcInvalidParams("params are missing"))
        problem = _text_fields_problem(data.get("params"))
        if problem is not None:
            return Refused(msg_id, method, JsonRpcInvalidParams(problem))
        if method == lsp.INITIALIZE:
            self._initialized = True
        return None

    def handle_message(self, message: Any) -> None:
        if isinstance(message, Refused):
            log.info("refused %s request %r: %s", message.method, message.msg_id, message.error)
            self._answer_error(message.msg_id, message.error)
            return
        if getattr(message, "method", None) == lsp.EXIT and not self._shutdown:
            self.exit_code = 1
        super().handle_message(message)

    def receive(self, value: Any) -> None:
        """Handle one message's parsed JSON (what pygls' loop does with ``json.loads``)."""
        if not isinstance(value, dict) or value.get("jsonrpc") != self.VERSION:
            msg_id = value.get("id") if isinstance(value, dict) else None
            if isinstance(msg_id, bool) or not isinstance(msg_id, int | str):
                msg_id = None
            error = JsonRpcInvalidRequest("a message is a JSON-RPC 2.0 object")
            self._answer_error(msg_id, error)
            return
        self.handle_message(self.structure_message(value))

    def answer_unreadable(self, frame: Unreadable) -> None:
        """A parse error for a frame the reader could not read (id null when unknown)."""
        self._answer_error(frame.msg_id, JsonRpcParseError(f"unreadable message: {frame.reason}"))

    def _answer_error(self, msg_id: int | str | None, error: JsonRpcException) -> None:
        body = self._converter.unstructure(error.to_response_error())
        # A plain dict: pygls' response type cannot carry a null id.
        self._send_data({"jsonrpc": self.VERSION, "id": msg_id, "error": body})

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        if method_name == lsp.WORKSPACE_SYMBOL:
            self.symbol_queries.arrived(msg_id, params.query)
        state = getattr(self._server, "state", None)
        observer = getattr(state, "observer", None)
        if isinstance(observer, Observer) and method_name not in _UNRECORDED:
            self._in_flight[msg_id] = (observer, Query(method_name, new_request_id()))
        super()._handle_request(msg_id, method_name, params)

    def _send_response(self, msg_id: Any, result: Any = None, error: Any = None) -> None:
        if error is None and isinstance(result, ProtocolJson):
            self._result_types.pop(msg_id, None)  # as pygls' own path does
            self._send_data({"jsonrpc": self.VERSION, "id": msg_id, "result": result})
        else:
            super()._send_response(msg_id, result, error)
        self.symbol_queries.answered(msg_id)
        found = self._in_flight.pop(msg_id, None)
        if found is not None:  # recorded once the answer is on its way
            observer, query = found
            query.results = len(result) if isinstance(result, list) else int(result is not None)
            observer.finish(query, None if error is None else str(error.message))

    def _send_handler_result(self, future: Future[Any], *, msg_id: Any) -> None:
        """pygls' answer to a finished handler, without its traceback for a request the
        user typed past or cancelled (an expected end, not a failure)."""
        if not future.cancelled():
            exc = future.exception()
            if isinstance(exc, JsonRpcContentModified | JsonRpcRequestCancelled):
                self._request_futures.pop(msg_id, None)
                log.debug("request %r: %s", msg_id, exc.message)
                self._send_response(msg_id, error=exc.to_response_error())
                return
        super()._send_handler_result(future, msg_id=msg_id)

    def _handle_cancel_notification(self, msg_id: Any) -> None:
        """Cancel a pending request: its handler ends at once and the request is answered
        RequestCancelled. A cancel for a request already answered is ignored quietly."""
        future = self._request_futures.pop(msg_id, None)
        if future is None:
            log.debug("cancel for request %r, already answered", msg_id)
        elif future.cancel():
            log.debug("request %r cancelled", msg_id)


def _needs_params(method: str) -> bool:
    """Methods whose params are required by the LSP specification."""
    return method not in (lsp.SHUTDOWN, lsp.EXIT)
