"""The MCP server: a factory that wires a live index to the tools.

``build_mcp_server(config)`` returns an ``MCPServer`` whose lifespan starts a
live index in the background (load the stored index or build one in
batches, then watch the roots), so the protocol answers at once. Tools run on
worker threads: one that needs the index before it is ready waits for it up to
``MCPOptions.ready_timeout`` seconds, then answers with a message to retry.

:class:`Backend` is what the tools share: the index service (the live index and its
ranking structures, :mod:`symfuse.server.common.service`), the options, the
freshness stamp every answer carries (``stale``, ``index_age_seconds``), the
token budget and the translation of symfuse errors into tool errors.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from symfuse.indexer.config import IndexConfig, split_alias
from symfuse.indexer.errors import InvalidRequest
from symfuse.indexer.files.roles import Role, role_of
from symfuse.indexer.index import Index
from symfuse.ranking.api import Histories
from symfuse.ranking.query.fields import Request
from symfuse.server.common.history import HistoryKeeper
from symfuse.server.common.observe import Observer, Query
from symfuse.server.common.present import Fitted, Format, Grouping, fit
from symfuse.server.common.service import IndexService
from symfuse.server.common.service_records import Ranked, is_stale
from symfuse.server.mcp.options import MCPOptions
from symfuse.server.mcp.pools import Lane, ToolPools
from symfuse.server.mcp.protocol import ToolAnswer, ToolError, ToolSpec
from symfuse.server.mcp.schema import Rendering, Toolbox, ToolFunction, input_schema, tool_function
from symfuse.server.mcp.surface import Surface
from symfuse.server.mcp.toolset import choose

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

    from symfuse.ranking.api import SearchRequest, SearchResponse

log = logging.getLogger(__name__)
# a partial answer's namesakes are ordered among this many matches: what is parsed so far
# has no PageRank to put the product's definition among the page's first few
PARTIAL_POOL = 50

__all__ = ["Backend", "MCPOptions", "as_result", "build_mcp_server"]  # MCPOptions: .options

SERVER_NAME = "symfuse"

INSTRUCTIONS = """\
symfuse answers from an index of the workspace's definitions, references and
imports: few tokens per answer. Start with `search` (a name, words, or "who calls
X"), pass an item's symbol_id as `target` to `get_symbol` (its source) or
`find_usages`; `search_text` for strings and comments, `read_file` for any file.
Rarely needed arguments go in `options` (each tool lists their names). When an
answer says truncated, call again with its next_offset as `offset`; one that says
stale was made while changed files were being re-indexed (it may miss the latest
edits)."""


TEXT_SCANS = 2  # text scans that run at once; the others wait, within their time limit

R = TypeVar("R", bound=Request)


@dataclass(frozen=True, slots=True)
class Answered:
    """What a tool answered, before freshness and timing were added: what the cache keeps."""

    data: dict[str, Any]
    rows_key: str
    fmt: Format
    max_tokens: int | None
    offset: int
    total: int | None
    grouping: Grouping | None
    stale: bool

    @property
    def results(self) -> int:
        return self.total if self.total is not None else len(self.data.get(self.rows_key) or [])


@dataclass(slots=True)
class _Call:
    query: Query
    answered: Answered | None = None


_CALL: ContextVar[_Call | None] = ContextVar("symfuse_mcp_call", default=None)


class Backend:
    """The index service plus everything each tool needs around a query."""

    def __init__(self, service: IndexService, options: MCPOptions) -> None:
        self.service = service
        self.options = options
        # Text scans read every file: a few at a time, so a burst of slow regexes never
        # takes the worker threads every other tool answers from.
        self.scans = threading.BoundedSemaphore(TEXT_SCANS)
        self.observer = Observer("mcp", service.index_dir, cache=True, background=True)
        self.history = HistoryKeeper(service.config, build=options.history)
        self.pools = ToolPools()
        self._started = False

    # --- lifecycle ------------------------------------------------------------------

    def start(self) -> None:
        """Start indexing, serving and the history (once: the stdio front starts the backend
        before the SDK's server, whose start-up calls this again)."""
        if self._started:
            return
        self._started = True
        self.service.start(watch=self.options.watch, debounce_ms=self.options.debounce_ms)
        self.service.serving()  # the SDK is loaded: the work ahead may compete with nothing
        self.history.start()

    def stop(self) -> None:
        self.history.stop(self.options.stop_timeout)
        self.service.stop(self.options.stop_timeout)
        self.observer.close()
        self.pools.close()

    def change_roots(self, add: str | None, remove: str | None) -> dict[str, str]:
        """Serve another repository (``add``: "PATH" or "ALIAS=PATH"), or stop serving one
        (``remove``: its alias): a new index service over the new roots replaces the
        current one, whose answers until then stay valid; the query cache is emptied.
        The new roots (alias -> path)."""
        config = self.service.config
        names = dict(zip(config.aliases, config.roots, strict=True))
        if remove is not None:
            if remove not in names:
                raise InvalidRequest(
                    "remove_root", f"no repository {remove!r}; see list_repositories"
                )
            if len(names) == 1:
                raise InvalidRequest("remove_root", "the last repository cannot be removed")
            del names[remove]
        if add is not None:
            alias, path = split_alias(add)
            root = Path(path).expanduser()
            if not root.is_absolute() or not root.is_dir():
                raise InvalidRequest("add_root", f"{path!r} is not an absolute path to a directory")
            names[alias or root.resolve().name] = root.resolve()
        changed = dataclasses.replace(config, roots=tuple(names.values()), names=tuple(names))
        old, self.service = self.service, IndexService(changed, warm=self.options.warm)
        self.history.stop(self.options.stop_timeout)
        self.history = HistoryKeeper(changed, build=self.options.history)
        if self.observer.cache is not None:
            self.observer.cache.clear()
        self._started = False  # the new service and history start now
        self.start()
        old.stop(self.options.stop_timeout)
        return changed.aliases

    # --- tools ----------------------------------------------------------------------

    def tool(
        self,
        name: str,
        model: type[R],
        body: Callable[[R, Rendering], ToolAnswer],
        returns: type[Any] | None,
        surface: Surface,
        *,
        cached: bool = True,
        lane: Lane = Lane.QUERY,
        light: bool = False,
    ) -> ToolFunction:
        """The tool function of ``body`` (:func:`tool_function`, taking ``surface``'s
        arguments; ``returns``: the model of its structured answer), observed: each call is
        timed, logged and recorded in the metrics, and with ``cached`` (a read-only query)
        answered from the query cache when the same request met the same index. It runs in
        ``lane``'s thread pool (:mod:`.pools`). A ``light`` tool (a status, statistics)
        reads no index: its calls are not clients' queries the work ahead waits a pause
        of (server/common/turns.py), so a client polling it does not hold that work off."""
        run = self._cached(name, body) if cached else body
        inner = tool_function(name, model, run, surface)

        def observed(**arguments: Any) -> ToolAnswer:
            asking = nullcontext() if light else self.service.asking()
            with asking, self.observer.query(name) as query:
                call = _Call(query)
                token = _CALL.set(call)
                try:
                    return inner(**arguments)
                finally:
                    _CALL.reset(token)
                    if call.answered is not None:
                        query.results = call.answered.results

        observed.__name__ = observed.__qualname__ = name
        return ToolFunction(observed, input_schema(model, surface), returns, lane)

    def _cached(
        self, name: str, body: Callable[[R, Rendering], ToolAnswer]
    ) -> Callable[[R, Rendering], ToolAnswer]:
        cache = self.observer.cache
        assert cache is not None

        def run(request: R, rendering: Rendering) -> ToolAnswer:
            call = _CALL.get()
            key = (name, request.model_dump_json(), rendering.format, rendering.max_tokens)
            generation = self.service.version  # read before the answer is computed
            hit = cache.get(key, generation)
            if hit is not None and call is not None:
                call.query.cache_hit = True
                result = self._render(hit.value)
                call.query.saved_ms = max(0.0, hit.elapsed_ms - call.query.elapsed_ms)
                cache.saved(call.query.saved_ms)
                return result
            result = body(request, rendering)
            if call is not None and call.answered is not None and not result.is_error:
                cache.put(key, generation, call.answered, call.query.elapsed_ms)
            return result

        return run

    def histories(self) -> Histories:
        """The history index, once the background build (``--history``) is done or the
        ready timeout has passed (then the error says it is still being built)."""
        self.history.wait(self.options.ready_timeout)
        self.history.refresh()  # commits made since the server started
        return self.history.histories()

    # --- reading --------------------------------------------------------------------

    def wait_ready(self) -> None:
        """Return once the index can answer; a readable ToolError past the bound."""
        if self.service.live.ready:
            return
        if not self.service.wait_ready(self.options.ready_timeout):
            status = self.service.live.status()
            raise ToolError(
                "the index is still being built for the first time "
                f"({status.files} files indexed so far, waited "
                f"{self.options.ready_timeout:g} s); retry in a few seconds, "
                "or call index_status to watch its progress"
            )
        status = self.service.live.status()
        if status.error and not status.files:
            raise ToolError(f"{status.error}; fix the cause and call reindex")

    def partial(self, request: SearchRequest) -> tuple[SearchResponse, int] | None:
        """A name's answer from the files the first index's build has parsed so far
        (:mod:`symfuse.indexer.update.early`), and how many, once the search has waited
        ``partial_after`` seconds for the index, as a cold start answers a name: from
        1,000 symbols its namesakes in their likely order, below that only when names leave
        no choice (the product's code is parsed first); asked again as the build writes more
        (``partial_again``) until the index is whole, then None and the search waits."""
        from symfuse.ranking.api import SearchResponse, early_answer, is_identifier_shaped
        from symfuse.ranking.query.parse import parse

        if not is_identifier_shaped(request.query):
            return None  # words are answered from every name, a call question from links
        parsed = parse(request)
        name = request.query.strip().rpartition(".")[2]
        live, options = self.service.live, self.options
        if live.ready or self.service.wait_ready(options.partial_after):
            return None
        deadline = time.monotonic() + options.ready_timeout
        seen: Index | None = None  # the parsed files last asked (no new segment: the same)
        while time.monotonic() < deadline:
            index = live.early()  # answered as a cold start answers a name (early_answer)
            if index is not None and index is not seen:
                seen = index
                answer = early_answer(index, request, parsed, large=False, pool=PARTIAL_POOL)
                if isinstance(answer, SearchResponse) and _named(answer, name):
                    return answer, len(index.files)
            if self.service.wait_ready(options.partial_again):
                return None
        return None

    @contextmanager
    def reading(self) -> Iterator[Index]:
        """The ready index, locked for the duration of one query."""
        self.wait_ready()
        with self.service.reading() as index:
            yield index

    @contextmanager
    def ranked(self) -> Iterator[Ranked]:
        """The index and ranking structures a search runs on (:meth:`IndexService.ranked`)."""
        self.wait_ready()
        with self.service.ranked() as ranked:
            yield ranked

    def freshness(self) -> dict[str, Any]:
        """The fields every answer carries: how fresh the index is, what answering took
        (so far), and whether the query cache answered."""
        status = self.service.live.status()
        fields: dict[str, Any] = {
            "stale": is_stale(status),
            "index_age_seconds": round(status.age_seconds, 1),
        }
        call = _CALL.get()
        if call is not None:
            fields["elapsed_ms"] = round(call.query.elapsed_ms, 2)
            if call.query.cache_hit:
                fields["cache_hit"] = True
        return fields

    # --- answering ------------------------------------------------------------------

    def answer(
        self,
        data: dict[str, Any],
        rows_key: str,
        fmt: Format,
        max_tokens: int | None,
        *,
        offset: int = 0,
        total: int | None = None,
        grouping: Grouping | None = None,
        stale: bool = False,
    ) -> ToolAnswer:
        """``data`` plus freshness and timing, trimmed to the budget, as text and structured
        content."""
        answered = Answered(data, rows_key, fmt, max_tokens, offset, total, grouping, stale)
        call = _CALL.get()
        if call is not None:
            call.answered = answered
        return self._render(answered)

    def _render(self, answered: Answered) -> ToolAnswer:
        data = {**answered.data, **self.freshness()}
        if answered.stale:
            data["stale"] = True
        budget = answered.max_tokens or self.options.default_max_tokens
        fitted = fit(
            data,
            answered.rows_key,
            answered.fmt,
            budget,
            offset=answered.offset,
            total=answered.total,
            grouping=answered.grouping,
        )
        return as_result(fitted)


def _named(answer: SearchResponse, name: str) -> bool:
    """Whether ``answer`` leads with a product definition spelled ``name``, case and all:
    what is parsed so far may hold only a namesake in another case or in an example (a
    field ``session``, an example's ``Session = scoped_session(...)``) while the file of
    the class ``Session`` is still parsing, which the whole index would not put first."""
    if not answer.items:
        return False
    first = answer.items[0].symbol
    return first.name == name and role_of(first.file) is Role.PRODUCT


def as_result(fitted: Fitted) -> ToolAnswer:
    return ToolAnswer(fitted.text, fitted.data)


def build_tools(
    config: IndexConfig,
    options: MCPOptions | None = None,
    *,
    service: IndexService | None = None,
) -> tuple[Backend, list[ToolSpec]]:
    """The backend over the workspace ``config`` describes and the tools a server lists
    (``options.tools``; an unknown name is InvalidRequest), before any protocol library.

    ``service``: the index service to run on (one not started yet; its own ``warm``
    setting applies); by default a new one.
    """
    from symfuse.server.mcp import tools as mcp_tools

    options = options or MCPOptions()
    backend = Backend(service or IndexService(config, warm=options.warm), options)
    toolbox = Toolbox()
    mcp_tools.register(toolbox, backend)
    try:
        chosen = choose(options.tools, [tool.name for tool in toolbox.tools])
    except InvalidRequest:
        backend.observer.close()
        raise
    return backend, [tool for tool in toolbox.tools if tool.name in chosen]


def build_mcp_server(
    config: IndexConfig,
    options: MCPOptions | None = None,
    *,
    service: IndexService | None = None,
) -> MCPServer[Any]:
    """A fresh MCP server over the workspace ``config`` describes (indexing starts with it).

    ``service``: the index service to run on (one not started yet; its own ``warm``
    setting applies), for a caller that waits on its changes; by default a new one.
    ``options.tools`` chooses the tools listed; an unknown name is InvalidRequest.
    """
    from symfuse.server.mcp.sdk import sdk_server

    backend, tools = build_tools(config, options, service=service)
    return sdk_server(backend, tools)
