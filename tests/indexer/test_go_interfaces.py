"""Go's implicit interfaces (issue 14, item 4), through the installed command.

The fixture: shapes/ has interfaces (one embedding another) and types whose methods
cover them, a type's methods split over two files, a method whose parameter count
differs; render/ has gin's shape, an interface ``Render`` beside methods ``Render``.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from symfuse.indexer.link.go_interfaces import parameter_count
from tests.support.cli import run_symfuse
from tests.support.paths import FIXTURES

pytestmark = pytest.mark.slow  # most tests run the installed symfuse command


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("go")
    root = Path(shutil.copytree(FIXTURES / "go_interfaces", base / "go_interfaces"))
    return root, base / "index"


def _cli(workspace: tuple[Path, Path], *args: str) -> Any:
    root, index_dir = workspace
    out = run_symfuse(
        [*args, str(root), "--index-dir", str(index_dir), "--no-progress", "-f", "json"]
    ).stdout
    return json.loads(out)


def _links(result: dict[str, Any], direction: str) -> dict[str, tuple[str, float]]:
    return {row["name"]: (row["relation"], row["confidence"]) for row in result[direction]}


def test_types_covering_an_interface_are_its_subtypes(workspace: tuple[Path, Path]) -> None:
    shape = _cli(workspace, "hierarchy", "Shape")
    assert shape["root"]["kind"] == "interface"
    assert _links(shape, "subtypes") == {
        "Circle": ("implements", 1.0),
        "Square": ("implements", 1.0),  # Area and Perimeter are in two files
        "Cube": ("implements", 1.0),
        "Solid": ("extends", 1.0),  # it embeds Shape
    }  # not Line: it has Perimeter alone
    solid = _cli(workspace, "hierarchy", "Solid")
    assert _links(solid, "subtypes") == {"Cube": ("implements", 1.0)}  # Shape's methods too


def test_a_type_lists_the_interfaces_it_satisfies(workspace: tuple[Path, Path]) -> None:
    circle = _cli(workspace, "hierarchy", "Circle", "--direction", "supertypes")
    # not Scaler: Scale(factor) where it wants Scale(factor, around) is another signature
    # (echo's Context.Render(code, name, data) is no Renderer); Mover's Move writes its
    # parameters over lines its signature does not keep: the name alone matches
    assert _links(circle, "supertypes") == {
        "Shape": ("implements", 1.0),
        "Mover": ("implements", 0.6),
    }
    line = _cli(workspace, "hierarchy", "Line")
    assert line["supertypes"] == []


def test_a_name_shared_by_a_type_and_methods_means_the_type(
    workspace: tuple[Path, Path],
) -> None:
    render = _cli(workspace, "hierarchy", "Render")  # also two methods called Render
    assert (render["root"]["kind"], render["root"]["file"]) == ("interface", "render/render.go")
    assert _links(render, "subtypes") == {
        "JSON": ("implements", 1.0),
        "Text": ("implements", 1.0),
    }


def test_search_implements_filter_finds_go_types(workspace: tuple[Path, Path]) -> None:
    square = _cli(workspace, "search", "Square", "--implements", "Shape")
    assert square["items"][0]["name"] == "Square"
    line = _cli(workspace, "search", "Line", "--implements", "Shape")
    assert "Line" not in {item["name"] for item in line["items"]}
    renderers = _cli(workspace, "search", "JSON", "--implements", "Render")
    assert renderers["items"][0]["fqn"] == "JSON"


def test_parameter_counts_of_go_signatures() -> None:
    assert parameter_count("func (o *T) Add(a, b int, s ...string) error", receiver=True) == 3
    assert parameter_count("Add(a, b int) error", receiver=False) == 2
    assert parameter_count("Area() float64", receiver=False) == 0
    assert parameter_count("Map(f func(int, int) int) []int", receiver=False) == 1
    assert parameter_count("Move(", receiver=False) is None  # the rest on the next lines
    assert parameter_count("func (o *T) Add(a, b int, s ...stri", receiver=True) is None


def test_a_method_added_in_another_file_completes_a_type(tmp_path: Path) -> None:
    root = Path(shutil.copytree(FIXTURES / "go_interfaces", tmp_path / "go_interfaces"))
    workspace = (root, tmp_path / "index")
    assert _cli(workspace, "hierarchy", "Line")["supertypes"] == []
    (root / "shapes" / "line_area.go").write_text(
        "package shapes\n\nfunc (l Line) Area() float64 { return 0 }\n"
    )
    line = _cli(workspace, "hierarchy", "Line")  # an update of the stored index
    assert _links(line, "supertypes") == {"Shape": ("implements", 1.0)}
    (root / "shapes" / "line_area.go").unlink()
    assert _cli(workspace, "hierarchy", "Line")["supertypes"] == []
