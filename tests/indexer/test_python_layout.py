"""Python source roots: a `src/` (or declared) layout names modules as the installed
distribution does, so `import pkg; pkg.echo()` links to the definition that
`pkg/__init__.py` re-exports, not to a namesake nested in a test."""

from __future__ import annotations

import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from symfuse.indexer.config import IndexConfig
from symfuse.indexer.files.layouts import PythonLayout, python_layout
from symfuse.indexer.index import Index
from symfuse.indexer.model import EdgeKind
from symfuse.indexer.update.workspace import update_index
from tests.support.cli import write_tree

CALLS = int(EdgeKind.CALLS)

SRC_LAYOUT = {
    "pyproject.toml": '[project]\nname = "pkg"\n',
    "src/pkg/__init__.py": "from .utils import echo as echo\n",
    "src/pkg/utils.py": "def echo(message):\n    print(message)\n",
    "src/pkg/core.py": "from .utils import echo\n\n\ndef run():\n    echo('run')\n",
    "tests/test_echo.py": (
        "import pkg\n\n\n"
        "def test_plain():\n"
        "    pkg.echo('x')\n\n\n"
        "def test_nested():\n"
        "    def echo():\n"
        "        return 1\n\n"
        "    pkg.echo('y')\n"
        "    echo()\n"
    ),
}
ECHO = "src/pkg/utils.py::echo#function"


def cold(root: Path, tmp_path: Path) -> Index:
    index, _ = update_index(IndexConfig(roots=(root,), index_dir=tmp_path / "idx", progress=False))
    return index


def callers_of(index: Index, target: str) -> set[str]:
    return {
        src
        for rows in index.edges_by_file.values()
        for src, dst, kind, _ in rows
        if dst == target and kind == CALLS
    }


def test_src_layout_names_modules_without_src(tmp_path: Path) -> None:
    index = cold(write_tree(tmp_path / "ws", SRC_LAYOUT), tmp_path)
    assert index.by_fqn["pkg.utils.echo"].symbol_id == ECHO
    assert "src.pkg.utils.echo" not in index.by_fqn
    assert index.by_fqn["tests.test_echo.test_plain"].file == "tests/test_echo.py"


def test_package_calls_link_through_the_reexport(tmp_path: Path) -> None:
    index = cold(write_tree(tmp_path / "ws", SRC_LAYOUT), tmp_path)
    assert callers_of(index, ECHO) == {
        "src/pkg/core.py::run#function",
        "tests/test_echo.py::test_plain#function",
        "tests/test_echo.py::test_nested#function",
    }
    nested = "tests/test_echo.py::test_nested.echo#function"
    assert callers_of(index, nested) == {"tests/test_echo.py::test_nested#function"}


@pytest.mark.parametrize(
    ("files", "folders"),
    [
        ({"pyproject.toml": '[tool.setuptools]\npackage-dir = {"" = "src"}\n'}, [("src/", "")]),
        (
            {"pyproject.toml": '[tool.setuptools.packages.find]\nwhere = ["source"]\n'},
            [("source/", "")],
        ),
        (
            {"pyproject.toml": '[tool.hatch.build.targets.wheel]\npackages = ["code/pkg"]\n'},
            [("code/", "")],
        ),
        (
            {"pyproject.toml": '[tool.poetry]\npackages = [{include = "pkg", from = "py"}]\n'},
            [("py/", "")],
        ),
        ({"setup.cfg": "[options]\npackage_dir =\n    =lib\n"}, [("lib/", "")]),
        ({"setup.cfg": "[options]\npackage_dir =\n    mypkg = code\n"}, [("code/", "mypkg/")]),
        ({"src/pkg/__init__.py": ""}, [("src/", "")]),
        ({"src/ns/pkg/mod.py": ""}, [("src/", "")]),  # a namespace package
        ({"lib/pkg/__init__.py": ""}, [("lib/", "")]),
        ({"src/__init__.py": "", "src/mod.py": ""}, []),  # src is itself a package
        ({"src/main.c": ""}, []),  # no Python in it
    ],
)
def test_source_folders_are_read_from_config_or_layout(
    tmp_path: Path, files: dict[str, str], folders: list[tuple[str, str]]
) -> None:
    root = write_tree(tmp_path / "ws", files)
    assert list(python_layout(str(root)).folders) == folders


def test_a_renamed_package_folder_names_its_modules() -> None:
    layout = PythonLayout("", (("code/", "mypkg/"), ("src/", "")))
    assert layout.module("code/sub/mod.py") == "mypkg.sub.mod"
    assert layout.module("src/other/__init__.py") == "other"
    assert layout.module("tests/test_x.py") == "tests.test_x"


def test_a_changed_layout_renames_every_module(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "ws", {"code/pkg/__init__.py": "def f():\n    pass\n"})
    assert "code.pkg.f" in cold(root, tmp_path).by_fqn
    (root / "setup.cfg").write_text("[options]\npackage_dir =\n    =code\n")
    assert "pkg.f" in cold(root, tmp_path).by_fqn


@pytest.fixture(scope="module")
def click_sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """click's sdist from the registry (a src/ layout whose tests call `click.echo`)."""
    home = tmp_path_factory.mktemp("click")
    pip = [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:"]
    subprocess.run([*pip, "click==8.5.1"], cwd=home, check=True, capture_output=True)
    with tarfile.open(next(home.glob("click-*.tar.gz"))) as tar:
        tar.extractall(home, filter="data")
    return home / "click-8.5.1"


@pytest.mark.slow  # pip download, and parser processes
def test_click_tests_call_the_reexported_echo(click_sdist: Path, tmp_path: Path) -> None:
    index = cold(click_sdist, tmp_path)
    echo = index.by_fqn["click.utils.echo"]
    assert echo.file == "src/click/utils.py"
    callers = callers_of(index, echo.symbol_id)
    assert sum(c.startswith("tests/") for c in callers) > 100
    nested = "tests/test_utils/test_prompt.py::test_prompts_eof.echo#function"
    assert not any(c.startswith("tests/test_basic") for c in callers_of(index, nested))
