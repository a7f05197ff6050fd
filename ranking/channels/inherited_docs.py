"""Borrowed docstring words: what an undocumented function's document takes from others.

Two sources, both added to the document heads as extra counts (:func:`with_inherited`):

- the docstring of the member it overrides, or of a same-named function
  (:func:`doc_donors`, :func:`inherited`), as ``inspect.getdoc`` reads an override;
- the docstrings of what it calls and what calls it (:func:`call_docs`), as the
  anchor text of the pages linking to a page describes it in web search.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.documents import (
    DESCRIBABLE,
    DOC_CHARS,
    FIELD_WEIGHTS,
    Documents,
    Field,
)
from symfuse.ranking.channels.tokens import text_tokens

if TYPE_CHECKING:
    from scipy import sparse


INHERITED_DOC = 1.0  # weight of a borrowed docstring's words (a symbol's own doc: 1.0)
SAME_NAME_DONORS = 3  # borrow from a same-named function only when at most this many have docs
_CALLABLE = frozenset({Kind.FUNCTION, Kind.METHOD})
_TYPES = frozenset({Kind.CLASS, Kind.INTERFACE, Kind.STRUCT})


def doc_donors(symbols: Sequence[Symbol]) -> dict[int, int]:
    """For each undocumented function or method, the symbol whose docstring it borrows.

    Like ``inspect.getdoc``: an override without a docstring has its base's (the
    same-named member of a class it extends, searched breadth first by the base's
    last name segment). Failing that, a same-named documented function or method
    when few have that name (at most :data:`SAME_NAME_DONORS`): parallel
    implementations (a GDAL and a GEOS ``centroid``, one backend's ``as_sql``)
    do the same thing. Positions in ``symbols``; the first donor in order wins.

    Both are found by name alone, so both stay inside the heir's repository (root), as
    the linker's name guesses do: one index of many repositories borrows what each
    repository's own index (its shard) would.
    """
    documented: dict[tuple[str, str], list[int]] = {}  # (root, name) -> positions
    undocumented: list[int] = []
    types: dict[tuple[str, str], list[int]] = {}
    members: dict[str, dict[str, int]] = {}  # parent symbol id -> member name -> position
    callable_kinds, type_kinds = _CALLABLE, _TYPES
    for i, s in enumerate(symbols):
        kind = s.kind
        if kind in callable_kinds:
            if s.doc:
                documented.setdefault((s.root, s.name), []).append(i)
            else:
                undocumented.append(i)
            if s.parent:
                members.setdefault(s.parent, {}).setdefault(s.name, i)
        elif kind in type_kinds:
            types.setdefault((s.root, s.name), []).append(i)
    heirs = [i for i in undocumented if (symbols[i].root, symbols[i].name) in documented]
    position = {symbols[t].symbol_id: t for ts in types.values() for t in ts}
    lineage: dict[int, list[int]] = {}  # a type -> its bases, breadth first (made once)
    donors: dict[int, int] = {}
    for i in heirs:
        name = symbols[i].name
        owner = position.get(symbols[i].parent or "")
        found = None
        if owner is not None:
            bases = lineage.get(owner)
            if bases is None:
                bases = lineage[owner] = _bases(symbols, owner, types)
            found = next((m for m in _members_named(symbols, bases, name, members)), None)
        same_named = documented[(symbols[i].root, name)]
        if found is None and len(same_named) <= SAME_NAME_DONORS:
            found = same_named[0]
        if found is not None:
            donors[i] = found
    return donors


AMBIGUOUS_BASE = 8  # a base name shared by more types than this is not followed (as in linking)


def _bases(
    symbols: Sequence[Symbol], owner: int, types: dict[tuple[str, str], list[int]]
) -> list[int]:
    """The types ``owner`` extends, nearest first (breadth first; a base by its last name
    segment, every type of that name in the owner's root unless more than
    :data:`AMBIGUOUS_BASE` share it: Django's models have hundreds of inner ``Meta``
    classes)."""
    root = symbols[owner].root
    seen = {owner}
    order: list[int] = []
    frontier = [owner]
    while frontier:
        following: list[int] = []
        for t in frontier:
            for base in symbols[t].extends:
                candidates = types.get((root, base.rsplit(".", 1)[-1]), ())
                if len(candidates) > AMBIGUOUS_BASE:
                    continue
                for b in candidates:
                    if b not in seen:
                        seen.add(b)
                        order.append(b)
                        following.append(b)
        frontier = following
    return order


def _members_named(
    symbols: Sequence[Symbol], bases: list[int], name: str, members: dict[str, dict[str, int]]
) -> Iterator[int]:
    """The documented members called ``name`` of these types, in their order."""
    for b in bases:
        member = members.get(symbols[b].symbol_id, {}).get(name)
        if member is not None and symbols[member].doc:
            yield member


def inherited(
    symbols: Sequence[Symbol],
    term_ids: Mapping[str, int],
    width: int,
    doc: sparse.csr_matrix | None = None,
) -> tuple[sparse.csr_matrix, npt.NDArray[np.int64]]:
    """Borrowed doc words (:func:`doc_donors`) as head counts to add, and the heirs' positions.

    Words the vocabulary does not have are left out (a donor's own piece added its words).
    ``doc``: the symbols' doc word counts, when at hand (:func:`_doc_terms`).
    """
    donors = doc_donors(symbols)
    extra = _doc_counts(symbols, donors, _DocTerms(symbols, term_ids, width, doc), INHERITED_DOC)
    return extra, np.asarray(sorted(donors), dtype=np.int64)


# Weights of the docstring words of a function's neighbours in the call graph, each the
# mean over the documented neighbours of one side (so at most that share of a docstring).
CALLEE_DOC = 0.5  # what it calls
CALLER_DOC = 0.5  # what calls it


def call_docs(
    symbols: Sequence[Symbol],
    callers: npt.NDArray[np.integer],
    callees: npt.NDArray[np.integer],
    term_ids: Mapping[str, int],
    width: int,
    doc: sparse.csr_matrix | None = None,
) -> sparse.csr_matrix:
    """The docstring words of each function's callees and callers, as head counts to add.

    ``callers[i]`` calls ``callees[i]`` (positions in ``symbols``, resolved call edges).
    What a function calls says what it does, in the words its helpers are described
    with; what calls it says what it is for, as the words of the pages that link to a
    page describe it in web search (anchor text). Each function, method or constructor
    gets the mean doc word counts of its documented callees times :data:`CALLEE_DOC`,
    plus those of its documented callers times :data:`CALLER_DOC`. ``doc``: as
    :func:`inherited`'s.
    """
    from scipy import sparse

    n = len(symbols)
    documented = np.fromiter((bool(s.doc) for s in symbols), dtype=np.bool_, count=n)
    describable = np.fromiter((s.kind in DESCRIBABLE for s in symbols), dtype=np.bool_, count=n)
    src = callers.astype(np.int64)
    dst = callees.astype(np.int64)
    sides = []
    for who, donor, weight in ((src, dst, CALLEE_DOC), (dst, src, CALLER_DOC)):
        keep = (who != donor) & documented[donor] & describable[who]
        pairs = np.unique(who[keep] * n + donor[keep])
        if pairs.shape[0] and weight > 0:
            sides.append((pairs // n, pairs % n, weight))
    if not sides:
        return sparse.csr_matrix((n, width), dtype=np.float64)
    donors = np.unique(np.concatenate([d for _, d, _ in sides]))
    rows: list[int] = []
    cols: list[int] = []
    doc_terms = _DocTerms(symbols, term_ids, width, doc)
    for d, at in enumerate(donors.tolist()):
        ids = doc_terms(at)
        rows.extend([d] * len(ids))
        cols.extend(ids)
    words = sparse.csr_matrix(
        (np.ones(len(rows)), (rows, cols)), shape=(donors.shape[0], width), dtype=np.float64
    )
    links = sparse.csr_matrix((n, donors.shape[0]), dtype=np.float64)
    for who, donor, weight in sides:
        count = np.bincount(who, minlength=n).astype(np.float64)
        column = np.searchsorted(donors, donor)
        share = weight / count[who]
        links = links + sparse.csr_matrix((share, (who, column)), shape=links.shape)
    extra = sparse.csr_matrix(links @ words)
    extra.sum_duplicates()
    return extra


# Weight of the docstring words of the type a method is declared on outside its body: a
# method's context field (channels.documents) holds its class's docstring at this weight.
RECEIVER_DOC = FIELD_WEIGHTS[Field.CONTEXT]


def receiver_docs(
    symbols: Sequence[Symbol],
    term_ids: Mapping[str, int],
    width: int,
    doc: sparse.csr_matrix | None = None,
) -> sparse.csr_matrix:
    """The docstring words of the type each method declared outside its type's body is on
    (:func:`receiver_donors`), as head counts to add: what the context field gives a
    method written inside its class. ``doc``: as :func:`inherited`'s."""
    doc_terms = _DocTerms(symbols, term_ids, width, doc)
    return _doc_counts(symbols, receiver_donors(symbols), doc_terms, RECEIVER_DOC)


def receiver_donors(symbols: Sequence[Symbol]) -> dict[int, int]:
    """For each function, method or constructor declared outside its type's body, the
    documented type it is declared on (positions in ``symbols``).

    A Go method names its receiver, a type of its package (a folder) declared in any of
    its files; a C++ member defined out of its class (``void file::close()`` in a source
    file) belongs to a class its header declares. Such a method has no parent, and its
    scope (``file`` of ``file.close``) names the type: the documented type of that name
    in its folder, else the only one of its repository.
    """
    types: dict[tuple[str, str], list[int]] = {}
    for i, s in enumerate(symbols):
        if s.kind in Kind.TYPES and s.doc:
            types.setdefault((s.root, s.name), []).append(i)
    donors: dict[int, int] = {}
    for i, s in enumerate(symbols):
        if s.parent or s.kind not in DESCRIBABLE or "." not in s.fqn:
            continue
        found = types.get((s.root, s.container.rpartition(".")[2]))
        if not found:
            continue
        folder = posixpath.dirname(s.file)
        near = [t for t in found if posixpath.dirname(symbols[t].file) == folder]
        donor = near[0] if len(near) == 1 else found[0] if len(found) == 1 else None
        if donor is not None:
            donors[i] = donor
    return donors


def _doc_counts(
    symbols: Sequence[Symbol], donors: Mapping[int, int], doc_terms: _DocTerms, weight: float
) -> sparse.csr_matrix:
    """Each heir's donor's docstring words (``donors``: heir -> donor) times ``weight``,
    as head counts (symbols x terms)."""
    from scipy import sparse

    rows: list[int] = []
    cols: list[int] = []
    memo: dict[int, list[int]] = {}
    for heir, donor in donors.items():
        ids = memo.get(donor)
        if ids is None:
            ids = memo[donor] = doc_terms(donor)
        rows.extend([heir] * len(ids))
        cols.extend(ids)
    extra = sparse.csr_matrix(
        (np.full(len(rows), weight), (rows, cols)), shape=(len(symbols), doc_terms.width)
    )
    extra.sum_duplicates()
    return extra


class _DocTerms:
    """The column ids of a symbol's docstring words, each as often as it occurs; words
    the vocabulary does not have (or had not yet at ``width`` terms) are left out.

    Read from ``doc``, the symbols' doc word counts, when given (the documents'; ids in
    column order), else from the docstring tokenized again (in text order). Either way
    the same words as often: the counts made from them are sums of equal addends, the
    same whatever their order.
    """

    __slots__ = ("doc", "symbols", "term_ids", "width")

    def __init__(
        self,
        symbols: Sequence[Symbol],
        term_ids: Mapping[str, int],
        width: int,
        doc: sparse.csr_matrix | None,
    ) -> None:
        self.symbols, self.term_ids, self.width, self.doc = symbols, term_ids, width, doc

    def __call__(self, at: int) -> list[int]:
        if self.doc is not None:
            lo, hi = int(self.doc.indptr[at]), int(self.doc.indptr[at + 1])
            ids = self.doc.indices[lo:hi]
            kept = ids < self.width
            counts = self.doc.data[lo:hi][kept].astype(np.int64)
            repeated: list[int] = np.repeat(ids[kept], counts).tolist()
            return repeated
        found = map(self.term_ids.get, text_tokens(self.symbols[at].doc[:DOC_CHARS]))
        return [t for t in found if t is not None and t < self.width]


def with_inherited(documents: Documents, extra: sparse.csr_matrix) -> Documents:
    """``documents`` with borrowed doc words added to the heads."""
    from scipy import sparse

    if not extra.nnz:
        return documents
    added = np.asarray(extra.sum(axis=1), dtype=np.float64).ravel()
    return replace(
        documents,
        head=sparse.csr_matrix(documents.head + extra),
        head_length=documents.head_length + added,
    )
