"""Command-line options generated from a request model of the query layer.

Every field becomes ``--field-name`` (its :class:`Primary` field the positional
argument) with the field's description and default as help, its enum values as
choices, and a repeatable option for list fields. Options default to ``None``,
so a value not given takes the model's default, and every value is validated
by the model itself (:meth:`Request.from_mapping`), exactly as MCP arguments are.
"""

from __future__ import annotations

import argparse
import json
import types
from enum import Enum
from typing import Annotated, Any, TypeVar, Union, get_args, get_origin

from pydantic import BeforeValidator
from pydantic.fields import FieldInfo

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.query.fields import Request, bounds_text, is_primary, server_only
from symfuse.ranking.query.search_request import FusionWeights

R = TypeVar("R", bound=Request)


def add_request_options(
    parser: argparse.ArgumentParser, model: type[Request], *, primary_required: bool = False
) -> None:
    """One option per field of ``model`` (the primary field positional), but for the
    fields only a server has a use for (:class:`ServerOnly`)."""
    for name, info in model.model_fields.items():
        if server_only(model, name) is not None:
            continue
        if is_primary(model, name):
            parser.add_argument(
                name,
                nargs=None if primary_required else "?",
                metavar=name.upper(),
                help=info.description,
            )
            continue
        parser.add_argument(f"--{name.replace('_', '-')}", dest=name, **_option(model, name, info))


def request_of(model: type[R], args: argparse.Namespace) -> R:
    """The validated request the parsed options describe."""
    raw = {name: getattr(args, name, None) for name in model.model_fields}
    for name, info in model.model_fields.items():
        value = raw[name]
        if _base_type(info.annotation) is FusionWeights and isinstance(value, str):
            raw[name] = parse_weights(value)
    return model.from_mapping(raw)


def _option(model: type[Request], name: str, info: FieldInfo) -> dict[str, Any]:
    base = _base_type(info.annotation)
    spec: dict[str, Any] = {"default": None, "help": _help(model, name, info)}
    if base is bool:
        spec["action"] = argparse.BooleanOptionalAction
    elif base is tuple:
        spec.update(action="append", metavar=name.rsplit("_", maxsplit=1)[-1].upper())
        # Our list fields that take "a,b" split it in a before-validator; paths do not.
        splits = any(isinstance(m, BeforeValidator) for m in info.metadata)
        spec["help"] += " (repeatable, or a comma list)" if splits else " (repeatable)"
    elif isinstance(base, type) and issubclass(base, Enum):
        spec["choices"] = [member.value for member in base]
    elif base is FusionWeights:
        spec.update(metavar="C=W,...")  # parsed by request_of, so a bad one is a field error
    elif base in (int, float):
        spec.update(type=base, metavar="N" if base is int else "X")
    else:
        spec["metavar"] = name.rsplit("_", maxsplit=1)[-1].upper()
    return spec


def _help(model: type[Request], name: str, info: FieldInfo) -> str:
    text = info.description or name
    default = info.default
    if isinstance(default, Enum):
        default = default.value
    if default not in (None, (), "") and not isinstance(default, FusionWeights):
        text += f" (default {default})"
    limits = bounds_text(model, name)
    return f"{text}; {limits}" if limits else text


def _base_type(annotation: Any) -> Any:
    """The type under ``Annotated`` and ``| None``; ``tuple`` for any tuple."""
    origin = get_origin(annotation)
    if origin is Annotated:
        return _base_type(get_args(annotation)[0])
    if origin in (Union, types.UnionType):
        real = [a for a in get_args(annotation) if a is not type(None)]
        return _base_type(real[0])
    if origin is tuple:
        return tuple
    return annotation


def parse_weights(text: str) -> dict[str, Any]:
    """``lexical=0.5,identity=0.3`` or a JSON object -> a mapping (validated by the request)."""
    text = text.strip()
    if text.startswith("{"):
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidRequest("fusion_weights", f"not valid JSON ({exc.msg})") from None
        if not isinstance(value, dict):
            raise InvalidRequest("fusion_weights", "must be an object of channel -> weight")
        return value
    weights: dict[str, Any] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, number = part.partition("=")
        if not sep:
            raise InvalidRequest("fusion_weights", f"expected CHANNEL=WEIGHT, got {part!r}")
        try:
            weights[name.strip()] = float(number)
        except ValueError:
            raise InvalidRequest(f"fusion_weights.{name.strip()}", "must be a number") from None
    return weights
