"""Per-symbol documents: field-weighted term frequencies over one vocabulary.

Each symbol becomes a bag of tokens from six fields, weighted so that a word
in the name counts more than the same word in a docstring or a path:

    name 5.0 > fqn (enclosing scopes) 3.0 > signature 2.0 > doc 1.0 > body 0.5 = path 0.5

``body`` is the names the definition's own code refers to (its references in
the index): what a function calls and uses says what it does when it has no
docstring.

``tf[d, t] = sum_f weight_f * count_f(d, t)`` and ``length[d] = sum_f weight_f *
len_f(d)``: BM25F with one shared length normalization (Robertson, Zaragoza
and Taylor, "Simple BM25 extension to multiple weighted fields", 2004). The
lexical and similarity channels share this matrix and vocabulary.

Built once per index generation (see :mod:`symfuse.ranking.prepare`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

import numpy as np
import numpy.typing as npt
from scipy import sparse

from symfuse.indexer.model import Symbol
from symfuse.ranking.tokens import identifier_tokens, text_tokens

DOC_CHARS = 600  # the head of a docstring carries its meaning; the rest is detail


class Field(StrEnum):
    NAME = "name"
    FQN = "fqn"
    SIGNATURE = "signature"
    DOC = "doc"
    BODY = "body"
    PATH = "path"


FIELD_WEIGHTS: dict[Field, float] = {
    Field.NAME: 5.0,
    Field.FQN: 3.0,
    Field.SIGNATURE: 2.0,
    Field.DOC: 1.0,
    Field.BODY: 0.5,
    Field.PATH: 0.5,
}


@dataclass(frozen=True, slots=True)
class Documents:
    """``tf``: (symbols x terms) CSR; ``sequence``/``starts``: each symbol's tokens in order."""

    vocabulary: list[str]
    tf: sparse.csr_matrix
    length: npt.NDArray[np.float64]
    sequence: npt.NDArray[np.int32]  # term ids, symbol after symbol (name, fqn, signature, doc)
    starts: npt.NDArray[np.int64]  # symbol d's tokens are sequence[starts[d]:starts[d + 1]]

    @property
    def term_ids(self) -> dict[str, int]:
        return {t: i for i, t in enumerate(self.vocabulary)}


def symbol_fields(symbol: Symbol, body: str = "") -> dict[Field, str]:
    """The raw text of each field of a symbol's document."""
    path = symbol.file.rsplit(".", 1)[0] if "." in symbol.file.rsplit("/", 1)[-1] else symbol.file
    return {
        Field.NAME: symbol.name,
        Field.FQN: symbol.container,
        Field.SIGNATURE: symbol.signature,
        Field.DOC: symbol.doc[:DOC_CHARS],
        Field.BODY: body,
        Field.PATH: path,
    }


def build_documents(
    symbols: Sequence[Symbol], bodies: Mapping[str, str] | None = None
) -> Documents:
    """Tokenize every symbol's fields into one weighted term-frequency matrix.

    ``bodies`` maps a symbol id to the names its code refers to, space-separated.
    """
    bodies = bodies or {}
    term_ids: dict[str, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    vals: list[float] = []
    sequence: list[int] = []
    starts = np.zeros(len(symbols) + 1, dtype=np.int64)
    length = np.zeros(len(symbols), dtype=np.float64)
    memo: dict[str, list[str]] = {}  # paths, containers and signatures repeat a lot

    def tokens_of(text: str, f: Field) -> list[str]:
        if f is Field.NAME:
            return identifier_tokens(text)
        key = f"{f.value}\0{text}"
        cached = memo.get(key)
        if cached is None:
            cached = text_tokens(text)
            if f not in (Field.DOC, Field.BODY):
                memo[key] = cached
        return cached

    for d, symbol in enumerate(symbols):
        total = 0.0
        for f, text in symbol_fields(symbol, bodies.get(symbol.symbol_id, "")).items():
            if not text:
                continue
            weight = FIELD_WEIGHTS[f]
            for token in tokens_of(text, f):
                t = term_ids.setdefault(token, len(term_ids))
                rows.append(d)
                cols.append(t)
                vals.append(weight)
                total += weight
                if f is not Field.PATH:
                    sequence.append(t)
        length[d] = total
        starts[d + 1] = len(sequence)
    vocabulary = [""] * len(term_ids)
    for token, t in term_ids.items():
        vocabulary[t] = token
    tf = sparse.csr_matrix(
        (np.asarray(vals, dtype=np.float64), (np.asarray(rows), np.asarray(cols))),
        shape=(len(symbols), len(vocabulary)),
    )
    tf.sum_duplicates()
    return Documents(
        vocabulary=vocabulary,
        tf=tf,
        length=length,
        sequence=np.asarray(sequence, dtype=np.int32),
        starts=starts,
    )
