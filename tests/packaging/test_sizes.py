"""The size gate of `.ci/check` (`.ci/sizes.py`): the tree passes it; it catches a long function."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.paths import REPO


def _sizes() -> ModuleType:
    spec = importlib.util.spec_from_file_location("ci_sizes", REPO / ".ci" / "sizes.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_tree_passes_the_size_gate(capsys: pytest.CaptureFixture[str]) -> None:
    code = _sizes().main(["sizes.py", str(REPO)])
    assert code == 0, capsys.readouterr().out


def _function(name: str, body_lines: int, indent: str = "") -> list[str]:
    return [f"{indent}def {name}() -> None:"] + [f"{indent}    x = {i}" for i in range(body_lines)]


def test_the_gate_reports_a_61_line_function_and_not_a_60_line_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = tmp_path / "ranking" / "deep"
    package.mkdir(parents=True)
    # outer spans 1 + 40 + (60-line inner) + 20 = 121 lines, of which 61 are its own.
    outer = (
        _function("outer", 40)
        + _function("inner", 59, indent="    ")
        + [f"    y = {i}" for i in range(20)]
    )
    long_one = _function("long_one", 60)  # 61 lines
    just_fits = _function("just_fits", 59)  # 60 lines
    method = ["class Holder:", *_function("method", 61, indent="    ")]
    source = "\n".join([*outer, *long_one, *just_fits, *method]) + "\n"
    (package / "mod.py").write_text(source, encoding="utf-8")
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "big.py").write_text("x = 1\n" * 501, encoding="utf-8")

    code = _sizes().main(["sizes.py", str(tmp_path)])

    out = capsys.readouterr().out.splitlines()
    assert code == 1
    first_long = 1 + len(outer)
    method_line = first_long + len(long_one) + len(just_fits) + 1
    assert out == [
        "ranking/deep/mod.py:1: outer (61 lines)",
        f"ranking/deep/mod.py:{first_long}: long_one (61 lines)",
        f"ranking/deep/mod.py:{method_line}: Holder.method (62 lines)",
        "server/big.py:1: module (501 lines)",
    ]


def test_the_gate_passes_a_tree_within_the_limits(tmp_path: Path) -> None:
    (tmp_path / "indexer").mkdir()
    (tmp_path / "indexer" / "ok.py").write_text("\n".join(_function("f", 59)) + "\n")
    assert _sizes().main(["sizes.py", str(tmp_path)]) == 0
