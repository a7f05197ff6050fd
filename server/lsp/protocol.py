"""JSON-RPC as the spec says, where pygls is lenient: every request gets an answer.

pygls drops a request whose params do not deserialize (the client waits forever),
answers requests before ``initialize`` with an internal error, ignores them after
``shutdown`` and accepts ``"id": null``. :class:`ConformingProtocol` answers:

- params that do not fit the method's types (missing, a string, a position given
  as strings, a negative character, a line past 2^31 - 1, a query that is not a
  string, a URI that is not a string): ``-32602 InvalidParams``;
- a request before ``initialize``: ``-32002 ServerNotInitialized``;
- a request after ``shutdown``: ``-32600 InvalidRequest``;
- a request with ``"id": null``: ``-32600 InvalidRequest`` (ids are integers or strings).

It also times every request from its arrival to its response, and records it
in the query metrics of the server's index (:mod:`symfuse.server.common.observe`):
the one place every method passes, whatever its handler.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from lsprotocol import types as lsp
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol

from symfuse.server.common.observe import Observer, Query, new_request_id

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
        self.symbol_requests = 0  # workspace/symbol requests read so far
        self._symbol_numbers: dict[int, int] = {}  # id(params) of one pending -> its number
        self._symbol_params: dict[Any, int] = {}  # its msg id -> id(params)

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
            error = self._converter.unstructure(message.error.to_response_error())
            # A plain dict: pygls' response type cannot carry the null id of a bad request.
            self._send_data({"jsonrpc": "2.0", "id": message.msg_id, "error": error})
            return
        if getattr(message, "method", None) == lsp.EXIT and not self._shutdown:
            self.exit_code = 1
        super().handle_message(message)

    def symbol_number(self, params: object) -> int:
        """The arrival number of a pending workspace/symbol request, by its params.

        Numbered as it is read, not when its handler starts: a burst read at once has
        every request but the newest overtaken before any handler runs.
        """
        return self._symbol_numbers.get(id(params), self.symbol_requests)

    def _handle_request(self, msg_id: Any, method_name: str, params: Any) -> None:
        if method_name == lsp.WORKSPACE_SYMBOL:
            self.symbol_requests += 1
            self._symbol_numbers[id(params)] = self.symbol_requests
            self._symbol_params[msg_id] = id(params)
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
        key = self._symbol_params.pop(msg_id, None)
        if key is not None:
            self._symbol_numbers.pop(key, None)
        found = self._in_flight.pop(msg_id, None)
        if found is not None:  # recorded once the answer is on its way
            observer, query = found
            query.results = len(result) if isinstance(result, list) else int(result is not None)
            observer.finish(query, None if error is None else str(error.message))


def _needs_params(method: str) -> bool:
    """Methods whose params are required by the LSP specification."""
    return method not in (lsp.SHUTDOWN, lsp.EXIT)
