"""Atomic writes: whole files or none, and a memory-mapped file's bytes unchanged by
being written in small pieces (issue 16, serving memory)."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import BinaryIO

import numpy as np
import pytest

from symfuse.indexer.store.atomic import MAPPED_WRITE, atomic_write
from symfuse.ranking.prepared.ranking_file import MappedArchive, write_archive


@pytest.mark.parametrize("mapped", [False, True])
def test_chunks_and_writers_give_the_same_bytes(tmp_path: Path, mapped: bool) -> None:
    rng = np.random.default_rng(3)
    blob = rng.integers(0, 256, size=3 * MAPPED_WRITE + 17, dtype=np.uint8).tobytes()
    pieces = [blob[:5], blob[5 : MAPPED_WRITE + 9], blob[MAPPED_WRITE + 9 :]]
    atomic_write(tmp_path / "a", pieces, mapped=mapped)
    atomic_write(tmp_path / "b", blob, mapped=mapped)

    def write(file: BinaryIO) -> None:
        file.write(memoryview(blob)[:1])
        file.write(bytearray(blob[1:]))

    atomic_write(tmp_path / "c", write, mapped=mapped)
    for name in "abc":
        assert (tmp_path / name).read_bytes() == blob


def test_a_mapped_archive_written_in_pieces_reads_back(tmp_path: Path) -> None:
    """The zip writer seeks back to finish each member's header: the pieces' writer
    must keep those seeks and its buffer in order."""
    arrays = {
        "big": np.arange(5 * MAPPED_WRITE // 8 + 3, dtype=np.int64),
        "small": np.asarray([1.5, 2.5], dtype=np.float32),
        "head_indptr": np.arange(1000, dtype=np.int64),  # a deflated member
    }
    path = tmp_path / "r.npz"
    atomic_write(path, lambda file: write_archive(file, arrays), mapped=True)
    with open(path, "rb") as handle:
        archive = MappedArchive(path, zipfile.ZipFile(handle), handle)
        for name, array in arrays.items():
            np.testing.assert_array_equal(np.asarray(archive[name]), array)
        big = archive["big"]  # a plain array over the file's mapping, not a copy (c256069)
        assert not isinstance(big, np.memmap)
        assert isinstance(big.base, np.memmap)


def test_a_failed_write_leaves_no_file_and_keeps_the_old_one(tmp_path: Path) -> None:
    path = tmp_path / "kept"
    atomic_write(path, b"old", mapped=True)

    def failing(file: BinaryIO) -> None:
        file.write(b"x" * (MAPPED_WRITE + 1))
        raise OSError("disk full")

    with pytest.raises(OSError, match="disk full"):
        atomic_write(path, failing, mapped=True)
    assert path.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["kept"]
