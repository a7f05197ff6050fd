"""The MCP server: a factory that wires a live index to the tools.

``build_mcp_server(config)`` returns an ``MCPServer`` whose lifespan starts a
:class:`LiveIndex` in the background (load the stored index or build one in
batches, then watch the roots), so the protocol answers at once. Tools run on
worker threads: one that needs the index before it is ready waits for it up to
``MCPOptions.ready_timeout`` seconds, then answers with a message to retry.

:class:`Backend` is what the tools share: the live index, the options, the
freshness stamp every answer carries (``stale``, ``index_age_seconds``), the
token budget and the translation of symfuse errors into tool errors.
"""

from __future__ import annotations

import logging
import threading
import time
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
from symfuse.indexer.live import LiveIndex
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


class Backend:
    """The live index plus everything each tool needs around a query."""

    def __init__(self, live: LiveIndex, options: MCPOptions) -> None:
        self.live = live
        self.options = options
        self.started_at = time.monotonic()
        self._stop = threading.Event()
        self._warmer: threading.Thread | None = None
        # The newest index whose ranking structures are built, with them.
        self._ranked: tuple[Index, Any] | None = None

    # --- lifecycle ------------------------------------------------------------------

    def start(self) -> None:
        self.live.start()
        if self.options.watch:
            self.live.watch(self.options.debounce_ms)
        if self.options.warm:
            self._warmer = threading.Thread(target=self._warm, name="symfuse-warm", daemon=True)
            self._warmer.start()

    def stop(self) -> None:
        self._stop.set()
        self.live.stop()
        if self._warmer is not None:
            self._warmer.join(timeout=5)

    def _warm(self) -> None:
        """Build the ranking structures of each new index before a search needs them."""
        from symfuse.ranking.api import prepare

        directory = self.live.config.store.directory
        seen: tuple[int, int] | None = None
        while not self._stop.wait(0.05):
            if not self.live.ready:
                continue
            with self.live.reading() as index:
                current = index
            key = (id(current), current.generation)
            if key == seen:
                continue
            try:
                self._ranked = (current, prepare(current, directory))
            except (SymfuseError, OSError, ValueError) as exc:
                log.warning("preparing the ranking structures failed: %s", exc)
            seen = key

    # --- reading --------------------------------------------------------------------

    def wait_ready(self) -> None:
        """Return once the index can answer; a readable ToolError past the bound."""
        if self.live.ready:
            return
        if not self.live.wait_ready(self.options.ready_timeout):
            status = self.live.status()
            raise ToolError(
                "the index is still being built for the first time "
                f"({status.files} files indexed so far, waited "
                f"{self.options.ready_timeout:g} s); retry in a few seconds, "
                "or call index_status to watch its progress"
            )
        error = self.live.status().error
        if error and not self.live.status().files:
            raise ToolError(f"{error}; fix the cause and call reindex")

    @contextmanager
    def reading(self) -> Iterator[Index]:
        """The ready index, locked for the duration of one query."""
        self.wait_ready()
        with self.live.reading() as index:
            yield index

    @contextmanager
    def ranked(self) -> Iterator[tuple[Index, Any, bool]]:
        """``(index, prepared ranking data or None, stale)`` for a search.

        Building the ranking structures of a changed index takes a while on a
        big workspace; meanwhile searches are answered from the last index
        that has them (flagged stale) instead of waiting.
        """
        self.wait_ready()
        ranked = self._ranked
        with self.live.reading() as index:
            if ranked is None or ranked[0] is index:
                yield index, None if ranked is None else ranked[1], False
                return
        yield ranked[0], ranked[1], True

    def freshness(self) -> dict[str, Any]:
        """The two fields every answer carries."""
        status = self.live.status()
        return {
            "stale": bool(status.stale or not status.ready),
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
    live: LiveIndex | None = None,
) -> MCPServer[Any]:
    """A fresh MCP server over the workspace ``config`` describes (indexing starts with it)."""
    from symfuse.server.mcp import tools as mcp_tools

    backend = Backend(live or LiveIndex(config), options or MCPOptions())

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
