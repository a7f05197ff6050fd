"""What the ranking file (``ranking-<generation>.npz``) is made of, member by member.

Its format stamp (:data:`FORMAT`, :data:`SETTINGS`), and each stored thing as
plain arrays and back: string tables, CSR blocks and matrices, the word model
and the heirs. :mod:`symfuse.ranking.prepared.persist` writes the
file and restores per-file pieces from it; :mod:`symfuse.ranking.prepared.joined`
stores and reads the joined structures of one exact index.
"""

from __future__ import annotations

import hashlib
import struct
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

import numpy as np
import numpy.typing as npt

from symfuse.indexer.store.arrays import HEADERS
from symfuse.ranking.channels import similarity, word_counts
from symfuse.ranking.channels.documents import (
    BODY_CHARS,
    CODE_WORDS,
    DOC_CHARS,
    FIELD_WEIGHTS,
    TRAINING_BODY,
)
from symfuse.ranking.channels.names.scans import Joined
from symfuse.ranking.channels.similarity import WordModel
from symfuse.ranking.channels.tokens import STOPWORDS, stem
from symfuse.ranking.prepared.columns import Coding, Columns, narrow_ids
from symfuse.ranking.prepared.sparse_rows import VALUES, Rows
from symfuse.ranking.prepared.structures import Prepared
from symfuse.ranking.prepared.term_table import TermTable

if TYPE_CHECKING:
    from symfuse.ranking.channels.translation import Translation


FORMAT = 19  # bump with any change to what is stored (19: methods borrow their receiver type's doc)

Arrays = dict[str, npt.NDArray[np.generic]]

# What reading a damaged, truncated or foreign file raises: it is then rebuilt.
UNUSABLE = (OSError, ValueError, KeyError, IndexError, zipfile.BadZipFile, EOFError)


def _settings() -> str:
    """What stored pieces and the stored word model depend on besides the files."""
    probe = " ".join(stem(w) for w in ("caching", "queries", "populated", "classes"))
    text = f"{FORMAT}|{sorted(FIELD_WEIGHTS.items())}|{DOC_CHARS}|{BODY_CHARS}|{TRAINING_BODY}"
    text += f"|{probe}"
    text += f"|{sorted(STOPWORDS)}|{sorted(CODE_WORDS)}"
    text += f"|{word_counts.WINDOW}|{similarity.EIGENVALUE_WEIGHT}|{similarity.DIMENSIONS}"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


SETTINGS = _settings()


def newest(directory: Path) -> Path | None:
    """The ranking file of the highest generation in ``directory``, if any."""
    best: tuple[int, Path] | None = None
    for found in directory.glob("ranking-*.npz"):
        try:
            generation = int(found.stem.removeprefix("ranking-"))
        except ValueError:
            continue
        if best is None or generation > best[0]:
            best = (generation, found)
    return None if best is None else best[1]


# bytes: members this large are mapped from the file, not read. 64 KB, not 1 MB: the
# compact matrices' byte-wide values and the per-row scales are often below 1 MB, and
# read onto the heap they would stay there for the server's life; a mapping costs a page.
MAP_AT_LEAST = 1 << 16


class MappedArchive:
    """The members of an uncompressed ``.npz`` by name; large ones memory-mapped.

    A member of :data:`MAP_AT_LEAST` bytes or more is an ``np.memmap`` over its bytes
    in the archive (read-only): the structures a server keeps are pages of the file,
    read when a query touches them and given back by the kernel under pressure,
    instead of copies on the heap. Smaller members are read.
    """

    def __init__(self, path: Path, archive: zipfile.ZipFile, handle: BinaryIO) -> None:
        self._path = path
        self._archive = archive
        self._handle = handle
        self._members = {info.filename.removesuffix(".npy"): info for info in archive.infolist()}
        self.files = list(self._members)

    def __contains__(self, name: object) -> bool:
        return name in self._members

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        info = self._members[name]
        if info.compress_type == zipfile.ZIP_STORED and info.file_size >= MAP_AT_LEAST:
            return self._mapped(info)
        with self._archive.open(info) as member, HEADERS:
            return np.lib.format.read_array(member, allow_pickle=False)

    def _mapped(self, info: zipfile.ZipInfo) -> npt.NDArray[Any]:
        handle = self._handle
        handle.seek(info.header_offset)
        local = handle.read(30)
        if local[:4] != b"PK\x03\x04":
            raise ValueError(f"{info.filename}: not a zip member header")
        name_length, extra_length = struct.unpack("<HH", local[26:30])
        handle.seek(info.header_offset + 30 + name_length + extra_length)
        version = np.lib.format.read_magic(handle)
        with HEADERS:
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(handle)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(handle)
        if dtype.hasobject:
            raise ValueError(f"{info.filename}: object arrays are not stored")
        mapped = np.memmap(
            self._path,
            dtype=dtype,
            mode="r",
            offset=handle.tell(),
            shape=shape,
            order="F" if fortran else "C",
        )
        # a plain array over the mapping (which it keeps open): a memmap's every slice and
        # result is a memmap again, made through numpy's Python hooks (two a slice)
        return mapped.view(np.ndarray)


