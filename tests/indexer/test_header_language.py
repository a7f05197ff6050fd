"""`.h` files are parsed as C, C++ or Objective-C, decided per file (issue 14, item 1).

Through the installed command on real trees: a header-only C++ library under
``include/geom/``, an Objective-C project, a C library whose header has the usual
``extern "C"`` guard, and headers whose language only compile_commands.json tells.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.files.headers import language_of_text
from tests.support.cli import run_symfuse, write_tree
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # most tests run the installed symfuse command

HEADERS = FIXTURES / "headers"


def _symbols(root: Path, index_dir: Path) -> list[dict[str, Any]]:
    out = run_symfuse(
        ["symbols", str(root), "--index-dir", str(index_dir), "--no-progress", "-f", "jsonl"]
    ).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def _languages_by_file(symbols: list[dict[str, Any]]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for s in symbols:
        found.setdefault(s["file"], set()).add(s["language"])
    return found


def _copy(name: str, tmp_path: Path) -> Path:
    return Path(shutil.copytree(HEADERS / name, tmp_path / name))


def _exact(root: Path, index_dir: Path, query: str, kind: str) -> list[dict[str, Any]]:
    """What ``symfuse search`` answers for an exact name, best first."""
    out = run_symfuse(
        [
            "search",
            query,
            str(root),
            "--index-dir",
            str(index_dir),
            "--no-progress",
            "--kind",
            kind,
            "--output-format",
            "json",
        ]
    ).stdout
    items: list[dict[str, Any]] = json.loads(out)["items"]
    return items


def test_a_header_only_cpp_library_is_indexed_as_cpp(tmp_path: Path) -> None:
    root = _copy("cpp_lib", tmp_path)
    index_dir = tmp_path / "index"
    symbols = _symbols(root, index_dir)
    assert _languages_by_file(symbols) == {
        "include/geom/shapes.h": {"cpp"},
        # no C++ of its own: its sibling headers say the folder is C++
        "include/geom/config.h": {"cpp"},
    }
    fqns = {(s["kind"], s["fqn"]) for s in symbols}
    assert {
        ("namespace", "geom"),
        ("class", "geom.Shape"),
        ("class", "geom.Polygon"),
        ("class", "geom.Grid"),
        ("method", "geom.Shape.area"),
        ("method", "geom.Shape.label"),
        ("method", "geom.Polygon.vertexCount"),
        ("method", "geom.Grid.cellAt"),
        ("function", "geom.clampValue"),
        ("macro", "GEOM_VERSION"),
    } <= fqns
    polygon = next(s for s in symbols if s["fqn"] == "geom.Polygon")
    assert polygon["extends"] == ["Shape"]
    for name, kind in (
        ("Polygon", "class"),
        ("Grid", "class"),
        ("vertexCount", "method"),
        ("cellAt", "method"),
    ):
        hits = _exact(root, index_dir, name, kind)
        assert hits, f"search found no {kind} {name}"
        assert (hits[0]["name"], hits[0]["file"]) == (name, "include/geom/shapes.h")


def test_objective_c_headers_are_indexed_as_objective_c(tmp_path: Path) -> None:
    root = _copy("objc_app", tmp_path)
    symbols = _symbols(root, tmp_path / "index")
    assert _languages_by_file(symbols) == {
        "Shape.h": {"objc"},
        "Shape.m": {"objc"},
        "Palette.h": {"objc"},  # plain C, in a project of .m files
    }
    in_header = {(s["kind"], s["fqn"]) for s in symbols if s["file"] == "Shape.h"}
    assert {
        ("interface", "HasArea"),
        ("method", "HasArea.area"),
        ("class", "Shape"),
        ("property", "Shape.name"),
        ("method", "Shape.initWithName"),
        ("method", "Shape.unitSquare"),
        ("method", "Shape.retainCount"),  # its trailing annotation macro blanked
        ("field", "Shape._sides"),  # ivars on both sides of an #if
        ("field", "Shape._internal"),
        ("class", "Drawing"),  # a category, extending Shape
        ("method", "Drawing.drawInContext"),
        ("function", "ShapeDescription"),  # a prototype: the header's API
    } <= in_header


def test_a_c_header_stays_c(tmp_path: Path) -> None:
    root = _copy("c_lib", tmp_path)
    symbols = _symbols(root, tmp_path / "index")
    assert _languages_by_file(symbols) == {"ring.h": {"c"}, "ring.c": {"c"}}
    names = {s["name"] for s in symbols if s["file"] == "ring.h"}
    assert {"ring", "data", "size", "ring_name", "RING_H"} <= names


def test_text_markers_ignore_comments_strings_and_cplusplus_blocks() -> None:
    c_header = (HEADERS / "c_lib" / "ring.h").read_bytes()
    assert language_of_text(c_header) is None
    assert language_of_text(b"template <class T> struct Box;") == "cpp"
    assert language_of_text(b"int Widget::size() const;") == "cpp"
    assert language_of_text(b"#include <vector>\nint f(void);") == "cpp"
    assert language_of_text(b"#include <stdio.h>\nint f(void);") is None
    assert language_of_text(b"@class NSString;\n@interface A : NSObject\n@end") == "objc"
    assert language_of_text(b"#if !defined(__cplusplus)\nclass X { public: };\n#endif") == "cpp"


def _compile_db(root: Path, entries: list[tuple[str, list[str]]]) -> None:
    db = [
        {"directory": str(root / "build"), "file": f"../{file}", "arguments": arguments}
        for file, arguments in entries
    ]
    (root / "compile_commands.json").write_text(json.dumps(db))


PLAIN_HEADER = (
    "/* nothing but C-looking declarations */\ntypedef int handle_t;\nint open_handle(void);\n"
)


def test_compile_commands_decides_a_plain_header(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "project",
        {
            "inc/api/handle.h": PLAIN_HEADER,
            "src/main.c": '#include "api/handle.h"\nint main(void) { return open_handle(); }\n',
            "legacy/old.h": PLAIN_HEADER.replace("open_handle", "old_handle"),
        },
    )
    (root / "build").mkdir()
    # main.c has a .c name but is compiled as C++, with inc/ on its include path
    _compile_db(
        root, [("src/main.c", ["clang++", "-std=c++17", "-I../inc", "-c", "../src/main.c"])]
    )
    languages = _languages_by_file(_symbols(root, tmp_path / "index"))
    assert languages["inc/api/handle.h"] == {"cpp"}
    assert languages["src/main.c"] == {"c"}  # a .c file is C by its name
    assert languages["legacy/old.h"] == {"c"}  # on no include path: its project is main.c's C


def test_compile_commands_naming_a_header_itself_wins(tmp_path: Path) -> None:
    root = write_tree(
        tmp_path / "project",
        {"lib/a.h": PLAIN_HEADER, "lib/b.cpp": "int b() { return 1; }\n"},
    )
    (root / "build").mkdir()
    _compile_db(root, [("lib/a.h", ["cc", "-x", "c-header", "-c", "../lib/a.h"])])
    languages = _languages_by_file(_symbols(root, tmp_path / "index"))
    assert languages["lib/a.h"] == {"c"}  # without the database, b.cpp would make it C++


def test_a_header_is_decided_again_when_its_projects_sources_change(tmp_path: Path) -> None:
    """An unchanged .h is read anew when the sources around it change its language: the
    C project becomes a C++ one, and the next update (no cold build) says so."""
    root = write_tree(
        tmp_path / "project",
        {"lib/a.h": PLAIN_HEADER, "lib/a.c": "int a(void) { return 1; }\n"},
    )
    index_dir = tmp_path / "index"
    assert _languages_by_file(_symbols(root, index_dir))["lib/a.h"] == {"c"}
    (root / "lib" / "a.c").unlink()
    (root / "lib" / "a.cpp").write_text("int a() { return 1; }\n")
    assert _languages_by_file(_symbols(root, index_dir))["lib/a.h"] == {"cpp"}
