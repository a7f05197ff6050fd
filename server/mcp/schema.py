"""MCP tool functions made from the query layer's request models, and the toolbox.

:func:`tool_function` turns a request model and a :class:`~.surface.Surface` into a tool
function that takes the call's arguments as they come. The SDK is told nothing of them
(it would answer a bad one with pydantic's report); the function reads them through the
surface, validates them into the request with :meth:`Request.from_mapping` and hands it
to the tool's body, and a bad one is one line in the tool's own words (:func:`in_public_words`).
The input schema published is the surface's (:func:`input_schema`): the arguments agents
use most, and ``options``. Nothing here imports the MCP SDK (:mod:`.protocol`).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.query.fields import Request, bounds, for_agents
from symfuse.server.common.present import MAX_MAX_TOKENS, MIN_MAX_TOKENS, Format
from symfuse.server.mcp.errors import tool_errors
from symfuse.server.mcp.pools import Lane
from symfuse.server.mcp.protocol import Annotations, ToolAnswer, ToolSpec
from symfuse.server.mcp.surface import Surface

R = TypeVar("R", bound=Request)


@dataclass(frozen=True, slots=True)
class Rendering:
    """How a tool's answer is written: the format and the token budget (None: the default)."""

    format: Format
    max_tokens: int | None


class RenderingArguments(Request):
    """The two arguments every tool takes besides its request's."""

    output_format: Literal["json", "toon"] = "json"
    max_tokens: Annotated[int | None, Field(ge=MIN_MAX_TOKENS, le=MAX_MAX_TOKENS)] = None


def tool_function(
    name: str,
    model: type[R],
    body: Callable[[R, Rendering], ToolAnswer],
    surface: Surface,
) -> Callable[..., ToolAnswer]:
    """The function of tool ``name``: ``surface``'s arguments for ``model`` in, the body's
    answer out."""

    def tool(**arguments: Any) -> ToolAnswer:
        with tool_errors():
            request, rendering = validated(name, model, surface, arguments)
        return body(request, rendering)

    tool.__name__ = tool.__qualname__ = name
    return tool


def input_schema(model: type[Request], surface: Surface) -> dict[str, Any]:
    """The input schema a tool of ``model`` publishes through ``surface``."""
    properties = lean_schema(model.model_json_schema()).get("properties", {})
    return surface.schema(model, properties)


@dataclass(frozen=True, slots=True)
class ToolFunction:
    """A tool before it is named: its call, schemas and lane (:meth:`Backend.tool`)."""

    call: Callable[..., ToolAnswer]
    input_schema: dict[str, Any]
    output_model: type[Any] | None
    lane: Lane = Lane.QUERY


def validated(
    name: str, model: type[R], surface: Surface, arguments: Mapping[str, Any]
) -> tuple[R, Rendering]:
    """The request and the rendering of a call's ``arguments``; InvalidRequest in the
    tool's own words when one is wrong."""
    fields, rendering = surface.read(name, model, arguments)
    try:
        _check_caps(model, fields)
        request = model.from_mapping(fields)
        if not rendering:  # the usual call: the defaults, nothing to validate
            return request, DEFAULT_RENDERING
        shape = RenderingArguments.from_mapping(rendering)
    except InvalidRequest as exc:
        raise in_public_words(exc, model, surface) from None
    return request, Rendering(Format(shape.output_format), shape.max_tokens)


DEFAULT_RENDERING = Rendering(Format(RenderingArguments().output_format), None)


def _check_caps(model: type[Request], fields: Mapping[str, Any]) -> None:
    """The smaller upper bounds agents get (:class:`ForAgents`), which the model does not
    know."""
    caps = _caps(model)
    for name, value in fields.items():
        cap = caps.get(name)
        if cap is None or isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if value > cap:
            raise InvalidRequest(name, f"must be {_range(model, name)}")


@functools.cache
def _caps(model: type[Request]) -> dict[str, int]:
    """The fields of ``model`` with an agent's cap, and the cap (found once a model)."""
    caps: dict[str, int] = {}
    for name in model.model_fields:
        agents = for_agents(model, name)
        if agents is not None and agents.cap is not None:
            caps[name] = agents.cap
    return caps


