"""Other endings of a question's word that the code never spells (channels.variants)."""

from __future__ import annotations

from symfuse.ranking.channels import lexical
from symfuse.ranking.channels.documents import build_documents
from symfuse.ranking.channels.lexical import QueryTerms
from symfuse.ranking.channels.tokens import stem
from symfuse.ranking.channels.variants import variants
from tests.support.symbols import make_symbol

VOCABULARY = {
    w: i
    for i, w in enumerate(
        ["token", "tokenizer", "tokenstream", "decod", "pars", "parser", "form", "format", "call"]
    )
}


def test_an_ending_added_or_taken_away() -> None:
    assert variants(stem("tokenized"), VOCABULARY) == ["token", "tokenizer"]
    assert variants("decoder", VOCABULARY) == ["decod"]
    assert variants("pars", VOCABULARY) == ["parser"]  # four letters take -er / -or only


def test_no_second_word_and_no_short_stem() -> None:
    assert "tokenstream" not in variants("token", VOCABULARY)  # a word, not an ending
    assert variants("form", VOCABULARY) == []  # "format" is another word
    assert variants("caller", VOCABULARY) == ["call"]
    assert variants("x1", VOCABULARY) == []


def test_prose_counts_other_endings_only_for_a_word_the_code_never_spells() -> None:
    symbols = [
        make_symbol("tokens", doc="Split the input into tokens."),
        make_symbol("render", doc="Render the page."),
        make_symbol("tokenize_all", doc="Tokenize every line."),
    ]
    index = lexical.LexicalIndex.build(build_documents(symbols))
    prose = lexical.BODY_AWARE
    assert prose.variants > 0
    # "tokenization" is nowhere: "tokeniz" stands in (tokenize_all), nothing else
    scores, _ = index.scores(QueryTerms.parse("tokenization"), prose)
    assert scores[2] > 0
    assert scores[0] == scores[1] == 0
    # "tokenize" is there: its own documents only, "token" does not stand in
    scores, _ = index.scores(QueryTerms.parse("tokenize"), prose)
    assert scores[2] > 0
    assert scores[0] == 0
    # names are matched as written
    names, _ = index.scores(QueryTerms.parse("tokenization"))
    assert not names.any()
