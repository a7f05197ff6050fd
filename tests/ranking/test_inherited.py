"""Borrowed docstrings: an undocumented override reads its base's doc; a function with a
rare documented namesake reads that one's; a method declared outside its type (Go) reads
its type's as a context; the borrowed words reach both text channels."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.documents import build_documents
from symfuse.ranking.channels.inherited_docs import (
    INHERITED_DOC,
    RECEIVER_DOC,
    SAME_NAME_DONORS,
    call_docs,
    doc_donors,
    inherited,
    receiver_docs,
    with_inherited,
)
from symfuse.ranking.channels.tokens import text_tokens
from tests.support.index import index_of_fixture
from tests.support.symbols import synthetic_symbol


def sym(
    name: str,
    kind: Kind = Kind.METHOD,
    *,
    parent: str | None = None,
    extends: tuple[str, ...] = (),
    doc: str = "",
    file: str = "pkg/mod.py",
) -> Symbol:
    owner = parent.split("::", 1)[1].split("#", 1)[0] + "." if parent else ""
    return synthetic_symbol(
        name,
        kind=kind,
        symbol_id=f"{file}::{owner}{name}#{kind.value}",
        fqn=f"pkg.mod.{owner}{name}",
        signature=f"def {name}(self)" if kind is not Kind.CLASS else f"class {name}",
        file=file,
        parent=parent,
        extends=extends,
        doc=doc,
    )


def hierarchy() -> list[Symbol]:
    base = sym("Shape", Kind.CLASS)
    middle = sym("Polygon", Kind.CLASS, extends=("Shape",))
    leaf = sym("Square", Kind.CLASS, extends=("geo.Polygon",))
    return [
        base,
        sym("area", parent=base.symbol_id, doc="Compute the surface enclosed by the outline."),
        middle,
        leaf,
        sym("area", parent=leaf.symbol_id),  # 4: inherits through Polygon from Shape
        sym("perimeter", parent=leaf.symbol_id),  # 5: nothing to inherit
    ]


def test_an_override_borrows_its_nearest_documented_base() -> None:
    assert doc_donors(hierarchy()) == {4: 1}


def test_a_rare_namesake_lends_its_doc_but_a_common_name_does_not() -> None:
    lender = sym("centroid", Kind.FUNCTION, doc="Return the centre of mass.", file="a.py")
    heir = sym("centroid", Kind.FUNCTION, file="b.py")
    assert doc_donors([lender, heir]) == {1: 0}
    common = [
        sym("render", Kind.FUNCTION, doc=f"Render form {i}.", file=f"f{i}.py")
        for i in range(SAME_NAME_DONORS + 1)
    ]
    assert doc_donors([*common, sym("render", Kind.FUNCTION, file="z.py")]) == {}


def test_documented_symbols_and_non_callables_keep_their_own_text() -> None:
    lender = sym("centroid", Kind.FUNCTION, doc="Return the centre of mass.", file="a.py")
    own = sym("centroid", Kind.FUNCTION, doc="Its own words.", file="b.py")
    field = sym("centroid", Kind.FIELD, file="c.py")
    assert doc_donors([lender, own, field]) == {}


def test_borrowed_words_are_added_to_the_heir_head() -> None:
    symbols = hierarchy()
    documents = build_documents(symbols)
    extra, heirs = inherited(symbols, documents.term_ids, len(documents.vocabulary))
    assert heirs.tolist() == [4]
    augmented = with_inherited(documents, extra)
    surface = documents.term_ids["surfac"]
    assert documents.head[4, surface] == 0
    assert augmented.head[4, surface] == INHERITED_DOC
    assert augmented.head[5, surface] == 0
    assert augmented.head_length[4] > documents.head_length[4]


def test_a_go_method_borrows_its_receiver_types_doc(tmp_path: Path) -> None:
    # tests/fixtures/go_interfaces: Square is declared in shapes/square.go ("Square's
    # methods are split over two files."), its Perimeter in shapes/square_perimeter.go
    index = index_of_fixture(tmp_path, "go_interfaces")
    terms = sorted({t for s in index.symbols for t in text_tokens(s.doc)})
    extra = receiver_docs(index.symbols, {t: i for i, t in enumerate(terms)}, len(terms))

    def borrowed(fqn: str) -> dict[str, float]:
        row = extra.getrow(next(i for i, s in enumerate(index.symbols) if s.fqn == fqn))
        return {terms[c]: float(v) for c, v in zip(row.indices, row.data, strict=True)}

    perimeter = borrowed("Square.Perimeter")
    assert {"split", "two"} <= set(perimeter)
    assert set(perimeter.values()) == {RECEIVER_DOC}
    assert borrowed("Square.Perimeter") == borrowed("Square.Area")
    assert "satisfy" in borrowed("Circle.Scale")  # its own doc too: a context, as in a class
    assert borrowed("Shape") == {}  # a type, and top-level functions, borrow nothing


def test_borrowed_words_read_from_the_doc_counts_are_those_tokenized_again(
    tmp_path: Path,
) -> None:
    """A build reads a donor's words from its documents' doc counts (the same words, by
    id): every borrowed matrix equals the one made by tokenizing the docstrings again."""
    index = index_of_fixture(tmp_path, "go_interfaces")
    symbols = list(index.symbols)
    symbols += hierarchy()  # an override and a namesake: both donors of inherited()
    documents = build_documents(symbols)
    terms, width, doc = documents.term_ids, len(documents.vocabulary), documents.doc
    assert doc is not None
    callers, callees = np.arange(len(symbols) - 1), np.arange(1, len(symbols))
    pairs = [
        (inherited(symbols, terms, width)[0], inherited(symbols, terms, width, doc)[0]),
        (receiver_docs(symbols, terms, width), receiver_docs(symbols, terms, width, doc)),
        (
            call_docs(symbols, callers, callees, terms, width),
            call_docs(symbols, callers, callees, terms, width, doc),
        ),
    ]
    for tokenized, counted in pairs:
        assert tokenized.nnz > 0
        assert (tokenized != counted).nnz == 0
        assert np.array_equal(tokenized.indptr, counted.indptr)
        assert np.array_equal(tokenized.indices, counted.indices)
        assert np.array_equal(tokenized.data, counted.data)
