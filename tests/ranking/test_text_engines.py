"""Text search through ripgrep answers as the pure-Python search does (its reference), and
both put code before documentation (issue 37, item 5)."""

from __future__ import annotations

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.text import ripgrep
from symfuse.ranking.text.search import TextSearchResult, search_text

CODE = """class Client:
    def send(self, request):
        return self.transport.send(request)


def send_all(client, requests):
    for request in requests:
        client.send(request)  # SEND them all
"""
DOC = "# Client\n\nCall `Client.send` to send one request.\n"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("engines")
    (root / "a_docs.md").write_text(DOC, encoding="utf-8")
    (root / "client.py").write_text(CODE, encoding="utf-8")
    (root / "notes.txt").write_text("send\nnothing\nsend again\n", encoding="utf-8")
    (root / "zeta.py").write_text("x = 1\n" * 50 + "send = None\n", encoding="utf-8")
    built, _ = update_index(IndexConfig(roots=(root,), index_dir=root / ".idx", progress=False))
    return built


def answer(result: TextSearchResult) -> tuple[int, list[tuple[str, int, int, int]]]:
    return result.total, [(h.file, h.line, h.column, h.end_column) for h in result.hits]


CASES = [
    ("send", {}),
    ("send", {"case_sensitive": True}),
    ("SEND", {"case_sensitive": True}),
    (r"def \w+\(", {"regex": True}),
    (r"send\(request\)", {"regex": True}),
    (r"(send|Client)\.", {"regex": True}),
    ("send", {"limit": 2, "offset": 3}),
    ("send", {"code_only": True}),
    ("send", {"file_pattern": "*.md"}),
    (r".*send.*\(", {"regex": True}),  # risky: ripgrep counts, the worker reads the page
    (r"(\w+)\.\1", {"regex": True}),  # a backreference: ripgrep refuses it; Python answers
]


@pytest.mark.parametrize(("pattern", "options"), CASES)
def test_ripgrep_answers_as_python_does(
    index: Index, monkeypatch: pytest.MonkeyPatch, pattern: str, options: dict[str, object]
) -> None:
    if ripgrep.binary() is None:
        pytest.skip("ripgrep is not installed (pip install symfuse[rg])")
    fast = answer(search_text(index, pattern, **options))  # type: ignore[arg-type]
    monkeypatch.setenv("SYMFUSE_RG", "off")
    assert ripgrep.binary() is None
    reference = answer(search_text(index, pattern, **options))  # type: ignore[arg-type]
    assert fast == reference


def test_code_files_come_before_documentation(index: Index) -> None:
    files = [hit.file for hit in search_text(index, "send", limit=50).hits]
    assert files.index("zeta.py") < files.index("a_docs.md")
    assert files == sorted(files, key=lambda f: (not f.endswith(".py"), f))
