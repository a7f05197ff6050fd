"""Namesakes: one definition written again, in file after file or within one file.

A folder of locales, platforms or generated variants holds the same definition once per
file (zod's ``locales/*.ts`` each define ``error``, whose messages mention "email" and
"regex"); parallel implementations of one job do the same across folders (aeson's
``scanNumberLiteral`` in ``Decoding/Text.hs``, ``Decoding/ByteString.hs`` and
``Decoding/ByteString/Lazy.hs``). A sentence that matches one matches them all, and ten
of them fill an answer that had room for the definition asked about. One file does the
same with overloads (C++'s ``write`` for each argument type, two constructors of one
class) and with one type's implementations of several traits (Rust's ``Compound::end``
for ``SerializeSeq``, ``SerializeMap``, ...): copies the index tells apart by a ``~2``,
``~3`` after the kind. And one file implements one trait or class for several types
(Rust's ``impl SerializeMap for Map``, ``impl SerializeVec for Vec``, ... each with its
``end``; a Haskell module's instances, each with its ``parseJSON``): methods of one name
in the impl blocks or instances (kind ``object``) of one file. In the head of a prose
answer, a name and kind already shown :data:`KEEP` times (the same qualified name: two
classes' ``__init__`` are not one definition), or :data:`KEEP_IN_FILE` times from its own
file, or an implemented method shown :data:`KEEP` times from its file's impl blocks,
makes way: it drops below the head's other items, in its order. So does a declaration
whose definition the head shows (C++'s `void flush();` in its class, with `void
file_sink::flush() {...}` out of line: one qualified name, and the body says more).

A repository that keeps an older version beside the new one (zod's ``src/v3/`` and
``src/v4/``) answers a sentence from both; in the head, the older version folder's items
make way for the rest once the newer one's show (:func:`older_copies_demoted`); when the
query names a version ("... in v3"), the other versions' items make way for its.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from symfuse.indexer.model import Kind, Symbol
from symfuse.ranking.channels.names.namesakes import (
    VERSION_FOLDER,
    chosen_version,
    declares_only,
)
from symfuse.ranking.fusion.rrf import Fused
from symfuse.ranking.query.responses import Change

KEEP = 2  # of one name and kind, before the rest make way
KEEP_IN_FILE = 1  # of one name and kind from one file (overloads, a type's trait impls)
SHARE = 0.5  # of the head's lowest score a sibling past KEEP is given
_IMPL = f"#{Kind.OBJECT.value}"
# a definition of one name and kind in files of one name (okio's ByteString.kt in
# commonMain, jvmMain, appleMain, nonAppleMain): one per platform, shown once
_PER_PLATFORM = frozenset({"kotlin"})  # a parent id's ending: a Rust impl block, a Haskell instance


def siblings_demoted(fused: Fused, symbols: Sequence[Symbol], head: int) -> Fused:
    """``fused`` with the sibling namesakes past :data:`KEEP` in its first ``head`` items
    given a score below every other item of the head (their order kept)."""
    head = min(head, len(fused))
    if head < KEEP + 2:
        return fused
    shown: dict[str, int] = {}
    in_file: dict[str, int] = {}
    implemented: dict[tuple[str, str, Kind], int] = {}
    platforms: dict[tuple[str, str], str] = {}  # (name and kind, file name): the first file
    extra = np.zeros(len(fused), dtype=np.bool_)
    positions = fused.positions[:head].tolist()
    # qualified names and kinds the head shows with a body: their declarations make way
    defined = {_key(symbols[p]) for p in positions if not declares_only(symbols[p])}
    for i, p in enumerate(positions):
        # the id without its copy number ("a.py::Order.total#method~2"): the file, then
        # the qualified name and kind: the same definition, not two classes' methods of
        # one name; wherever its files are (a folder's locales, or a text, a bytes and a
        # lazy-bytes decoder side by side)
        symbol = symbols[p]
        here = _uncounted(symbol.symbol_id)
        key = here.partition("::")[2]
        seen = shown[key] = shown.get(key, 0) + 1
        again = in_file[here] = in_file.get(here, 0) + 1
        extra[i] = seen > KEEP or again > KEEP_IN_FILE or (declares_only(symbol) and key in defined)
        if symbol.language in _PER_PLATFORM:  # Kotlin's `expect` and `actual` copies: one
            copy = (key, symbol.file.rpartition("/")[2])
            extra[i] |= platforms.setdefault(copy, symbol.file) != symbol.file
        if symbol.parent is not None and symbol.parent.endswith(_IMPL):
            # one trait's method for several types of one file: its file, name and kind
            method = (symbol.file, symbol.name, symbol.kind)
            alike = implemented[method] = implemented.get(method, 0) + 1
            extra[i] |= alike > KEEP
    why = f"its name is shown {KEEP} times already ({KEEP_IN_FILE} from its file)"
    return _made_way(fused, head, extra, why)


def older_copies_demoted(
    fused: Fused, symbols: Sequence[Symbol], head: int, asked: frozenset[int] = frozenset()
) -> Fused:
    """``fused`` with the items of its first ``head`` under an older version folder than
    another of the head's (:func:`_older_copies`; or another version than one the query
    names, ``asked``) given a score below the head's others."""
    head = min(head, len(fused))
    files = [symbols[p].file for p in fused.positions[:head].tolist()]
    extra = np.zeros(len(fused), dtype=np.bool_)
    extra[:head] = _older_copies(files, asked)
    return _made_way(fused, head, extra, "a newer version folder's copy answers too")


