"""Per-symbol documents: field-weighted term frequencies over one vocabulary.

Each symbol becomes a bag of tokens from seven fields. Six make its *head*,
weighted so that a word in the name counts more than the same word in a
docstring or a path:

    name 5.0 > fqn (enclosing scopes) 3.0 > signature 2.0 > doc 1.0 > path 0.5 = context 0.5

``context`` is the docstring of the definition a function or method sits in
(its class, or the function it is nested in): what a reader of the code sees
around it, and often the words that describe its job. It lifts both the lexical
and the similarity channel on docstring queries; its weight is the best of those
tried around it. Context words stay out of the sequence the word vectors learn from.

The seventh, ``body``, is the text of the definition itself: identifiers, their
sub-tokens, comments and string words of every line of its span after the
name line, except the lines of nested multi-line definitions (a class's body
is its own attributes and docstring, not its methods' code). What a function
does is written there when it has no docstring. When the file's text is not
at hand (it changed on disk since it was indexed), the names its references
use stand in.

Head and body are kept as two matrices with their own lengths so that BM25F
(Robertson, Zaragoza and Taylor, "Simple BM25 extension to multiple weighted
fields", 2004) can normalize each field group by its own average length: a
long function body does not bury a match in the name.

Documents are built per file (:func:`file_piece`, cached by the file's content
digest in :mod:`symfuse.ranking.prepared.corpus`) over a growing, shared vocabulary and
concatenated (:func:`concatenate`) without a Python loop per symbol. Words an
undocumented function borrows from others are added afterwards
(:mod:`symfuse.ranking.channels.inherited_docs`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import chain
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.tokens import WORD, name_tokens, text_tokens, word_tokens
from symfuse.ranking.prepared.sparse_rows import Rows, Vocabulary

if TYPE_CHECKING:
    from scipy import sparse


DOC_CHARS = 600  # the head of a docstring carries its meaning; the rest is detail
BODY_CHARS = 12_000  # a definition's first lines say what it does; the rest repeats it
TRAINING_BODY = 300  # body tokens per symbol in the sequence the word vectors learn from


class Field(StrEnum):
    NAME = "name"
    FQN = "fqn"
    SIGNATURE = "signature"
    DOC = "doc"
    BODY = "body"
    PATH = "path"
    CONTEXT = "context"


FIELD_WEIGHTS: dict[Field, float] = {
    Field.NAME: 5.0,
    Field.FQN: 3.0,
    Field.SIGNATURE: 2.0,
    Field.DOC: 1.0,
    Field.BODY: 0.5,  # for names; prose queries weigh it more (lexical.BODY_AWARE)
    Field.PATH: 0.5,
    Field.CONTEXT: 0.5,
}

# Words of code that say nothing about what it does (keywords, the receiver).
_CODE_WORD_TEXT = """
self cls def return None True False none true false null nil this var let const function func fn
pass elif else if for while in is not and or import from as class try except finally raise with
lambda yield await async del global nonlocal assert new throw catch switch case break continue
default public private protected static void int str bool dict list tuple args kwargs
"""
CODE_WORDS = frozenset(_CODE_WORD_TEXT.split())


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Piece:
    """The documents of one file's symbols (or of any symbol list), in vocabulary ids."""

    head: Rows  # field-weighted counts of name, fqn, signature, doc, path and context tokens
    head_length: npt.NDArray[np.float64]  # weighted token count of the head
    body: Rows  # raw counts of body tokens
    body_length: npt.NDArray[np.float64]
    sequence: npt.NDArray[np.int32]  # token ids in order (no path, no context), symbol after symbol
    starts: npt.NDArray[np.int64]  # local: symbol d's tokens are sequence[starts[d]:starts[d+1]]
    names: Rows  # raw counts of name, fqn and signature tokens (with body: its code)
    doc: Rows  # raw counts of doc tokens (what the translation model learns to predict)

    @property
    def size(self) -> int:
        return int(self.head_length.shape[0])


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class Documents:
    """Every symbol's document: head and body (symbols x terms CSR) and token sequences."""

    vocabulary: list[str]
    head: sparse.csr_matrix
    head_length: npt.NDArray[np.float64]
    body: sparse.csr_matrix
    body_length: npt.NDArray[np.float64]
    sequence: npt.NDArray[np.int32]  # term ids, symbol after symbol
    starts: npt.NDArray[np.int64]  # symbol d's tokens are sequence[starts[d]:starts[d + 1]]
    term_ids: dict[str, int]
    # raw counts of name, fqn and signature tokens, and of doc tokens (ranking.translation)
    names: sparse.csr_matrix | None = None
    doc: sparse.csr_matrix | None = None

    @property
    def tf(self) -> sparse.csr_matrix:
        """What the similarity channel weighs: see :func:`similarity_tf`."""
        return similarity_tf(self.head, self.body)

    @property
    def length(self) -> npt.NDArray[np.float64]:
        return self.head_length + FIELD_WEIGHTS[Field.BODY] * self.body_length