def _range(model: type[Request], name: str) -> str | None:
    """The numbers ``name`` accepts from an agent: "between 1 and 200", "0 or more"."""
    low, high = bounds(model, name)
    agents = for_agents(model, name)
    if agents is not None and agents.cap is not None:
        high = agents.cap
    if low is not None and high is not None:
        return f"between {_number(low)} and {_number(high)}"
    if low is not None:
        return f"{_number(low)} or more"
    return f"{_number(high)} or less" if high is not None else None


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else f"{value:g}"


_NUMBERS = ("must be an integer", "must be a number")


def in_public_words(exc: InvalidRequest, model: type[Request], surface: Surface) -> InvalidRequest:
    """``exc`` naming the argument as the tool publishes it (``query``, not the model's
    ``pattern``), with what it accepts where the model's message does not say."""
    head, dot, rest = exc.field.partition(".")
    public = surface.public_of(head)
    message = str(exc).removeprefix(f"{exc.field}: ")
    if message in _NUMBERS and (accepted := _range(model, head)):
        message = f"{message} {accepted}"
    elif message.startswith("must be between") and (accepted := _range(model, head)):
        message = f"must be {accepted}"
    elif message.startswith("String should have at least 1 character"):
        message = "must not be empty"
    elif message == "is required":
        message = f"is required: {surface.description(model, public)}"
    return InvalidRequest(public + dot + rest, message)


class Toolbox:
    """The tools of a server being built, in the order they are registered; the SDK's
    server (:mod:`.sdk`) and the stdio front (:mod:`.front`) are both made from them."""

    def __init__(self) -> None:
        self.tools: list[ToolSpec] = []

    def add_tool(
        self,
        fn: ToolFunction,
        name: str,
        description: str,
        annotations: Annotations | None = None,
    ) -> None:
        self.tools.append(
            ToolSpec(
                name=name,
                description=description,
                annotations=annotations,
                input_schema=fn.input_schema,
                output_model=fn.output_model,
                call=fn.call,
                lane=fn.lane,
            )
        )


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


def output_schema(model: type[Any]) -> dict[str, Any]:
    """The output schema a tool answering ``model`` publishes: the model's JSON schema as
    the SDK derives it (a root that only refers into ``$defs`` made the definition itself),
    in its published form (:func:`lean_output_schema`)."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(model).json_schema()
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        definition = schema["$defs"][ref.removeprefix("#/$defs/")]
        schema = {**definition, **{k: v for k, v in schema.items() if k != "$ref"}}
    return lean_output_schema(schema)


def lean_output_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """An output schema as published: :func:`lean_schema`'s form, without ``default``
    annotations, each object schema written out once.

    It accepts exactly the documents ``schema`` accepts. An output schema is what a client
    checks every structured answer against and what an agent may read in ``tools/list``:
    a default there is an annotation no validator applies (an answer leaves a field out
    or gives it), and a model used in two places (the search's row, in ``items`` and in
    each tier) is written once, the later places referring to the first by its JSON
    pointer (``{"$ref": "#/properties/items/items"}``) rather than through ``$defs``, so
    that the usual answer's rows are checked without a reference to resolve.
    """
    return _written_once(_without(lean_schema(schema), "default"))


def _without(node: Any, keyword: str) -> Any:
    """``node`` with ``keyword`` left out of every schema in it (not out of ``properties``,
    whose keys are field names)."""
    if isinstance(node, list):
        return [_without(item, keyword) for item in node]
    if not isinstance(node, dict):
        return node
    return {
        key: (
            {name: _without(sub, keyword) for name, sub in value.items()}
            if key == "properties" and isinstance(value, dict)
            else _without(value, keyword)
        )
        for key, value in node.items()
        if key != keyword
    }


def _written_once(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with each later copy of an object schema (one with ``properties``)
    replaced by a ``$ref`` to the first, by JSON pointer."""
    first: dict[str, str] = {}  # the schema as canonical JSON -> where it is written out

    def walk(node: Any, pointer: str) -> Any:
        if isinstance(node, list):
            return [walk(item, f"{pointer}/{i}") for i, item in enumerate(node)]
        if not isinstance(node, dict):
            return node
        if isinstance(node.get("properties"), dict) and pointer:
            seen = json.dumps(node, sort_keys=True)
            if seen in first:
                return {"$ref": f"#{first[seen]}"}
            first[seen] = pointer
        return {key: walk(value, f"{pointer}/{_token(key)}") for key, value in node.items()}

    written: dict[str, Any] = walk(schema, "")
    return written


def _token(key: str) -> str:
    """``key`` as a JSON pointer's reference token (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")
