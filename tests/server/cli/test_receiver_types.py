"""Receiver types in Python through the installed command (issue 36, item 2), on the
httpx-like fixture tests/fixtures/usages_truth/python: `usages Client.get` lists the
calls on a `Client` (annotated, constructed, inherited) and no `dict.get`;
`AsyncClient.send` lists the awaited client's send and not a generator's `.send()`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("receivers")
    root = shutil.copytree(FIXTURES / "usages_truth" / "python", base / "ws")
    return root, base / "index"


def usages(ws: tuple[Path, Path], name: str, *more: str) -> Any:
    root, index = ws
    args = ["usages", "--name", name, *more, "--root", str(root), "--index-dir", str(index)]
    return json.loads(run_symfuse([*args, "-f", "json"]).stdout)


def sites(answer: Any) -> list[tuple[str, int, str]]:
    return sorted((u["file"], u["line"], u["resolution"]) for u in answer["usages"])


def test_client_get_is_not_a_dicts_get(ws: tuple[Path, Path]) -> None:
    answer = usages(ws, "Client.get", "--min-confidence", "0")
    assert sites(answer) == [
        ("app/service.py", 7, "type"),  # client: Client
        ("app/service.py", 32, "type"),  # sync = minihttp.Client(...)
        ("tests/test_client.py", 11, "type"),  # client = FakeClient(), a Client
    ]
    assert "unresolved" not in answer


def test_async_client_send_is_not_a_generators_send(ws: tuple[Path, Path]) -> None:
    answer = usages(ws, "AsyncClient.send", "--min-confidence", "0")
    assert sites(answer) == [
        ("app/service.py", 23, "type"),  # async with AsyncClient() as client
        ("minihttp/_client.py", 29, "scope"),  # self.send(url)
    ]


def test_callers_and_impact_follow_the_receivers_type(ws: tuple[Path, Path]) -> None:
    """The graph links as usages do: `headers.get()` on a `Headers`, `options.get()` on a
    dict are no callers of Client.get; a generator's `flow.send()` in `replay` is not in
    the impact of Client.send."""
    root, index = ws
    where = ["--root", str(root), "--index-dir", str(index), "-f", "json"]
    callers = json.loads(run_symfuse(["callers", "Client.get", *where]).stdout)
    assert sorted(i["name"] for i in callers["items"]) == ["fetch", "main", "test_get"]
    impact = json.loads(run_symfuse(["impact", "Client.send", *where]).stdout)
    names = {i["name"] for f in impact["files"] for i in f["items"]}
    assert "replay" not in names
    assert {"get", "fetch", "main", "test_get"} <= names


def test_callees_of_a_method_follow_the_receivers_type(ws: tuple[Path, Path]) -> None:
    """Client.send's `response.read()` on a `Response(...)` is Response.read, not a test
    class's read (issue 36: 'the callees of a method include a test's read')."""
    root, index = ws
    where = ["--root", str(root), "--index-dir", str(index), "-f", "json"]
    callees = json.loads(run_symfuse(["callees", "Client.send", *where]).stdout)
    reads = [i["symbol_id"] for i in callees["items"] if i["name"] == "read"]
    assert reads == ["minihttp/_models.py::Response.read#method"]
