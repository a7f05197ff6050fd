"""What every request model shares: strict shape, one validation, errors that name the field.

A request is a frozen pydantic model that forbids unknown fields and treats
``None`` as "the default". :meth:`Request.from_mapping` is the one place input
is validated; a bad value raises :class:`InvalidRequest` naming the field and
what it accepts. Three markers carry facts the front ends read when they are
generated from the models:

- :class:`Primary`: the field a command line takes as its positional argument;
- :class:`ForAgents`: a smaller upper bound or default for agents, whose answers
  must fit a token budget (the reason is part of the marker);
- :class:`ServerOnly`: a field a command line leaves out, and why.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Annotated, Any, Self

from annotated_types import Ge, Gt, Le, Lt, MaxLen
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Strict,
    ValidationError,
    model_validator,
)
from pydantic.json_schema import WithJsonSchema
from pydantic_core import ErrorDetails

from symfuse.indexer.errors import InvalidRequest


@dataclass(frozen=True, slots=True)
class Primary:
    """The field a command line takes as its positional argument (``symfuse search QUERY``)."""


@dataclass(frozen=True, slots=True)
class ForAgents:
    """Where an agent asks (MCP), a smaller upper bound ``cap`` and/or another ``default``,
    because ``reason``: an agent pays for every row in tokens, a terminal user does not."""

    reason: str
    cap: int | None = None
    default: Any = None


@dataclass(frozen=True, slots=True)
class ServerOnly:
    """A field only a long-running server has a use for, because ``reason``; the command
    line leaves it out."""

    reason: str


def server_only(model: type[BaseModel], name: str) -> ServerOnly | None:
    info = model.model_fields.get(name)
    return next((m for m in info.metadata if isinstance(m, ServerOnly)), None) if info else None


def split_list(value: Any) -> Any:
    """A string, a comma-separated string, or a list of such strings -> a tuple of non-empty
    strings (a repeated command-line option arrives as a list)."""
    if value is None:
        return ()
    if isinstance(value, str):
        items: list[Any] = [value]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise ValueError("must be a string or a list of strings")
    out: list[str] = []
    for raw in items:
        item = raw.value if isinstance(raw, Enum) else raw
        if not isinstance(item, str):
            raise ValueError("must be a string or a list of strings")
        out.extend(part.strip() for part in item.split(",") if part.strip())
    return tuple(out)


LIST_SCHEMA = {
    "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}],
}

TextList = Annotated[
    tuple[str, ...], BeforeValidator(split_list), WithJsonSchema(LIST_SCHEMA, mode="validation")
]
"""One value, a comma-separated string, or a list (``"a,b"`` == ``["a", "b"]``)."""


Flag = Annotated[bool, Strict()]
"""A JSON boolean: ``"on"`` or ``1`` is refused, not guessed."""


def optional_text(value: Any) -> Any:
    """Strip a string; an empty one means "not given"."""
    if isinstance(value, str):
        return value.strip() or None
    return value


@functools.cache
def _blank_unset(model: type[BaseModel]) -> frozenset[str]:
    """The fields of ``model`` whose blank text means "not given" (:func:`optional_text`)."""
    return frozenset(
        key
        for name, info in model.model_fields.items()
        if any(getattr(m, "func", None) is optional_text for m in info.metadata)
        for key in (name, info.alias)
        if key is not None
    )


class Request(BaseModel):
    """Base of every request: frozen, unknown fields refused, ``None`` = default."""

    model_config = ConfigDict(
        frozen=True, extra="forbid", allow_inf_nan=False, use_attribute_docstrings=False
    )

    @model_validator(mode="before")
    @classmethod
    def _drop_nones(cls, raw: Any) -> Any:
        """Drop ``None``s, and blank strings where a blank means "not given" (a field that
        reads its text with :func:`optional_text`: a None from it would meet the field's
        length limit, which pydantic cannot apply to None, and raise a TypeError)."""
        if isinstance(raw, Mapping):
            unset = _blank_unset(cls)
            return {
                k: v
                for k, v in raw.items()
                if v is not None and not (k in unset and isinstance(v, str) and not v.strip())
            }
        if isinstance(raw, BaseModel):
            return raw
        raise ValueError("must be an object")

    @classmethod
    def from_mapping(cls, raw: Mapping[str, Any] | Any) -> Self:
        """Validate JSON-shaped input (MCP arguments, command-line options, LSP params)."""
        try:
            return cls.model_validate(raw)
        except ValidationError as exc:
            raise invalid(cls, exc) from None

    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        return tuple(cls.model_fields)


def invalid(model: type[BaseModel], exc: ValidationError) -> InvalidRequest:
    """The first error of ``exc`` as one InvalidRequest: the field, then what it accepts."""
    error = exc.errors(include_url=False)[0]
    raised = (error.get("ctx") or {}).get("error")
    if isinstance(raised, InvalidRequest):  # a validator that named its field itself
        return raised
    loc = [str(part) for part in error["loc"] if not isinstance(part, int)]
    field = ".".join(loc) or "request"
    return InvalidRequest(field, _message(model, loc[0] if loc else "", error))


_TYPES = {
    "int_type": "must be an integer",
    "int_parsing": "must be an integer",
    "int_from_float": "must be an integer",
    "float_type": "must be a number",
    "float_parsing": "must be a number",
    "finite_number": "must be a number",
    "bool_type": "must be true or false",
    "bool_parsing": "must be true or false",
    "string_type": "must be a string",
    "missing": "is required",
    "extra_forbidden": "unknown field",
    "dict_type": "must be an object",
    "model_type": "must be an object",
    "model_attributes_type": "must be an object",
}
_BOUNDS = {"greater_than", "greater_than_equal", "less_than", "less_than_equal"}


def _message(model: type[BaseModel], name: str, error: ErrorDetails) -> str:
    kind = error["type"]
    ctx = error.get("ctx") or {}
    if kind in _BOUNDS:
        return bounds_text(model, name) or error["msg"]
    if kind in ("enum", "literal_error"):
        expected = str(ctx.get("expected", "")).replace("'", "").replace(" or ", ", ")
        return f"{error['input']!r} is not one of: {expected}"
    if kind == "string_too_long":
        return f"longer than {ctx.get('max_length')} characters"
    if kind == "value_error":
        return str(ctx.get("error", error["msg"]))
    return _TYPES.get(kind, error["msg"])


def bounds(model: type[BaseModel], name: str) -> tuple[float | None, float | None]:
    """The inclusive (low, high) bounds of a numeric field (None where open)."""
    info = model.model_fields.get(name)
    low: float | None = None
    high: float | None = None
    for item in info.metadata if info is not None else ():
        if isinstance(item, Ge | Gt):
            low = _float(item.ge if isinstance(item, Ge) else item.gt)
        elif isinstance(item, Le | Lt):
            high = _float(item.le if isinstance(item, Le) else item.lt)
    return low, high


def _float(value: object) -> float:
    assert isinstance(value, int | float)  # the bounds of our numeric fields
    return float(value)


def bounds_text(model: type[BaseModel], name: str) -> str | None:
    low, high = bounds(model, name)
    if low is not None and high is not None:
        return f"must be between {low:g} and {high:g}"
    if low is not None:
        return f"must be {low:g} or more"
    if high is not None:
        return f"must be {high:g} or less"
    return None


def for_agents(model: type[BaseModel], name: str) -> ForAgents | None:
    info = model.model_fields.get(name)
    return next((m for m in info.metadata if isinstance(m, ForAgents)), None) if info else None


def is_primary(model: type[BaseModel], name: str) -> bool:
    info = model.model_fields.get(name)
    return info is not None and any(isinstance(m, Primary) for m in info.metadata)


def max_length(model: type[BaseModel], name: str) -> int | None:
    info = model.model_fields.get(name)
    found = next((m for m in info.metadata if isinstance(m, MaxLen)), None) if info else None
    return None if found is None else found.max_length
