"""The joined structures of one exact index, stored in the ranking file and read whole.

Joining the per-file pieces (name forms and their sort orders, the BM25 and
TF-IDF matrices, the filter tables) takes seconds on a large workspace. The
ranking file keeps what joining made (members ``x_*``, :func:`joined_arrays`),
so that a new process searching exactly that index (same fingerprint: a CLI
search after ``symfuse index``) reads them (:func:`restore_exact`) and joins
nothing. The per-file pieces stay on disk: a later generation restores them
(:func:`symfuse.ranking.prepared.persist.restore`) and updates incrementally.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from symfuse.indexer.index import Index
from symfuse.ranking.channels.fuzzy import TrigramIndex
from symfuse.ranking.channels.identity import DistinctNames, NameForms, NameTable
from symfuse.ranking.channels.lexical import LexicalIndex
from symfuse.ranking.channels.names.hump_filter import LetterMasks
from symfuse.ranking.channels.names.scans import Joined
from symfuse.ranking.channels.similarity import RepositoryEmbedder
from symfuse.ranking.channels.tfidf import Tfidf
from symfuse.ranking.prepared.quantized import Quantized
from symfuse.ranking.prepared.ranking_file import (
    UNUSABLE,
    Arrays,
    current,
    joined_strings,
    newest,
    opened,
    read_csc,
    read_model,
    read_translation,
    sparse_arrays,
    strings,
    unstrings,
)
from symfuse.ranking.prepared.sparse_rows import Vocabulary
from symfuse.ranking.prepared.structures import Prepared
from symfuse.ranking.prepared.term_table import TermTable
from symfuse.ranking.search.filters import FilterTable

log = logging.getLogger(__name__)

# The names' split forms: also read when restoring pieces (splitting every name is slow).
SPLIT_MEMBERS = ("x_wholes", "x_spaced")

_NAME_ORDERS = ("names", "lower", "wholes")


_NAME_FILTERS = ("extends", "implements", "decorators")  # their inverted tables' members


def _name_tables(filters: FilterTable) -> tuple[dict[str, npt.NDArray[np.int64]], ...]:
    """The inverted tables of the name filters, in the order of :data:`_NAME_FILTERS`."""
    return filters.extends, filters.implements, filters.decorators


def joined_arrays(prepared: Prepared) -> Arrays:
    """The ``x_*`` members: what joining the pieces made for ``prepared``."""
    names, filters = prepared.names, prepared.filters
    arrays: Arrays = {
        "x_wholes": strings(names.wholes_list),
        "x_spaced": strings(names.distinct.per_symbol(names.distinct.spaced_text)),
        "x_fqn": joined_strings(names.fqn_text),
        **_distinct_arrays(names.distinct),
        "x_order_names": names.names.positions,
        "x_order_lower": names.lower.positions,
        "x_order_wholes": names.wholes.positions,
        **sparse_arrays("x_lexical_head", prepared.lexical.head),
        **sparse_arrays("x_lexical_body", prepared.lexical.body),
        "x_body_length": prepared.lexical.body_length,
        "x_lexical_idf": prepared.lexical.idf,
        # the definitions' mean body length (file units count for none), when not all rows'
        "x_body_average": np.asarray(
            [] if prepared.lexical.body_average is None else [prepared.lexical.body_average]
        ),
        # the TF-IDF matrix is made from the BM25 head and body when read: its scales only
        "x_tfidf_idf": prepared.similarity.tfidf.idf,
        "x_tfidf_inverse": prepared.similarity.tfidf.inverse,
        # the query's weights, when they are not the matrix's (a shard's global idf)
        **_query_idf(prepared.similarity),
        **sparse_arrays("x_trigrams", prepared.trigrams.matrix),
        "x_kind": filters.kind,
        "x_language": filters.language,
        "x_languages": strings(filters.languages),
        "x_file": filters.file,
        "x_files": strings(filters.files),
        "x_counts": np.asarray([len(filters.languages), len(filters.files)], dtype=np.int64),
    }
    for name, table in zip(_NAME_FILTERS, _name_tables(filters), strict=True):
        arrays[f"x_{name}_keys"] = strings(list(table))
        arrays[f"x_{name}_sizes"] = np.asarray([len(v) for v in table.values()], dtype=np.int64)
        arrays[f"x_{name}_positions"] = np.concatenate(
            [np.zeros(0, dtype=np.int64), *table.values()]
        )
    return arrays


def _distinct_arrays(distinct: DistinctNames) -> Arrays:
    """The distinct names as built (``x_distinct_*``): an exact load makes none of them."""
    return {
        "x_distinct_lower": joined_strings(distinct.lower_text),
        "x_distinct_wholes": joined_strings(distinct.wholes_text),
        "x_distinct_spaced": joined_strings(distinct.spaced_text),
        "x_distinct_starts": distinct.starts,
        "x_distinct_of": distinct.name_of,
        "x_distinct_held": distinct.letters.held,
        "x_distinct_initials": distinct.letters.initials,
        "x_distinct_tokens": distinct.token_count,
    }


def restore_exact(
    directory: Path, index: Index, print_: str, started: float
) -> tuple[Prepared | None, bool]:
    """The structures of ``index`` read whole from the newest ranking file, when that file
    was written for this very index (same fingerprint); and whether the file could be
    read at all (a damaged one is reported here, once, and rebuilt).

    Only the members needed are read.
    """
    path = newest(directory)
    if path is None:
        return None, False
    try:
        with opened(path) as npz:
            if not current(npz) or str(npz["fingerprint"][0]) != print_:
                return None, True
            return _read(npz, index, print_, started), True
    except UNUSABLE as exc:
        log.warning("ranking data at %s is unusable (%s); rebuilding it", path, exc)
        return None, False


def stored_vectors(arrays: Any) -> Quantized:
    """The final vectors as the ranking file holds them (mapped, not copied)."""
    return Quantized(
        np.asarray(arrays["doc_vectors"], dtype=np.int8),
        np.asarray(arrays["doc_scales"], dtype=np.float32),
    )


def _body_average(npz: Any) -> float | None:
    stored = np.asarray(npz["x_body_average"]) if "x_body_average" in npz else np.zeros(0)
    return float(stored[0]) if stored.shape[0] else None


def _read(npz: Any, index: Index, print_: str, started: float) -> Prepared:
    n = len(index.symbols)
    files, vocab, trigram_vocab, model_count, stamp_count, model_symbols = (
        int(x) for x in npz["counts"]
    )
    names = _names(npz, index)
    term_ids = TermTable(npz["vocabulary"], vocab)
    trigram_vocabulary = Vocabulary(unstrings(npz["trigram_vocabulary"], trigram_vocab))
    model = read_model(npz, model_count, stamp_count, model_symbols)
    # final vectors as stored (mapped, not copied); an exact load is never saved, so the
    # heirs' own vectors (kept for that) are not read
    vectors = stored_vectors(npz)
    lexical = LexicalIndex(
        head=read_csc(npz, "x_lexical_head"),
        body=read_csc(npz, "x_lexical_body"),
        body_length=np.asarray(npz["x_body_length"], dtype=np.float64),
        idf=np.asarray(npz["x_lexical_idf"], dtype=np.float64),
        term_ids=term_ids,
        body_average=_body_average(npz),
    )
    tfidf = Tfidf(
        lexical.head,
        lexical.body,
        np.asarray(npz["x_tfidf_idf"], dtype=np.float64),
        np.asarray(npz["x_tfidf_inverse"], dtype=np.float64),
    )
    if not (vectors.shape[0] == lexical.size == tfidf.inverse.shape[0] == n):
        raise ValueError("row counts disagree")
    filters = _filters(npz)
    return Prepared(
        generation=index.generation,
        fingerprint=print_,
        names=NameTable.of(names.forms, names.orders, built=(_distinct(npz, names), names.fqn)),
        lexical=lexical,
        similarity=RepositoryEmbedder(
            tfidf=tfidf,
            idf=_idf(npz, tfidf),
            model=model,
            doc_vectors=vectors,
            term_ids=term_ids,
        ),
        trigrams=TrigramIndex.of_columns(
            read_csc(npz, "x_trigrams"), trigram_vocabulary, names.forms.lower, names.forms.wholes
        ),
        filters=filters,
        pagerank=np.asarray(index.pagerank, dtype=np.float64),
        seconds=time.perf_counter() - started,
        loaded=True,
        files=tuple(unstrings(npz["files"], files)),
        vocabulary=term_ids,
        trigram_vocabulary=tuple(trigram_vocabulary.terms),
        translation=read_translation(npz),
    )


@dataclass(frozen=True, slots=True, eq=False)  # arrays: compare them with numpy
class _Names:
    """The stored name forms of an index's symbols (their spaced and fqn lists left
    empty: the texts made of them are read as built), with their sort orders."""

    forms: NameForms
    orders: list[npt.NDArray[np.int64]]  # of names, lower and wholes (_NAME_ORDERS)
    fqn: Joined  # the fqn text


def _idf(npz: Any, tfidf: Tfidf) -> npt.NDArray[np.float64]:
    """The query's term weights: the matrix's idf unless stored apart (a MappedArchive or
    a dict of its members: no .get)."""
    found = npz["x_idf"] if "x_idf" in npz else tfidf.idf  # noqa: SIM401
    return np.asarray(found, dtype=np.float64)


def _query_idf(embedder: RepositoryEmbedder) -> Arrays:
    if np.array_equal(embedder.idf, embedder.tfidf.idf):
        return {}
    return {"x_idf": embedder.idf}


def _names(npz: Any, index: Index) -> _Names:
    symbols = index.symbols
    n = len(symbols)
    names = [s.name for s in symbols]
    lower = _same_as(names, [name.lower() for name in names])
    forms = NameForms(
        names=names,
        lower=lower,
        wholes=_same_as(lower, unstrings(npz["x_wholes"], n)),
        spaced=[],
        fqn=[],
    )
    orders = [np.asarray(npz[f"x_order_{name}"], dtype=np.int64) for name in _NAME_ORDERS]
    return _Names(forms, orders, _joined(npz["x_fqn"], n))


def _distinct(npz: Any, names: _Names) -> DistinctNames:
    """The distinct names as :func:`_distinct_arrays` stored them."""
    starts = np.asarray(npz["x_distinct_starts"], dtype=np.int64)
    count = starts.shape[0] - 1
    return DistinctNames(
        lower_text=_joined(npz["x_distinct_lower"], count),
        wholes_text=_joined(npz["x_distinct_wholes"], count),
        spaced_text=_joined(npz["x_distinct_spaced"], count),
        starts=starts,
        positions=names.orders[0],  # every symbol in name order, as the names' own
        name_of=np.asarray(npz["x_distinct_of"], dtype=np.int32),
        letters=LetterMasks(
            np.asarray(npz["x_distinct_held"], dtype=np.uint64),
            np.asarray(npz["x_distinct_initials"], dtype=np.uint64),
        ),
        token_count=np.asarray(npz["x_distinct_tokens"], dtype=np.int32),
    )


def _joined(array: npt.NDArray[np.generic], count: int) -> Joined:
    """``count`` strings stored in the :func:`strings` layout, as the :class:`Joined` they
    were: its character offsets found in the bytes when they are ASCII (one byte a
    character), else from the strings."""
    data = bytes(np.asarray(array, dtype=np.uint8))
    text = data.decode()
    if not count or len(text) != len(data):
        return Joined.of(unstrings(array, count))
    ends = np.flatnonzero(np.frombuffer(data, dtype=np.uint8) == ord("\n"))
    if ends.shape[0] != count - 1:
        raise ValueError("string table length mismatch")
    starts = np.zeros(count, dtype=np.int64)
    starts[1:] = ends + 1
    return Joined(text + "\n", starts)


def _same_as(kept: list[str], made: list[str]) -> list[str]:
    """``made``, with each string equal to the one ``kept`` at its place replaced by that
    one: a server keeps both lists, and most names are their own lower-case and
    separator-free forms (``execute``), one object instead of three."""
    return [old if old == new else new for old, new in zip(kept, made, strict=True)]


def _filters(npz: Any) -> FilterTable:
    language_count, file_count = (int(x) for x in npz["x_counts"])
    tables: list[dict[str, npt.NDArray[np.int64]]] = []
    for name in _NAME_FILTERS:
        sizes = np.asarray(npz[f"x_{name}_sizes"], dtype=np.int64)
        keys = unstrings(npz[f"x_{name}_keys"], sizes.shape[0])
        positions = np.asarray(npz[f"x_{name}_positions"], dtype=np.int64)
        parts = np.split(positions, np.cumsum(sizes)[:-1]) if keys else []
        tables.append(dict(zip(keys, parts, strict=True)))
    extends, implements, decorators = tables
    return FilterTable(
        kind=np.asarray(npz["x_kind"], dtype=np.int8),
        language=np.asarray(npz["x_language"], dtype=np.int16),
        languages=unstrings(npz["x_languages"], language_count),
        file=np.asarray(npz["x_file"], dtype=np.int32),
        files=unstrings(npz["x_files"], file_count),
        extends=extends,
        implements=implements,
        decorators=decorators,
    )
