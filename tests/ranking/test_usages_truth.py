"""Usages against the hand-marked truth of tests/fixtures/usages_truth (issue 36, item 1):
per language, the references a fixture marks are found, and little else is."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.ranking.query import operations
from symfuse.ranking.query.requests import UsagesRequest
from tests.bench import truth_marked
from tests.support.index import index_of_fixture, index_of_tree


@pytest.mark.parametrize("language", truth_marked.LANGUAGES)
def test_marked_references_are_found(tmp_path: Path, language: str) -> None:
    index = index_of_fixture(tmp_path, f"usages_truth/{language}")
    tally = truth_marked.score(index, tmp_path / "ws")
    assert tally.recall >= 0.95, tally.notes
    assert tally.precision >= 0.90, tally.notes


def test_a_declared_receiver_decides_the_method(tmp_path: Path) -> None:
    """`outbox.Send(...)` with `var outbox = new Outbox()` is Outbox.Send, not
    Mediator.Send; `mediator.Send(...)` with `Mediator mediator` the other way round."""
    index = index_of_fixture(tmp_path, "usages_truth/csharp")
    tally = truth_marked.score(index, tmp_path / "ws")
    assert not [n for n in tally.notes if ".Send" in n]


def test_a_go_variable_is_typed_by_what_its_call_returns(tmp_path: Path) -> None:
    """`engine := router.New()` (`func New() *Engine`) makes `engine.Use` Engine.Use and
    `admin := engine.Group(...)` (`... *Group`) makes `admin.Use` Group.Use."""
    index = index_of_fixture(tmp_path, "usages_truth/go")
    tally = truth_marked.score(index, tmp_path / "ws")
    assert not [n for n in tally.notes if ".Use" in n], tally.notes


def test_a_cast_receiver_is_its_type(tmp_path: Path) -> None:
    """`((Element) child).accept(visitor)` is Element.accept, not a guess among accepts."""
    index = index_of_fixture(tmp_path, "usages_truth/java")
    tally = truth_marked.score(index, tmp_path / "ws")
    assert not [n for n in tally.notes if "accept" in n], tally.notes


def test_an_outside_qualifier_is_not_a_workspace_member(tmp_path: Path) -> None:
    """Go's `errors.New(...)` is not router.New; Rust's `String::new()` not Compact::new."""
    for language in ("go", "rust"):
        index = index_of_fixture(tmp_path / language, f"usages_truth/{language}")
        tally = truth_marked.score(index, tmp_path / language / "ws")
        assert not [n for n in tally.notes if n.startswith("extra") and ".new" in n.lower()]
        assert not [n for n in tally.notes if "extra  New:" in n]


@pytest.mark.parametrize("language", ["python", "javascript", "typescript"])
def test_receiver_types_decide_even_among_guesses(tmp_path: Path, language: str) -> None:
    """Python, JavaScript, TypeScript (issue 36, item 2): an annotated parameter, a
    constructor's result, `self.x` / `this.x` and a call's written return type decide the
    method, so every usage listed, guesses included (min_confidence 0), is a marked one:
    `options.get` on a `dict`, `new Map().get`, a generator's `.send()` are no use of
    the workspace's `get` or `send`."""
    index = index_of_fixture(tmp_path, f"usages_truth/{language}")
    tally = truth_marked.score(index, tmp_path / "ws", min_confidence=0.0)
    assert [n for n in tally.notes if n.startswith("extra")] == []
    assert tally.recall == 1.0, tally.notes


def test_a_method_returning_its_own_class_types_the_result(tmp_path: Path) -> None:
    """`-> Self` (Python) and `): this` (TypeScript): a builder's result is the builder,
    so `b.build()` is Builder.build, not Other.build, and not 'no workspace member'."""
    python = (
        "from typing import Self\n\n\n"
        "class Builder:\n"
        "    def named(self, name: str) -> Self:\n        return self\n\n"
        "    def build(self) -> int:\n        return 1\n\n\n"
        "class Other:\n    def build(self) -> int:\n        return 2\n\n\n"
        "def make(builder: Builder) -> int:\n"
        "    b = builder.named('x')\n"
        "    return b.build()\n"
    )
    script = (
        "export class Query {\n"
        "  where(x: string): this { return this; }\n"
        "  run(): number { return 1; }\n"
        "}\n"
        "export class Job { run(): number { return 2; } }\n"
        "export function go(query: Query): number {\n"
        "  const q = query.where('a');\n"
        "  return q.run();\n"
        "}\n"
    )
    index = index_of_tree(tmp_path, {"m.py": python, "q.ts": script})
    for symbol_id, site in (
        ("m.py::Builder.build#method", ("m.py", 19)),
        ("q.ts::Query.run#method", ("q.ts", 8)),
    ):
        answer = operations.usages(index, UsagesRequest(symbol_id=symbol_id, min_confidence=0))
        assert [(u.file, u.line, u.resolution) for u in answer.usages] == [(*site, "type")]
    for other in ("m.py::Other.build#method", "q.ts::Job.run#method"):
        answer = operations.usages(index, UsagesRequest(symbol_id=other, min_confidence=0))
        assert not answer.usages


def test_a_scripts_type_from_a_package_is_unknown_not_outside(tmp_path: Path) -> None:
    """`import { Client as Http } from "@/lib/client"` (a path alias into the workspace,
    which the resolver does not follow): `client.get()` on `new Http()` stays a guess that lists
    Client.get, where `new Map().get()` (a global) is no use of it."""
    index = index_of_tree(
        tmp_path,
        {
            "src/lib/client.ts": (
                "export class Client { get(u: string): number { return 1; } }\n"
                "export class Cache { get(k: string): number { return 2; } }\n"
            ),
            "src/app.ts": (
                'import { Client as Http } from "@/lib/client";\n'
                "export function main(): number {\n"
                "  const seen = new Map<string, number>();\n"
                "  seen.get('x');\n"
                "  const client = new Http();\n"
                "  return client.get('/');\n"
                "}\n"
            ),
        },
    )
    request = UsagesRequest(symbol_id="src/lib/client.ts::Client.get#method", min_confidence=0)
    lines = [u.line for u in operations.usages(index, request).usages if u.file == "src/app.ts"]
    assert lines == [6]