@contextmanager
def opened(path: Path) -> Iterator[Any]:
    """The archive at ``path`` (``ValueError`` when it is not one), closed on exit; its
    large members are memory-mapped (:class:`MappedArchive`) and outlive it."""
    with open(path, "rb") as handle:
        try:
            archive = zipfile.ZipFile(handle)
        except zipfile.BadZipFile:
            raise ValueError("not an .npz archive") from None
        with archive:
            yield MappedArchive(path, archive, handle)


def current(arrays: Any) -> bool:
    """Whether the file was written in this format under these settings."""
    return int(arrays["format"][0]) == FORMAT and str(arrays["settings"][0]) == SETTINGS


def stale_reason(arrays: Any) -> str:
    """Why a file that is not :func:`current` cannot be used, for the rebuild's log line."""
    found = int(arrays["format"][0])
    if found != FORMAT:
        return f"format {found}, not the current {FORMAT}"
    return "written under other tokenizer or model settings"


# Members that only restoring the per-file pieces reads (a server whose index changed
# since the file was written), never a search of the exact index: they are deflated
# (integers, which deflate to a fraction of their size), the rest stored as they are so
# that a search maps them (:class:`MappedArchive`).
DEFLATED = frozenset(
    {"head_length", "sequence", "starts", "sizes"}
    | {
        f"{rows}_{part}"
        for rows in ("head", "names", "doc")
        for part in ("indptr", "indices", "data")
    }
)
# (The translation model's code rows, which an exact load reads whole into memory, are
# stored as they are and copied from the mapping: inflating them was a tenth of a warm
# start's load of the structures.)
DEFLATE_LEVEL = 1  # higher levels save little more at several times the time, on every save


def write_archive(file: BinaryIO, arrays: Arrays) -> None:
    """``arrays`` as an ``.npz`` (what ``np.savez`` writes), :data:`DEFLATED` members
    compressed; written straight into ``file``, not first assembled in memory."""
    with zipfile.ZipFile(file, "w", allowZip64=True, compresslevel=DEFLATE_LEVEL) as archive:
        for name, array in arrays.items():
            cold = name in DEFLATED
            archive.compression = zipfile.ZIP_DEFLATED if cold else zipfile.ZIP_STORED
            with archive.open(f"{name}.npy", "w", force_zip64=True) as member:
                np.lib.format.write_array(member, np.asanyarray(array), allow_pickle=False)


# --- strings -------------------------------------------------------------------------------


def strings(values: list[str] | tuple[str, ...]) -> npt.NDArray[np.uint8]:
    return np.frombuffer("\n".join(values).encode(), dtype=np.uint8)


def unstrings(array: npt.NDArray[np.generic], count: int) -> list[str]:
    if count == 0:
        return []
    values = bytes(np.asarray(array, dtype=np.uint8)).decode().split("\n")
    if len(values) != count:
        raise ValueError("string table length mismatch")
    return values


def joined_strings(joined: Joined) -> npt.NDArray[np.uint8]:
    """A Joined's strings in the :func:`strings` layout (its text ends with one more newline)."""
    return np.frombuffer(joined.text[:-1].encode(), dtype=np.uint8)


# --- CSR blocks and matrices ---------------------------------------------------------------


def rows_arrays(prefix: str, rows: Rows) -> Arrays:
    return {
        f"{prefix}_indptr": rows.indptr,
        f"{prefix}_indices": rows.indices,
        f"{prefix}_data": rows.data,
    }


def read_rows(arrays: Any, prefix: str) -> Rows:
    return Rows(
        np.asarray(arrays[f"{prefix}_indptr"], dtype=np.int64),
        np.asarray(arrays[f"{prefix}_indices"], dtype=np.int32),
        np.asarray(arrays[f"{prefix}_data"], dtype=VALUES),
    )


def slice_rows(rows: Rows, a: int, b: int) -> Rows:
    """Rows ``a`` to ``b`` (exclusive) of a block, as a block of their own."""
    start, end = int(rows.indptr[a]), int(rows.indptr[b])
    return Rows(rows.indptr[a : b + 1] - start, rows.indices[start:end], rows.data[start:end])


_CODING = ("table", "column", "row", "divisor")  # a matrix's Coding, member by member
# Every member a matrix may have, after its prefix.
MATRIX_PARTS = ("shape", "indptr", "indices", "data", *_CODING)


