"""The last syntax tree of each edited buffer, so that its next version parses incrementally.

An editor sends a buffer's whole text on every change. Parsing a large file from
scratch is most of the time the buffer's names take to become searchable; told what
changed, tree-sitter reuses the old tree and takes a small part of it. What changed is
read off the two texts: the bytes they share at the start and at the end bracket one
edit, which covers any change an editor sends (a keystroke, a paste, a replaced range).

The full parse that follows a buffer's quick one (:mod:`symfuse.indexer.update.buffers`:
its references once the edits pause) reads the same text, and takes the tree as it is.
Only languages whose text tree-sitter reads as it is (no prepass) and texts without a
byte-order mark keep a tree: others parse from scratch every time.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np
from tree_sitter import Tree

from symfuse.indexer.extract import conditionals
from symfuse.indexer.extract.prepass import PREPASS
from symfuse.indexer.files import languages
from symfuse.indexer.files.source import BOM

KEPT = 8  # buffers whose trees are kept, the most recently parsed ones


@dataclass(frozen=True, slots=True)
class _Kept:
    language: str
    source: bytes
    tree: Tree


class BufferTrees:
    """Trees of recently parsed buffers, by file key (thread-safe)."""

    def __init__(self, kept: int = KEPT) -> None:
        self._kept = kept
        self._trees: OrderedDict[str, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def parse(self, key: str, language: str, source: bytes) -> Tree | None:
        """``source`` parsed, from the buffer's previous tree when there is one; None for a
        text this does not parse (one a pre-pass rewrites, a byte-order mark, one whose
        conditionals are read as one build: :mod:`~symfuse.indexer.extract.conditionals`)."""
        prepass = PREPASS.get(language)
        if source.startswith(BOM) or (prepass is not None and prepass(source) != source):
            return None
        with self._lock:
            before = self._trees.get(key)
        parser = languages.parser(language)
        if before is None or before.language != language:
            tree = parser.parse(source)
        elif before.source == source:
            tree = before.tree
        else:
            old = before.tree.copy()
            edit = _edit(before.source, source)
            old.edit(
                edit.start,
                edit.old_end,
                edit.new_end,
                _point(source, edit.start),
                _point(before.source, edit.old_end),
                _point(source, edit.new_end),
            )
            tree = parser.parse(source, old)
        if conditionals.recoverable(language, source, tree):
            return None  # parsed again as one build of the file (C#'s `#if` in a base list)
        with self._lock:
            self._trees[key] = _Kept(language, source, tree)
            self._trees.move_to_end(key)
            while len(self._trees) > self._kept:
                self._trees.popitem(last=False)
        return tree

    def forget(self, key: str) -> None:
        with self._lock:
            self._trees.pop(key, None)

    def __contains__(self, key: str) -> bool:
        with self._lock:
            return key in self._trees


@dataclass(frozen=True, slots=True)
class Edit:
    start: int
    old_end: int
    new_end: int


def _edit(old: bytes, new: bytes) -> Edit:
    """The one edit turning ``old`` into ``new``: the span between the bytes both share at
    the start and at the end."""
    shortest = min(len(old), len(new))
    a = np.frombuffer(old, dtype=np.uint8)
    b = np.frombuffer(new, dtype=np.uint8)
    differ = np.flatnonzero(a[:shortest] != b[:shortest])
    start = int(differ[0]) if differ.shape[0] else shortest
    tail = shortest - start  # the shared end may not reach back past the shared start
    differ = np.flatnonzero(a[len(old) - tail :][::-1] != b[len(new) - tail :][::-1])
    shared_end = int(differ[0]) if differ.shape[0] else tail
    return Edit(start, len(old) - shared_end, len(new) - shared_end)


def _point(source: bytes, offset: int) -> tuple[int, int]:
    """Row and byte column of ``offset``."""
    row = source.count(b"\n", 0, offset)
    return row, offset - (source.rfind(b"\n", 0, offset) + 1)
