"""The navigation API on a small workspace: usages, text, symbols, calls, types, positions."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.errors import InvalidRequest, NotFound, OutsideWorkspace
from symfuse.indexer.index import Index
from symfuse.indexer.update.workspace import update_index
from symfuse.ranking.graph import hierarchy
from symfuse.ranking.graph.positions import definition_at, symbol_at
from symfuse.ranking.graph.usages import UsagesResult, find_usages
from symfuse.ranking.search.details import FileOutline, SymbolDetail, file_outline, get_symbol
from symfuse.ranking.text import search as text
from symfuse.ranking.text.paths import glob_match
from tests.support.paths import FIXTURES

FIXTURE = FIXTURES / "navigation"

ORDER = "shop/models.py::Order#class"
ORDER_TOTAL = "shop/models.py::Order.total#method"
SPECIAL_TOTAL = "shop/models.py::SpecialOrder.total#method"
UTIL_TOTAL = "shop/util.py::total#function"
FORMAT_PRICE = "shop/util.py::format_price#function"
CHECKOUT = "shop/service.py::checkout#function"


def build(root: Path, index_dir: Path) -> Index:
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=index_dir, progress=False))
    return index


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws") / "navigation"
    shutil.copytree(FIXTURE, root)
    return root


@pytest.fixture(scope="module")
def index(workspace: Path, tmp_path_factory: pytest.TempPathFactory) -> Index:
    return build(workspace, tmp_path_factory.mktemp("index"))


def positions(result: UsagesResult) -> list[tuple[str, int, int, str]]:
    return [(u.file, u.line, u.column, u.kind) for u in result.usages]


# --- find_usages ------------------------------------------------------------------------


def test_usages_of_a_class_follow_aliases_inheritance_and_annotations(index: Index) -> None:
    result = find_usages(index, symbol_id=ORDER, include_declaration=True)
    assert positions(result) == [
        ("shop/models.py", 20, 7, "definition"),
        ("shop/models.py", 34, 20, "inherit"),
        ("shop/models.py", 38, 20, "reference"),  # `Order.total(self)`: used before a dot
        ("shop/service.py", 4, 25, "import"),
        ("shop/service.py", 11, 13, "call"),  # `O(items)` through `import Order as O`
        ("shop/service.py", 22, 18, "type"),  # `order: O`
    ]
    call = result.usages[4]
    assert call.enclosing == CHECKOUT
    assert call.text == "order = O(items)"
    assert call.end_column == 14
    assert result.total == 6
    assert not result.truncated
    assert result.by_kind == {
        "call": 1,
        "definition": 1,
        "import": 1,
        "inherit": 1,
        "reference": 1,
        "type": 1,
    }


def test_usages_by_name_cover_every_definition_with_confidence(index: Index) -> None:
    result = find_usages(index, name="total", kinds=["call"])
    assert {t.symbol_id for t in result.targets} == {ORDER_TOTAL, SPECIAL_TOTAL, UTIL_TOTAL}
    by_place = {(u.file, u.line): (u.target, u.confidence) for u in result.usages}
    assert by_place[("shop/models.py", 31)] == (ORDER_TOTAL, 1.0)  # self.total()
    assert by_place[("shop/models.py", 38)] == (ORDER_TOTAL, 1.0)  # Order.total(self)
    assert by_place[("shop/report.py", 15)] == (UTIL_TOTAL, 1.0)  # shop.util.total(...)
    # order.total() after `order = O(items)`: the constructor says the receiver's type
    assert by_place[("shop/service.py", 12)] == (ORDER_TOTAL, 1.0)
    assert by_place[("shop/service.py", 19)] == (SPECIAL_TOTAL, 1.0)  # SpecialOrder(items)
    assert all(u.kind == "call" for u in result.usages)


def test_usages_by_name_disambiguated_by_file_or_qualified_name(index: Index) -> None:
    in_util = find_usages(index, name="total", file="shop/util.py")
    assert [t.symbol_id for t in in_util.targets] == [UTIL_TOTAL]
    assert positions(in_util) == [("shop/report.py", 15, 22, "call")]
    qualified = find_usages(index, name="Order.total")
    assert [t.symbol_id for t in qualified.targets] == [ORDER_TOTAL]
    with pytest.raises(NotFound, match=r"no definition named 'total' in shop/service.py"):
        find_usages(index, name="total", file="shop/service.py")


def test_usages_ordered_by_file_and_paged(index: Index) -> None:
    result = find_usages(index, symbol_id=FORMAT_PRICE)
    # Files that use it most come first (a page cut short keeps them), then by path; the
    # page stays flat (the front ends group it by file when asked).
    assert [u.file for u in result.usages] == [
        "shop/models.py",
        "shop/models.py",
        "shop/service.py",
        "shop/service.py",
        "shop/report.py",
    ]
    data = result.to_dict()
    assert "files" not in data
    assert "by_file" not in data  # nothing was cut
    assert data["usages"][4]["text"] == "lines.append(shop.util.format_price(0))"
    page = find_usages(index, symbol_id=FORMAT_PRICE, limit=2, offset=2)
    assert page.total == 5
    assert page.truncated
    assert [u.file for u in page.usages] == ["shop/service.py", "shop/service.py"]
    assert page.to_dict()["by_file"] == {"shop/report.py": 1}  # where the cut ones are


def test_usage_kinds_decorate_and_implement(index: Index) -> None:
    register = find_usages(index, name="register", kinds="decorate")
    assert [(u.line, u.column, u.kind) for u in register.usages] == [
        (8, 7, "decorate"),
        (16, 7, "decorate"),
    ]
    shape = find_usages(index, symbol_id="java/Shapes.java::Shape#interface")
    # List<Shape>, the loop variable `for (Shape s : shapes)`, `Shape c = ...`
    kinds = ["implement", "implement", "type", "type", "type"]
    assert sorted(u.kind for u in shape.usages) == kinds


def test_usages_errors_name_the_field(index: Index) -> None:
    with pytest.raises(InvalidRequest, match=r"^symbol_id: give a symbol_id, or a name"):
        find_usages(index)
    with pytest.raises(NotFound, match=r"symbol_id: unknown symbol 'nope'"):
        find_usages(index, symbol_id="nope")
    with pytest.raises(NotFound, match=r"name: no definition named 'Nope'"):
        find_usages(index, name="Nope")
    with pytest.raises(InvalidRequest, match=r"^kinds: unknown usage kind 'calls'"):
        find_usages(index, name="total", kinds="calls")
    with pytest.raises(InvalidRequest, match=r"^limit:"):
        find_usages(index, name="total", limit=0)
    with pytest.raises(OutsideWorkspace, match=r"^file: '../../etc/passwd' is outside"):
        find_usages(index, name="total", file="../../etc/passwd")


# --- resolution fixes in indexer/link/graph.py, seen through usages -------------------------------


def test_builtin_call_in_python_does_not_link_to_a_java_method(index: Index) -> None:
    result = find_usages(index, symbol_id="java/Shapes.java::Shapes.sum#method")
    assert [u.file for u in result.usages] == ["java/Shapes.java"]


def test_parameter_is_not_a_usage_of_a_same_named_field(index: Index) -> None:
    result = find_usages(index, symbol_id="shop/models.py::Order.items#field")
    # the parameters `items` in shop/service.py are not it; `self.items` in Order is
    assert positions(result) == [("shop/models.py", 27, 48, "reference")]


def test_class_qualified_call_resolves_in_its_file(index: Index) -> None:
    callees = hierarchy.callees(index, SPECIAL_TOTAL)
    assert [(e.symbol.symbol_id, e.confidence) for e in callees.items] == [(ORDER_TOTAL, 1.0)]


# --- search_text ---------------------------------------------------------------------------


def test_literal_search_is_case_insensitive_with_snippets(index: Index) -> None:
    result = text.search_text(index, "FORMAT_PRICE", snippet_lines=1, limit=2)
    assert result.total == 6
    assert result.truncated
    assert result.mode == "literal"
    first = result.hits[0]
    assert (first.file, first.line, first.column, first.end_column) == ("shop/models.py", 5, 23, 35)
    assert first.snippet == "4- \n5: from shop.util import format_price\n6- "
    assert text.search_text(index, "FORMAT_PRICE", case_sensitive=True).total == 0


def test_search_columns_count_code_points_on_non_ascii_lines(index: Index) -> None:
    result = text.search_text(index, "prix affiché", snippet_lines=0)
    hit = result.hits[0]
    assert (hit.file, hit.line, hit.column) == ("shop/models.py", 30, 35)
    line = (FIXTURE / "shop/models.py").read_text(encoding="utf-8").splitlines()[29]
    assert line[hit.column - 1 : hit.end_column - 1] == "prix affiché"
    assert hit.snippet == ""


def test_regex_search_and_filters(index: Index) -> None:
    defs = text.search_text(index, r"^def \w+\(", regex=True, limit=100)
    assert {h.file for h in defs.hits} == {"shop/report.py", "shop/service.py", "shop/util.py"}
    only_util = text.search_text(index, r"^def \w+\(", regex=True, file_pattern="**/util.py")
    assert {h.file for h in only_util.hits} == {"shop/util.py"}
    no_util = text.search_text(index, r"^def \w+\(", regex=True, exclude_path="util.py,report.py")
    assert {h.file for h in no_util.hits} == {"shop/service.py"}
    java = text.search_text(index, "area", language="java")
    assert {h.file for h in java.hits} == {"java/Shapes.java"}
    with pytest.raises(InvalidRequest, match=r"^language: unknown language 'cobol'"):
        text.search_text(index, "x", language="cobol")


def test_fuzzy_search_by_words_and_windows(index: Index) -> None:
    typo = text.search_text(index, "formt_prize", edit_distance=2, limit=100)
    assert typo.mode == "fuzzy"
    assert typo.total == 6
    assert {h.distance for h in typo.hits} == {2}
    two_words = text.search_text(index, "order totl", edit_distance=1)
    assert ("shop/service.py", 12) in {(h.file, h.line) for h in two_words.hits}
    with pytest.raises(InvalidRequest, match=r"^edit_distance: fuzzy matching needs regex=false"):
        text.search_text(index, "abc", regex=True, edit_distance=1)
    with pytest.raises(InvalidRequest, match=r"^edit_distance: must be 0..3"):
        text.search_text(index, "abcdef", edit_distance=4)


def test_bad_and_pathological_regexes_are_refused_at_once(index: Index) -> None:
    with pytest.raises(InvalidRequest, match=r"^pattern: not a valid regular expression"):
        text.search_text(index, "(unclosed", regex=True)
    for pattern in (r"(a+)+$", r"(\w+\s?)*$", r"(a|ab)*c"):
        # Refused by reading the pattern: the error names the reason, no search ran.
        with pytest.raises(InvalidRequest, match=r"exponential time"):
            text.search_text(index, pattern, regex=True)


@pytest.mark.slow  # the regex worker process
def test_risky_regex_on_a_long_line_times_out_within_budget(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Python's engine (ripgrep, linear, would answer at once); a `b` elsewhere in the file
    # keeps it from being skipped for lacking one.
    monkeypatch.setenv("SYMFUSE_RG", "off")
    root = tmp_path / "ws"
    root.mkdir()
    (root / "big.py").write_text('x = "' + "a" * 5000 + '"\nb = 1\n', encoding="utf-8")
    index = build(root, tmp_path / "index")
    # The budget's own exception says it fired; no stopwatch around the call.
    with pytest.raises(text.SearchTimeout, match=r"took longer than the 0.5 s budget"):
        text.search_text(index, r".*a.*a.*a.*b", regex=True, timeout=0.5)
    # the same file with a harmless pattern answers at once
    assert text.search_text(index, r"a+b", regex=True).total == 0
    assert text.search_text(index, r"x = .*a.*", regex=True).total == 1


# --- get_symbol ----------------------------------------------------------------------------


def test_get_symbol_by_id_has_source_context_and_neighbours(index: Index) -> None:
    detail = get_symbol(index, symbol_id=ORDER_TOTAL, context_lines=1)
    assert isinstance(detail, SymbolDetail)
    assert detail.source.splitlines()[0] == "    def total(self):"
    assert (detail.start_line, detail.end_line) == (25, 27)
    assert detail.context_before == ""
    assert detail.context_after == ""
    assert detail.symbol.doc == "Sum of the item prices."
    assert detail.parent is not None
    assert detail.parent.symbol_id == ORDER
    assert detail.callers_count == 3  # not checkout_special's order.total(), a SpecialOrder
    assert detail.callees_count == 0
    order = get_symbol(index, symbol_id=ORDER, context_lines=2, max_lines=3)
    assert isinstance(order, SymbolDetail)
    assert order.source_truncated
    assert order.source.split("\n") == [
        "class Order(Base, Priced):",
        '    """An order of items."""',
        "",
    ]
    assert order.context_before.splitlines() == ["", "@dataclass"]
    assert [c.name for c in order.children] == ["items", "total", "label"]
    assert order.symbol.decorators == ("dataclass",)


def test_get_symbol_outline_and_path_line(index: Index) -> None:
    outline = get_symbol(index, path="shop/models.py")
    assert isinstance(outline, FileOutline)
    assert [n.symbol.name for n in outline.symbols] == ["Base", "Priced", "Order", "SpecialOrder"]
    assert [c.symbol.name for c in outline.symbols[2].children] == ["items", "total", "label"]
    assert outline.count == 9
    inner = get_symbol(index, path="shop/models.py:26")
    assert isinstance(inner, SymbolDetail)
    assert inner.symbol.symbol_id == ORDER_TOTAL
    same = get_symbol(index, path="shop/models.py", line=26)
    assert isinstance(same, SymbolDetail)
    assert same.symbol.symbol_id == ORDER_TOTAL
    with pytest.raises(NotFound, match=r"no definition contains line 2 of shop/models.py"):
        get_symbol(index, path="shop/models.py:2")
    with pytest.raises(NotFound, match=r"path: 'shop/nope.py' is not an indexed file"):
        get_symbol(index, path="shop/nope.py")
    with pytest.raises(InvalidRequest, match=r"^path: 'shop' is a directory"):
        get_symbol(index, path="shop")
    with pytest.raises(InvalidRequest, match=r"^symbol_id: give a symbol_id, a path"):
        get_symbol(index)


def test_absolute_paths_inside_the_workspace_are_accepted(index: Index, workspace: Path) -> None:
    outline = file_outline(index, str(workspace / "shop" / "util.py"))
    assert outline.file == "shop/util.py"
    uri = (workspace / "shop" / "util.py").as_uri()
    assert file_outline(index, uri).file == "shop/util.py"


# --- confinement -----------------------------------------------------------------------------


def test_paths_outside_the_workspace_are_refused(
    index: Index, workspace: Path, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.py"
    secret.write_text("def leaked():\n    pass\n", encoding="utf-8")
    link = workspace / "shop" / "leak.py"
    os.symlink(secret, link)
    try:
        for given in ("../../etc/passwd", "/etc/passwd", str(secret), "shop/leak.py"):
            with pytest.raises(OutsideWorkspace, match=r"is outside the workspace"):
                get_symbol(index, path=given)
        with pytest.raises(OutsideWorkspace, match=r"^file: "):
            definition_at(index, "shop/../../x.py", 1, 1)
    finally:
        link.unlink()


def test_a_symlink_leading_out_is_never_read(workspace: Path, tmp_path: Path) -> None:
    secret = tmp_path / "outside" / "secret.py"
    secret.parent.mkdir()
    secret.write_text("TOKEN = 'do-not-read'\n", encoding="utf-8")
    root = tmp_path / "ws"
    shutil.copytree(FIXTURE, root)
    os.symlink(secret, root / "shop" / "secret.py")
    index = build(root, tmp_path / "index")
    assert text.search_text(index, "do-not-read").total == 0
    if "shop/secret.py" in index.files:
        with pytest.raises(OutsideWorkspace):
            get_symbol(index, path="shop/secret.py")


def test_glob_matching() -> None:
    assert glob_match("shop/util.py", "*.py")
    assert glob_match("shop/util.py", "**/util.py")
    assert glob_match("util.py", "**/util.py")
    assert glob_match("shop/util.py", "shop/**")
    assert glob_match("a/tests/b.py", "tests")
    assert not glob_match("shop/util.py", "shop/*.java")
    assert not glob_match("shop/sub/util.py", "shop/*.py")


# --- calls and types ---------------------------------------------------------------------------


def test_callers_with_call_sites_and_depth(index: Index) -> None:
    result = hierarchy.callers(index, FORMAT_PRICE, depth=2)
    first = [(e.symbol.name, e.depth, [(s.line, s.column) for s in e.sites]) for e in result.items]
    assert first[:4] == [
        ("label", 1, [(31, 32)]),
        ("daily_report", 1, [(9, 28)]),
        ("checkout", 1, [(13, 17)]),
        ("checkout_special", 1, [(19, 17)]),
    ]
    assert ("audit", 2, [(23, 18)]) in first
    assert result.total == len(result.items)


def test_callees_of_a_function(index: Index) -> None:
    result = hierarchy.callees(index, CHECKOUT)
    # `order = O(items); order.total()`: Order.total, by the constructor (not also
    # SpecialOrder.total, a guess by name before receivers were typed in Python)
    assert {e.symbol.symbol_id for e in result.items} == {ORDER, FORMAT_PRICE, ORDER_TOTAL}
    order = next(e for e in result.items if e.symbol.symbol_id == ORDER)
    assert [(s.file, s.line, s.column) for s in order.sites] == [("shop/service.py", 11, 13)]
    with pytest.raises(InvalidRequest, match=r"^depth: must be 1..10"):
        hierarchy.callees(index, CHECKOUT, depth=11)


def test_type_hierarchy_python_java_and_unresolved_bases(index: Index) -> None:
    order = hierarchy.type_hierarchy(index, ORDER)
    assert [(t.name, t.relation, t.resolved) for t in order.supertypes] == [
        ("Base", "extends", True),
        ("Priced", "extends", True),
    ]
    assert [t.name for t in order.subtypes] == ["SpecialOrder"]
    deep = hierarchy.type_hierarchy(index, "shop/models.py::Base#class", depth=2)
    assert [(t.name, t.depth) for t in deep.subtypes] == [("Order", 1), ("SpecialOrder", 2)]
    shape = hierarchy.type_hierarchy(index, "java/Shapes.java::Shape#interface")
    assert [(t.name, t.relation) for t in shape.subtypes] == [
        ("Circle", "implements"),
        ("Square", "implements"),
    ]
    error = hierarchy.type_hierarchy(index, "shop/util.py::ShopError#class")
    assert [(t.name, t.symbol, t.resolved) for t in error.supertypes] == [
        ("Exception", None, False)
    ]


# --- positions ----------------------------------------------------------------------------------


def test_definition_at_follows_references_aliases_and_attributes(index: Index) -> None:
    def targets(file: str, line: int, col: int) -> list[str]:
        return [t.symbol.symbol_id for t in definition_at(index, file, line, col).targets]

    assert targets("shop/service.py", 11, 13) == [ORDER]  # O(items)
    assert targets("shop/service.py", 4, 34) == [ORDER]  # the alias O in the import
    assert targets("shop/service.py", 8, 8) == ["shop/util.py::register#function"]
    assert targets("shop/report.py", 9, 30) == [FORMAT_PRICE]
    assert targets("shop/models.py", 27, 49) == ["shop/models.py::Order.items#field"]
    assert targets("shop/util.py", 12, 6) == [FORMAT_PRICE]  # a definition's own name
    assert targets("shop/report.py", 15, 22) == [UTIL_TOTAL]  # after a non-ASCII def line
    assert targets("shop/models.py", 12, 1) == []


def test_symbol_at_on_a_non_ascii_line(index: Index) -> None:
    found = symbol_at(index, "shop/report.py", 13, 6)
    assert found is not None
    assert found.name == "naïve_total"
    assert (found.name_col, found.name_end_col) == (5, 16)
    assert symbol_at(index, "shop/report.py", 2) is None
    method = symbol_at(index, "shop/models.py", 26)
    assert method is not None
    assert method.symbol_id == ORDER_TOTAL


def test_every_result_is_json_ready(index: Index) -> None:
    results = [
        find_usages(index, name="total"),
        get_symbol(index, symbol_id=ORDER),
        get_symbol(index, path="shop/models.py"),
        definition_at(index, "shop/service.py", 11, 13),
        hierarchy.callers(index, FORMAT_PRICE),
        hierarchy.type_hierarchy(index, "shop/util.py::ShopError#class"),
        text.search_text(index, "total", edit_distance=1),
    ]
    for result in results:
        data = json.loads(json.dumps(result.to_dict(), ensure_ascii=False))
        assert isinstance(data, dict)


def test_relative_import_resolves_from_the_files_package(index: Index) -> None:
    result = find_usages(index, symbol_id="shop/util.py::ShopError#class")
    assert positions(result) == [
        ("shop/service.py", 27, 23, "import"),
        ("shop/service.py", 29, 11, "call"),
    ]


def test_imports_resolve_when_the_root_is_the_package_itself(tmp_path: Path) -> None:
    root = tmp_path / "pkg"
    root.mkdir()
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "a.py").write_text("def helper():\n    return 1\n", encoding="utf-8")
    (root / "b.py").write_text(
        "from pkg.a import helper as h\n\n\ndef use():\n    return h()\n", encoding="utf-8"
    )
    index = build(root, tmp_path / "index")
    result = find_usages(index, symbol_id="a.py::helper#function")
    assert [(u.file, u.line, u.kind, u.confidence) for u in result.usages] == [
        ("b.py", 1, "import", 1.0),
        ("b.py", 5, "call", 1.0),
    ]
