"""The published tool schemas are pydantic's, made lean: they accept exactly the same documents.

An output schema (:func:`lean_output_schema`) also leaves out ``default`` annotations and
writes each row model out once: the search's tiers refer to its items' row.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from pydantic import BaseModel
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from symfuse.server.mcp import models
from symfuse.server.mcp.models import Answer, SearchResult
from symfuse.server.mcp.schema import lean_output_schema, lean_schema, output_schema

ROW = {"symbol_id": "a.py::f#function", "name": "f", "kind": "function", "file": "a.py", "line": 3}
GOOD = {
    "stale": False,
    "index_age_seconds": 1.5,
    "query": "f",
    "total": 1,
    "search_mode": "single",
    "items": [ROW | {"fqn": None, "score": 0.5, "snippet": "def f(): ..."}],
    "next_offset": None,
}


def _with(path: list[Any], value: Any) -> dict[str, Any]:
    document = copy.deepcopy(GOOD)
    node: Any = document
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return document


DOCUMENTS = [
    GOOD,
    _with(["items"], None),
    _with(["next_offset"], 20),
    _with(["next_offset"], "20"),  # a string where an integer or null goes
    _with(["items", 0, "line"], "3"),
    _with(["items", 0, "fqn"], 7),
    _with(["items"], {"not": "a list"}),
    _with(["tiers"], {"high": [ROW], "medium": [], "low": []}),
    _with(["tiers"], {"high": [ROW | {"line": None}]}),
    _with(["tiers"], {"low": [ROW | {"score": "high"}]}),
    _with(["tiers"], {"medium": [{"line": 3}]}),  # no symbol_id
    {k: v for k, v in GOOD.items() if k != "query"},
]


def test_no_anyof_for_nullables_and_no_refs_remain() -> None:
    lean = lean_schema(SearchResult.model_json_schema())
    text = repr(lean)
    for spelling in ("$ref", "$defs", "anyOf"):
        assert spelling not in text
    assert lean["properties"]["next_offset"]["type"] == ["integer", "null"]
    assert "description" in lean["properties"]["items"]  # documentation stays


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_lean_schema_accepts_what_pydantics_accepts(document: dict[str, Any]) -> None:
    full = Draft202012Validator(SearchResult.model_json_schema())
    lean = Draft202012Validator(lean_schema(SearchResult.model_json_schema()))
    assert full.is_valid(document) == lean.is_valid(document)


class Tree(BaseModel):
    label: str
    children: list[Tree] | None = None


def test_a_recursive_model_keeps_its_definition() -> None:
    lean = lean_schema(Tree.model_json_schema())
    validator = Draft202012Validator(lean)
    assert validator.is_valid({"label": "a", "children": [{"label": "b", "children": None}]})
    assert not validator.is_valid({"label": "a", "children": [{"label": 3}]})


@pytest.mark.parametrize("document", DOCUMENTS)
def test_the_published_output_schema_accepts_what_pydantics_accepts(
    document: dict[str, Any],
) -> None:
    full = Draft202012Validator(SearchResult.model_json_schema())
    published = output_schema(SearchResult)
    Draft202012Validator.check_schema(published)
    assert full.is_valid(document) == Draft202012Validator(published).is_valid(document)


def test_the_output_schema_writes_the_row_once_and_no_defaults() -> None:
    published = output_schema(SearchResult)
    row = published["properties"]["items"]["items"]
    assert set(row["properties"]) >= {"symbol_id", "line", "signature", "score"}
    tiers = published["properties"]["tiers"]["properties"]
    for tier in ("high", "medium", "low"):
        assert tiers[tier]["items"] == {"$ref": "#/properties/items/items"}
    assert len(_references(published)) == 3
    text = repr(published)
    for spelling in ("$defs", "anyOf", "'default'", "'title'"):
        assert spelling not in text
    named_default = {"properties": {"default": {"type": "string"}}}
    assert "default" in lean_output_schema(named_default)["properties"]  # a field of that name


def _answer_models() -> list[type[Answer]]:
    found = [getattr(models, name) for name in dir(models)]
    return [m for m in found if isinstance(m, type) and issubclass(m, Answer) and m is not Answer]


@pytest.mark.parametrize("model", _answer_models(), ids=lambda m: m.__name__)
def test_every_output_schema_is_valid_and_its_references_resolve(model: type[Answer]) -> None:
    published = output_schema(model)
    Draft202012Validator.check_schema(published)
    resource = Resource.from_contents(published, default_specification=DRAFT202012)
    resolver = Registry().with_resource("", resource).resolver()
    for ref in _references(published):
        assert resolver.lookup(ref).contents, ref
    assert "'default'" not in repr(published)


def _references(node: Any) -> list[str]:
    if isinstance(node, list):
        return [ref for item in node for ref in _references(item)]
    if not isinstance(node, dict):
        return []
    here = [node["$ref"]] if isinstance(node.get("$ref"), str) else []
    return here + [ref for value in node.values() for ref in _references(value)]
