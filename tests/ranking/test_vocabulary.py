"""The one vocabulary of kind and language words (symfuse.ranking.query.vocabulary)."""

from __future__ import annotations

import pytest

from symfuse.indexer.model import Kind
from symfuse.ranking.query.search_request import SearchRequest
from symfuse.ranking.query.vocabulary import kind_of, language_of, matched_kinds


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("func", Kind.FUNCTION),
        ("fn", Kind.FUNCTION),
        ("def", Kind.FUNCTION),
        ("cls", Kind.CLASS),
        ("var", Kind.VARIABLE),
        ("const", Kind.CONSTANT),
        ("iface", Kind.INTERFACE),
        ("ctor", Kind.CONSTRUCTOR),
        ("member", Kind.ENUM_MEMBER),
        ("Method", Kind.METHOD),
        ("heading", Kind.HEADING),
    ],
)
def test_kind_words(word: str, kind: Kind) -> None:
    assert kind_of(word) is kind


@pytest.mark.parametrize(
    ("word", "language"),
    [
        ("py", "python"),
        ("js", "javascript"),
        ("ts", "typescript"),
        ("rb", "ruby"),
        ("cs", "csharp"),
        ("cpp", "cpp"),
        (".rs", "rust"),
        ("rs", "rust"),
        (".hpp", "cpp"),
        ("yml", "yaml"),
        ("Go", "go"),
    ],
)
def test_language_words(word: str, language: str) -> None:
    assert language_of(word) == language


def test_unknown_words() -> None:
    assert kind_of("klass") is None
    assert language_of("pyy") is None
    assert language_of(".") is None


def test_method_covers_constructors_and_constructor_only_itself() -> None:
    assert matched_kinds([Kind.METHOD]) == {Kind.METHOD, Kind.CONSTRUCTOR}
    assert matched_kinds([Kind.CONSTRUCTOR]) == {Kind.CONSTRUCTOR}


def test_the_request_takes_aliases() -> None:
    request = SearchRequest.from_mapping(
        {"query": "x", "kind": "fn,ctor", "language": ["py", ".ts"]}
    )
    assert request.kind == (Kind.FUNCTION, Kind.CONSTRUCTOR)
    assert request.language == ("python", "typescript")
