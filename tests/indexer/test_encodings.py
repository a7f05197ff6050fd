"""Declared source encodings are honoured: a PEP 263 coding cookie and UTF-16 byte order
marks, in indexing, text search and reading (a file's names keep their letters)."""

from __future__ import annotations

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.files.source import as_utf8, declared_encoding, decode_source
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.query.requests import ReadRequest
from symfuse.ranking.text.reading import read_file
from symfuse.ranking.text.search import search_text

LATIN = "# -*- coding: latin-1 -*-\ndef café_name():\n    return 'crème'\n"
WIDE = "def wide_déjà():\n    return 1\n"


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    root = tmp_path_factory.mktemp("ws")
    (root / "latin.py").write_bytes(LATIN.encode("latin-1"))
    (root / "wide.py").write_bytes(WIDE.encode("utf-16"))
    (root / "plain.py").write_text("def plain_été():\n    pass\n", encoding="utf-8")
    config = IndexConfig(roots=(root,), index_dir=root.parent / "idx", progress=False)
    built, _ = update_index(config)
    return built


def test_declarations_are_read_as_python_reads_them() -> None:
    assert declared_encoding(LATIN.encode("latin-1")) == "iso8859-1"
    assert declared_encoding(WIDE.encode("utf-16")) == "utf-16"
    assert declared_encoding(b"x = 1\n# coding: latin-1\n") is None  # line 2 below code
    assert declared_encoding(b"#!/usr/bin/env python\n# coding=cp1252\n") == "cp1252"
    assert declared_encoding(b"# coding: utf-8\n") is None
    assert declared_encoding(b"# coding: no-such-codec\n") is None
    assert as_utf8(LATIN.encode("latin-1")) == LATIN.encode("utf-8")
    assert decode_source(WIDE.encode("utf-16")) == WIDE


def test_names_keep_their_letters(index: Index) -> None:
    names = {s.name for s in index.symbols}
    assert {"café_name", "wide_déjà", "plain_été"} <= names


def test_text_search_and_read_see_the_declared_text(index: Index) -> None:
    found = search_text(index, "crème")
    assert [h.file for h in found.hits] == ["latin.py"]
    read = read_file(index, ReadRequest.from_mapping({"path": "latin.py"}))
    assert "def café_name():" in read.content
    wide = read_file(index, ReadRequest.from_mapping({"path": "wide.py"}))
    assert wide.content.splitlines()[0] == "def wide_déjà():"
