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
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from pydantic import Field

from symfuse.ranking.query.fields import Request, for_agents
from symfuse.server.mcp.budget import Format
from symfuse.server.mcp.models import MaxTokens, OutputFormat

R = TypeVar("R", bound=Request)


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
        from symfuse.server.mcp.server import tool_errors

        with tool_errors():
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
    signature = inspect.Signature([*parameters(model), *rendering], return_annotation=returns)
    tool.__signature__ = signature  # type: ignore[attr-defined]
    tool.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    tool.__annotations__["return"] = returns
    tool.__name__ = tool.__qualname__ = name
    return tool
