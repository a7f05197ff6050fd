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

import logging
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import InvalidRequest, NotFound, OutsideWorkspace, SymfuseError
from symfuse.indexer.index import Index
from symfuse.server.common.service import IndexService, Ranked, is_stale
from symfuse.server.mcp.budget import DEFAULT_MAX_TOKENS, Fitted, Format, fit

log = logging.getLogger(__name__)

SERVER_NAME = "symfuse"

INSTRUCTIONS = """\
symfuse indexes the symbols (definitions, references, calls, inheritance) of the
workspace and answers from that index, so it finds code by name or meaning with
few tokens. Start with `search` (names, words, or "who calls X"); take a
symbol_id from its answer to `get_symbol` (source and context), `find_usages`,
`callers`/`callees` or `type_hierarchy`. Use `search_text` for strings,
comments and anything that is not a symbol. Every answer says how old the
index is (`index_age_seconds`) and whether files changed since (`stale`);
`output_format: "toon"` gives the same data in fewer tokens; `max_tokens`
bounds an answer and `offset` pages on when it says `truncated: true`."""


@dataclass(frozen=True, slots=True)
class MCPOptions:
    """How the server behaves; the CLI fills it from its options."""

    ready_timeout: float = 20.0  # seconds a tool waits for the first index
    watch: bool = True  # watch the roots and re-index changed files
    debounce_ms: int = 50
    default_max_tokens: int = DEFAULT_MAX_TOKENS
    warm: bool = True  # build ranking structures in the background after each change
    stop_timeout: float = 5.0  # seconds stopping waits for each background thread


TEXT_SCANS = 2  # text scans that run at once; the others wait, within their time limit


class Backend:
    """The index service plus everything each tool needs around a query."""

    def __init__(self, service: IndexService, options: MCPOptions) -> None:
        self.service = service
        self.options = options
        # Text scans read every file: a few at a time, so a burst of slow regexes never
        # takes the worker threads every other tool answers from.
        self.scans = threading.BoundedSemaphore(TEXT_SCANS)

    # --- lifecycle ------------------------------------------------------------------

    def start(self) -> None:
        self.service.start(watch=self.options.watch, debounce_ms=self.options.debounce_ms)

    def stop(self) -> None:
        self.service.stop(self.options.stop_timeout)

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
        """The two fields every answer carries."""
        status = self.service.live.status()
        return {
            "stale": is_stale(status),
            "index_age_seconds": round(status.age_seconds, 1),
        }

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
        shape: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        stale: bool = False,
    ) -> CallToolResult:
        """``data`` plus freshness, trimmed to the budget, as text and structured content."""
        data = {**data, **self.freshness()}
        if stale:
            data["stale"] = True
        budget = max_tokens or self.options.default_max_tokens
        fitted = fit(data, rows_key, fmt, budget, offset=offset, total=total, shape=shape)
        return as_result(fitted)


def as_result(fitted: Fitted) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=fitted.text)],
        structured_content=fitted.data,
    )


@contextmanager
def tool_errors(*, not_found: str | None = None) -> Iterator[None]:
    """Translate symfuse errors into tool errors the model can act on.

    ``not_found`` names the argument a NotFound is about when the message does
    not say it already (for example ``symbol_id``).
    """
    try:
        yield
    except InvalidRequest as exc:
        raise ToolError(f"invalid argument {exc}") from exc
    except OutsideWorkspace as exc:
        text = str(exc)
        if "relative" not in text:
            text += "; give a path relative to a workspace root, as answers show them"
        raise ToolError(text) from exc
    except NotFound as exc:
        text = str(exc)
        if not_found and not text.startswith(not_found):
            text = f"{not_found}: {text}"
        raise ToolError(
            f"{text}. Use `search` to find the right symbol_id or path, then call again"
        ) from exc
    except SymfuseError as exc:
        raise ToolError(str(exc)) from exc


def build_mcp_server(
    config: IndexConfig,
    options: MCPOptions | None = None,
    *,
    service: IndexService | None = None,
) -> MCPServer[Any]:
    """A fresh MCP server over the workspace ``config`` describes (indexing starts with it).

    ``service``: the index service to run on (one not started yet; its own ``warm``
    setting applies), for a caller that waits on its changes; by default a new one.
    """
    from symfuse.server.mcp import tools as mcp_tools

    options = options or MCPOptions()
    backend = Backend(service or IndexService(config, warm=options.warm), options)

    @asynccontextmanager
    async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        backend.start()
        try:
            yield {}
        finally:
            backend.stop()

    server: MCPServer[Any] = MCPServer(
        SERVER_NAME,
        instructions=INSTRUCTIONS,
        version=_version(),
        lifespan=lifespan,
        log_level="WARNING",
    )
    mcp_tools.register(server, backend)
    return server


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("symfuse")
    except PackageNotFoundError:
        return "0"
