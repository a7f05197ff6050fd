"""``symfuse --version``, ``-V`` and ``version`` print the installed version; doctor says it."""

from __future__ import annotations

from importlib.metadata import version

import pytest

from tests.support.cli import run_symfuse

pytestmark = pytest.mark.slow  # the installed symfuse command


@pytest.mark.parametrize("words", [["--version"], ["-V"], ["version"]])
def test_the_version_is_printed(words: list[str]) -> None:
    result = run_symfuse(words)
    assert result.stdout == f"symfuse {version('symfuse')}\n"
    assert result.stderr == ""


def test_doctor_names_the_version() -> None:
    result = run_symfuse(["doctor"], check=False)
    assert f"symfuse {version('symfuse')} on Python" in result.stdout