def _made_way(fused: Fused, head: int, extra: npt.NDArray[np.bool_], why: str) -> Fused:
    """``fused`` with the ``extra`` items of its head scored below the head's others
    (times :data:`SHARE`), in their order."""
    if not extra.any() or extra[:head].all():
        return fused
    scores = fused.scores.copy()
    floor = float(scores[:head][~extra[:head]].min())
    scores[extra] = np.minimum(scores[extra], floor) * SHARE
    order = np.concatenate(
        [np.argsort(-scores[:head], kind="stable"), np.arange(head, len(fused))]
    ).astype(np.int64)
    return fused.adjusted(order, scores[order], Change.OTHER, why, which=extra)


def _older_copies(files: Sequence[str], asked: frozenset[int]) -> npt.NDArray[np.bool_]:
    """Per file: whether it lies under a version folder (``src/v3/``) of which the others
    show a newer one beside it (``src/v4/``): zod's v3 answers a sentence as well as its v4
    does, and the newer is what a reader works on, unless the query names the version it
    asks about (``asked``: then the others beside it make way)."""
    versions: list[tuple[str, int] | None] = []
    for file in files:
        folders = file.split("/")[:-1]
        found = [(i, int(m[1])) for i, f in enumerate(folders) if (m := VERSION_FOLDER.match(f))]
        versions.append(("/".join(folders[: found[-1][0]]), found[-1][1]) if found else None)
    beside: dict[str, list[int]] = {}
    for place in versions:
        if place is not None:
            beside.setdefault(place[0], []).append(place[1])
    answering = {where: chosen_version(found, asked) for where, found in beside.items()}
    return np.asarray(
        [place is not None and place[1] != answering[place[0]] for place in versions],
        dtype=np.bool_,
    )


def _key(symbol: Symbol) -> str:
    """The qualified name and kind of ``symbol``'s id, without its copy number."""
    return _uncounted(symbol.symbol_id).partition("::")[2]


def _uncounted(symbol_id: str) -> str:
    """``symbol_id`` without the copy number after its kind (``#method~2``; a destructor's
    ``~`` in its name stays)."""
    stem, tilde, copy = symbol_id.rpartition("~")
    return stem if tilde and copy.isdigit() else symbol_id