SIMILARITY_BODY = 1.5  # the body's weight in the similarity channel (a heavier body
# lifted the similarity channel alone on docstring queries)


def similarity_tf(head: sparse.csr_matrix, body: sparse.csr_matrix) -> sparse.csr_matrix:
    """Head counts plus body counts times :data:`SIMILARITY_BODY`."""
    from scipy import sparse

    return sparse.csr_matrix(head + SIMILARITY_BODY * body)


def _path_text(file: str) -> str:
    name = file.rsplit("/", 1)[-1]
    return file.rsplit(".", 1)[0] if "." in name else file


def symbol_fields(symbol: Symbol, body: str = "", context: str = "") -> dict[Field, str]:
    """The raw text of each field of a symbol's document (``context``: see :func:`contexts`)."""
    return {
        Field.NAME: symbol.name,
        Field.FQN: symbol.container,
        Field.SIGNATURE: symbol.signature,
        Field.DOC: symbol.doc[:DOC_CHARS],
        Field.BODY: body,
        Field.PATH: _path_text(symbol.file),
        Field.CONTEXT: context[:DOC_CHARS],
    }


# Kinds whose document takes words from around it: its parent's docstring (:func:`contexts`)
# and its call neighbours' (:func:`symfuse.ranking.channels.inherited_docs.call_docs`).
DESCRIBABLE = frozenset({Kind.FUNCTION, Kind.METHOD, Kind.CONSTRUCTOR})


def contexts(symbols: Sequence[Symbol]) -> list[str]:
    """For each function, method or constructor, the docstring of its parent among ``symbols``."""
    docs = {s.symbol_id: s.doc for s in symbols if s.doc}
    if not docs:
        return [""] * len(symbols)
    return [docs.get(s.parent, "") if s.parent and s.kind in DESCRIBABLE else "" for s in symbols]


def body_tokens(text: str) -> list[str]:
    """Tokens of a definition's code: code keywords, numbers and the receiver dropped, capped."""
    words = WORD.findall(text, 0, BODY_CHARS)
    found = list(map(_BODY_WORDS.get, words))
    if None in found:
        for i, word in enumerate(words):
            if found[i] is None:
                found[i] = _body_word(word)
    return list(chain.from_iterable(found))  # type: ignore[arg-type]


# A memo of _body_word, a pure function of one word and the constants above: the same
# for every index, so it may be shared by all (bounded, like the memos of tokens.py).
_BODY_WORDS: dict[str, tuple[str, ...]] = {}


def _body_word(word: str) -> tuple[str, ...]:
    """The body tokens of one word (none for a code keyword or a number), memoized."""
    tokens = () if word in CODE_WORDS or word.isdigit() else word_tokens(word)
    if len(_BODY_WORDS) < 500_000:
        _BODY_WORDS[word] = tokens
    return tokens


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def definition_bodies(symbols: Sequence[Symbol], source: str) -> list[str]:
    """The text of each symbol's body: the lines after its name line, minus nested definitions.

    Every line belongs to the innermost multi-line definition that spans it. A region's
    body is its lines, which its file unit's body holds too.
    """
    lines = _LINE_BREAK.split(source)
    owner = np.full(len(lines), -1, dtype=np.int64)
    spans = [
        (s.end_line - s.name_line, i)
        for i, s in enumerate(symbols)
        if s.end_line > s.name_line and s.name_line >= 1 and s.kind is not Kind.REGION
    ]
    for _, i in sorted(spans, key=lambda x: (-x[0], x[1])):
        s = symbols[i]
        owner[0 if s.kind is Kind.FILE else s.name_line : s.end_line] = i  # a file: every line
    texts = [""] * len(symbols)
    if not spans:
        return texts
    change = np.flatnonzero(np.diff(owner)) + 1
    bounds = np.concatenate([[0], change, [owner.shape[0]]])
    parts: dict[int, list[str]] = {}
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        who = int(owner[a])
        if who >= 0:
            parts.setdefault(who, []).append("\n".join(lines[a:b]))
    for who, chunks in parts.items():
        texts[who] = "\n".join(chunks)
    for i, s in enumerate(symbols):
        if s.kind is Kind.REGION:
            texts[i] = "\n".join(lines[s.line - 1 : s.end_line])
    return texts


