"""Overloads: Python's `@typing.overload` stubs and their implementation are one
symbol with several signatures, whose plain id, callers and callees are the
implementation's; Java, C# and C++ overloads stay separate symbols (`~2`, `~3`)
and an exact-name search lists them together, before other namesakes."""

from __future__ import annotations

from pathlib import Path

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.extract.tags import extract
from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.api import SearchRequest, search
from tests.support.cli import write_tree

COMMAND = """\
import typing as t
from typing import overload


class Command:
    @overload
    def main(self, args: list[str], standalone: t.Literal[True] = True) -> t.NoReturn: ...

    @t.overload
    def main(self, args: list[str], standalone: bool = ...) -> int: ...

    def main(self, args: list[str], standalone: bool = True) -> int:
        return self.invoke(args)

    def invoke(self, args: list[str]) -> int:
        return len(args)


def run() -> None:
    Command().main(["x"])
"""

STUBS = """\
from typing import overload

@overload
def parse(text: str) -> int: ...
@overload
def parse(text: bytes) -> int: ...
"""

CALLS = int(EdgeKind.CALLS)


def test_stubs_and_implementation_are_one_symbol() -> None:
    symbols = extract("cli.py", "r", "python", COMMAND.encode()).symbols
    mains = [s for s in symbols if s.name == "main"]
    assert [s.symbol_id for s in mains] == ["cli.py::Command.main#method"]
    main = mains[0]
    assert main.line == 12  # the implementation's span, not the first stub's
    assert main.signature.splitlines() == [
        "def main(self, args: list[str], standalone: bool = True) -> int",
        "def main(self, args: list[str], standalone: t.Literal[True] = True) -> t.NoReturn",
        "def main(self, args: list[str], standalone: bool = ...) -> int",
    ]


def test_stubs_without_implementation_are_one_symbol() -> None:
    symbols = extract("api.pyi", "r", "python", STUBS.encode()).symbols
    assert [(s.symbol_id, s.line) for s in symbols] == [("api.pyi::parse#function", 6)]
    assert symbols[0].signature.splitlines() == [
        "def parse(text: bytes) -> int",
        "def parse(text: str) -> int",
    ]


def test_callers_and_callees_meet_on_the_implementation(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "ws", {"cli.py": COMMAND})
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / "i", progress=False))
    edges = {(s, d) for rows in index.edges_by_file.values() for s, d, k, _ in rows if k == CALLS}
    main = "cli.py::Command.main#method"
    assert (main, "cli.py::Command.invoke#method") in edges
    assert ("cli.py::run#function", main) in edges


JAVA = """\
class Printer {
    void print(String text) {}
    void print(int number) {}
    void print(String text, int times) {}
}
"""
CPP = """\
struct Printer {
    void print(const char* text);
    void print(int number);
};
"""
CSHARP = """\
class Printer {
    void Print(string text) {}
    void Print(int number) {}
}
"""
OTHER = "def print_all():\n    pass\n\n\nclass Logger:\n    def print(self):\n        pass\n"


def _index(tmp_path: Path, files: dict[str, str]) -> Index:
    root = write_tree(tmp_path / "ws", files)
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / "i", progress=False))
    return index


def test_java_cpp_and_csharp_overloads_stay_apart_and_are_listed_together(tmp_path: Path) -> None:
    files = {"Printer.java": JAVA, "printer.hpp": CPP, "Printer.cs": CSHARP, "log.py": OTHER}
    index = _index(tmp_path, files)
    java = [s.symbol_id for s in index.symbols if s.file == "Printer.java" and s.name == "print"]
    assert java == [
        "Printer.java::Printer.print#method",
        "Printer.java::Printer.print#method~2",
        "Printer.java::Printer.print#method~3",
    ]
    found = search(index, SearchRequest.from_mapping({"query": "Printer.print", "limit": 10}))
    ids = [item.symbol.symbol_id for item in found.items]
    overloads = [i for i in ids if "::printer.print#" in i.lower()]
    assert len(overloads) == 7  # three in Java, two in C++, two in C#
    assert ids[:7] == overloads  # together, before anything else
    found = search(index, SearchRequest.from_mapping({"query": "Print", "language": "csharp"}))
    assert [i.symbol.symbol_id for i in found.items][:2] == [
        "Printer.cs::Printer.Print#method",
        "Printer.cs::Printer.Print#method~2",
    ]
    found = search(index, SearchRequest.from_mapping({"query": "print", "limit": 10}))
    ids = [item.symbol.symbol_id for item in found.items]
    java = [n for n, i in enumerate(ids) if i.startswith("Printer.java::Printer.print#")]
    assert java == list(range(java[0], java[0] + 3))  # one block of three