def sparse_arrays(prefix: str, matrix: Columns) -> Arrays:
    """A matrix's members: shape, column pointers, row ids, stored entries and the parts of
    its :class:`~symfuse.ranking.prepared.columns.Coding` it has."""
    arrays: Arrays = {
        f"{prefix}_shape": np.asarray(matrix.shape, dtype=np.int64),
        f"{prefix}_indptr": matrix.indptr,
        f"{prefix}_indices": matrix.indices,
        f"{prefix}_data": matrix.stored,
    }
    for part in _CODING:
        value = getattr(matrix.coding, part)
        if value is not None:
            arrays[f"{prefix}_{part}"] = value
    return arrays


def read_csc(npz: Any, prefix: str) -> Columns:
    """A matrix stored by column (:func:`sparse_arrays`), as the arrays in the file."""
    rows, columns = (int(x) for x in npz[f"{prefix}_shape"])
    # (a MappedArchive or a dict of its members: no .get)
    parts = {p: npz[f"{prefix}_{p}"] for p in _CODING if f"{prefix}_{p}" in npz}
    return Columns(
        npz[f"{prefix}_indptr"],
        npz[f"{prefix}_indices"],
        npz[f"{prefix}_data"],
        (rows, columns),
        Coding(**parts),
    )


# --- the word model and the heirs ----------------------------------------------------------


def model_arrays(model: WordModel) -> tuple[Arrays, list[str]]:
    """The model's members, and its terms in row order (their count goes in ``counts``)."""
    terms = [term for term, _ in sorted(model.term_ids.items(), key=itemgetter(1))]
    arrays: Arrays = {
        "model_terms": strings(terms),
        "model_vectors": model.vectors,
        "model_idf": model.idf,
        "model_stamps": strings(sorted(model.stamps)),
    }
    return arrays, terms


def read_model(arrays: Any, model_count: int, stamp_count: int, model_symbols: int) -> WordModel:
    return WordModel(
        term_ids=TermTable(arrays["model_terms"], model_count),
        vectors=np.asarray(arrays["model_vectors"], dtype=np.float32),
        idf=np.asarray(arrays["model_idf"], dtype=np.float64),
        symbols=model_symbols,
        stamps=frozenset(unstrings(arrays["model_stamps"], stamp_count)),
        version=WordModel.new_version(),
    )


def heir_arrays(prepared: Prepared) -> Arrays:
    """The heirs (symbols whose document borrows docstring words): a restore re-embeds
    their own text to put every symbol's own vector back in the per-file cache
    (:func:`symfuse.ranking.prepared.persist.own_vectors`). Neither the borrowed words nor the
    heirs' own vectors are stored: any build but the exact one makes its own words
    (:meth:`~symfuse.ranking.prepared.corpus.Corpus.update`), and the vectors come back bit for
    bit from the stored pieces."""
    if not prepared.heirs.shape[0]:
        return {}
    return {"heirs": prepared.heirs}


# --- the translation model ----------------------------------------------------------------


def translation_arrays(translation: Translation | None) -> Arrays:
    """The table (``translation_*``: a restore keeps it, as it keeps the word model) and
    this generation's code rows and background (``x_*``: an exact load reads them)."""
    if translation is None:
        return {}
    table, code = translation.table, translation.code
    return {
        "translation_shape": np.asarray(table.shape, dtype=np.int64),
        "translation_indptr": table.indptr.astype(np.int32),
        "translation_indices": table.indices.astype(np.int32),
        "translation_data": table.data.astype(np.float32),
        "x_code_shape": np.asarray([code.lengths.shape[0], code.width], dtype=np.int64),
        "x_code_indptr": code.indptr,
        "x_code_indices": code.indices,
        "x_code_counts": code.counts,
        "x_code_lengths": code.lengths,
        "x_translation_background": translation.background,
    }


def read_table(npz: Any) -> Columns | None:
    """The stored translation table, by column (None in a file written without one)."""
    if "translation_shape" not in npz:
        return None
    rows, columns = (int(x) for x in npz["translation_shape"])
    return Columns(
        np.asarray(npz["translation_indptr"]),
        narrow_ids(np.asarray(npz["translation_indices"]), rows),
        np.asarray(npz["translation_data"]),
        (rows, columns),
    ).with_sorted_rows()  # (scipy kept them sorted; a file is checked, not trusted)


def read_translation(npz: Any) -> Translation | None:
    """The stored translation model of an exact index (None without one)."""
    from symfuse.ranking.channels.translation import CodeRows, Translation

    table = read_table(npz)
    if table is None or "x_code_shape" not in npz:
        return None
    _, width = (int(x) for x in npz["x_code_shape"])
    # read into memory (copied from the mapping), as a search wants them
    code = CodeRows(
        np.array(npz["x_code_indptr"], dtype=np.int64),
        np.array(npz["x_code_indices"]),
        np.array(npz["x_code_counts"], dtype=np.uint8),
        np.array(npz["x_code_lengths"], dtype=np.float32),
        width,
    )
    return Translation(table, code, np.asarray(npz["x_translation_background"]))