def file_piece(symbols: Sequence[Symbol], bodies: Sequence[str], vocabulary: Vocabulary) -> Piece:
    """Tokenize the symbols' fields (``bodies`` aligned with them) into one piece."""
    n = len(symbols)
    tokens: list[str] = []
    counts: list[int] = []  # per (symbol, field), fields in _ORDER
    memo: dict[str, list[str]] = {}  # containers, signatures, paths, contexts repeat in a file

    def cached(text: str) -> list[str]:
        found = memo.get(text)
        if found is None:
            found = memo[text] = text_tokens(text)
        return found

    for symbol, body, around in zip(symbols, bodies, contexts(symbols), strict=True):
        name = name_tokens(symbol.name)
        container = cached(symbol.container) if symbol.container else []
        signature = cached(symbol.signature) if symbol.signature else []
        doc = text_tokens(symbol.doc[:DOC_CHARS]) if symbol.doc else []
        code = body_tokens(body) if body else []
        path = cached(_path_text(symbol.file))
        context = cached(around[:DOC_CHARS]) if around else []
        for part in (name, container, signature, doc, code, path, context):
            tokens.extend(part)
            counts.append(len(part))
    ids = vocabulary.add(tokens)
    per_field = np.asarray(counts, dtype=np.int64).reshape(n, len(_ORDER))
    field = np.repeat(np.tile(np.arange(len(_ORDER)), n), per_field.ravel())
    owner = np.repeat(np.arange(n, dtype=np.int64), per_field.sum(axis=1))
    weight = _ORDER_WEIGHTS[field]
    is_body = field == _BODY
    head = ~is_body
    group_counts = per_field.ravel()
    group_start = np.cumsum(group_counts) - group_counts
    position = np.arange(field.shape[0]) - np.repeat(group_start, group_counts)
    in_sequence = (field != _PATH) & (field != _CONTEXT)
    in_sequence &= ~(is_body & (position >= TRAINING_BODY))
    units = [i for i, s in enumerate(symbols) if s.kind in Kind.UNITS]
    if units:  # a file unit repeats its definitions' words: the word vectors learn them once
        in_sequence &= ~np.isin(owner, units)
    starts = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(np.bincount(owner[in_sequence], minlength=n), out=starts[1:])
    named = field <= _SIGNATURE
    is_doc = field == _DOC
    return Piece(
        head=Rows.sized(owner[head], ids[head], weight[head], n),
        head_length=np.bincount(owner[head], weights=weight[head], minlength=n).astype(np.float64),
        body=Rows.sized(owner[is_body], ids[is_body], np.ones(int(is_body.sum())), n),
        body_length=per_field[:, _BODY].astype(np.float64),
        sequence=ids[in_sequence],
        starts=starts,
        names=Rows.sized(owner[named], ids[named], np.ones(int(named.sum())), n),
        doc=Rows.sized(owner[is_doc], ids[is_doc], np.ones(int(is_doc.sum())), n),
    )


_ORDER = (Field.NAME, Field.FQN, Field.SIGNATURE, Field.DOC, Field.BODY, Field.PATH, Field.CONTEXT)
_ORDER_WEIGHTS = np.asarray(
    [1.0 if f is Field.BODY else FIELD_WEIGHTS[f] for f in _ORDER], dtype=np.float64
)
_BODY = _ORDER.index(Field.BODY)
_PATH = _ORDER.index(Field.PATH)
_CONTEXT = _ORDER.index(Field.CONTEXT)
_SIGNATURE = _ORDER.index(Field.SIGNATURE)  # name, fqn and signature come first
_DOC = _ORDER.index(Field.DOC)


def concatenate(pieces: Sequence[Piece], vocabulary: Vocabulary) -> Documents:
    """The pieces one after another, as one set of documents (arrays concatenated in C)."""
    width = len(vocabulary)
    head = Rows.stack([p.head for p in pieces])
    body = Rows.stack([p.body for p in pieces])
    names = Rows.stack([p.names for p in pieces])
    doc = Rows.stack([p.doc for p in pieces])
    sizes = np.asarray([p.sequence.shape[0] for p in pieces], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(sizes)])
    starts = np.concatenate(
        [np.zeros(1, dtype=np.int64)]
        + [p.starts[1:] + off for p, off in zip(pieces, offsets[:-1], strict=True)]
    )

    def joined(arrays: list[npt.NDArray[np.float64]]) -> npt.NDArray[np.float64]:
        return np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.float64)

    return Documents(
        vocabulary=list(vocabulary.terms),
        head=head.matrix(width),
        head_length=joined([p.head_length for p in pieces]),
        body=body.matrix(width),
        body_length=joined([p.body_length for p in pieces]),
        sequence=(
            np.concatenate([p.sequence for p in pieces]) if pieces else np.zeros(0, dtype=np.int32)
        ),
        starts=starts,
        term_ids=dict(vocabulary.ids),  # a snapshot: builders keep adding to the vocabulary
        names=names.matrix(width),
        doc=doc.matrix(width),
    )


def build_documents(
    symbols: Sequence[Symbol], bodies: Mapping[str, str] | None = None
) -> Documents:
    """Documents of ``symbols`` from scratch; ``bodies`` maps a symbol id to its body text."""
    bodies = bodies or {}
    vocabulary = Vocabulary()
    piece = file_piece(symbols, [bodies.get(s.symbol_id, "") for s in symbols], vocabulary)
    return concatenate([piece], vocabulary)
