"""The MCP SDK's server made from symfuse's tools: the only module that builds on the SDK.

:func:`sdk_server` turns the tools (:class:`~.protocol.ToolSpec`) into the SDK's tools
and an ``MCPServer`` whose lifespan starts the backend; each call runs the tool's
function in its lane's thread pool and translates its answer (:class:`~.protocol.ToolAnswer`)
and its failure (:class:`~.protocol.ToolError`) into the SDK's. Importing the SDK takes
about as long as everything else a first answer needs, so a stdio server answers its
first requests without it (:mod:`.front`) and hands over to this one.
"""

from __future__ import annotations

import dataclasses
import functools
import inspect
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError as SDKToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ConfigDict

from symfuse.server.common.about import version
from symfuse.server.mcp.listed import ListedToolsServer
from symfuse.server.mcp.protocol import ToolAnswer, ToolError, ToolSpec
from symfuse.server.mcp.schema import lean_output_schema, lean_schema
from symfuse.server.mcp.server import INSTRUCTIONS, SERVER_NAME, Backend


def sdk_server(backend: Backend, tools: list[ToolSpec]) -> MCPServer[Any]:
    """The SDK's server of ``tools`` over ``backend``, which its lifespan starts and stops."""

    @asynccontextmanager
    async def lifespan(_server: MCPServer[Any]) -> AsyncIterator[dict[str, Any]]:
        backend.start()
        try:
            yield {}
        finally:
            backend.stop()

    with _sdk_logging_left_alone():
        server: MCPServer[Any] = ListedToolsServer(
            SERVER_NAME,
            instructions=INSTRUCTIONS,
            version=version(),
            lifespan=lifespan,
            log_level="WARNING",
            tools=[sdk_tool(spec, backend) for spec in tools],
        )
    return server


def run_stdio(server: MCPServer[Any], stdin: Any, stdout: Any) -> None:
    """``server.run("stdio")`` over the given streams (what ``run_stdio_async`` does with
    the process's own): the stdio front hands the SDK the wire it has been reading."""
    import anyio
    from mcp.server.stdio import stdio_server

    lowlevel = server._lowlevel_server  # MCPServer runs stdio through it; no public name

    async def serve() -> None:
        async with stdio_server(stdin, stdout) as (read, write):
            await lowlevel.run(read, write, lowlevel.create_initialization_options())

    anyio.run(serve)


def as_call_result(answer: ToolAnswer) -> CallToolResult:
    """``answer`` as the SDK's result."""
    text = TextContent(type="text", text=answer.text)
    if answer.is_error:
        return CallToolResult(content=[text], structured_content=answer.data, is_error=True)
    return CallToolResult(content=[text], structured_content=answer.data)


def sdk_tool(spec: ToolSpec, backend: Backend) -> Tool:
    """The SDK's tool of ``spec``: its function runs in the tool's lane."""

    async def tool(**arguments: Any) -> CallToolResult:
        work = functools.partial(spec.call, **arguments)
        try:
            answer = await backend.pools.run(spec.lane, work)
        except ToolError as exc:
            raise SDKToolError(str(exc)) from exc
        return as_call_result(answer)

    returns: Any = CallToolResult
    if spec.output_model is not None:
        returns = Annotated[CallToolResult, spec.output_model]
    tool.__signature__ = inspect.Signature([], return_annotation=returns)  # type: ignore[attr-defined]
    tool.__annotations__ = {"return": returns}
    tool.__name__ = tool.__qualname__ = spec.name
    hints = None
    if spec.annotations is not None:
        hints = ToolAnnotations(**{
            key: value
            for key, value in dataclasses.asdict(spec.annotations).items()
            if value is not None
        })  # fmt: skip
    made = Tool.from_function(tool, name=spec.name, description=spec.description, annotations=hints)
    return finished(made, dict(spec.input_schema))


def finished(tool: Tool, schema: dict[str, Any] | None = None) -> Tool:
    """``tool`` with the input schema ``schema``, and lean schemas.

    A tool function reads its arguments itself: the SDK's argument model is swapped for
    one that hands every argument on (the SDK would refuse an unknown one, or a bad value,
    with pydantic's report before our code could name it), and the published input
    schema is ``schema``. A tool without one keeps the SDK's model, refusing unknown
    arguments. The output schema is published, not checked on the way out. Both schemas
    are published in their lean form (:func:`lean_schema`, :func:`lean_output_schema`): a
    client checks every structured answer against the output schema, and an agent reads
    ``tools/list`` into its context, so less to walk and to read costs less on every call
    and every session.
    """
    metadata = tool.fn_metadata
    metadata.arg_model = _with_extras(metadata.arg_model, keep=schema is not None)
    if schema is not None:
        tool.parameters = schema
    else:
        tool.parameters["additionalProperties"] = False
        tool.parameters = lean_schema(tool.parameters)
    if metadata.output_schema is not None:
        metadata.output_schema = lean_output_schema(metadata.output_schema)
        # Published, not checked here: the client checks every structured answer against
        # it (the SDK's ClientSession does), and a check on both ends validated each answer
        # twice (tests/server/mcp check the answers through the SDK's client).
        metadata.output_model = None
    return tool


def _with_extras(model: type[ArgModelBase], *, keep: bool) -> type[ArgModelBase]:
    """``model`` passing unknown arguments on to a generated tool function (``keep``),
    which names them; for a hand-written one, refusing them in validation."""

    class Checked(model):  # type: ignore[misc,valid-type]
        model_config = ConfigDict(extra="allow" if keep else "forbid", title=model.__name__)

        def model_dump_one_level(self) -> dict[str, Any]:
            return {**super().model_dump_one_level(), **(self.__pydantic_extra__ or {})}

    return Checked


@contextmanager
def _sdk_logging_left_alone() -> Iterator[None]:
    """Construct ``MCPServer`` without its ``configure_logging``.

    The SDK's constructor imports rich and makes a ``RichHandler`` for
    ``logging.basicConfig``, which does nothing once the root logger has a handler, as
    ours has (stderr or ``--log-file``, set by the CLI before any server): time and
    memory of a server's start for nothing. An SDK without that function is left as it is.
    """
    from mcp.server.mcpserver import server as sdk

    configure = getattr(sdk, _SDK_CONFIGURE, None)
    if configure is None:
        yield
        return
    setattr(sdk, _SDK_CONFIGURE, lambda *_args, **_kwargs: None)
    try:
        yield
    finally:
        setattr(sdk, _SDK_CONFIGURE, configure)


_SDK_CONFIGURE = "configure_logging"  # mcp.server.mcpserver.server's, called by MCPServer()


__all__ = ["as_call_result", "finished", "run_stdio", "sdk_server", "sdk_tool"]
