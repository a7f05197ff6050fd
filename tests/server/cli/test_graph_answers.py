"""Graph answers an agent can act on, through the installed command, on
tests/fixtures/graph_answers (issue 36): a class used only as a dict value is found by
``symfuse usages`` and ``impact`` says what depends on it; ``symfuse dead`` leaves out
Go's init, framework hooks and re-exported API, and keeps each item's reason."""

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
    base = tmp_path_factory.mktemp("graph_answers")
    root = shutil.copytree(FIXTURES / "graph_answers", base / "ws")
    return root, base / "index"


def run(ws: tuple[Path, Path], *args: str) -> Any:
    root, index = ws
    done = run_symfuse([*args, "--root", str(root), "--index-dir", str(index), "-f", "json"])
    return json.loads(done.stdout)


def test_usages_find_a_class_written_as_a_dict_value(ws: tuple[Path, Path]) -> None:
    data = run(ws, "usages", "GZipDecoder")
    found = {(u["file"], u["line"], u["kind"], u["text"]) for u in data["usages"]}
    assert found == {
        ("py/httpkit/decoders.py", 23, "reference", '"gzip": GZipDecoder,'),
        (
            "py/httpkit/__init__.py",
            4,
            "import",
            "from .decoders import GZipDecoder as GZipDecoder",
        ),
    }
    default = run(ws, "usages", "DeflateDecoder")["usages"]
    assert [(u["line"], u["enclosing"]) for u in default] == [
        (27, "py/httpkit/decoders.py::fallback#function")  # def fallback(decoder=DeflateDecoder)
    ]
    member = run(ws, "usages", "--name", "Poller.tick")["usages"]
    assert [(u["line"], u["kind"], u["text"]) for u in member] == [
        (9, "reference", "this.timer = setTimeout(this.tick, 10);")
    ]


def test_impact_of_a_class_used_as_a_dict_value(ws: tuple[Path, Path]) -> None:
    data = run(ws, "impact", "GZipDecoder")
    reached = {(g["file"], i["name"]) for g in data["files"] for i in g["items"]}
    assert ("py/httpkit/decoders.py", "SUPPORTED_DECODERS") in reached
    assert ("py/httpkit/client.py", "get") in reached  # reads SUPPORTED_DECODERS


def test_dead_lists_what_a_reviewer_would_delete(ws: tuple[Path, Path]) -> None:
    data = run(ws, "dead", "--include-tests", "true")
    names = {(i["file"], i["name"]) for i in data["items"]}
    assert ("go/codec/codec.go", "unusedHelper") in names
    assert ("ts/src/api.ts", "neverUsed") in names
    for name in ("init", "MarshalJSON", "_tuple", "generateMetadata", "http_client", "Area"):
        assert not any(n == name for _, n in names), name
    everything = run(ws, "dead", "--min-confidence", "0", "--include-tests", "true")
    reasons = {(i["file"], i["name"]): (i["confidence"], i["reason"]) for i in everything["items"]}
    assert not any(name == "init" for _, name in reasons)
    assert reasons[("go/codec/codec.go", "MarshalJSON")][0] == 0.1
    assert "json.Marshaler" in reasons[("go/codec/codec.go", "MarshalJSON")][1]
    assert reasons[("ts/app/blog/[slug]/page.tsx", "generateMetadata")] == (
        0.1,
        "unreferenced, but an export of a Next.js route file: the framework calls it",
    )
