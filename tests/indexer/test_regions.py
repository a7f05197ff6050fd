"""Regions (issue 35): code outside every definition, in pieces of at most 40 lines, on
tests/fixtures/regions (a server's route table beside a function, a script's main block,
a test file) and trees written here."""

from __future__ import annotations

from pathlib import Path

import pytest

from symfuse.indexer.extract.units import REGION_LINES
from symfuse.indexer.index import Index
from symfuse.indexer.model import Kind, RefKind, Symbol
from tests.support.index import index_of_fixture, index_of_tree, links


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Index:
    return index_of_fixture(tmp_path_factory.mktemp("regions"), "regions")


def regions_of(index: Index, path: str) -> list[Symbol]:
    return [s for s in index.files[path].symbols if s.kind is Kind.REGION]


def test_a_route_table_beside_a_function_is_a_region(index: Index) -> None:
    (region,) = regions_of(index, "server/routes.js")
    assert (region.line, region.end_line) == (14, 18)  # from the comment above it
    assert (region.name, region.fqn) == ("14-18", "server/routes.js:14-18")
    assert region.symbol_id == "server/routes.js::14-18#region"
    assert region.signature.startswith('app.get("/catalogue"')
    assert region.name_line == 15  # its first line of code
    assert region.doc.startswith("Register the storefront routes")
    # after the definitions, before the file's unit; not a definition of the file
    assert index.files["server/routes.js"].symbols[-1].kind is Kind.FILE
    assert region not in index.files["server/routes.js"].definitions()


def test_a_region_encloses_the_references_in_its_lines(index: Index) -> None:
    # the route table passes requireLogin twice: the region is where it is used from, and
    # the graph's edge has it as its source (a caller, an impact)
    region = "server/routes.js::14-18#region"
    used = [r for r in index.files["server/routes.js"].references() if r.name == "requireLogin"]
    assert [(r.line, r.enclosing) for r in used] == [(16, region), (17, region)]
    assert "server/routes.js::requireLogin#function" in links(index, "server/routes.js", region)
    # a main block's call too; imports stay at file level (they bind the file's names)
    nightly = index.files["shop/nightly.py"].references()
    imports = {(r.name, r.enclosing) for r in nightly if r.kind is RefKind.IMPORT}
    assert imports == {("sys", None), ("mail_report", None)}
    called = [(r.name, r.enclosing) for r in nightly if r.line == 17]
    assert called == [("mail_report", "shop/nightly.py::13-17#region")]


def test_a_scripts_main_block_is_a_region_without_its_docstring_and_imports(
    index: Index,
) -> None:
    (region,) = regions_of(index, "shop/nightly.py")
    assert (region.line, region.end_line) == (13, 17)
    assert region.signature == 'if __name__ == "__main__":'


def test_tests_and_a_file_of_one_region_have_none(index: Index, tmp_path: Path) -> None:
    assert regions_of(index, "test/routes.test.js") == []  # test code: its file unit alone
    script = "const a = f();\ng(a);\nh(a);\nmodule.exports = a;\n"
    built = index_of_tree(tmp_path, {"lib/wire.js": script})
    assert regions_of(built, "lib/wire.js") == []  # the whole file: its unit says it


def test_a_long_run_is_cut_at_a_blank_line(tmp_path: Path) -> None:
    calls = "\n".join(f"app.use(step{i});" + ("\n" if i % 10 == 9 else "") for i in range(90))
    source = f"function step0(req) {{\n  return req;\n}}\n\n{calls}\n"
    built = index_of_tree(tmp_path, {"lib/app.js": source})
    found = regions_of(built, "lib/app.js")
    assert len(found) == 3
    assert all(s.end_line - s.line + 1 <= REGION_LINES for s in found)
    assert found[0].line == 5
    lines = source.split("\n")
    assert all(lines[s.end_line] == "" for s in found[:-1])  # each cut where a blank line is
    assert found[-1].end_line == lines.index("app.use(step89);") + 1  # the last call's
