"""``symfuse languages`` through the installed command, and the README's table made from it."""

from __future__ import annotations

import json
import re

import pytest
import toon_format

from symfuse.indexer.files import languages
from tests.support.cli import run_symfuse
from tests.support.paths import REPO

pytestmark = pytest.mark.slow  # each test runs the installed symfuse command

README = REPO / "README.md"
_BLOCK = re.compile(
    r"<!-- symfuse languages: begin -->\n```text\n(.*?)\n```\n<!-- symfuse languages: end -->",
    re.S,
)


def test_every_language_with_its_extensions_and_the_h_rule() -> None:
    data = json.loads(run_symfuse(["languages", "-f", "json"]).stdout)
    rows = {row["language"]: row for row in data["languages"]}
    assert set(rows) == set(languages.supported())
    assert data["total"] == len(rows) >= 40
    assert ".h" in rows["c"]["extensions"]
    assert rows["make"]["file_names"] == ["Makefile", "makefile", "GNUmakefile"]
    assert rows["cuda"]["extensions"] == [".cu", ".cuh"]
    assert data["h_files"] == languages.HEADER_RULE
    assert data["h_files"].endswith("else C")
    toon = run_symfuse(["languages", "-f", "toon"]).stdout
    assert toon_format.decode(toon) == data


def test_the_readme_table_is_the_commands_output() -> None:
    text = run_symfuse(["languages"]).stdout.rstrip("\n")
    readme = README.read_text(encoding="utf-8")
    found = _BLOCK.search(readme)
    assert found is not None, "README.md has no generated `symfuse languages` block"
    expected = "\n".join(line.rstrip() for line in text.splitlines())
    assert found.group(1) == expected, "regenerate the README block with `symfuse languages`"
    assert f"({len(languages.supported())} languages" in readme
