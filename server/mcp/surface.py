"""What each tool shows an agent: a few common arguments, one vocabulary, the rest one
``options`` object away.

An agent reads every tool's name, description and input schema into its context at the
start of every session, so each listed argument costs tokens whether it is used or not.
A :class:`Surface` says which of a request model's fields a tool's schema lists (the ones
agents use most, in the order they matter), what they are called there, and a short
description for each; every other field stays reachable, in ``options`` (its names are
listed in that argument's description) or at the top level, without a schema of its own.

One vocabulary across the tools: what to search for is ``query``, the symbol or file an
operation is about is ``target``, a kind filter is ``kind``. A model field published under
another name (``search_text``'s ``pattern`` is its ``query``) is still accepted by its
old name, unlisted, for a release. :meth:`Surface.read` turns the arguments of a call into
the request model's fields and the rendering arguments, naming the first argument it
cannot take and the ones it can.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from symfuse.indexer.errors import InvalidRequest
from symfuse.ranking.query.fields import Request, for_agents

RENDERING = ("output_format", "max_tokens")  # the arguments every tool takes besides its model's
OPTIONS = "options"


@dataclass(frozen=True, slots=True)
class Surface:
    """One tool's published arguments.

    ``shown``: the public names its schema lists, most used first; ``renamed``: public name
    -> request field where they differ (the field's own name stays accepted, unlisted);
    ``required``: public names the schema marks required besides the model's own, each with
    the unlisted fields that may stand in for it (``target`` or the older ``symbol_id``);
    ``notes``: shorter descriptions than the model's; ``defaults``: an agent's defaults
    where they differ from the model's; ``unlisted``: fields accepted but left out of the
    ``options`` list (older ways to say what a listed argument says).
    """

    shown: tuple[str, ...] = ()
    renamed: Mapping[str, str] = field(default_factory=dict)
    required: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    notes: Mapping[str, str] = field(default_factory=dict)
    defaults: Mapping[str, Any] = field(default_factory=dict)
    unlisted: tuple[str, ...] = ()
    # per request model: what :meth:`read` looks up on every call, made on its first
    _reading: dict[type[Request], _Reading] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def field_of(self, public: str) -> str:
        return self.renamed.get(public, public)

    def public_of(self, name: str) -> str:
        """The public name of request field (or rendering argument) ``name``."""
        return next((p for p, f in self.renamed.items() if f == name), name)

    def options(self, model: type[Request]) -> list[str]:
        """The public names an agent passes in ``options``: every other field, then the
        rendering arguments the model does not have itself."""
        listed = {self.field_of(p) for p in self.shown} | set(self.unlisted)
        names = [self.public_of(f) for f in model.model_fields if f not in listed]
        return [*names, *(r for r in RENDERING if r not in model.model_fields)]

    def accepted(self, model: type[Request]) -> dict[str, str]:
        """Every name a call may use (public, old, options) -> the request field or
        rendering argument it sets."""
        names = {f: f for f in model.model_fields}
        names.update({r: r for r in RENDERING if r not in model.model_fields})
        names.update({p: self.field_of(p) for p in self.shown})
        names.update(self.renamed)
        return names

    def read(
        self, tool: str, model: type[Request], arguments: Mapping[str, Any]
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The request fields and the rendering arguments of a call's ``arguments``
        (options merged in, public and old names resolved, the agent defaults applied)."""
        given = _merged(arguments)
        reading = self._reading.get(model)
        if reading is None:
            reading = self._reading[model] = _Reading.of(self, model)
        accepted = reading.accepted
        fields: dict[str, Any] = {}
        said: dict[str, str] = {}  # request field -> the name the call used for it
        for name, value in given.items():
            target = accepted.get(name)
            if target is None:
                raise InvalidRequest(name, self._unknown(tool, model))
            if target in said:
                public = self.public_of(target)
                raise InvalidRequest(
                    public, f"given twice, as {said[target]} and as {name}; give {public} once"
                )
            said[target] = name
            fields[target] = value
        self._check_required(model, fields)
        for name, value in reading.defaults:
            fields.setdefault(name, value)
        rendering = {r: fields.pop(r) for r in reading.rendering if r in fields}
        return fields, rendering

    def _check_required(self, model: type[Request], fields: Mapping[str, Any]) -> None:
        for public, stand_ins in self.required.items():
            if fields.get(self.field_of(public)) is None and not any(
                fields.get(s) is not None for s in stand_ins
            ):
                raise InvalidRequest(public, f"is required: {self.description(model, public)}")

    def _unknown(self, tool: str, model: type[Request]) -> str:
        listed = ", ".join(self.shown) or "no listed arguments"
        return (
            f"not an argument of {tool}; it takes {listed}, and in {OPTIONS}: "
            f"{', '.join(self.options(model))}"
        )

    def description(self, model: type[Request], public: str) -> str:
        if public in self.notes:
            return self.notes[public]
        info = model.model_fields.get(self.field_of(public))
        return (info.description or "") if info is not None else ""

    def _default(self, model: type[Request], public: str, published: Any) -> Any:
        """What an agent gets when it leaves ``public`` out: the surface's default, or the
        model's agent default, or the model's."""
        if public in self.defaults:
            return self.defaults[public]
        agents = for_agents(model, self.field_of(public))
        return agents.default if agents is not None and agents.default is not None else published

    def schema(self, model: type[Request], properties: Mapping[str, Any]) -> dict[str, Any]:
        """The tool's input schema: the shown arguments and ``options``.

        ``properties``: the model's own lean JSON schema properties, by field name."""
        shown: dict[str, Any] = {}
        for public in self.shown:
            name = self.field_of(public)
            prop = _lean_property(properties[name])
            prop["description"] = self.description(model, public)
            default = self._default(model, public, prop.pop("default", None))
            if default not in (None, (), [], "", False, 0):
                prop["default"] = default
            agents = for_agents(model, name)
            if agents is not None and agents.cap is not None:
                prop["maximum"] = agents.cap
            shown[public] = prop
        rest = self.options(model)
        if rest:
            shown[OPTIONS] = {
                "type": "object",
                "description": f"more arguments, by name: {', '.join(rest)}",
            }
        schema: dict[str, Any] = {"type": "object", "properties": shown}
        required = [p for p in self.shown if p in self.required] + [
            self.public_of(f) for f in model.model_fields if model.model_fields[f].is_required()
        ]
        if required:
            schema["required"] = list(dict.fromkeys(required))
        return schema


@dataclass(frozen=True, slots=True)
class _Reading:
    """What :meth:`Surface.read` needs of one request model, found once (the model's
    fields and their metadata are pydantic's properties, walked anew on each access)."""

    accepted: dict[str, str]  # :meth:`Surface.accepted`
    defaults: tuple[tuple[str, Any], ...]  # field -> default: the surface's, then agents'
    rendering: tuple[str, ...]  # the rendering arguments the model does not have itself

    @classmethod
    def of(cls, surface: Surface, model: type[Request]) -> _Reading:
        defaults = [(surface.field_of(p), v) for p, v in surface.defaults.items()]
        for name in model.model_fields:
            agents = for_agents(model, name)
            if agents is not None and agents.default is not None:
                defaults.append((name, agents.default))
        rendering = tuple(r for r in RENDERING if r not in model.model_fields)
        return cls(surface.accepted(model), tuple(defaults), rendering)


def _merged(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The call's arguments with those of ``options`` beside them (one name given in both
    places is refused unless the values agree)."""
    given = dict(arguments)
    options = given.pop(OPTIONS, None)
    if options is None:
        return given
    if isinstance(options, str):  # some clients send an object argument as JSON text
        try:
            options = json.loads(options)
        except ValueError:
            options = None
    if not isinstance(options, dict):
        raise InvalidRequest(OPTIONS, 'must be an object of argument -> value, e.g. {"limit": 5}')
    for name, value in options.items():
        if name in given and given[name] != value:
            raise InvalidRequest(name, f"given twice, at the top and in {OPTIONS}; give it once")
        given[name] = value
    return given


def _lean_property(prop: Mapping[str, Any]) -> dict[str, Any]:
    """``prop`` without pydantic's bounds on strings, and "one or a list of strings" as one
    type list (the same documents accepted, fewer tokens)."""
    lean = {k: v for k, v in prop.items() if k not in ("maxLength", "title")}
    alternatives = lean.get("anyOf")
    if alternatives == [{"type": "string"}, {"items": {"type": "string"}, "type": "array"}]:
        del lean["anyOf"]
        lean["type"] = ["string", "array"]
        lean["items"] = {"type": "string"}
    return lean
