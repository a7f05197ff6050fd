"""MCP tool functions generated from the query layer's request models.

:func:`tool_function` turns a request model into a function whose signature
has one parameter per request field (the field's type, bounds, description
and default, with :class:`ForAgents` caps and defaults applied) plus the two
rendering parameters every tool takes, ``output_format`` and ``max_tokens``.
The MCP SDK builds the tool's input schema from that signature, so the schema
is the model's. The function validates the arguments into the request with
:meth:`Request.from_mapping` and hands it to the tool's body.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase
from mcp_types import ToolAnnotations
from pydantic import ConfigDict, Field

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.query.fields import Request, for_agents
from symfuse.server.common.present import Format
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.models import MaxTokens, OutputFormat

R = TypeVar("R", bound=Request)
RENDERING = ("output_format", "max_tokens")  # the parameters every tool adds to its request's


@dataclass(frozen=True, slots=True)
class Rendering:
    """How a tool's answer is written: the format and the token budget (None: the default)."""

    format: Format
    max_tokens: int | None


def parameters(model: type[Request]) -> list[inspect.Parameter]:
    """One keyword parameter per field of ``model``, as an agent sees it."""
    params: list[inspect.Parameter] = []
    for name, info in model.model_fields.items():
        agents = for_agents(model, name)
        extra: dict[str, Any] = {"description": info.description}
        if agents is not None and agents.cap is not None:
            extra["le"] = agents.cap
        default = info.default
        if agents is not None and agents.default is not None:
            default = agents.default
        if info.is_required():
            default = inspect.Parameter.empty
        annotation: Any = Annotated[info.rebuild_annotation(), Field(**extra)]
        params.append(
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
            )
        )
    return params


def tool_function(
    name: str,
    model: type[R],
    body: Callable[[R, Rendering], Any],
    returns: Any,
) -> Callable[..., Any]:
    """A function named ``name`` taking ``model``'s fields plus the rendering parameters."""
    fields = tuple(model.model_fields)

    def tool(**arguments: Any) -> Any:
        with tool_errors():
            unknown = sorted(set(arguments) - {*fields, *RENDERING})
            if unknown:
                accepted = ", ".join([*fields, *RENDERING])
                raise InvalidRequest(unknown[0], f"not an argument of {name}; it takes {accepted}")
            request = model.from_mapping({k: arguments.get(k) for k in fields})
        rendering = Rendering(
            Format(arguments.get("output_format") or "json"), arguments.get("max_tokens")
        )
        return body(request, rendering)

    rendering = [
        inspect.Parameter(
            "output_format",
            inspect.Parameter.KEYWORD_ONLY,
            default="json",
            annotation=OutputFormat,
        ),
        inspect.Parameter(
            "max_tokens", inspect.Parameter.KEYWORD_ONLY, default=None, annotation=MaxTokens
        ),
    ]
    # A model with its own max_tokens (search_history trims hunks to it) publishes that one.
    rendering = [p for p in rendering if p.name not in fields]
    signature = inspect.Signature([*parameters(model), *rendering], return_annotation=returns)
    tool.__signature__ = signature  # type: ignore[attr-defined]
    tool.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    tool.__annotations__["return"] = returns
    tool.__name__ = tool.__qualname__ = name
    return tool


class Toolbox:
    """The tools of a server being built, each finished as :func:`finished` says; the
    server is then made with them (``MCPServer(tools=...)``), through the SDK's public API.

    ``add_tool`` takes what ``MCPServer.add_tool`` takes, so a tool module registers the
    same way on either.
    """

    def __init__(self) -> None:
        self.tools: list[Tool] = []

    def add_tool(
        self,
        fn: Callable[..., Any],
        name: str,
        description: str,
        annotations: ToolAnnotations | None = None,
    ) -> None:
        tool = Tool.from_function(fn, name=name, description=description, annotations=annotations)
        self.tools.append(finished(tool))


def finished(tool: Tool) -> Tool:
    """``tool`` refusing an argument it does not take, by name, with lean schemas.

    The SDK validates arguments with a model that ignores unknown keys (pydantic's
    default), so a misspelt argument would quietly take its default. The argument model
    is swapped for one that keeps them (the tool function then names the first and lists
    the accepted ones), and the schema says ``additionalProperties: false``. Both schemas
    are then published in their lean form (:func:`lean_schema`): a client checks every
    structured answer against the output schema, and an agent reads ``tools/list`` into
    its context, so less to walk and to read costs less on every call and every session.
    """
    metadata = tool.fn_metadata
    code = getattr(tool.fn, "__code__", None)  # its published signature hides **
    takes_any = code is not None and bool(code.co_flags & inspect.CO_VARKEYWORDS)
    metadata.arg_model = _with_extras(metadata.arg_model, keep=takes_any)
    tool.parameters["additionalProperties"] = False
    tool.parameters = lean_schema(tool.parameters)
    if metadata.output_schema is not None:
        metadata.output_schema = lean_schema(metadata.output_schema)
    return tool


def _with_extras(model: type[ArgModelBase], *, keep: bool) -> type[ArgModelBase]:
    """``model`` passing unknown arguments on to a generated tool function (``keep``),
    which names them; for a hand-written one, refusing them in validation."""

    class Checked(model):  # type: ignore[misc,valid-type]
        model_config = ConfigDict(extra="allow" if keep else "forbid", title=model.__name__)

        def model_dump_one_level(self) -> dict[str, Any]:
            return {**super().model_dump_one_level(), **(self.__pydantic_extra__ or {})}

    return Checked


def lean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` accepting exactly the same documents, with less for a validator to walk:

    - ``{"anyOf": [S, {"type": "null"}]}`` with ``S`` of one type is ``S`` whose type
      is ``[type, "null"]`` (``S``'s other keywords only apply to its own type);
    - a ``$ref`` into ``$defs`` is replaced by the definition (unless it is recursive);
    - ``additionalProperties: true`` (the default) and pydantic's generated ``title``
      annotations are left out.
    """
    definitions: dict[str, Any] = schema.get("$defs", {})

    def walk(node: Any, inside: tuple[str, ...]) -> Any:
        if isinstance(node, list):
            return [walk(item, inside) for item in node]
        if not isinstance(node, dict):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            name = ref.removeprefix("#/$defs/")
            if name in definitions and name not in inside:
                return walk(definitions[name], (*inside, name))
            return node
        lean = {
            key: walk(value, inside)
            for key, value in node.items()
            if key not in ("$defs", "title")
            and not (key == "additionalProperties" and value is True)
        }
        return _nullable(lean)

    lean: dict[str, Any] = walk(schema, ())
    if any(isinstance(n, dict) and "$ref" in n for n in _nodes(lean)):
        lean["$defs"] = definitions  # a recursive model still refers to its definition
    return lean


def _nullable(node: dict[str, Any]) -> dict[str, Any]:
    """``{"anyOf": [S, {"type": "null"}], ...}`` as ``S`` typed ``[S.type, "null"]``."""
    alternatives = node.get("anyOf")
    if not isinstance(alternatives, list) or len(alternatives) != 2:
        return node
    if {"type": "null"} not in alternatives:
        return node
    other = alternatives[0] if alternatives[1] == {"type": "null"} else alternatives[1]
    if not isinstance(other, dict) or not isinstance(other.get("type"), str):
        return node
    if set(other) & (set(node) - {"anyOf"}):
        return node  # the two would clash on a keyword: keep the anyOf
    merged = {key: value for key, value in node.items() if key != "anyOf"}
    merged.update(other)
    merged["type"] = [other["type"], "null"]
    return merged


def _nodes(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)
