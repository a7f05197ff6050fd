"""Golden tests: every supported language extracts its fixture exactly as recorded.

Regenerate a dump after a deliberate change with ``SYMFUSE_UPDATE_GOLDEN=1 pytest``
and read the diff before committing it.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from symfuse.indexer.extract.tags import extract
from symfuse.indexer.files import languages
from symfuse.indexer.model import Kind
from tests.support.golden import dump
from tests.support.paths import FIXTURES

LANGUAGES = FIXTURES / "languages"
UPDATE = os.environ.get("SYMFUSE_UPDATE_GOLDEN") == "1"


def _sample(language: str) -> Path:
    samples = sorted(p for p in (LANGUAGES / language).glob("sample.*"))
    assert samples, f"no fixture for {language}: add tests/fixtures/languages/{language}/sample.*"
    return samples[0]


@pytest.mark.parametrize("language", sorted(languages.supported()))
def test_golden_dump(language: str) -> None:
    sample = _sample(language)
    spec = languages.detect(sample.name)
    assert spec is not None
    assert spec.name == language
    rel = f"{language}/{sample.name}"
    extraction = extract(rel, "fixtures", language, sample.read_bytes())
    got = dump(extraction)
    expected_file = sample.with_name("expected.txt")
    if UPDATE or not expected_file.exists():
        expected_file.write_text(got, encoding="utf-8")
        if not UPDATE:
            pytest.fail(f"wrote a new golden dump {expected_file}; review and commit it")
    assert got == expected_file.read_text(encoding="utf-8")


@pytest.mark.parametrize("language", sorted(languages.supported()))
def test_fixture_has_definitions_and_references(language: str) -> None:
    sample = _sample(language)
    extraction = extract(f"{language}/{sample.name}", "fixtures", language, sample.read_bytes())
    kinds = {s.kind for s in extraction.symbols}
    assert kinds, f"{language}: no definitions extracted"
    if kinds <= Kind.DOCUMENTS and language in ("yaml", "toml"):
        return  # data files: one kind of definition, and TOML refers to nothing by name
    assert len(kinds) >= 2, f"{language}: fixture shows fewer than two kinds: {kinds}"
    assert extraction.references, f"{language}: no references extracted"


@pytest.mark.parametrize("language", sorted(languages.supported()))
def test_the_definitions_query_reads_the_definitions_the_full_query_does(language: str) -> None:
    # the patterns read from the query's text are the ones tree-sitter numbers, and the
    # definitions query compiled from them alone finds every definition the full one does
    source = languages.query_source(language)
    full = languages.query(language)
    text = source.encode()
    patterns = languages.query_patterns(source)
    assert len(patterns) == full.pattern_count
    for i, pattern in enumerate(patterns):
        compiled = text[full.start_byte_for_pattern(i) : full.end_byte_for_pattern(i)]
        assert compiled.decode().startswith(pattern), (i, pattern)
    sample = _sample(language)
    rel = f"{language}/{sample.name}"
    both = extract(rel, "fixtures", language, sample.read_bytes())
    alone = extract(rel, "fixtures", language, sample.read_bytes(), definitions_only=True)
    assert alone.symbols == both.symbols


_ROLE = re.compile(r"@(reference\.[\w-]+|definition\.[\w-]+|local|global)(?![\w.-])")


@pytest.mark.parametrize("language", sorted(languages.supported()))
def test_a_pattern_that_finds_a_use_says_one_role(language: str) -> None:
    # the full query's use roles are disabled captures (languages.query): the extractor
    # reads a use's role from its pattern's number, so a pattern must have one
    roles = languages.reference_roles(language)
    for i, pattern in enumerate(languages.query_patterns(languages.query_source(language))):
        found = set(_ROLE.findall(pattern))
        uses = {role for role in found if not role.startswith("definition.")}
        if uses:
            assert len(found) == 1, (i, pattern)
            assert roles[i] == uses.pop()
        else:
            assert i not in roles


def test_at_least_40_languages() -> None:
    assert len(languages.supported()) >= 40, sorted(languages.supported())


@pytest.mark.parametrize(
    ("file_name", "language"),
    [
        ("Makefile", "make"),
        ("src/GNUmakefile", "make"),
        ("rules.mk", "make"),
        ("Dockerfile", "dockerfile"),
        ("deploy/Containerfile", "dockerfile"),
        (".github/workflows/ci.yml", "yaml"),
        ("pyproject.toml", "toml"),
        ("README.md", "markdown"),
        ("kernel.cuh", "cuda"),
        ("shader.frag", "glsl"),
    ],
)
def test_languages_known_by_file_name(file_name: str, language: str) -> None:
    spec = languages.detect(file_name)
    assert spec is not None
    assert spec.name == language


def test_a_query_can_inherit_another_languages_patterns() -> None:
    tsx = languages.query_source("tsx")
    assert tsx.startswith(languages.query_source("typescript"))
    assert "jsx_opening_element" in tsx
    assert "jsx_opening_element" not in languages.query_source("typescript")
